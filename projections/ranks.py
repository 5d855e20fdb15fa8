"""Shared ranks for the leaders' boards (issue 34), as hockey-reference.com prints them:
standard competition ranking. Players equal on a board's figure (goals, points, SV%...,
compared exactly, not as rounded for the page) share a rank, and the next rank skips the
places they fill: 1, 2, 2, 4.

The order within a tie (a rank says nothing of it): fewer games played first (the same
figure in fewer games), then the name, then the player id (two players of one name).
``rinklog leaders`` and the season site's boards both order and rank by this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def leader_order(figure: float, gp: int, name: str, player: str, *,
                 lowest_first: bool = False) -> tuple:
    """The sort key of a leader's line: the best figure first (the highest, or the lowest
    for a goals-against average), then the tie order of the module's docstring."""
    return (figure if lowest_first else -figure, gp, name, player)


def competition_ranks(figures: Sequence[Any]) -> list[int]:
    """Each line's rank, the lines in board order (best first): a figure equal to the line
    above's shares its rank, else the rank is the line's place (1, 2, 2, 4)."""
    ranks: list[int] = []
    for place, figure in enumerate(figures, start=1):
        ranks.append(ranks[-1] if ranks and figure == figures[place - 2] else place)
    return ranks
