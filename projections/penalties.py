"""The penalty report of any game: the shared read-model types
(projections/models/penalties.py) and :func:`build_penalties`, the fold of a game's events
by its system's read models (projections/<system>/penalties.py; docs/json.md)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from projections.models.penalties import (
    BoxStint,
    PenaltyLine,
    PenaltyReport,
    Running,
    skaters,
    strength_label,
)
from projections.systems import read_models_of

__all__ = ["BoxStint", "PenaltyLine", "PenaltyReport", "Running", "build_penalties", "skaters",
           "strength_label"]


def build_penalties(events: Iterable[Any], at: int | None = None) -> PenaltyReport:
    """Fold a game's events (from its first) into its penalty report; with ``at`` only the
    first ``at`` events (the state right after event ``at``)."""
    events = list(events)
    return read_models_of(events).penalties(events, at)
