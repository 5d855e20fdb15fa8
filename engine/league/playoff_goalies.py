"""Goalie eligibility for the playoffs: Hockey Bones draft league rule 27.

Rule 27's table gives a goalie's games in one playoff series by his pro games (the
``games`` of his card, his last pro season's, as rule 12 and ruling R-draft-6 read it):
10-14 pro games 1 game, 15-24 2, 25-34 3, 35-44 4, 45-54 5, 55-64 6, 65 and more 7. The
limit is per series: it starts again with each series.

Ruling R-post-27a (docs/rulings.md): under 10 pro games the table has
no row; rule 6 keeps such a goalie off the active roster, so he may start no playoff
game (limit 0). Ruling R-post-27b: a start counts as a game, as rule 12's (R-draft-12);
a relief appearance does not. Ruling R-post-27c: the default coach starts the first
goalie of the team's order (its starter first) who may still start; when none may, he
starts the one of them with the highest limit and the start is an *overplay* (rule 13
penalises an overplaying goalie's team the next season, which is beyond rinklog): the
game is played, and the check and the audit name it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import msgspec

__all__ = ["PLAYOFF_GAMES", "GoalieStart", "PlayoffGoalie", "PlayoffGamesBand", "StarterPick",
           "default_playoff_starter", "goalie_may_start", "playoff_games_limit"]

RULE = "27"


class PlayoffGamesBand(msgspec.Struct, frozen=True):
    """One row of rule 27's table: ``low`` pro games and more give ``games`` a series."""

    low: int
    games: int


# Rule 27's table, "Pro Games / Playoff Games (one series)".
PLAYOFF_GAMES = (PlayoffGamesBand(10, 1), PlayoffGamesBand(15, 2), PlayoffGamesBand(25, 3),
                 PlayoffGamesBand(35, 4), PlayoffGamesBand(45, 5), PlayoffGamesBand(55, 6),
                 PlayoffGamesBand(65, 7))


def playoff_games_limit(pro_games: int) -> int:
    """A goalie's games in one playoff series (rule 27; under 10 pro games: 0, R-post-27a)."""
    limit = 0
    for band in PLAYOFF_GAMES:
        if pro_games >= band.low:
            limit = band.games
    return limit


Reason = Literal["eligible", "series limit reached", "under 10 pro games"]


class GoalieStart(msgspec.Struct, frozen=True):
    """May ``goalie`` start the next game of a series? ``limit`` from rule 27, ``started``
    his starts in this series so far, ``reason`` why (or why not)."""

    goalie: str
    allowed: bool
    limit: int
    started: int
    reason: Reason
    rule: str = RULE


def goalie_may_start(goalie: str, pro_games: int, started_in_series: int) -> GoalieStart:
    """Rule 27: a goalie may start while his starts in the series are under his limit."""
    limit = playoff_games_limit(pro_games)
    if limit == 0:
        return GoalieStart(goalie, False, 0, started_in_series, "under 10 pro games")
    if started_in_series >= limit:
        return GoalieStart(goalie, False, limit, started_in_series, "series limit reached")
    return GoalieStart(goalie, True, limit, started_in_series, "eligible")


class PlayoffGoalie(msgspec.Struct, frozen=True):
    """A dressed goalie: his id and his card's pro games."""

    id: str
    pro_games: int


class StarterPick(msgspec.Struct, frozen=True):
    """The default coach's starter for a playoff game; ``overplay`` when every goalie had
    used his series limit (R-post-27c); ``checks`` every goalie's rule-27 check."""

    goalie: str
    overplay: bool
    checks: tuple[GoalieStart, ...]


def default_playoff_starter(goalies: Sequence[PlayoffGoalie],
                            starts_in_series: Mapping[str, int]) -> StarterPick:
    """The default coach's pick (R-post-27c): the first goalie in the team's order who may
    still start in this series; none may: the highest limit, first in order, overplays."""
    if not goalies:
        raise ValueError("a team dresses goalies: none given")
    checks = tuple(goalie_may_start(g.id, g.pro_games, starts_in_series.get(g.id, 0))
                   for g in goalies)
    for check in checks:
        if check.allowed:
            return StarterPick(check.goalie, False, checks)
    best = max(checks, key=lambda c: c.limit)  # max keeps the first of equal limits
    return StarterPick(best.goalie, True, checks)
