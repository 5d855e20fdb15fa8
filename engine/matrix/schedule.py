"""3.1.1: the championship schedule (every team of a division meets every other once) and
the WG group games (3.3.1: twice, home and away). The text prints neither; rinklog
draws the order of the teams with dice and pairs them by the circle method (substitute
procedure S-schedule, docs/matrix.md).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["check_round_robin", "double_round_robin", "round_robin"]


def round_robin(teams: Sequence[str]) -> list[list[tuple[str, str]]]:
    """The circle method: ``len(teams) - 1`` rounds of (home, away). The last team stays
    in the middle and the others turn round it: in round r it meets the r-th, at home in
    even rounds; the k-th pair each side of that team is turned home and away by k, so
    every team is at home ``(n - 2) / 2`` or ``n / 2`` times (5 or 6 of 11 for twelve)."""
    n = len(teams)
    if n % 2:
        raise ValueError("a round robin needs an even number of teams")
    ring = n - 1
    rounds = []
    for r in range(ring):
        middle = teams[ring]
        games = [(middle, teams[r]) if r % 2 == 0 else (teams[r], middle)]
        for k in range(1, n // 2):
            a, b = teams[(r + k) % ring], teams[(r - k) % ring]
            games.append((a, b) if k % 2 else (b, a))
        rounds.append(games)
    return rounds


def double_round_robin(teams: Sequence[str]) -> list[list[tuple[str, str]]]:
    """3.3.1: a WG group plays twice, the second time with home and away swapped."""
    first = round_robin(teams)
    return first + [[(b, a) for a, b in games] for games in first]


def check_round_robin(teams: Sequence[str], weeks: dict[int, list[tuple[str, str]]]
                      ) -> str | None:
    """What is wrong with a fixed division schedule (None: every team once a week for
    ``len(teams) - 1`` weeks, every pair once)."""
    expected = set(range(1, len(teams)))
    if set(weeks) != expected:
        missing = sorted(expected - set(weeks))
        return f"weeks {missing or sorted(set(weeks) - expected)} are missing or extra"
    pairs: set[frozenset[str]] = set()
    for week, games in sorted(weeks.items()):
        seen = [t for g in games for t in g]
        if sorted(seen) != sorted(teams):
            return f"week {week}: each team of the division plays once"
        for home, away in games:
            pair = frozenset((home, away))
            if pair in pairs:
                return f"week {week}: {home} and {away} already met"
            pairs.add(pair)
    return None
