"""3.1.1: the championship schedule (every team of a division meets every other once) and
the WG group games (3.3.1: twice, home and away). The text prints neither; rinklog
draws the order of the teams with dice and pairs them by the circle method (substitute
procedure S-schedule, docs/matrix.md).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["check_round_robin", "double_round_robin", "round_robin"]


def round_robin(teams: Sequence[str]) -> list[list[tuple[str, str]]]:
    """The circle method: ``len(teams) - 1`` rounds of (home, away); the first team stays,
    the others turn; home and away alternate so that each team's are balanced."""
    n = len(teams)
    if n % 2:
        raise ValueError("a round robin needs an even number of teams")
    ring = list(teams[1:])
    rounds = []
    for r in range(n - 1):
        line = [teams[0], *ring]
        games = []
        for i in range(n // 2):
            a, b = line[i], line[n - 1 - i]
            games.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(games)
        ring = ring[-1:] + ring[:-1]
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
