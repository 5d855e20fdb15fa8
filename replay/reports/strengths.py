"""A goalie's saves and shots against by strength on the pages, as NHL.com's box score
shows them: ``EV``, ``PP`` and ``SH``, each "saves/shots". The split is the system's fold
(``ReadModels.strengths``, projections/models/strengths.py): the scoresheet's own shots and
goals against, each filed under the strength when it was shot, as the scoresheet labels
a goal (the shooters' side): ``PP`` is what he faced while the other team was on the power
play (his own short-handed), ``SH`` while his team was on the power play. Nothing of it is
stored: the pages fold it from the events they read (docs/pages.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from projections.models.strengths import STRENGTHS, GoalieStrength

__all__ = ["KEYS", "Split", "Splits", "by_goalie", "cells", "split_total", "with_split"]

KEYS = tuple(f"{s.lower()}_{k}" for s in STRENGTHS for k in ("sv", "sa"))
"""The split's numbers in a stats row: ``ev_sv``, ``ev_sa``, ``pp_sv``, ... (pages only)."""

Split = dict[str, int]
Splits = Mapping[tuple[str, str], Split]  # a game's, by (team, goalie)


def by_goalie(lines: Iterable[GoalieStrength]) -> Splits:
    """The split of each goalie of a game, by (team, player)."""
    return {(g.team, g.player): {k: getattr(g, k) for k in KEYS} for g in lines}


def split_total(splits: Iterable[Mapping[str, Any]]) -> Split:
    """The splits (or stats rows carrying them) added up: a season's line from its games'."""
    total = dict.fromkeys(KEYS, 0)
    for split in splits:
        for k in KEYS:
            total[k] += split.get(k, 0)
    return total


def with_split(row: Mapping[str, Any], split: Mapping[str, int] | None) -> dict[str, Any]:
    """A goalie's stats row with his split (0/0 each when he faced no shot)."""
    return {**row, **{k: (split or {}).get(k, 0) for k in KEYS}}


def cells(split: Mapping[str, int] | None) -> dict[str, str]:
    """"saves/shots" by strength (``ev``, ``pp``, ``sh``), as a table shows them."""
    split = split or {}
    return {s.lower(): f"{split.get(f'{s.lower()}_sv', 0)}/{split.get(f'{s.lower()}_sa', 0)}"
            for s in STRENGTHS}
