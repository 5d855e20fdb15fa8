"""A stored game's read models and play-by-play, read from a store (never written to):
what the pages are built from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from engine.systems import system_of
from events import bones as bones_events
from events import dicehockey as dice_events
from events.common import GameCreated, GameEnded, PeriodEnded, PeriodStarted
from events.store import EventStore
from projections.scoresheet import Scoresheet
from projections.stats import GameStats
from projections.systems import game_read_models
from projections.toi import Toi
from replay.reports.game_page import GamePage, build_game_page
from replay.reports.units import TimeUnit
from replay.tooling.games import load_inputs, read_game

# What each event is in a play (whistle to whistle), for the play-by-play's one line a
# play: a face-off opens a play; passes, turnovers and shots are counted; goals, the rest
# of KEY and the whistle are told in the line; every other line is the play's detail.
FACEOFFS = (bones_events.FaceoffRolled, dice_events.FaceoffWon, PeriodStarted)
PASSES = (bones_events.PuckPassed, dice_events.PassRolled)
TURNOVERS = (bones_events.PuckIntercepted, dice_events.TurnoverRolled)
SHOTS = (bones_events.ShotTaken, dice_events.ShotTaken)
GOALS = (bones_events.GoalScored, dice_events.GoalScored)
KEY = (*GOALS, bones_events.PenaltyAssessed, dice_events.PenaltyAssessed, bones_events.PlayStopped,
       dice_events.PuckDumped, bones_events.ShootoutAttempt, dice_events.ShootoutAttempt,
       bones_events.PenaltyShotAwarded, bones_events.GoalieInjured, dice_events.InjuryRolled,
       dice_events.FightRolled, PeriodEnded, GameEnded)


@dataclass(frozen=True)
class PlayLine:
    """An event's line in the system's words (``rinklog play``'s), with the period it
    happened in (0 before the opening face-off), the time then (the read models' unit: a
    goal's is the scoresheet's) and the score after it."""

    period: int
    time: int
    away: int
    home: int
    text: str
    kind: str  # "faceoff", "pass", "turnover", "shot", "goal", "key", "whistle", "detail",
    # "change" or "echo"


def _kind(event: Any) -> str:
    if isinstance(event, bones_events.ActionResolved) and event.result in ("pass", "shot"):
        return "echo"  # Hockey Bones 8.00: the action came to a pass or a shot, which the
        # next line (the pass, the shot) tells again with its passer or shooter
    if isinstance(event, (bones_events.LinesChanged, dice_events.LinesChanged)):
        return "change"  # drawn in the shift chart: each change ends shifts and starts others
    if isinstance(event, FACEOFFS):
        return "faceoff"
    if isinstance(event, PASSES):
        return "pass"
    if isinstance(event, TURNOVERS):
        return "turnover"
    if isinstance(event, SHOTS):
        return "shot"
    if isinstance(event, bones_events.PlayStopped):
        return "whistle"
    if isinstance(event, GOALS):
        return "goal"
    return "key" if isinstance(event, KEY) else "detail"


def play_by_play(store: EventStore, events: list[Any], unit: TimeUnit) -> list[PlayLine]:
    """Each event worth a line, with its period, time and the score after it."""
    created = events[0]
    assert isinstance(created, GameCreated)
    system = system_of(created.ruleset)
    state = system.initial_state(created, *load_inputs(store, created))
    period, lines = 0, []
    for event in events[1:]:
        if isinstance(event, PeriodStarted):
            period = event.period
        text = system.describe(state, event)
        system.evolve(state, event)
        if text:
            now = system.summary(state)
            lines.append(PlayLine(period, unit.at(now["sequence"]), now["score"]["away"],
                                  now["score"]["home"], text.strip(), _kind(event)))
    return lines


@dataclass(frozen=True)
class GameData:
    """A stored game's read models (folded now; nothing is written) and play-by-play."""

    sheet: Scoresheet
    toi: Toi
    stats: GameStats
    unit: TimeUnit
    plays: list[PlayLine]
    ruleset: str

    def page(self) -> GamePage:
        return build_game_page(self.sheet, self.toi, self.stats, self.unit, self.plays,
                               ruleset=self.ruleset)


def load_game(store: EventStore, game_id: str) -> GameData:
    events = read_game(store, game_id)
    models = game_read_models(store, game_id)
    created = events[0]
    stats = models.stats(events)
    stats.games[:] = [game_id]  # the stream's id: a branch's own, not its parent's
    unit = TimeUnit.of(models)
    return GameData(sheet=msgspec.structs.replace(models.scoresheet(events), game_id=game_id),
                    toi=msgspec.structs.replace(models.toi(events), game_id=game_id),
                    stats=stats, unit=unit, plays=play_by_play(store, events, unit),
                    ruleset=system_of(created.ruleset).rulesets[created.ruleset].title)


def game_page(store: EventStore, game_id: str) -> GamePage:
    """A stored game's page."""
    return load_game(store, game_id).page()
