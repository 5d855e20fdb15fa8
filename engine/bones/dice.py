"""Hockey Bones' dice (3.00, 3.20): four d6 read as blue, a white total and red.

A roll is typed ``blue white white red`` (:func:`parse_roll`); a seeded game's n-th roll
is four faces of the shared derivation (:func:`engine.dice.derive_faces`, docs/dice.md);
a chart's dice range such as ``2-10`` or ``3-6(3)`` is a :class:`DiceRange` (3.20).
"""

from __future__ import annotations

import re

import msgspec

from engine.bones.rolls import derive_roll
from events.bones import Roll
from events.errors import RollError

__all__ = ["DiceRange", "Roll", "derive_roll", "parse_roll"]

_RANGE = re.compile(r"^\s*([1-6])-(\d{1,2})(?:\((\d)\))?\s*$")
# Every range parsed, by its text: a game reads the same few card ranges on every shot,
# and a DiceRange is frozen, so one parse serves them all.
_PARSED: dict[str, DiceRange] = {}


class DiceRange(msgspec.Struct, frozen=True):
    """A dice roll range such as ``2-10`` or ``3-6(3)`` (3.20).

    A roll is in range when its blue die is below ``blue``; or equals it with the white
    total below ``white``; or equals both and, when a red limit is given, the red die is
    at most ``red``.
    """

    blue: int
    white: int
    red: int | None = None

    @classmethod
    def parse(cls, text: str) -> DiceRange:
        known = _PARSED.get(text) if isinstance(text, str) else None
        if known is not None:
            return known
        match = _RANGE.match(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"not a dice range: {text!r} (expected like '2-10' or '3-6(3)')")
        blue, white = int(match[1]), int(match[2])
        red = int(match[3]) if match[3] is not None else None
        if not 2 <= white <= 12:
            raise ValueError(f"not a dice range: {text!r} (white total must be 2-12)")
        if red is not None and not 1 <= red <= 6:
            raise ValueError(f"not a dice range: {text!r} (red number must be 1-6)")
        parsed = _PARSED[text] = cls(blue, white, red)
        return parsed

    def contains(self, roll: Roll) -> bool:
        if roll.blue != self.blue:
            return roll.blue < self.blue
        if roll.white != self.white:
            return roll.white < self.white
        return self.red is None or roll.red <= self.red

    def __str__(self) -> str:
        red = f"({self.red})" if self.red is not None else ""
        return f"{self.blue}-{self.white}{red}"


_FACES = frozenset("123456")


def parse_roll(text: str) -> Roll:
    """Read a roll typed as ``blue white white red``, e.g. ``3 4 2 6``."""
    parts = text.replace(",", " ").split()
    # Only the ASCII digits 1-6: str.isdigit() also takes '²' and '٣'.
    if len(parts) != 4 or not all(p in _FACES for p in parts):
        raise RollError(
            f"not a roll: {text.strip()!r} (type four dice 1-6: blue white white red, e.g. 3 4 2 6)"
        )
    blue, w1, w2, red = (int(p) for p in parts)
    return Roll(blue, (w1, w2), red)
