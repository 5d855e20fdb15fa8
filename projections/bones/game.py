"""A Hockey Bones game's stored read models folded in one pass (``ReadModels.game``): the
scoresheet, the stats, time on ice by player and the penalty lines, each fold's handlers
run event by event as their own builders run them.

Each fold built on its own loops over the game's events itself: four loops a game, each
looking up every event's type and calling its handler. Here one loop looks up one step
an event, which calls each fold's handler, native calls in the compiled build.
:data:`_STEPS` names, for every event type any of them reads, the handlers of each
(tests/test_projections.py holds its types to the union of the folds' tables and its
rows to the folds' own, built apart).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from events.bones import (
    AssistsAwarded,
    AssistsCounted,
    ExactTime,
    FaceoffRolled,
    GoalieInjured,
    GoalieResult,
    GoalScored,
    LinesChanged,
    PenaltyAssessed,
    PenaltyEnded,
    PenaltyShotAwarded,
    SequencePlayed,
    ShootoutAttempt,
    ShotTaken,
)
from events.common import GameCreated, GameEnded, PeriodEnded, PeriodStarted
from projections.bones.penalties import PenaltyFold
from projections.bones.scoresheet import ScoresheetFold
from projections.bones.stats import StatsFold
from projections.bones.toi import ToiFold
from projections.registration import GameFolds

__all__ = ["build_game"]


class _Folds:
    """The four folds."""

    def __init__(self) -> None:
        self.sheet = ScoresheetFold()
        self.stats = StatsFold(own_sheet=False)
        self.toi = ToiFold()
        self.penalties = PenaltyFold(sequences=False)  # its labels a sequence: not stored


# --- each event type's handlers ---------------------------------------------------------

def _created(f: _Folds, e: GameCreated) -> None:
    f.sheet.on_game_created(e)
    f.stats.on_game_created(e)
    f.toi.on_game_created(e)
    f.penalties.on_game_created(e)


def _sequence(f: _Folds, e: SequencePlayed) -> None:
    f.sheet.on_sequence_played(e)
    f.stats.on_sequence_played(e)
    f.toi.on_sequence_played(e)
    f.penalties.on_sequence_played(e)


def _period(f: _Folds, e: PeriodStarted) -> None:
    f.sheet.on_period_started(e)
    f.stats.on_period_started(e)
    f.toi.on_period_edge(e)


def _period_ended(f: _Folds, e: PeriodEnded) -> None:
    f.toi.on_period_edge(e)


def _shot(f: _Folds, e: ShotTaken) -> None:
    f.sheet.on_shot_taken(e)
    f.stats.on_shot_taken(e)


def _goalie_result(f: _Folds, e: GoalieResult) -> None:
    f.sheet.on_goalie_result(e)


def _penalty_shot(f: _Folds, e: PenaltyShotAwarded) -> None:
    f.sheet.on_penalty_shot_awarded(e)


def _goal(f: _Folds, e: GoalScored) -> None:
    f.sheet.on_goal_scored(e)
    f.stats.on_goal_scored(e)
    f.penalties.on_goal_scored(e)


def _exact_time(f: _Folds, e: ExactTime) -> None:
    f.sheet.on_exact_time(e)


def _assists_counted(f: _Folds, e: AssistsCounted) -> None:
    f.sheet.on_assists_counted(e)


def _assists(f: _Folds, e: AssistsAwarded) -> None:
    f.sheet.on_assists_awarded(e)
    f.stats.on_assists_awarded(e)


def _assessed(f: _Folds, e: PenaltyAssessed) -> None:
    f.sheet.on_penalty_assessed(e)
    f.stats.on_penalty_assessed(e)
    f.penalties.on_penalty_assessed(e)


def _penalty_ended(f: _Folds, e: PenaltyEnded) -> None:
    f.penalties.on_penalty_ended(e)


def _faceoff(f: _Folds, e: FaceoffRolled) -> None:
    f.sheet.on_faceoff_rolled(e)
    f.stats.on_faceoff_rolled(e)


def _lines(f: _Folds, e: LinesChanged) -> None:
    f.sheet.on_lines_changed(e)


def _goalie_injured(f: _Folds, e: GoalieInjured) -> None:
    f.sheet.on_goalie_injured(e)


def _shootout(f: _Folds, e: ShootoutAttempt) -> None:
    f.sheet.on_shootout_attempt(e)


def _game_ended(f: _Folds, e: GameEnded) -> None:
    f.sheet.on_game_ended(e)


# Final: compiled, a C static, not a read of the module's globals (a dict) each event
_STEPS: Final[dict[type, Callable[[_Folds, Any], None]]] = {
    GameCreated: _created,
    SequencePlayed: _sequence,
    PeriodStarted: _period,
    PeriodEnded: _period_ended,
    ShotTaken: _shot,
    GoalieResult: _goalie_result,
    PenaltyShotAwarded: _penalty_shot,
    GoalScored: _goal,
    ExactTime: _exact_time,
    AssistsCounted: _assists_counted,
    AssistsAwarded: _assists,
    PenaltyAssessed: _assessed,
    PenaltyEnded: _penalty_ended,
    FaceoffRolled: _faceoff,
    LinesChanged: _lines,
    GoalieInjured: _goalie_injured,
    ShootoutAttempt: _shootout,
    GameEnded: _game_ended,
}


def build_game(events: Iterable[Any]) -> GameFolds:
    """Fold a Hockey Bones game's events (from its first) into what its stored rows take:
    its scoresheet, stats, time on ice by player and penalty lines (GameFolds)."""
    f = _Folds()
    steps = _STEPS
    for event in events:
        step = steps.get(type(event))
        if step is not None:
            step(f, event)
    sheet = f.sheet.result()
    return sheet, f.stats.result(sheet), f.toi.by_player(), f.penalties.lines()
