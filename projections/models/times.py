"""A time in a game: a number in its system's unit, formatted only where it is shown.

Hockey Bones counts seconds of a 20-minute period (6.10: a time sequence is 24 s); DICE
Hockey counts timing spaces (12; 22 Timing). Every read model keeps the number; the text
commands, the pages and the JSON show it through the system's :class:`Unit` (docs/json.md),
which each system declares with its read models (``ReadModels.unit``): a page asks it, not
the system, what a time is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["SECONDS", "GameTime", "Unit", "clock"]


def clock(seconds: int) -> str:
    """Seconds as ``MM:SS``."""
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def _counted(count: int) -> int:
    return count


def _set_by_game(period: int) -> int:
    return 0


@dataclass(frozen=True)
class Unit:
    """A system's unit of game time and how a time in it reads at the edges."""

    name: str  # "seconds", "timing_spaces"
    show: Callable[[int], str]  # as the text commands show a time field
    json: Callable[[int], str | int]  # a goal's or a penalty's time as the JSON shows it
    # The time when the system's state has counted ``count`` of its steps (``replay
    # --json``'s ``sequence``), as the read models time an event; by default the count is
    # the time (DICE Hockey's timing spaces).
    at: Callable[[int], int] = _counted
    # A period's length when the rules fix it; 0 (the default) when the game sets it, so a
    # page makes each period as long as the latest time it saw.
    nominal: Callable[[int], int] = _set_by_game
    label: str = "Time"  # a page's column of a goal's or penalty's time
    toi_label: str = "TOI"  # a page's column of time on ice

    @property
    def seconds(self) -> bool:
        """Seconds: a page shows them ``MM:SS`` and ticks its chart every 5 minutes."""
        return self.name == "seconds"

    @property
    def words(self) -> str:
        """The unit as a page's notes name it ("timing spaces")."""
        return self.name.replace("_", " ")


SECONDS = Unit(name="seconds", show=clock, json=clock)
"""Seconds of a period: shown, and in the JSON a goal's or penalty's time, as ``MM:SS``.
A system counting seconds declares its own steps and periods with ``dataclasses.replace``
(Hockey Bones: projections/bones/__init__.py)."""


class GameTime:
    """A time in a game: ``value`` in ``unit`` (never a string parsed back)."""

    __slots__ = ("unit", "value")

    def __init__(self, value: int, unit: Unit) -> None:
        self.value, self.unit = value, unit

    @property
    def json(self) -> str | int:
        """The time as the read models' JSON has always shown it (``"MM:SS"`` for seconds)."""
        return self.unit.json(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameTime) and (self.value, self.unit.name) == (
            other.value, other.unit.name)

    def __hash__(self) -> int:
        return hash((self.value, self.unit.name))

    def __repr__(self) -> str:
        return f"GameTime({self.value}, {self.unit.name!r})"
