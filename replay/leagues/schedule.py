"""A season's schedule for a league: who plays whom, at whose rink, in which order.

``make_schedule(league, seed)`` is deterministic from the seed. The season is a run of
rounds in which every team plays once; rounds come from round-robin cycles (the circle
method) over a seeded order of the teams, a new order each cycle, so in an 82-game
season of 32 teams each pair meets two or three times and every team's games are spread
evenly over the season (its n-th game is in round n). Home and away are then given by
walking an Euler circuit of the season's games: every team is at home exactly as often
as away (41/41 of 82), or one more when its count of games is odd.

A league needs an even number of teams (a bye would leave teams short of games).
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import msgspec

from events.errors import RinklogError
from replay.leagues.league import League, LoadedLeague

__all__ = ["Fixture", "fixtures_by_number", "make_schedule"]


class Fixture(msgspec.Struct, frozen=True):
    number: int  # 1.. in season order
    home: str
    away: str


# The last season schedule asked for, by game number: a season's games are audited one
# after another (``audit --all``, a season's workers) and its odds runs played one after
# another from one SeasonCreated, and the dict of a 1,312-game schedule made again for
# each game was about 0.7 ms of its audit (issue 35). Held with the list it was made from
# and compared by identity (the list lives as long as the entry, so its id is never
# another's); replaced whole, as a Dask worker's threads read it too.
_LAST_SCHEDULE: list[tuple[Any, dict[int, tuple[str, str]]]] = [(None, {})]


def fixtures_by_number(schedule: Any) -> dict[int, tuple[str, str]]:
    """A season's recorded schedule ``[(number, home, away), ...]`` (``SeasonCreated.
    schedule``) as ``{number: (home, away)}``; to be read, never changed."""
    last, by_number = _LAST_SCHEDULE[0]
    if last is not schedule:
        by_number = {number: (home, away) for number, home, away in schedule}
        _LAST_SCHEDULE[0] = (schedule, by_number)
    return by_number


def _rounds(teams: list[str], count: int, rng: random.Random) -> list[list[tuple[str, str]]]:
    """``count`` rounds of pairings, round-robin cycle after cycle, each a perfect matching."""
    n = len(teams)
    out: list[list[tuple[str, str]]] = []
    while len(out) < count:
        order = list(teams)
        rng.shuffle(order)
        fixed, ring = order[0], order[1:]
        cycle = []
        for r in range(n - 1):
            turn = ring[r:] + ring[:r]
            pairs = [(fixed, turn[0])] + [(turn[i], turn[-i]) for i in range(1, n // 2)]
            cycle.append(pairs)
        rng.shuffle(cycle)
        out.extend(cycle)
    return out[:count]


def _orient(edges: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Give each game a direction (home, away) so that every team's home and away counts
    differ by at most one: follow Euler circuits, after pairing odd-degree teams with a
    dummy vertex (Hierholzer's algorithm, iterative)."""
    degree: dict[str, int] = defaultdict(int)
    for a, b in edges:
        degree[a] += 1
        degree[b] += 1
    dummy = "\0"
    all_edges = list(edges) + [(t, dummy) for t in sorted(degree) if degree[t] % 2]
    adj: dict[str, list[int]] = defaultdict(list)
    for i, (a, b) in enumerate(all_edges):
        adj[a].append(i)
        adj[b].append(i)
    used = [False] * len(all_edges)
    direction: dict[int, tuple[str, str]] = {}
    pointer: dict[str, int] = defaultdict(int)
    for start in [t for t in degree] + [dummy]:
        stack: list[tuple[str, int | None]] = [(start, None)]
        while stack:
            v, via = stack[-1]
            ptr = pointer[v]
            while ptr < len(adj[v]) and used[adj[v][ptr]]:
                ptr += 1
            pointer[v] = ptr
            if ptr == len(adj[v]):
                stack.pop()
                if via is not None:
                    a, b = all_edges[via]
                    prev = stack[-1][0]
                    direction[via] = (prev, v)  # the walk went prev -> v
                continue
            e = adj[v][ptr]
            used[e] = True
            a, b = all_edges[e]
            stack.append((b if a == v else a, e))
    return [direction[i] for i in range(len(edges))]


def make_schedule(league: League | LoadedLeague, seed: str | int,
                  games: int | None = None) -> list[Fixture]:
    """The season's fixtures in order; ``games`` keeps only the first that many (a short
    run). Every team plays ``league.games`` games, home and away balanced."""
    lg = league.league if isinstance(league, LoadedLeague) else league
    teams = lg.team_ids
    if len(teams) < 2 or len(teams) % 2:
        raise RinklogError(f"league {lg.name!r}: a schedule needs an even number of teams, "
                           f"got {len(teams)}")
    rng = random.Random(f"{seed}:schedule:{lg.name}")
    rounds = _rounds(teams, lg.games, rng)
    for pairs in rounds:
        rng.shuffle(pairs)
    flat = [p for pairs in rounds for p in pairs]
    oriented = _orient(flat)
    # The circuit fixes who is home; a coin per game would unbalance it, so keep it.
    fixtures = [Fixture(number=i + 1, home=h, away=a) for i, (h, a) in enumerate(oriented)]
    return fixtures if games is None else fixtures[:max(0, games)]
