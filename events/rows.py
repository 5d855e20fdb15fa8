"""Reading a stream's rows: each hash computed from the payloads as it is read, the stored
cell beside it, the payload decoded with the stream's system's type (docs/storage.md).

No stored hash is trusted: in the compact layout (schema 3 on) a row's hash is hashed
forward from the last checkpoint before the first row asked for (events/checkpoints.py);
an older layout's stored hashes are read as claims, which the chain check recomputes."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from itertools import repeat
from operator import itemgetter
from pathlib import Path
from typing import Any

import msgspec

from events.base import tag_of
from events.checkpoints import BLAKE2B_256, GENESIS, chain_hashes, stored_cell
from events.errors import CorruptDatabase
from events.formats import Decoder
from events.schema import Layout
from events.values import blob_bytes, text

__all__ = ["READ_CHUNK", "RowReader", "StoredEvent", "StoredRows"]

READ_CHUNK = 2000

_COLUMNS = tuple(map(itemgetter, range(4)))  # a row's seq, type key, payload, hash cell


class StoredEvent(msgspec.Struct, frozen=True, gc=False):
    """One row of a stream: the decoded event with its bytes and hashes.

    ``event`` is None when the row was read with ``decode=False``. ``prev_hash`` and
    ``hash`` are the chain's, computed from the payloads when the store read the row;
    ``stored`` is then what its hash cell holds (hex, None for NULL: a stream stores its
    hashes only at checkpoints, events/checkpoints.py), which ``verify_chain`` holds to
    ``hash``. A row made otherwise (an older layout's, a forger's) leaves ``stored`` UNSET:
    its ``hash`` is a claim, which ``verify_chain`` recomputes.
    """

    seq: int
    type: str
    event: Any
    payload: bytes
    prev_hash: str
    hash: str
    stored: str | None | msgspec.UnsetType = msgspec.UNSET


class StoredRows(Sequence[StoredEvent]):
    """A whole stream's rows as the compact layout stores them, read from seq 1 in columns:
    each row's seq, type tag, payload, hash cell (None for NULL) and hash, computed from the
    payloads (32 bytes: hex only where a row is made). A row is a :class:`StoredEvent` made
    when it is read (``rows[i]``, iterating), as :meth:`RowReader.raw` lists them.

    Why columns: the audit (replay/leagues/audit_stream.py) holds a stream's stored cells to
    its hashes and decodes its payloads, and reads two rows whole (the first, a branch's
    parent); each column is taken from the rows SQLite gives in C (``map(itemgetter(i),
    rows)``), the chain is hashed in one loop that makes nothing but the hashes
    (:func:`events.checkpoints.chain_hashes`), and the check compares whole columns
    (:func:`events.checkpoints.columns_hold`): about 3,900 instructions a row less than a
    ``StoredEvent`` made and read back a row, 80.2 -> 75.3 M an audited game
    (docs/benchmarks.md, seventh session)."""

    __slots__ = ("cells", "hashes", "payloads", "seqs", "types")

    def __init__(self, seqs: list[int], types: list[str], payloads: list[bytes],
                 cells: list[Any], hashes: list[bytes]) -> None:
        self.seqs, self.types, self.payloads = seqs, types, payloads
        self.cells, self.hashes = cells, hashes

    def __len__(self) -> int:
        return len(self.seqs)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        i = range(len(self.seqs))[index]  # IndexError past either end, as a list's
        cell = self.cells[i]
        return StoredEvent(self.seqs[i], self.types[i], None, self.payloads[i],
                           self.hashes[i - 1].hex() if i else GENESIS, self.hashes[i].hex(),
                           None if cell is None else stored_cell(cell))

    def __iter__(self) -> Iterator[StoredEvent]:
        prev = GENESIS
        for seq, type_, payload, cell, digest in zip(self.seqs, self.types, self.payloads,
                                                     self.cells, self.hashes, strict=True):
            this = digest.hex()
            yield StoredEvent(seq, type_, None, payload, prev, this,
                              None if cell is None else stored_cell(cell))
            prev = this


class RowReader:
    """The ``events`` rows of one database, in the layout it is read in."""

    def __init__(self, db: sqlite3.Connection, path: Path, layout: Layout) -> None:
        self._db = db
        self._path = path
        self._layout = layout

    def rows(self, stream: str, key: Any, start: int, stop: int,
             decoder: Decoder | None, system: str = "") -> Iterator[StoredEvent]:
        """Rows of ``stream`` (stored under ``key``) from ``start`` to ``stop`` (-1: the
        end), decoded with ``decoder`` (the stream's system's, in its format) unless it is
        None."""
        chunks = (self._compact(key, start, stop) if self._layout.version >= 3
                  else self._old(key, start, stop))
        decode_one = None if decoder is None else decoder.decode
        tags: dict[type, str] = {}
        for chunk in chunks:  # the decoding inline: it runs once for every event read
            for seq, type_, payload, prev_hash, digest, cell in chunk:
                event = None
                if decode_one is not None:
                    try:
                        if not isinstance(payload, bytes):
                            raise ValueError(f"a {type(payload).__name__} payload, not bytes")
                        event = decode_one(payload)
                    except (msgspec.DecodeError, ValueError) as err:  # ValueError: bad UTF-8
                        raise self._undecodable(stream, seq, system, err) from None
                    cls = type(event)
                    tag = tags.get(cls) or tags.setdefault(cls, tag_of(cls))
                    if tag != type_ and isinstance(event, msgspec.Struct):
                        raise self._mistyped(stream, seq, type_, tag)
                yield StoredEvent(seq, type_, event, payload, prev_hash, digest, cell)

    def tagged(self, stream: str, key: Any, tags: Sequence[str], decoder: Decoder,
               system: str) -> list[Any]:
        """The events of a compact-layout stream (stored under ``key``) of the types
        ``tags`` names, in seq order, decoded with ``decoder`` as :meth:`rows` decodes
        (a payload that does not decode, or decodes as another type, is refused)."""
        keys = {k: text(tag) for k, tag in self._db.execute(
            f"SELECT key, tag FROM event_types WHERE tag IN ({', '.join('?' * len(tags))})",
            tuple(tags))}
        if not keys:
            return []
        found = self._db.execute(
            f"SELECT seq, type_key, payload FROM events WHERE stream_key = ? AND seq >= 1"
            f" AND type_key IN ({', '.join('?' * len(keys))}) ORDER BY seq",
            (key, *keys)).fetchall()
        events = []
        for seq, type_key, payload in found:
            try:
                if not isinstance(payload, bytes):
                    raise ValueError(f"a {type(payload).__name__} payload, not bytes")
                event = decoder.decode(payload)
            except (msgspec.DecodeError, ValueError) as err:  # ValueError: bad UTF-8
                raise self._undecodable(stream, seq, system, err) from None
            if tag_of(type(event)) != keys[type_key]:
                raise self._mistyped(stream, seq, keys[type_key], tag_of(type(event)))
            events.append(event)
        return events

    def _undecodable(self, stream: str, seq: Any, system: str, err: Exception) -> CorruptDatabase:
        return CorruptDatabase(f"{self._path}: stream {stream!r} event {seq} does not decode "
                               f"as an event of system {system!r} ({err})")

    def _mistyped(self, stream: str, seq: Any, stored: str, decoded: str) -> CorruptDatabase:
        return CorruptDatabase(f"{self._path}: stream {stream!r} event {seq} is stored as "
                               f"{stored!r} but decodes as {decoded!r}")

    def raw(self, stream: str, key: Any) -> list[StoredEvent]:
        """A stream's rows as stored, undecoded; a value a hand edit left with another
        SQLite type is read so that it cannot check out (a payload as bytes, hashes and
        type as text, a seq that is not an integer as -1). One loop over the chunks, each
        row made once."""
        if self._layout.version >= 3:
            return list(self.stored(key))
        chunks = self._old(key, 1, -1)
        out: list[StoredEvent] = []
        append = out.append
        for chunk in chunks:
            for seq, type_, payload, prev_hash, digest, cell in chunk:
                if (type(seq) is int and type(type_) is str and type(payload) is bytes
                        and type(prev_hash) is str and type(digest) is str):
                    append(StoredEvent(seq, type_, None, payload, prev_hash, digest, cell))
                else:
                    append(StoredEvent(seq if type(seq) is int else -1, text(type_), None,
                                       blob_bytes(payload), text(prev_hash), text(digest),
                                       cell))
        return out

    def stored(self, key: Any) -> StoredRows:
        """A compact-layout stream's rows (stored under ``key``) from seq 1, as
        :meth:`raw` reads them, in columns (:class:`StoredRows`: what the audit reads)."""
        cursor = self._db.execute(
            "SELECT seq, type_key, payload, hash FROM events WHERE stream_key = ? AND seq >= 1"
            " ORDER BY seq", (key,))
        # each type key's tag as raw() gives it ("" for a key no event_types row names), read
        # in the rows' read transaction (see _compact)
        tags = {k: "" if tag is None else text(tag)
                for k, tag in self._db.execute("SELECT key, tag FROM event_types")}
        found = cursor.fetchall()
        if not found:
            return StoredRows([], [], [], [], [])
        # a column each, from C (not zip(*found): an iterator object a row, which sets off
        # one of the garbage collector's passes over the young objects about every stream)
        seqs, keys, payloads, cells = (list(map(column, found)) for column in _COLUMNS)
        # What a hand edit left with another SQLite type, read so that it cannot check out:
        # a seq as -1, a payload as bytes. Looked for only where the column is not what
        # rinklog writes: the seqs 1, 2, 3... (one comparison of lists), every payload a
        # BLOB (the chain's ``prev + payload`` concatenates bytes alone: any other value
        # SQLite gives, text, a number or NULL, is a TypeError).
        if seqs != list(range(1, len(seqs) + 1)):
            seqs = [seq if type(seq) is int else -1 for seq in seqs]
        try:
            hashes = chain_hashes(payloads)
        except TypeError:
            payloads = [blob_bytes(payload) for payload in payloads]
            hashes = chain_hashes(payloads)
        types = list(map(tags.get, keys, repeat("")))
        return StoredRows(seqs, types, payloads, cells, hashes)

    def _compact(self, key: Any, start: int, stop: int) -> Iterator[list[tuple[Any, ...]]]:
        # hashed forward from the last hash stored before ``start`` (GENESIS if none): the
        # rows from there to ``start`` are read for their payloads
        first, prev = 1, bytes(32)
        if start > 1:
            found = self._db.execute(
                "SELECT seq, hash FROM events WHERE stream_key = ? AND seq < ?"
                " AND typeof(hash) = 'blob' AND length(hash) = 32"
                " ORDER BY seq DESC LIMIT 1", (key, start)).fetchone()
            if found is not None and type(found[0]) is int:
                first, prev = found[0] + 1, found[1]
        cursor = self._db.execute(
            "SELECT seq, type_key, payload, hash FROM events"
            " WHERE stream_key = ? AND seq >= ? AND (? < 0 OR seq <= ?)"
            " ORDER BY seq",
            (key, min(first, start), stop, stop),
        )
        # Each row's type key named here, from the few rows of event_types read once a
        # stream (what a LEFT JOIN gives: a key no row names has no tag), not by a join
        # that makes a new string of the tag for every row. Read while the rows' cursor
        # is open: the same read transaction, so the same snapshot of the database.
        tags = dict(self._db.execute("SELECT key, tag FROM event_types"))
        return _linked(cursor, prev, start, tags)

    def _old(self, key: Any, start: int, stop: int) -> Iterator[list[tuple[Any, ...]]]:
        cursor = self._db.execute(
            "SELECT seq, type, payload, prev_hash, hash FROM events"
            " WHERE stream = ? AND seq >= ? AND (? < 0 OR seq <= ?) ORDER BY seq",
            (key, start, stop, stop),
        )
        return ([(*r, msgspec.UNSET) for r in chunk]  # hashes as stored: claims
                for chunk in iter(lambda: cursor.fetchmany(READ_CHUNK), []))


def _linked(cursor: sqlite3.Cursor, prev: bytes, start: int,
            tags: dict[Any, Any]) -> Iterator[list[tuple[Any, ...]]]:
    """Compact-layout rows ``(seq, type key, payload, hash cell)`` a chunk at a time as
    ``(seq, type, payload, prev_hash, hash, stored)`` from seq ``start`` on: each hash
    computed from the payloads, forward from ``prev`` (the 32-byte hash of the row before
    the first one read; the rows before ``start`` are read only for that), each prev_hash
    the hash of the row before, its type the tag ``tags`` gives its type key ("" for none),
    ``stored`` what its hash cell holds (events.checkpoints.stored_cell)."""
    empty = BLAKE2B_256
    prev_hex = prev.hex()
    tag_of_key = tags.get
    while chunk := cursor.fetchmany(READ_CHUNK):
        out = []
        for seq, type_key, payload, cell in chunk:
            tag = tag_of_key(type_key)
            blake = empty.copy()
            blake.update(prev + (payload if type(payload) is bytes else blob_bytes(payload)))
            prev = blake.digest()
            digest = prev.hex()  # not hexdigest(): BLAKE2b's last block hashed once, not twice
            if type(seq) is not int or seq >= start:
                out.append((seq, "" if tag is None else tag, payload, prev_hex, digest,
                            None if cell is None else stored_cell(cell)))
            prev_hex = digest
        yield out
