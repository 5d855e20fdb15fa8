"""Player, goalie and team stats of any game: the shared read-model types
(projections/models/stats.py: ``GameStats``, ``combine``, ``goalie_figures``) and
:func:`build_stats`, the fold of a game's events by its system's read models
(projections/<system>/stats.py; counting rules in docs/json.md)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from projections.models.scoresheet import Scoresheet
from projections.models.stats import (
    GOALIE_COUNTS,
    SKATER_COUNTS,
    TEAM_COUNTS,
    GameStats,
    GoalieFigures,
    combine,
    goalie_figures,
)
from projections.systems import read_models_of

__all__ = ["GOALIE_COUNTS", "SKATER_COUNTS", "TEAM_COUNTS", "GameStats", "GoalieFigures",
           "build_stats", "combine", "goalie_figures"]


def build_stats(events: Iterable[Any], scoresheet: Scoresheet | None = None) -> GameStats:
    """Fold one game's events (from its first, ``GameCreated``) into its stats;
    ``scoresheet``, the game's when the caller has it, spares folding it again."""
    events = list(events)
    return read_models_of(events).stats(events, scoresheet=scoresheet)
