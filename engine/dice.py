"""Dice: the Hockey Bones roll, dice ranges (3.20) and the dice sources.

A *source* hands the game loop one four-dice roll at a time. Rules never roll: they
receive the roll as an argument, so the same code serves seeded simulation, typed
tabletop dice and replay of a recorded stream.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import Any, Protocol

import msgspec

from events.bones import Roll
from events.errors import RollError

__all__ = [
    "DiceRange",
    "DiceSource",
    "ManualDice",
    "RecordedDice",
    "Roll",
    "RollError",
    "SeededDice",
    "derive_faces",
    "derive_roll",
    "parse_roll",
]

_RANGE = re.compile(r"^\s*([1-6])-(\d{1,2})(?:\((\d)\))?\s*$")


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
        match = _RANGE.match(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"not a dice range: {text!r} (expected like '2-10' or '3-6(3)')")
        blue, white = int(match[1]), int(match[2])
        red = int(match[3]) if match[3] is not None else None
        if not 2 <= white <= 12:
            raise ValueError(f"not a dice range: {text!r} (white total must be 2-12)")
        if red is not None and not 1 <= red <= 6:
            raise ValueError(f"not a dice range: {text!r} (red number must be 1-6)")
        return cls(blue, white, red)

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


# --- sources --------------------------------------------------------------------------

class DiceSource(Protocol):
    """Where the game loop gets its next roll; ``n`` counts rolls from 1 in a game."""

    def roll(self, n: int) -> Any: ...


@lru_cache(maxsize=16)
def _keyed_blake2b(key: bytes) -> Any:
    """BLAKE2b keyed with ``key``, copied for each block hashed: the same digests as
    keying it anew, without hashing the key's block once a roll (a game keeps one seed)."""
    return hashlib.blake2b(key=key)


def derive_faces(seed: str, game_id: str, n: int, sides: int, count: int) -> list[int]:
    """The first ``count`` faces (0 to ``sides - 1``) of the n-th roll of a seeded game.

    BLAKE2b (64-byte digest) keyed with the first 64 bytes of the UTF-8 seed hashes
    ``"{game_id}:{n}:{block}"``; each digest byte below the largest multiple of ``sides``
    that fits in a byte (252 for a d6, 250 for a d10) gives a face ``byte % sides``, so
    every face is equally likely; the other bytes are skipped, and the next block is
    hashed if a digest was not enough. See docs/dice.md.
    """
    keyed = _keyed_blake2b(seed.encode()[:64])
    limit = 256 - 256 % sides
    faces: list[int] = []
    block = 0
    while True:
        blake = keyed.copy()
        blake.update(f"{game_id}:{n}:{block}".encode())
        digest = blake.digest()
        for byte in digest:
            if byte < limit:
                faces.append(byte % sides)
                if len(faces) == count:
                    return faces
        block += 1


def derive_roll(seed: str, game_id: str, n: int) -> Roll:
    """The n-th roll of a seeded Hockey Bones game: a pure function of (seed, game id, n).

    Four d6 faces from :func:`derive_faces` (a byte below 252 gives ``byte % 6 + 1``), in
    the order blue, white, white, red. See docs/dice.md.
    """
    blue, w1, w2, red = derive_faces(seed, game_id, n, 6, 4)
    return Roll(blue + 1, (w1 + 1, w2 + 1), red + 1)


DiceSchedule = list[tuple[int, "str | None"]]
"""Which seed derives roll n: ``[(from_roll, seed or None for typed dice), ...]`` in order
(a game's own seed from roll 1, then each branch's switch)."""


def seed_for(schedule: DiceSchedule, n: int) -> str | None:
    """The seed of roll ``n`` under ``schedule`` (None: a typed roll)."""
    seed = None
    for start, value in schedule:
        if n >= start:
            seed = value
    return seed


class SeededDice:
    """Deterministic dice: the same seed and game id give the same rolls anywhere."""

    def __init__(self, seed: str, game_id: str,
                 derive: Callable[[str, str, int], Any] = derive_roll) -> None:
        self.seed = seed
        self.game_id = game_id
        self.derive = derive  # a game system's derivation (Hockey Bones' by default)

    def roll(self, n: int) -> Any:
        return self.derive(self.seed, self.game_id, n)


class ManualDice:
    """Rolls typed by a person, one line per roll (from a file or a prompt)."""

    def __init__(self, lines: Iterable[str], origin: str = "input",
                 parse: Callable[[str], Any] = parse_roll) -> None:
        self._lines: Iterator[str] = iter(lines)
        self.origin = origin
        self._line_no = 0
        self.parse = parse  # a game system's typed-roll parser (Hockey Bones' by default)

    def roll(self, n: int) -> Any:
        for line in self._lines:
            self._line_no += 1
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            try:
                return self.parse(text)
            except RollError as err:
                raise RollError(f"{self.origin}:{self._line_no}: {err}") from None
        raise RollError(f"{self.origin}: ran out of rolls before the game ended (roll {n})")


class RecordedDice:
    """Rolls read back from a stream, for replay and branch."""

    def __init__(self, rolls: Iterable[Roll]) -> None:
        self._rolls = list(rolls)

    def roll(self, n: int) -> Roll:
        if n > len(self._rolls):
            raise RollError(f"recorded stream has only {len(self._rolls)} rolls; roll {n} asked")
        return self._rolls[n - 1]
