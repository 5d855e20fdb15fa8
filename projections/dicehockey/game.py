"""A DICE Hockey game's stored read models folded in one pass (``ReadModels.game``): the
scoresheet, the stats, time on ice by player and the penalty lines, each fold's handlers
run event by event as their own builders run them, beside one ice that all four read.

Each fold built on its own keeps an ice of its own and loops over the game's events
itself (projections/dicehockey/ice.py ``fold_with_ice``): four loops a game, each looking
up and calling two handlers an event. Here one loop looks up one step an event, which
calls the ice's handler and then each fold's, native calls in the compiled build.
:data:`_STEPS` names, for every event type any of them reads, the handlers of each
(tests/test_projections.py holds its types to the union of the folds' tables and its
rows to the folds' own, built apart).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from events.common import GameCreated, GameEnded, PeriodEnded, PeriodStarted
from events.dicehockey import (
    ClearCounted,
    FaceoffWon,
    GoalieChanged,
    GoalScored,
    PenaltyAssessed,
    PenaltyEnded,
    PeriodLengthSet,
    ShootoutAttempt,
    ShotTaken,
    TimeOutCalled,
    TimingSpaceCounted,
)
from projections.dicehockey.ice import Ice
from projections.dicehockey.penalties import PenaltyFold
from projections.dicehockey.scoresheet import ScoresheetFold
from projections.dicehockey.stats import DiceHockeyStatsFold
from projections.dicehockey.toi import ToiFold
from projections.registration import GameFolds

__all__ = ["build_game"]


class _Folds:
    """The ice and the four folds that read it."""

    def __init__(self) -> None:
        self.ice = Ice()
        self.sheet = ScoresheetFold(self.ice)
        self.stats = DiceHockeyStatsFold(own_sheet=False, ice=self.ice)
        self.toi = ToiFold(self.ice)
        self.penalties = PenaltyFold(self.ice, sequences=False)  # not stored


# --- each event type's handlers: the ice's first (every fold reads it after the event) ---

def _created(f: _Folds, e: GameCreated) -> None:
    f.ice.on_created(e)
    f.stats.on_created(e)


def _period(f: _Folds, e: PeriodStarted) -> None:
    f.ice.on_period(e)
    f.sheet.on_period(e)
    f.stats.on_period(e)
    f.toi.on_period_edge(e)


def _period_ended(f: _Folds, e: PeriodEnded) -> None:
    f.toi.on_period_edge(e)


def _length(f: _Folds, e: PeriodLengthSet) -> None:
    f.ice.on_length(e)
    f.sheet.on_length(e)


def _time_out(f: _Folds, e: TimeOutCalled) -> None:
    f.ice.on_time_out(e)


def _space(f: _Folds, e: TimingSpaceCounted) -> None:
    f.ice.on_space(e)
    f.sheet.on_space(e)
    f.stats.on_space(e)
    f.toi.on_space(e)
    f.penalties.on_space(e)


def _assessed(f: _Folds, e: PenaltyAssessed) -> None:
    f.ice.on_assessed(e)
    f.sheet.on_penalty(e)
    f.stats.on_penalty(e)
    f.penalties.on_assessed(e)


def _ended(f: _Folds, e: PenaltyEnded) -> None:
    f.ice.on_ended(e)
    f.penalties.on_ended(e)


def _clear(f: _Folds, e: ClearCounted) -> None:
    f.penalties.on_clear(e)


def _goalie_changed(f: _Folds, e: GoalieChanged) -> None:
    f.ice.on_goalie_changed(e)


def _shot(f: _Folds, e: ShotTaken) -> None:
    f.ice.on_faced(e)
    f.sheet.on_shot_taken(e)
    f.stats.on_shot_taken(e)


def _attempt(f: _Folds, e: ShootoutAttempt) -> None:
    f.ice.on_faced(e)
    f.sheet.on_attempt(e)
    f.stats.on_attempt(e)


def _goal(f: _Folds, e: GoalScored) -> None:
    f.sheet.on_goal(e)
    f.stats.on_goal(e)


def _faceoff(f: _Folds, e: FaceoffWon) -> None:
    f.sheet.on_faceoff(e)
    f.stats.on_faceoff(e)


def _game_ended(f: _Folds, e: GameEnded) -> None:
    f.sheet.on_game_ended(e)


# Final: compiled, a C static, not a read of the module's globals (a dict) each event
_STEPS: Final[dict[type, Callable[[_Folds, Any], None]]] = {
    GameCreated: _created,
    PeriodStarted: _period,
    PeriodEnded: _period_ended,
    PeriodLengthSet: _length,
    TimeOutCalled: _time_out,
    TimingSpaceCounted: _space,
    PenaltyAssessed: _assessed,
    PenaltyEnded: _ended,
    ClearCounted: _clear,
    GoalieChanged: _goalie_changed,
    ShotTaken: _shot,
    ShootoutAttempt: _attempt,
    GoalScored: _goal,
    FaceoffWon: _faceoff,
    GameEnded: _game_ended,
}


def build_game(events: Iterable[Any]) -> GameFolds:
    """Fold a DICE Hockey game's events (from its first) into what its stored rows take:
    its scoresheet, stats, time on ice by player and penalty lines (GameFolds)."""
    f = _Folds()
    steps = _STEPS
    for event in events:
        step = steps.get(type(event))
        if step is not None:
            step(f, event)
    sheet = f.sheet.result()
    return sheet, f.stats.result(sheet), f.toi.by_player(), f.penalties.lines()
