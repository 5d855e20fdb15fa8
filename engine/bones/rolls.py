"""Hockey Bones' seeded rolls (3.00): the n-th roll of a seeded game from the shared
derivation (docs/dice.md). Read through engine/bones/dice.py; a module of its own so the
build compiles it (setup.py leaves dice.py, which defines msgspec types, pure), as it is
asked for every roll a game plays."""

from __future__ import annotations

from engine.dice import derive_faces
from events.bones import Roll


def derive_roll(seed: str, game_id: str, n: int) -> Roll:
    """The n-th roll of a seeded Hockey Bones game: a pure function of (seed, game id, n).

    Four d6 faces from :func:`engine.dice.derive_faces` (a byte below 252 gives
    ``byte % 6 + 1``), in the order blue, white, white, red. See docs/dice.md.
    """
    blue, w1, w2, red = derive_faces(seed, game_id, n, 6, 4)
    return Roll(blue + 1, (w1 + 1, w2 + 1), red + 1)


def white(roll: Roll) -> int:
    """The roll's white total (2-12), ``Roll.white`` here compiled: the event's property
    is interpreted Python, and the rules read it at almost every roll."""
    whites = roll.whites
    return whites[0] + whites[1]
