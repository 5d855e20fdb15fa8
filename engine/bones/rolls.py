"""Hockey Bones' seeded rolls (3.00): the n-th roll of a seeded game from the shared
derivation (docs/dice.md). Read through engine/bones/dice.py; a module of its own so the
build compiles it (setup.py leaves dice.py, which defines msgspec types, pure), as it is
asked for every roll a game plays."""

from __future__ import annotations

from typing import Final

from engine.dice import faces_from, first_digest
from events.bones import Roll

# A digest byte below 252 is a face (``byte % 6``); 252-255 are skipped (docs/dice.md).
_D6_LIMIT: Final = 252


def derive_roll(seed: str, game_id: str, n: int) -> Roll:
    """The n-th roll of a seeded Hockey Bones game: a pure function of (seed, game id, n).

    Four d6 faces from :func:`engine.dice.derive_faces` (a byte below 252 gives
    ``byte % 6 + 1``), in the order blue, white, white, red. See docs/dice.md.
    """
    # The first digest's first four bytes, when none is skipped (about 94 rolls in 100):
    # the faces derive_faces would give, read without a list.
    digest = first_digest(seed, game_id, n)
    blue, w1, w2, red = digest[0], digest[1], digest[2], digest[3]
    if blue < _D6_LIMIT and w1 < _D6_LIMIT and w2 < _D6_LIMIT and red < _D6_LIMIT:
        return _throw(blue % 6, w1 % 6, w2 % 6, red % 6)
    # a byte skipped: read on from this digest (not hashing it again, engine.dice.faces_from)
    faces = faces_from(digest, seed, game_id, n, 6, 4)
    return _throw(faces[0], faces[1], faces[2], faces[3])


# Every throw of the four dice (6 ** 4 of them), each made the first time it is thrown and
# handed out again after: a Roll is frozen, so the events of any game may share one, and
# no msgspec Struct (a generic call from compiled code) is made at every roll (as DICE
# Hockey's hundred rolls, engine/dicehockey/dice.py).
_THROWS: Final[list[Roll | None]] = [None] * 6 ** 4


def _throw(blue: int, white1: int, white2: int, red: int) -> Roll:
    """The roll of these faces (each 0-5: the die shows one more)."""
    index = ((blue * 6 + white1) * 6 + white2) * 6 + red
    roll = _THROWS[index]
    if roll is None:
        roll = Roll(blue + 1, (white1 + 1, white2 + 1), red + 1)
        _THROWS[index] = roll
    return roll


def white(roll: Roll) -> int:
    """The roll's white total (2-12), ``Roll.white`` here compiled: the event's property
    is interpreted Python, and the rules read it at almost every roll."""
    whites = roll.whites
    return whites[0] + whites[1]
