"""A stored game's read models and play-by-play, read from a store (never written to):
what the pages are built from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from engine.systems import system_of
from engine.words import final_line, period_end_line
from events.common import GameCreated, GameEnded, PeriodEnded, PeriodStarted
from events.store import EventStore
from projections.models.scoresheet import PenaltyType
from projections.models.strengths import GoalieStrength
from projections.models.times import Unit
from projections.scoresheet import Scoresheet
from projections.stats import GameStats
from projections.systems import game_read_models
from projections.toi import Toi
from replay.games.game_streams import load_inputs, read_game
from replay.reports.game_page import GamePage, build_game_page


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
    kind: str  # "faceoff", "pass", "turnover", "shot", "goal", "penalty", "key", "whistle", "detail",
    # "change" or "echo"


def _kind(kind_of: Any, event: Any) -> str:
    """What an event is in a play (whistle to whistle): its system's word for it
    (``GameSystem.play_kind``), else a period's start opens a play and its end and the
    game's are told in the line; every other event is the play's detail."""
    kind = kind_of(event)
    if kind:
        return kind
    if isinstance(event, PeriodStarted):
        return "faceoff"
    return "key" if isinstance(event, (PeriodEnded, GameEnded)) else "detail"


def _away_first(created: GameCreated, event: Any) -> str | None:
    """A period's end and the final in the score column's order, away-home (as the page's
    title, "away at home", and NHL.com's play-by-play); the play prompt names home first."""
    home, away = created.home.team_id, created.away.team_id
    if isinstance(event, PeriodEnded):
        return period_end_line(event, home, away, away_first=True)
    if isinstance(event, GameEnded):
        winner = {"home": home, "away": away}.get(event.winner, event.winner)
        return final_line(event, home, away, winner, away_first=True)
    return None


def play_by_play(store: EventStore, events: list[Any], unit: Unit) -> list[PlayLine]:
    """Each event worth a line, with its period, time and the score after it."""
    created = events[0]
    assert isinstance(created, GameCreated)
    system = system_of(created.ruleset)
    state = system.initial_state(created, *load_inputs(store, created))
    period, lines = 0, []
    for event in events[1:]:
        if isinstance(event, PeriodStarted):
            period = event.period
        text = _away_first(created, event) or system.describe(state, event)
        system.evolve(state, event)
        if text:
            now = system.summary(state)
            lines.append(PlayLine(period, unit.at(now["sequence"]), now["score"]["away"],
                                  now["score"]["home"], text.strip(), _kind(system.play_kind, event)))
    return lines


@dataclass(frozen=True)
class GameData:
    """A stored game's read models (folded now; nothing is written), play-by-play and its
    goalies' shots against by strength (none where the system folds no such split)."""

    sheet: Scoresheet
    toi: Toi
    stats: GameStats
    unit: Unit
    plays: list[PlayLine]
    ruleset: str
    strengths: list[GoalieStrength] = field(default_factory=list)
    penalty_types: list[PenaltyType] = field(default_factory=list)  # Bones' 14.20 types

    def page(self) -> GamePage:
        return build_game_page(self.sheet, self.toi, self.stats, self.unit, self.plays,
                               ruleset=self.ruleset, strengths=self.strengths,
                               penalty_types=self.penalty_types)


def load_game(store: EventStore, game_id: str) -> GameData:
    events = read_game(store, game_id)
    models = game_read_models(store, game_id)
    created = events[0]
    stats = models.stats(events)
    stats.games[:] = [game_id]  # the stream's id: a branch's own, not its parent's
    unit = models.unit
    return GameData(sheet=msgspec.structs.replace(models.scoresheet(events), game_id=game_id),
                    toi=msgspec.structs.replace(models.toi(events), game_id=game_id),
                    stats=stats, unit=unit, plays=play_by_play(store, events, unit),
                    ruleset=system_of(created.ruleset).rulesets[created.ruleset].title,
                    strengths=models.strengths(events) if models.strengths else [],
                    penalty_types=models.penalty_types(events) if models.penalty_types else [])


def game_page(store: EventStore, game_id: str) -> GamePage:
    """A stored game's page."""
    return load_game(store, game_id).page()
