"""A simple manager policy, for demo seasons: seeded picks for every team and week.

Not the referee: a stand-in for 84 people sending picks by mail. Each manager's choices
come from BLAKE2b of ``(seed, season, week, team, what)`` (so a demo season is the same
everywhere): usually the best column left in the week's row, sometimes another one; an
extra-time value left; an extra goal now and then while the stock lasts, a great save
likewise; and, rarely, no picks at all (ONR) or a column already used (the referee's die).
"""

from __future__ import annotations

import hashlib

import replay.leagues.matrix.season as library
from engine.matrix import referee
from engine.matrix.extra_time import available_extra_time
from engine.matrix.goals import column_value
from engine.matrix.state import SeasonState
from events.matrix import Pick, PicksSent
from events.store import EventStore

__all__ = ["demo_picks", "run_demo_season"]


def _chance(seed: str, *key: object) -> float:
    text = ":".join(str(k) for k in (seed, *key)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") / 2 ** 64


def demo_picks(state: SeasonState, week: int, seed: str, onr_rate: float = 0.02
               ) -> list[PicksSent]:
    """Every manager's picks for ``week`` (an ONR manager sends none)."""
    games: dict[str, list] = {}
    for fx in referee.fixtures(state, week):
        for team in (fx.home, fx.away):
            games.setdefault(team, []).append(fx)
    sent = []
    for team, fixtures in games.items():
        key = (state.season_id, week, team)
        if state.teams[team].dummy or _chance(seed, *key, "onr") < onr_rate:
            continue
        stock = state.teams[team]
        picks = []
        for fx in fixtures:
            c = fx.competition
            matrix = state.matrices[c]
            left = [x for x in matrix.columns if x not in stock.used_columns(c)]
            left.sort(key=lambda x: -column_value(matrix, fx.round, x))
            roll = _chance(seed, *key, c, "column")
            column = left[0] if roll < 0.5 else left[int(roll * len(left)) % len(left)]
            if _chance(seed, *key, c, "repeat") < 0.02 and stock.used_columns(c):
                column = sorted(stock.used_columns(c))[0]  # sent again by mistake (4)
            values = available_extra_time(c, stock.used_extra_time(c))
            extra_time = values[int(_chance(seed, *key, c, "et") * len(values))]
            extra_goals = int(_chance(seed, *key, c, "eg") < 0.3)
            great_saves = int(c == "championship" and _chance(seed, *key, c, "gs") < 0.2)
            shootout = "X" if c == "kdh" else ""
            picks.append(Pick(c, column, extra_time, extra_goals, great_saves, shootout))
        sent.append(PicksSent(week, team, picks))
    return sent


def run_demo_season(store: EventStore, season_id: str, seed: str, close: bool = True) -> str:
    """Send the demo managers' picks and play every week of a season; close it (opening
    the next) unless ``close`` is False. Returns the next season's id (or this one's)."""
    for week in range(1, 12):
        season = library.load(store, season_id)
        sent = demo_picks(season.state, week, seed)
        library.record(store, season, season_id, sent)
        library.play(store, season_id, week)
    return library.close(store, season_id) if close else season_id
