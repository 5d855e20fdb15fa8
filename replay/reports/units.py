"""How a period reads on a page. A time's unit is the system's: its read models declare it
(``ReadModels.unit``, a :class:`projections.models.times.Unit`: how a time shows, what a
state's step count is in time, a period's nominal length, the page's labels)."""

from __future__ import annotations

REGULATION_PERIODS = 3


def period_label(period: int, played: int) -> str:
    """1st, 2nd, 3rd, OT, 2OT...; a period past those played is the shootout."""
    if period > played:
        return "SO"
    if period <= REGULATION_PERIODS:
        return {1: "1st", 2: "2nd", 3: "3rd"}[period]
    extra = period - REGULATION_PERIODS
    return "OT" if extra == 1 else f"{extra}OT"
