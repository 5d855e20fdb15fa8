"""Hash checkpoints (schema 5): which rows of a stream store their hash, the chain hashed
forward from the payloads, and the check of what is stored against it (docs/storage.md).

A row's hash is derived data: ``hash = BLAKE2b-256(previous hash + payload)``, GENESIS
before seq 1. Since schema 5 a stream stores it only at its checkpoints, the rows whose
``seq`` is a multiple of the stream's ``hash_every`` (``streams.hash_every``), and NULL in
every other row; its head hash stays whole in ``streams.head_hash``. Every stream written
before schema 5 has ``hash_every`` 1: every row stores its hash, as it always did. Reading
hashes every row forward from the last checkpoint before it; the check recomputes the chain
from the payloads and holds every stored cell to it, so a changed payload is reported at the
next checkpoint (or the head), naming the range of seqs it lies in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any, Final, Protocol

import msgspec

__all__ = [
    "BLAKE2B_256",
    "GENESIS",
    "HASH_EVERY",
    "HASH_EVERY_WRITTEN",
    "ChainBreak",
    "ChainRow",
    "Chained",
    "chain_break",
    "chain_hash",
    "chain_hashes",
    "chain_holds",
    "chained",
    "columns_hold",
    "stored_cell",
    "stored_cells",
    "verify_chain",
]

GENESIS = "0" * 64
"""The ``prev_hash`` of every stream's first event."""

HASH_EVERY = 32
"""Every stream created since schema 5 stores the hash of each 32nd row (about 1 byte an
event where the hash on every row cost 33)."""

HASH_EVERY_WRITTEN = frozenset({1, HASH_EVERY})
"""The ``hash_every`` values rinklog writes (1: every stream written before schema 5); any
other stored value is a changed one."""


class ChainRow(Protocol):
    """What :func:`chain_break` reads of a row (a ``StoredEvent`` or an export's row will
    do). A row the store read also has ``stored``: see :func:`chain_break`."""

    @property
    def seq(self) -> int: ...
    @property
    def payload(self) -> bytes: ...
    @property
    def prev_hash(self) -> str: ...
    @property
    def hash(self) -> str: ...


class ChainBreak(msgspec.Struct, frozen=True):
    """Where a stream read from seq 1 stops checking out, and why, in the audit's words."""

    seq: int  # the first seq affected (past the last row: the head)
    expected: str
    found: str


# BLAKE2b-256 with no data yet: a row's hash is a copy of it updated with the row, which
# skips parsing blake2b()'s keyword arguments at every row (a third of a row's hashing).
BLAKE2B_256: Final = hashlib.blake2b(digest_size=32)


def chain_hash(prev_hash: str, payload: bytes) -> str:
    """The hash of an event: BLAKE2b-256 of the previous hash's 32 bytes + the payload."""
    return hashlib.blake2b(bytes.fromhex(prev_hash) + payload, digest_size=32).hexdigest()


def chain_hashes(payloads: Iterable[bytes], head: str = GENESIS) -> list[bytes]:
    """The 32-byte hashes of payloads appended after ``head``, each the BLAKE2b-256 of the
    one before + its payload (a season's workers chain their games, so the writer only
    inserts)."""
    empty = BLAKE2B_256
    prev = bytes.fromhex(head)
    hashes = []
    for payload in payloads:
        blake = empty.copy()
        blake.update(prev + payload)
        prev = blake.digest()
        hashes.append(prev)
    return hashes


def stored_cells(hashes: Sequence[bytes], first_seq: int, every: int) -> list[bytes | None]:
    """The ``events.hash`` cells of rows ``first_seq``, ``first_seq + 1``... with these
    hashes: the hash at a checkpoint (``seq % every == 0``), else None (NULL)."""
    if every == 1:
        return list(hashes)
    cells: list[bytes | None] = [None] * len(hashes)
    first = -first_seq % every  # the index of the first checkpoint
    cells[first::every] = hashes[first::every]
    return cells


class Chained(msgspec.Struct, frozen=True):
    """A new stream's rows encoded and chained where the game was played (a season's
    worker, which audits exactly these rows), as the writer inserts them: only the hashes
    the store keeps travel, so the writer neither hashes nor builds a list of a game's
    hashes."""

    tags: list[str]  # each row's type tag
    payloads: list[bytes]  # each row's payload
    every: int  # the stream's hash_every: a hash kept on every such row
    checkpoints: list[bytes]  # the hashes of rows every, 2 * every, ...
    head: bytes  # the last row's hash (the stream's head)


def chained(encoded: Sequence[tuple[str, bytes]], hashes: Sequence[bytes]) -> Chained:
    """A new stream's ``(tag, payload)`` rows with their :func:`chain_hashes` (every row's,
    from GENESIS) as :meth:`EventStore.append_chained` takes them, checkpoints every
    :data:`HASH_EVERY` rows."""
    if not encoded or len(hashes) != len(encoded):
        raise ValueError(f"{len(hashes)} hashes for {len(encoded)} rows: one a row, at least one")
    every = HASH_EVERY
    return Chained([tag for tag, _ in encoded], [payload for _, payload in encoded], every,
                   list(hashes[every - 1::every]), hashes[-1])


def stored_cell(value: Any) -> str | None:
    """A stored hash cell as the check compares it: hex, None for NULL; a value a hand edit
    left with another SQLite type as text that is no hash (its repr), so it cannot check
    out."""
    if value is None:
        return None
    return value.hex() if type(value) is bytes else repr(value)


def chain_break(rows: Iterable[ChainRow], expected_head: str | None = None,
                hash_every: int | None = None) -> ChainBreak | None:
    """The first place a stream read from seq 1 stops checking out, else None.

    Row n must have ``seq == n`` and ``prev_hash`` equal to row n-1's hash (GENESIS for n =
    1). A row with a ``stored`` value (what the store read of its hash cell: hex, or None
    for NULL) had its ``hash`` computed from the payloads by the store, once: it must store
    that hash where ``hash_every`` says it is kept and nothing elsewhere, so a changed
    payload fails the next checkpoint, a hash written into a NULL cell or a changed
    ``hash_every`` fails where they differ (``hash_every`` None, for a caller that does
    not know the stream's: every hash that is stored must be right). Any other row (an
    export's, an older layout's, whose ``hash`` is a claim) has its hash recomputed here.
    With ``expected_head`` (the stream's recorded head hash) the last row's hash must equal
    it, else the break is past the last row.
    """
    prev = GENESIS
    prev_bytes: bytes | None = bytes(32)  # the previous hash as bytes (None: not yet)
    empty = BLAKE2B_256
    unset = msgspec.UNSET
    checked = n = 0  # the last seq whose hash was held to a stored or claimed one
    valid_every = hash_every is None or (type(hash_every) is int
                                         and hash_every in HASH_EVERY_WRITTEN)
    for n, row in enumerate(rows, start=1):
        if row.seq != n:
            return ChainBreak(n, f"seq {n}", f"seq {row.seq} (an event removed or reordered)")
        if row.prev_hash != prev:
            return ChainBreak(n, f"prev hash {prev[:16]}…",
                              f"{row.prev_hash[:16]}… (removed or reordered)")
        stored = getattr(row, "stored", unset)
        if stored is unset:  # a claimed hash: recomputed
            if prev_bytes is None:
                prev_bytes = bytes.fromhex(prev)
            blake = empty.copy()
            blake.update(prev_bytes + row.payload)
            digest = blake.digest()
            prev = digest.hex()  # the digest finalised once (hexdigest() would again)
            if row.hash != prev:
                return ChainBreak(n, f"hash {prev[:16]}… of the stored payload",
                                  f"{row.hash[:16]}… (the payload was changed)")
            prev_bytes, checked = digest, n
            continue
        prev, prev_bytes = row.hash, None  # computed by the store from the payloads
        if not valid_every:
            written = " or ".join(map(str, sorted(HASH_EVERY_WRITTEN)))
            return ChainBreak(1, f"hash_every {written} (a row's hash kept every n rows)",
                              f"hash_every {hash_every!r} (the stream's hash_every changed)")
        if hash_every is None and stored is None:
            continue
        if hash_every is None or n % hash_every == 0:
            if stored != prev:
                return ChainBreak(n, f"hash {prev[:16]}… of {_events(checked + 1, n)}",
                                  f"{str(stored)[:16]}… stored at event {n} "
                                  f"({_changed(checked + 1, n)}, or the hash stored at {n})")
            checked = n
        elif stored is not None:
            return ChainBreak(n, f"no hash stored at event {n} (hash_every {hash_every})",
                              f"{stored[:16]}… (a hash written where none is kept, or the "
                              "stream's hash_every changed)")
    if expected_head is not None and prev != expected_head:
        why = "events removed or the head changed"
        if checked < n:
            why = f"{_changed(checked + 1, n)}, {why}"
        return ChainBreak(n + 1, f"head hash {prev[:16]}… of the last event",
                          f"{expected_head[:16]}… ({why})")
    return None


def chain_holds(cells: Iterable[tuple[Any, Any, Any]], head: Any, hash_every: Any,
                version: Any) -> bool:
    """Quickly: whether compact-layout rows ``(seq, payload, hash cell)`` read from seq 1
    hash to every hash they store, keep one exactly where ``hash_every`` says, number
    ``version`` and end at ``head``. Nothing but the hashing in the loop (a read command
    checks every stream it shows); False says only "not so": :func:`chain_break` tells
    where and why."""
    if type(hash_every) is not int or hash_every not in HASH_EVERY_WRITTEN:
        return False
    empty = BLAKE2B_256
    prev, n = bytes(32), 0
    for seq, payload, cell in cells:
        n += 1
        if seq != n or type(payload) is not bytes:
            return False
        blake = empty.copy()
        blake.update(prev + payload)
        prev = blake.digest()
        if cell is not None or n % hash_every == 0:
            if cell != prev or n % hash_every:
                return False
    return n == version and prev.hex() == head


def columns_hold(seqs: list[Any], hashes: list[bytes], cells: list[Any], head: Any,
                 hash_every: Any) -> bool:
    """Whether :func:`chain_break` finds nothing in rows read from seq 1 whose hashes the
    store computed from their payloads (``hashes``, 32 bytes each) beside what their hash
    cells hold (``cells``, None for NULL), with the stream's recorded ``head`` and
    ``hash_every``: every seq in place, a hash stored at every checkpoint, equal to the one
    computed, none anywhere else, the last hash the head. The same verdict from whole
    columns compared in C, not a row at a time; False says only "not so": chain_break,
    over the same rows, tells where and why (its prev hashes need no check here: the store
    chained each row to the one before)."""
    if type(hash_every) is not int or hash_every not in HASH_EVERY_WRITTEN:
        return False
    n = len(seqs)
    # a stored cell equals a hash's hex only if it is those 32 bytes (stored_cell gives any
    # other stored value as a repr); the checkpoints all hold a hash, so the cells that are
    # None are exactly all the others when their count is theirs
    return (seqs == list(range(1, n + 1))
            and cells[hash_every - 1::hash_every] == hashes[hash_every - 1::hash_every]
            and cells.count(None) == n - n // hash_every
            and (hashes[-1].hex() if hashes else GENESIS) == head)


def verify_chain(rows: Iterable[ChainRow], expected_head: str | None = None,
                 hash_every: int | None = None) -> int | None:
    """The first seq at which a stream read from seq 1 stops checking out, else None.

    Row n must have ``seq == n``, ``prev_hash`` equal to row n-1's hash (:data:`GENESIS`
    for n = 1) and ``hash == chain_hash(prev_hash, payload)``, and a row the store read
    must store that hash where the stream's ``hash_every`` keeps one and nothing elsewhere
    (a changed payload is caught at the next checkpoint; without ``hash_every``, every hash
    it stores must be right); so a removed row (a gap) and reordered rows are caught at the
    first seq affected. With ``expected_head`` (the stream's recorded head hash), a changed
    last payload and missing rows at the end are reported too, as the first seq past the
    last row.
    """
    found = chain_break(rows, expected_head, hash_every)
    return None if found is None else found.seq


def _events(first: int, last: int) -> str:
    return f"event {last}" if first == last else f"events {first}-{last}"


def _changed(first: int, last: int) -> str:
    if first == last:
        return f"the payload of event {last} was changed"
    return f"a payload in events {first}-{last} was changed"
