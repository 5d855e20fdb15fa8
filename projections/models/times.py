"""A time in a game: a number in its system's unit, formatted only where it is shown.

Hockey Bones counts seconds of a 20-minute period (6.10: a time sequence is 24 s); DICE
Hockey counts timing spaces (12; 22 Timing). Every read model keeps the number; the text
commands, the pages and the JSON show it through the system's :class:`Unit` (docs/json.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["SECONDS", "GameTime", "Unit", "clock"]


def clock(seconds: int) -> str:
    """Seconds as ``MM:SS``."""
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


@dataclass(frozen=True)
class Unit:
    """A system's unit of game time and how a time in it reads at the edges."""

    name: str  # "seconds", "timing_spaces"
    show: Callable[[int], str]  # as the text commands show a time field
    json: Callable[[int], str | int]  # a goal's or a penalty's time as the JSON shows it


SECONDS = Unit(name="seconds", show=clock, json=clock)
"""Seconds of a period: shown, and in the JSON a goal's or penalty's time, as ``MM:SS``."""


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
