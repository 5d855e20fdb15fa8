"""The referee's dice: every random draw of Matrix Hockey is one die.

A draw picks one of ``faces`` labelled options (columns, extra-time values, teams...).
Seeded dice use the scheme of :func:`engine.dice.derive_roll` with a die of any size:
BLAKE2b keyed with the UTF-8 seed hashes ``"{season_id}:{n}:{block}"``; the first digest
byte below ``256 - 256 % faces`` gives ``byte % faces + 1`` (so every face is equally
likely; for six faces this is exactly the first die of a Hockey Bones roll), the next
block is hashed when a digest has none. Dice typed at a real table come from the week's
:class:`~events.matrix.RefereeDrawsEntered` and are not derived. See docs/matrix.md.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Protocol

from engine.dice import odds_run_seed
from events.errors import RollError
from events.matrix import DieRolled

__all__ = ["DieSource", "Dice", "SeededDie", "derive_die", "odds_run_seed"]


def derive_die(seed: str, season_id: str, n: int, faces: int) -> int:
    """The n-th die of a seeded season, a face 1..``faces`` (1 <= faces <= 256)."""
    if not 1 <= faces <= 256:
        raise ValueError(f"a die has 1-256 faces, not {faces}")
    limit = 256 - 256 % faces
    key = seed.encode()[:64]
    block = 0
    while True:
        digest = hashlib.blake2b(f"{season_id}:{n}:{block}".encode(), key=key).digest()
        for byte in digest:
            if byte < limit:
                return byte % faces + 1
        block += 1



class DieSource(Protocol):
    """Where the referee's n-th die comes from (seeded, or read back from a stream)."""

    def roll(self, n: int, faces: int, purpose: str) -> tuple[int, bool]:
        """``(face, seeded)``."""
        ...


class SeededDie:
    def __init__(self, seed: str, season_id: str) -> None:
        self.seed, self.season_id = seed, season_id

    def roll(self, n: int, faces: int, purpose: str) -> tuple[int, bool]:
        return derive_die(self.seed, self.season_id, n, faces), True


class Dice:
    """The dice of one command: numbers them on from the season's count and records each
    as a :class:`DieRolled` through ``emit`` (the same list the decisions go to)."""

    def __init__(self, source: DieSource, count: int, emit: object) -> None:
        self.source, self.count, self.emit = source, count, emit

    def pick(self, purpose: str, options: Sequence[str], typed: str | None = None
             ) -> tuple[str, int]:
        """One of ``options`` and the die's ``n``; ``typed``: the value a table drew."""
        if not options:
            raise ValueError(f"nothing to draw from ({purpose})")
        self.count += 1
        n = self.count
        if typed is not None:
            if typed not in options:
                raise RollError(f"[referee] {purpose}: {typed!r} is not one of "
                                f"{', '.join(options)}")
            face, seeded = options.index(typed) + 1, False
        else:
            face, seeded = self.source.roll(n, len(options), purpose)
        if not 1 <= face <= len(options):
            raise RollError(f"die {n} ({purpose}): face {face} of a {len(options)}-sided die")
        self.emit(DieRolled(n, len(options), face, options[face - 1], purpose, seeded))
        return options[face - 1], n

    def order(self, purpose: str, options: Sequence[str]) -> tuple[list[str], list[int]]:
        """``options`` in a drawn order (one die for each place but the last)."""
        left, drawn, rolls = list(options), [], []
        while len(left) > 1:
            value, n = self.pick(purpose, left)
            left.remove(value)
            drawn.append(value)
            rolls.append(n)
        return drawn + left, rolls
