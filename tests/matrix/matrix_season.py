"""One whole demo season (84 teams, three competitions, seeded managers), played once per
test session for the rules tests that need a season's end."""

from __future__ import annotations

import functools

from engine.matrix.dice import SeededDie
from engine.matrix.referee import close_season
from engine.matrix.state import SeasonState, evolve
from tests.matrix.matrix_helpers import everyone, new_season, play


@functools.cache
def _played(seed: str) -> tuple[SeasonState, list]:
    state = new_season("demo", seed)
    events = []
    for week in range(1, 12):
        events += play(state, week, everyone(state, week, seed), seed=seed)
    return state, events


def season_events(seed: str = "m") -> list:
    """The events of the demo season's eleven weeks (after its opening)."""
    return list(_played(seed)[1])


def played_season(seed: str = "m") -> SeasonState:
    """A demo season with every week played (a fresh copy each call)."""
    return _played(seed)[0].copy()


def closed_season(seed: str = "m") -> tuple[SeasonState, list]:
    state = played_season(seed)
    events = close_season(state, SeededDie(seed, state.season_id))
    for e in events:
        evolve(state, e)
    return state, events
