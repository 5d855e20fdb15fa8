"""The scoresheet of any game: the shared read-model types (projections/models/scoresheet.py)
and :func:`build_scoresheet`, the fold of a game's events by its system's read models
(projections/<system>/scoresheet.py; counting rules in docs/json.md)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from projections.models.scoresheet import (
    GoalieLine,
    GoalLine,
    PenaltyLine,
    PowerPlay,
    Scoresheet,
    ShootoutLine,
    TeamLine,
)
from projections.models.times import GameTime, clock
from projections.systems import read_models_of

__all__ = ["GameTime", "GoalLine", "GoalieLine", "PenaltyLine", "PowerPlay", "Scoresheet",
           "ShootoutLine", "TeamLine", "build_scoresheet", "clock"]


def build_scoresheet(events: Iterable[Any]) -> Scoresheet:
    """Fold a game's events (from its first, ``GameCreated``) into its scoresheet."""
    events = list(events)
    return read_models_of(events).scoresheet(events)
