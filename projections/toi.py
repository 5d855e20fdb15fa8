"""Time on ice of any game: the shared read-model types (projections/models/toi.py) and
:func:`build_toi`, the fold of a game's events by its system's read models
(projections/<system>/toi.py; counting rules in docs/json.md)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from projections.models.toi import PlayerToi, ShiftLine, Toi
from projections.systems import read_models_of

__all__ = ["PlayerToi", "ShiftLine", "Toi", "build_toi"]


def build_toi(events: Iterable[Any]) -> Toi:
    """Fold a game's events (from its first, ``GameCreated``) into time on ice and shifts."""
    events = list(events)
    return read_models_of(events).toi(events)
