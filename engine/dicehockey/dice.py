"""DICE Hockey's dice (1, 5): two d10, red for the tens, white for the ones, 00-99.

Seeded rolls come from the same keyed BLAKE2b derivation as Hockey Bones' d6
(:func:`engine.dice.derive_faces`): a digest byte below 250 gives the face ``byte % 10``,
so every face is equally likely; the first face is red, the second white. See docs/dice.md.
"""

from __future__ import annotations

from typing import Final

from engine.dice import faces_from, first_digest
from events.dicehockey import Roll
from events.errors import RollError

__all__ = ["Roll", "derive_roll", "parse_roll", "roll_even", "roll_value"]

_FACES: Final = frozenset("0123456789")
_D10_LIMIT: Final = 250  # the largest multiple of 10 a byte holds (derive_faces' limit)
# The hundred rolls 00-99, made once (by ``red * 10 + white``): a Roll is frozen, so one
# object serves every throw of its faces, and compiled, making a msgspec Struct at every
# roll is a generic call.
_ROLLS: Final = [Roll(red, white) for red in range(10) for white in range(10)]


def derive_roll(seed: str, game_id: str, n: int) -> Roll:
    """The n-th roll of a seeded DICE Hockey game: a pure function of (seed, game id, n).

    ``derive_faces(seed, game_id, n, 10, 2)``: when neither of the first digest's first two
    bytes is skipped (both below 250: 95 rolls in 100) they are the two faces, read here
    without a list; otherwise ``derive_faces`` reads on from that digest (``faces_from``)."""
    digest = first_digest(seed, game_id, n)
    first, second = digest[0], digest[1]
    if first < _D10_LIMIT and second < _D10_LIMIT:
        return _ROLLS[first % 10 * 10 + second % 10]
    red, white = faces_from(digest, seed, game_id, n, 10, 2)
    return _ROLLS[red * 10 + white]


def roll_value(roll: Roll) -> int:
    """The roll read 00-99 (1, 5): ``Roll.value``, here in a compiled module because the
    rules read it at every roll (the event's property is interpreted Python)."""
    return roll.red * 10 + roll.white


def roll_even(roll: Roll) -> bool:
    """Whether the roll is even (20): ``Roll.even``, compiled as ``roll_value``."""
    return roll.white % 2 == 0


def parse_roll(text: str) -> Roll:
    """Read a roll typed as ``red white``, e.g. ``4 3`` (43)."""
    parts = text.replace(",", " ").split()
    # Only the ASCII digits 0-9: str.isdigit() also takes '²' and '٣'.
    if len(parts) != 2 or not all(p in _FACES for p in parts):
        raise RollError(f"not a roll: {text.strip()!r} (type two dice 0-9: red white, "
                        "e.g. 4 3 for 43)")
    return Roll(int(parts[0]), int(parts[1]))
