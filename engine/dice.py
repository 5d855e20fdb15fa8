"""Dice every game system shares: the dice sources and the seeded derivation.

A *source* hands the game loop one roll at a time, of whatever dice the game's system
throws: seeded (:class:`SeededDice`, over the system's derivation, itself a reading of
:func:`derive_faces`), typed by a person (:class:`ManualDice`, through the system's
parser) or read back from a stream (:class:`RecordedDice`). Rules never roll: they
receive the roll as an argument, so the same code serves seeded simulation, typed
tabletop dice and replay of a recorded stream. A system reads its own dice (Hockey Bones'
four d6: engine/bones/dice.py; DICE Hockey's two d10: engine/dicehockey/dice.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Final, Generic, Protocol, TypeVar

from events.errors import RollError

__all__ = [
    "DiceSchedule",
    "DiceSource",
    "ManualDice",
    "RecordedDice",
    "RollError",
    "SeededDice",
    "derive_faces",
    "faces_from",
    "first_digest",
    "odds_run_seed",
    "seed_for",
]

R = TypeVar("R")  # a system's roll (Hockey Bones' four d6, DICE Hockey's two d10...)

# --- sources --------------------------------------------------------------------------

class DiceSource(Protocol):
    """Where the game loop gets its next roll; ``n`` counts rolls from 1 in a game."""

    def roll(self, n: int) -> Any: ...


# The keyed hasher of the last (seed, game id) asked, with ``"{game_id}:"`` already
# absorbed: a game asks for one (seed, game id) at every roll, and BLAKE2b hashes a stream,
# so copying it and absorbing ``"{n}:{block}"`` gives the digest of the whole message. One
# entry, compared by value: cheaper than an lru_cache's key tuple at every roll. The entry
# is one tuple, replaced whole: a thread (a Dask worker's) never reads one game's hasher
# under another game's names.
_LAST_GAME: Final[list[tuple[str, str, Any]]] = [("", "", None)]  # (seed, game id, hasher)


def _game_blake2b(seed: str, game_id: str) -> Any:
    last_seed, last_game, hasher = _LAST_GAME[0]
    if hasher is None or last_seed != seed or last_game != game_id:
        hasher = hashlib.blake2b(key=seed.encode()[:64])
        hasher.update(f"{game_id}:".encode())
        _LAST_GAME[0] = (seed, game_id, hasher)
    return hasher


# BLAKE2b's ``copy``, ``update`` and ``digest`` read once from its type and called with
# the hasher: compiled, ``blake.copy()`` is a method look-up on the object at each call
# (three a roll), the same C functions called.
_COPY: Final = hashlib.blake2b.copy
_UPDATE: Final = hashlib.blake2b.update
_DIGEST: Final = hashlib.blake2b.digest


def first_digest(seed: str, game_id: str, n: int) -> bytes:
    """The first 64-byte digest (block 0) of the n-th roll of a seeded game, whose bytes
    :func:`derive_faces` reads first: a system whose faces fit in it reads them here,
    without a list (engine/bones/rolls.py)."""
    blake = _COPY(_game_blake2b(seed, game_id))
    _UPDATE(blake, _first_block(n))
    digest: bytes = _DIGEST(blake)  # typed: compiled, its bytes are read natively
    return digest


# ``"{n}:0"`` encoded at index n, the end of the message of roll n's first block, made once
# for the rolls any game reaches (a Hockey Bones game rolls about 420 times); a later roll's
# is made when asked. A tuple: read by every thread, never changed.
_FIRST_BLOCKS: Final[tuple[bytes, ...]] = tuple(f"{n}:0".encode() for n in range(2048))


def _first_block(n: int) -> bytes:
    return _FIRST_BLOCKS[n] if 0 <= n < 2048 else f"{n}:0".encode()


def derive_faces(seed: str, game_id: str, n: int, sides: int, count: int) -> list[int]:
    """The first ``count`` faces (0 to ``sides - 1``) of the n-th roll of a seeded game.

    BLAKE2b (64-byte digest) keyed with the first 64 bytes of the UTF-8 seed hashes
    ``"{game_id}:{n}:{block}"``; each digest byte below the largest multiple of ``sides``
    that fits in a byte (252 for a d6, 250 for a d10) gives a face ``byte % sides``, so
    every face is equally likely; the other bytes are skipped, and the next block is
    hashed if a digest was not enough. See docs/dice.md.
    """
    return faces_from(first_digest(seed, game_id, n), seed, game_id, n, sides, count)


def faces_from(digest: bytes, seed: str, game_id: str, n: int, sides: int,
               count: int) -> list[int]:
    """:func:`derive_faces` read on from the roll's first digest (:func:`first_digest`),
    already made: a system that reads its faces from that digest and finds a byte skipped
    goes on from it, not hashing the same block again (about 4,500 instructions, one DICE
    Hockey roll in twenty)."""
    limit = 256 - 256 % sides
    faces: list[int] = []
    block = 0
    while True:
        for byte in digest:
            if byte < limit:
                faces.append(byte % sides)
                if len(faces) == count:
                    return faces
        block += 1
        blake = _game_blake2b(seed, game_id).copy()
        blake.update(f"{n}:{block}".encode())
        digest = blake.digest()


def odds_run_seed(season_id: str, seed: str, run: int) -> str:
    """The seed of odds run ``run`` (1, 2...) of season ``season_id`` under the odds seed
    ``seed`` (docs/odds.md): ``odds-`` and the hex of the first 16 faces of 256 of
    ``derive_faces(seed, f"{season_id}/odds", run, 256, 16)`` (every digest byte is a face
    of 256: the first 16 bytes of BLAKE2b keyed with the seed over
    ``"{season_id}/odds:{run}:0"``). A run's games, lottery and Matrix Hockey referee's
    dice then take it where the season takes its own seed (replay/leagues/naming.py's
    ``game_seed``/``playoff_seed``, engine/matrix/recheck.py after an OddsRunReplayed):
    one derivation for every system, here beside the dice it is made of."""
    return "odds-" + bytes(derive_faces(seed, f"{season_id}/odds", run, 256, 16)).hex()

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


class SeededDice(Generic[R]):
    """Deterministic dice: the same seed and game id give the same rolls anywhere."""

    def __init__(self, seed: str, game_id: str, derive: Callable[[str, str, int], R]) -> None:
        self.seed = seed
        self.game_id = game_id
        self.derive = derive  # the game system's derivation: (seed, game id, n) -> roll

    def roll(self, n: int) -> R:
        return self.derive(self.seed, self.game_id, n)


class ManualDice(Generic[R]):
    """Rolls typed by a person, one line per roll (from a file or a prompt)."""

    def __init__(self, lines: Iterable[str], origin: str,
                 parse: Callable[[str], R]) -> None:
        self._lines: Iterator[str] = iter(lines)
        self.origin = origin
        self._line_no = 0
        self.parse = parse  # the game system's typed-roll parser (raises RollError)

    def roll(self, n: int) -> R:
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


class RecordedDice(Generic[R]):
    """Rolls read back from a stream, for replay and branch: roll n is ``rolls[n - 1]``."""

    def __init__(self, rolls: Iterable[R]) -> None:
        self._rolls: Sequence[R] = list(rolls)

    def roll(self, n: int) -> R:
        if n > len(self._rolls):
            raise RollError(f"recorded stream has only {len(self._rolls)} rolls; roll {n} asked")
        return self._rolls[n - 1]
