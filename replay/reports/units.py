"""How a game system's times read on a page.

Hockey Bones gives seconds of a 20-minute period (shown ``MM:SS``); a system that counts
its own unit (DICE Hockey: timing spaces) gives whole numbers, shown as they are. The read
models say which: ``ReadModels.show_time`` (``clock`` for seconds), absent on read models
that only know seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from projections.bones.scoresheet import SEQUENCE_SECONDS
from projections.scoresheet import clock

REGULATION_PERIODS = 3
PERIOD_SECONDS = 1200  # 6.10: 50 time sequences of 24 s
OVERTIME_SECONDS = 300


@dataclass(frozen=True)
class TimeUnit:
    """Seconds (``MM:SS``) or a system's own count (timing spaces)."""

    seconds: bool
    show_count: Callable[[int | None], str]

    @classmethod
    def of(cls, models: Any) -> TimeUnit:
        show = getattr(models, "show_time", clock)
        return cls(seconds=show is clock, show_count=show)

    @property
    def label(self) -> str:
        return "Time" if self.seconds else "Space"

    @property
    def toi_label(self) -> str:
        return "TOI" if self.seconds else "Spaces"

    def show(self, value: int | str | None) -> str:
        """A time of the read models (``"MM:SS"`` already, or a number) as the page shows it."""
        if value is None:
            return "–"
        if isinstance(value, str):
            return value
        return clock(value) if self.seconds else self.show_count(value)

    def at(self, count: int) -> int:
        """The time when a system's state has counted ``count`` of its steps (``replay
        --json``'s ``sequence``), as the read models time an event: Hockey Bones's
        sequence n starts at (n - 1) x 24 s (6.10), the scoresheet's goal time; a system
        counting its own unit (DICE Hockey's timing spaces) is at ``count``."""
        return (max(1, count) - 1) * SEQUENCE_SECONDS if self.seconds else count

    def nominal(self, period: int) -> int:
        """A period's length when the rules fix it (seconds); 0 when the game sets it."""
        if not self.seconds:
            return 0
        return PERIOD_SECONDS if period <= REGULATION_PERIODS else OVERTIME_SECONDS


def as_number(value: int | str) -> int:
    """A read model's time as a number: ``"MM:SS"`` in seconds, a count as it is."""
    if isinstance(value, str):
        minutes, _, seconds = value.partition(":")
        return int(minutes) * 60 + int(seconds or 0)
    return value


def period_label(period: int, played: int) -> str:
    """1st, 2nd, 3rd, OT, 2OT...; a period past those played is the shootout."""
    if period > played:
        return "SO"
    if period <= REGULATION_PERIODS:
        return {1: "1st", 2: "2nd", 3: "3rd"}[period]
    extra = period - REGULATION_PERIODS
    return "OT" if extra == 1 else f"{extra}OT"
