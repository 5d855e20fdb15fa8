"""The SQLite event store: append-only, hash-chained streams of msgspec events.

One database holds many streams (one per game, one per league season). An event is
``(stream, seq, type, payload, prev_hash, hash)``; ``seq`` runs 1..n without gaps, the
payload is the event's bytes in its stream's payload format (events/formats.py: msgpack
for streams written before schema 4, a JSON array for new ones) and the hash chains each
payload to the one before:

    hash = BLAKE2b-256(bytes.fromhex(prev_hash) + payload)

with ``prev_hash`` of seq 1 the 64-zero :data:`GENESIS`, and of any other event the hash
of the event before it. The stream id is not hashed, so a
branch (:meth:`EventStore.copy_prefix`) shares its parent's first rows byte for byte and
a stream's head hash is a receipt anyone can recompute from the payloads.

The store is generic: it stores any tagged msgspec Struct. Every stream names the *system*
whose event union decodes it (a game system such as ``bones``, or ``league`` for a season),
and the store decodes a stream's payloads with that system's type from the mapping it was
built with, in the stream's format. It never drops or rewrites event rows; schema changes
are additive.

This module is the streams: creating, appending (one transaction, with the version the
caller decided from), branching and listing them. Beside it, each doing one thing behind
this module's API: events/schema.py (the tables, the schema versions and the migrations of
an older database), events/rows.py (reading rows, each hash computed from the payloads),
events/checkpoints.py (the chain and its checkpoints), events/blobs.py (content-addressed
blobs) and events/transactions.py.
"""

from __future__ import annotations

import itertools
import os
import re
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import msgspec

from events.base import tag_of
from events.blobs import Blobs, blob_hash
from events.checkpoints import (
    GENESIS,
    HASH_EVERY,
    HASH_EVERY_WRITTEN,
    Chained,
    ChainRow,
    chain_hash,
    chain_hashes,
    chain_holds,
    stored_cells,
    verify_chain,
)
from events.errors import CorruptDatabase, RinklogError, StreamConflict, UnknownGame
from events.formats import (
    FORMATS,
    NEW_STREAM_FORMAT,
    Decoder,
    check_format,
    decoder,
    encoder,
    struct_classes,
)
from events.rows import RowReader, StoredEvent, StoredRows
from events.schema import SCHEMA_VERSION, Layout, open_layout
from events.transactions import Transaction
from events.values import text
from events.views import refresh_views

__all__ = [
    "GENESIS",
    "ChainRow",
    "SCHEMA_VERSION",
    "EventStore",
    "StoredEvent",
    "StoredRows",
    "StreamInfo",
    "StreamRecord",
    "blob_hash",
    "chain_hash",
    "chain_hashes",
    "encode_meta",
    "verify_chain",
]

_META_ENCODER = msgspec.json.Encoder(order="sorted")
_ORPHAN = re.compile(r"\(rows of no stream, key (-?[0-9]+)\)")  # stream_ids' name of them

class StreamInfo(msgspec.Struct, frozen=True):
    """A stream as listed by :meth:`EventStore.streams`, without reading its events."""

    stream: str
    kind: str
    version: int
    head_hash: str
    meta: dict[str, Any]
    system: str  # the system whose events decode the stream
    format: int  # its payload format (events/formats.py)


class StreamRecord(msgspec.Struct, frozen=True):
    """A ``streams`` row exactly as stored (``meta`` as its JSON text), for the audit."""

    stream: str
    kind: str
    version: int
    head_hash: str
    meta: str
    system: str
    format: int  # the payload format (-1 when the stored value is not an integer)
    hash_every: int = 1  # a row's hash is stored when seq % hash_every == 0 (-1: not an int)


def encode_meta(meta: dict[str, Any]) -> str:
    """The stored text of a stream's metadata: JSON with sorted keys."""
    return _META_ENCODER.encode(meta).decode()


def _decode_meta(stream: str, text: str) -> dict[str, Any]:
    try:
        meta = msgspec.json.decode(text)
    except (msgspec.DecodeError, ValueError):
        meta = None
    if not isinstance(meta, dict):
        raise CorruptDatabase(f"stream {stream!r}: its metadata is not a JSON object "
                              "(run rinklog audit)")
    return meta



class EventStore:
    """An SQLite database of event streams and content-addressed blobs.

    ``decoders`` maps a system name to the type its streams' payloads decode to, typically a
    union of tagged event Structs; a stream is created naming its system, only instances of
    that system's Struct classes may be appended to it, and reading it decodes with that
    system's type, in the stream's payload format. Without ``decoders`` every stream decodes
    to plain values (enough for listing and raw tooling). A new stream is written in
    :data:`~events.formats.NEW_STREAM_FORMAT`; a branch keeps its parent's format.
    ``create=False`` (read commands) refuses to create a database that is not there yet and
    writes nothing on opening: an older database stays as it is and is read in its own
    layout. Opening for writing also makes the per-type SQL views of the events it decodes
    (events/views.py).
    """

    def __init__(self, path: str | Path, *, decoders: Mapping[str, Any] | None = None,
                 create: bool = True) -> None:
        self.path = Path(path)
        self._types = None if decoders is None else dict(decoders)
        self._classes = {} if decoders is None else {
            name: _frozen(struct_classes(event_type)) for name, event_type in decoders.items()
        }
        self._tags: dict[type, str] = {}
        self._type_keys: dict[str, int] = {}  # event_types, as committed
        self._orphans: dict[str, Any] = {}  # stream_ids' names of rows of no stream: key
        if not create and str(path) != ":memory:" and not self.path.exists():
            raise RinklogError(f"{self.path}: no such database")
        try:
            self._db = sqlite3.connect(str(path), isolation_level=None, timeout=10.0)
        except sqlite3.Error as err:
            raise RinklogError(f"{self.path}: cannot open database ({err})") from None
        try:
            self._layout: Layout = open_layout(self._db, self.path, create)
            if create and self._types is not None:
                refresh_views(self._db, self._event_classes())
        except BaseException:
            self._db.close()
            raise
        self._blobs = Blobs(self._db, self.path)
        self._reader = RowReader(self._db, self.path, self._layout)
        self.on_read: Callable[[str], None] | None = None
        """Told the id of every stream :meth:`read` or :meth:`iter_events` is about to read
        (a read command's check that what it shows is what was stored:
        replay/data/integrity.py)."""

    def refuse_as_output(self, path: str | Path) -> None:
        """No command writes over the database it reads, whatever ``--force`` says: refuse
        ``path`` when it is the database file or one of SQLite's files beside it (``-wal``,
        ``-shm``, ``-journal``), by name or as the same file under another name."""
        if str(self.path) == ":memory:":
            return
        database = self.path.resolve()
        own = [database, *(database.with_name(database.name + end)
                           for end in ("-wal", "-shm", "-journal"))]
        target = Path(path).resolve()
        if target in own or (target.is_file() and any(
                other.is_file() and os.path.samefile(target, other) for other in own)):
            raise RinklogError(f"{path}: is the database {self.path} (or a file SQLite keeps "
                               "beside it); choose another output path; nothing written")

    # --- plumbing ---------------------------------------------------------------------

    def _transaction(self) -> Transaction:
        return Transaction(self._db)

    def transaction(self) -> Transaction:
        """One transaction around several writes (and reads of what they wrote): every
        append and blob inside it commits with it or, on any exception, none does."""
        self._check_writable()
        return Transaction(self._db, on_rollback=self._type_keys.clear)

    @property
    def connection(self) -> sqlite3.Connection:
        """The database connection, for tables kept beside the streams in the same file (the
        read models), so they share its transactions. Never for the event tables: those
        change only through :meth:`append`."""
        return self._db

    def close(self) -> None:
        """Close the database; the store is unusable afterwards."""
        self._db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _tag_of(self, event: Any) -> str:
        cls = type(event)
        tag = self._tags.get(cls)
        if tag is None:
            if not isinstance(event, msgspec.Struct):
                raise TypeError(f"{cls.__name__} is not a msgspec Struct event")
            tag = self._tags[cls] = tag_of(cls)
        return tag

    def _stream_row(self, stream: str) -> tuple[str, int, str, str, str, Any, Any, Any] | None:
        """``(kind, version, head_hash, meta, system, key, format, hash_every)`` of a
        stream, or None; ``key`` is what its event rows are stored under (the stream id in
        an older layout)."""
        layout = self._layout
        return self._db.execute(
            f"SELECT kind, version, head_hash, meta, {layout.system_sql},"
            f" {'stream' if layout.version == 2 else 'key'}, {layout.format_sql},"
            f" {layout.hash_every_sql} FROM streams WHERE stream = ?", (stream,)
        ).fetchone()

    def _events_key(self, stream: str) -> Any:
        """What a stream's rows are stored under, whether or not it is listed (rows of no
        stream by the name :meth:`stream_ids` gave them)."""
        if self._layout.version == 2:
            return stream
        found = self._db.execute("SELECT key FROM streams WHERE stream = ?",
                                 (stream,)).fetchone()
        if found is not None:
            return found[0]
        orphan = _ORPHAN.fullmatch(stream)
        return int(orphan[1]) if orphan else self._orphans.get(stream)

    def _type_key(self, tag: str) -> int:
        """The ``event_types`` key of a tag, added if new (inside the caller's transaction:
        the cache learns it only once that commits)."""
        found = self._db.execute("SELECT key FROM event_types WHERE tag = ?", (tag,)).fetchone()
        if found is None:
            self._db.execute("INSERT INTO event_types (tag) VALUES (?)", (tag,))
            found = self._db.execute("SELECT key FROM event_types WHERE tag = ?",
                                     (tag,)).fetchone()
        return found[0]

    def _event_classes(self) -> frozenset[type]:
        """Every event class this store decodes, whatever the system."""
        return frozenset().union(*(c for c in self._classes.values() if c is not None))

    def _stored_format(self, stream: str, format: Any) -> int:
        """A stream's payload format as stored, if this rinklog reads it."""
        if type(format) is not int or format not in FORMATS:
            raise CorruptDatabase(
                f"{self.path}: stream {stream!r} has payload format {format!r}, which this "
                f"rinklog does not read (it reads {', '.join(map(str, FORMATS))}; run rinklog "
                "audit)")
        return format

    def _decoder_for(self, stream: str, system: str, format: Any) -> Decoder:
        """The decoder of a stream's system and payload format (plain values for a store
        without decoders)."""
        format = self._stored_format(stream, format)
        if self._types is None:
            return decoder(Any, format)
        event_type = self._types.get(system)
        if event_type is None:
            known = ", ".join(sorted(self._types))
            raise CorruptDatabase(
                f"{self.path}: stream {stream!r} is of system {text(system)!r}, which this "
                f"rinklog does not know (it knows {known}; run rinklog audit)"
            )
        return decoder(event_type, format)

    def _check_writable(self) -> None:
        if not self._layout.current:
            raise RinklogError(f"{self.path} is a schema-{self._layout.schema} database opened "
                               "read-only: a "
                               "command that writes (sim, branch, import...) migrates it first")

    def _check_system(self, stream: str, system: str | None) -> str:
        """The system a new stream is created with: named, and known to this store."""
        if not system:
            raise ValueError(f"stream {stream!r}: a new stream needs its system (system=...)")
        if self._types is not None and system not in self._types:
            raise ValueError(f"stream {stream!r}: unknown system {system!r} "
                             f"(this store decodes {', '.join(sorted(self._types))})")
        return system

    # --- writing ----------------------------------------------------------------------

    def append(
        self,
        stream: str,
        events: Sequence[Any],
        expected_version: int,
        *,
        kind: str = "game",
        system: str | None = None,
        meta: dict[str, Any] | None = None,
        format: int | None = None,
    ) -> int:
        """Append ``events`` after ``expected_version``; return the stream's new version.

        ``expected_version=0`` creates the stream with ``kind``, ``system`` (required: the
        system whose events it holds), ``meta`` and payload ``format`` (None:
        :data:`~events.formats.NEW_STREAM_FORMAT`); on a later append ``kind``, ``system``
        and ``format`` are ignored (the events are encoded in the stream's format) and
        ``meta``, if given, is merged as by :meth:`update_meta`. Every event must be of the
        stream's system. One transaction: if the stream's version is not
        ``expected_version``, :class:`StreamConflict` is raised and nothing is written.
        """
        if expected_version == 0:  # the system is checked when the stream is created
            target = system
            format = check_format(NEW_STREAM_FORMAT if format is None else format)
        else:  # a stream's system never changes; no row: the conflict is reported below
            row = self._stream_row(stream)
            target = row[4] if row else None
            format = self._stored_format(stream, row[6]) if row else NEW_STREAM_FORMAT
        classes = self._classes.get(target) if target else None
        tags, tag_of, encode = self._tags, self._tag_of, encoder(format)
        if classes is not None:
            for event in events:
                if type(event) not in classes:
                    raise TypeError(f"{type(event).__name__} is not an event of system "
                                    f"{target!r} (stream {stream!r})")
        encoded = [(tags.get(type(e)) or tag_of(e), encode(e)) for e in events]
        return self.append_encoded(stream, encoded, expected_version, kind=kind,
                                   system=system, meta=meta, format=format)

    def append_encoded(
        self,
        stream: str,
        encoded: Sequence[tuple[str, bytes]],
        expected_version: int,
        *,
        kind: str = "game",
        system: str | None = None,
        meta: dict[str, Any] | None = None,
        format: int | None = None,
    ) -> int:
        """:meth:`append` for events already encoded as ``(type tag, payload)`` in payload
        ``format`` (:func:`events.formats.encode_events`): the same checks, chain and single
        transaction (the payloads are not decoded here: the reader and the audit decode
        them). ``format`` None: the new stream's :data:`~events.formats.NEW_STREAM_FORMAT`,
        or the existing stream's own; a format that is not the existing stream's is refused.
        """
        return self._append_rows(stream, [tag for tag, _ in encoded],
                                 [payload for _, payload in encoded], None, expected_version,
                                 kind=kind, system=system, meta=meta, format=format)

    def append_chained(
        self,
        stream: str,
        rows: Chained,
        *,
        kind: str = "game",
        system: str | None = None,
        meta: dict[str, Any] | None = None,
        format: int | None = None,
    ) -> int:
        """A new stream of rows already encoded and chained by the caller
        (:func:`events.checkpoints.chained`; a season's worker, which audits exactly these
        rows): :meth:`append_encoded` with ``expected_version=0``, the checkpoint hashes
        and the head stored as given, so a wrong one is what ``rinklog audit`` reports.
        The writer only inserts: nothing of a game is hashed or rebuilt twice."""
        return self._append_rows(stream, rows.tags, rows.payloads, rows, 0, kind=kind,
                                 system=system, meta=meta, format=format)

    def _append_rows(self, stream: str, tags: list[str], payloads: list[bytes],
                     chained: Chained | None, expected_version: int, *, kind: str,
                     system: str | None, meta: dict[str, Any] | None,
                     format: int | None) -> int:
        if not stream:
            raise ValueError("stream id must not be empty")
        if format is not None:
            check_format(format)
        if chained is not None and (chained.every != HASH_EVERY or len(chained.checkpoints)
                                    != len(payloads) // HASH_EVERY):
            raise ValueError(f"stream {stream!r}: {len(chained.checkpoints)} checkpoint "
                             f"hashes, one every {chained.every} of {len(payloads)} rows; a "
                             f"new stream keeps one every {HASH_EVERY}")
        self._check_writable()
        db = self._db
        with self._transaction():
            current = self._stream_row(stream)
            actual = current[1] if current else 0
            if actual != expected_version:
                raise StreamConflict(
                    f"stream {stream!r} is at version {actual}, not the expected "
                    f"{expected_version}; nothing was written"
                )
            if current is None:
                system = self._check_system(stream, system)
                head, every = GENESIS, HASH_EVERY
                key = db.execute(
                    "INSERT INTO streams (stream, kind, version, head_hash, meta, system,"
                    " format, hash_every) VALUES (?, ?, 0, ?, ?, ?, ?, ?)",
                    (stream, kind, GENESIS, encode_meta(meta or {}), system,
                     NEW_STREAM_FORMAT if format is None else format, HASH_EVERY),
                ).lastrowid
            else:
                head, key, every = current[2], current[5], self._hash_every(stream, current[7])
                if format is not None and format != current[6]:
                    raise ValueError(f"stream {stream!r} is of payload format {current[6]!r}: "
                                     f"events encoded in format {format} cannot join it")
                if meta:
                    self._merge_meta(stream, current[3], meta)
            if not payloads:
                return actual
            cells, last = self._hash_cells(stream, payloads, chained, head, actual, every)
            type_keys = self._type_keys
            new_keys: dict[str, int] = {}
            for tag in dict.fromkeys(tags):  # in order of first appearance, as ever
                if tag not in type_keys:  # a tag new to this store
                    new_keys[tag] = self._type_key(tag)
            keys = {**type_keys, **new_keys}
            seq = actual + len(payloads)
            # the rows built by C-level iterators: the writer's share of a season game is
            # this and SQLite's own inserting
            # each payload and hash bound as a bytearray, a NULL hash cell as _NULL_CELL:
            # see _NULL_CELL (the same BLOBs and NULLs stored)
            rows = zip(itertools.repeat(key, len(tags)), range(actual + 1, seq + 1),
                       map(keys.__getitem__, tags), map(bytearray, payloads), cells,
                       strict=True)
            try:
                db.executemany(
                    "INSERT INTO events (stream_key, seq, type_key, payload, hash)"
                    " VALUES (?, ?, ?, ?, nullif(?, 0))",
                    rows,
                )
            except sqlite3.IntegrityError:
                raise CorruptDatabase(
                    f"{self.path}: stream {stream!r} has rows past its recorded version {actual}"
                ) from None
            db.execute(
                "UPDATE streams SET version = ?, head_hash = ? WHERE key = ?",
                (seq, last.hex(), key),
            )
        type_keys.update(new_keys)  # committed
        return seq

    def _hash_cells(self, stream: str, payloads: list[bytes], chained: Chained | None,
                    head: Any, actual: int, every: int) -> tuple[list[Any], bytes]:
        """The hash column of the rows appended after seq ``actual`` (a checkpoint hash
        every ``every`` rows, bound as bytearrays, the others :data:`_NULL_CELL`), and the
        stream's new head: the chain goes on from ``head``, or, for a new stream written
        whole, is ``chained`` as given."""
        if chained is None:
            try:
                hashes = chain_hashes(payloads, head)
            except (TypeError, ValueError):
                raise CorruptDatabase(f"{self.path}: stream {stream!r} has a malformed "
                                      "head hash (run rinklog audit)") from None
            cells = [_NULL_CELL if cell is None else bytearray(cell)
                     for cell in stored_cells(hashes, actual + 1, every)]
            return cells, hashes[-1]
        # a new stream: its checkpoints are every HASH_EVERY-th row's from seq 1
        cells = [_NULL_CELL] * len(payloads)
        cells[every - 1::every] = map(bytearray, chained.checkpoints)
        return cells, chained.head

    def update_meta(self, stream: str, **fields: Any) -> dict[str, Any]:
        """Merge ``fields`` into a stream's metadata (not hashed); return the merged dict."""
        with self._transaction():
            current = self._stream_row(stream)
            if current is None:
                raise UnknownGame(f"no stream {stream!r} in {self.path}")
            return self._merge_meta(stream, current[3], fields)

    def _merge_meta(self, stream: str, old: str, fields: dict[str, Any]) -> dict[str, Any]:
        merged = {**_decode_meta(stream, old), **fields}
        self._db.execute(
            "UPDATE streams SET meta = ? WHERE stream = ?", (encode_meta(merged), stream)
        )
        return merged

    def copy_prefix(
        self, parent: str, child: str, upto_seq: int, meta: dict[str, Any] | None = None
    ) -> int:
        """Create ``child`` holding ``parent``'s rows 1..upto_seq byte for byte (a branch).

        The child gets the parent's kind, system, payload format and hash_every (it shares
        the parent's bytes, its stored hashes too) and the metadata ``{"parent": parent,
        "parent_seq": upto_seq, **meta}``; its head hash is the parent's hash at
        ``upto_seq``. Returns the child's version (``upto_seq``).
        """
        self._check_writable()
        with self._transaction():
            source = self._stream_row(parent)
            if source is None:
                raise UnknownGame(f"no stream {parent!r} in {self.path}")
            if not 0 <= upto_seq <= source[1]:
                raise ValueError(
                    f"cannot branch {parent!r} at event {upto_seq}: it has {source[1]} events"
                )
            if self._stream_row(child) is not None:
                raise StreamConflict(f"stream {child!r} already exists; nothing was written")
            head = GENESIS
            if upto_seq:  # the hash of row upto_seq, from the checkpoint before it
                last = next(self._reader.rows(parent, source[5], upto_seq, upto_seq, None), None)
                if last is None or last.seq != upto_seq:
                    raise CorruptDatabase(f"{self.path}: stream {parent!r} lacks event {upto_seq}")
                head = last.hash
            child_meta = {"parent": parent, "parent_seq": upto_seq, **(meta or {})}
            key = self._db.execute(
                "INSERT INTO streams (stream, kind, version, head_hash, meta, system, format,"
                " hash_every) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (child, source[0], upto_seq, head, _META_ENCODER.encode(child_meta).decode(),
                 source[4], source[6], source[7]),
            ).lastrowid
            try:
                self._db.execute(
                    "INSERT INTO events (stream_key, seq, type_key, payload, hash)"
                    " SELECT ?, seq, type_key, payload, hash FROM events"
                    " WHERE stream_key = ? AND seq <= ? ORDER BY seq",
                    (key, source[5], upto_seq),
                )
            except sqlite3.IntegrityError:  # rows a hand edit left under the new key
                raise CorruptDatabase(f"{self.path}: rows of no stream are in the way of "
                                      f"{child!r} (run rinklog audit)") from None
        return upto_seq

    def put_blob(self, content: bytes, media_type: str) -> str:
        """Store ``content`` once under its BLAKE2b-256 hex and return that hash.

        Idempotent: storing the same bytes again writes nothing (the first media type stays).
        """
        return self._blobs.put(content, media_type)

    # --- reading ----------------------------------------------------------------------

    def get_blob(self, digest: str) -> bytes:
        """The bytes stored under ``digest``; checked against it on the way out."""
        return self._blobs.get(digest)

    def has_blob(self, digest: str) -> bool:
        """Whether a blob with this hash is stored."""
        return self._blobs.has(digest)

    def exists(self, stream: str) -> bool:
        """Whether the stream exists (it may hold no events yet)."""
        return self._stream_row(stream) is not None

    def version(self, stream: str) -> int:
        """The seq of the stream's last event; 0 for a stream that does not exist yet."""
        row = self._stream_row(stream)
        return row[1] if row else 0

    def head_hash(self, stream: str) -> str:
        """The hash of the stream's last event (:data:`GENESIS` when it has none)."""
        row = self._stream_row(stream)
        if row is None:
            raise UnknownGame(f"no stream {stream!r} in {self.path}")
        return row[2]

    def info(self, stream: str) -> StreamInfo:
        """One stream's listing entry."""
        row = self._stream_row(stream)
        if row is None:
            raise UnknownGame(f"no stream {stream!r} in {self.path}")
        return StreamInfo(stream, row[0], row[1], row[2], _decode_meta(stream, row[3]), row[4],
                          row[6])

    def streams(self, kind: str | None = None) -> list[StreamInfo]:
        """Every stream (of ``kind``, if given) in creation order, without reading events."""
        sql = (f"SELECT stream, kind, version, head_hash, meta, {self._layout.system_sql},"
               f" {self._layout.format_sql} FROM streams")
        args: tuple[str, ...] = ()
        if kind is not None:
            sql += " WHERE kind = ?"
            args = (kind,)
        return [
            StreamInfo(s, k, v, h, _decode_meta(s, m), system, format)
            for s, k, v, h, m, system, format in self._db.execute(sql + " ORDER BY rowid", args)
        ]

    # --- what the audit reads as stored ----------------------------------------------

    def stream_record(self, stream: str) -> StreamRecord | None:
        """A stream's ``streams`` row as stored, or None."""
        layout = self._layout
        row = self._db.execute(
            f"SELECT stream, kind, version, head_hash, meta, {layout.system_sql},"
            f" {layout.format_sql}, {layout.hash_every_sql} FROM streams WHERE stream = ?",
            (stream,),
        ).fetchone()
        if row is None:
            return None
        stream_id, kind, version, head, meta, system, format, every = row
        # As stored, whatever SQLite's loose typing let a hand edit put there: a version,
        # format or hash_every that is not an integer reads as -1, which matches no stream,
        # no format and no hash_every, and the rest as text.
        return StreamRecord(text(stream_id), text(kind),
                            version if type(version) is int else -1, text(head), text(meta),
                            text(system), format if type(format) is int else -1,
                            every if type(every) is int else -1)

    def stream_ids(self) -> list[str]:
        """Every stream named in the ``streams`` table or by an event row (rows of a stream
        the table does not list are orphans the audit reports)."""
        listed = [r[0] for r in self._db.execute("SELECT stream FROM streams ORDER BY rowid")]
        seen = set(listed)
        if self._layout.version == 2:
            orphans = [r[0] for r in self._db.execute("SELECT DISTINCT stream FROM events")
                       if r[0] not in seen]
            return listed + sorted(orphans, key=str)
        # the stream id of rows whose stream_key names no stream is lost: they are named
        # for their key (and read by that name)
        for (key,) in self._db.execute(
                "SELECT DISTINCT stream_key FROM events WHERE stream_key NOT IN"
                " (SELECT key FROM streams)"):
            self._orphans[f"(rows of no stream, key {key!r})"] = key
        return listed + sorted(name for name in self._orphans if name not in seen)

    def blob_record(self, digest: str) -> tuple[bytes, str] | None:
        """A blob's content and media type as stored (unchecked), or None."""
        return self._blobs.record(digest)

    def blob_hashes(self) -> list[str]:
        """The hash column of every stored blob."""
        return self._blobs.hashes()

    def raw_rows(self, stream: str) -> list[StoredEvent]:
        """A stream's event rows as stored, undecoded, whether or not it is listed; a value
        a hand edit left with another SQLite type is read so that it cannot check out (a
        payload as bytes, hashes and type as text, a seq that is not an integer as -1)."""
        key = self._events_key(stream)
        return [] if key is None else self._reader.raw(stream, key)

    def stored_rows(self, stream: str) -> Sequence[StoredEvent]:
        """:meth:`raw_rows` as the audit reads them: in the compact layout (schema 3 on) a
        :class:`~events.rows.StoredRows` (columns, each row made when it is read), else the
        list."""
        key = self._events_key(stream)
        if key is None:
            return []
        return self._reader.stored(key) if self._layout.version >= 3 else \
            self._reader.raw(stream, key)

    def read(
        self, stream: str, start: int = 1, stop: int | None = None, *, decode: bool = True
    ) -> list[StoredEvent]:
        """The stream's events with ``start <= seq <= stop`` (both inclusive), in order.

        ``decode=False`` leaves ``event`` None (for hash checks and export of raw bytes).
        """
        return list(self._rows(stream, start, stop, decode))

    def iter_events(
        self, stream: str, start: int = 1, *, decode: bool = True
    ) -> Iterator[StoredEvent]:
        """Like :meth:`read` but lazily, a chunk of rows at a time."""
        return self._rows(stream, start, None, decode)

    def read_tagged(self, stream: str, tags: Sequence[str]) -> list[Any]:
        """The stream's events of the types ``tags`` names, in order, decoded, the others
        left unread: what a season reads of its earlier games for who they put out (a
        few events of a DICE Hockey game's ~900; replay/leagues/availability.py). As
        :meth:`read`, nothing is checked against the hashes: each stream's audit checks
        its own rows."""
        row = self._stream_row(stream)
        if row is None:
            raise UnknownGame(f"no stream {stream!r} in {self.path}")
        if self.on_read is not None:
            self.on_read(stream)
        decoder = self._decoder_for(stream, row[4], row[6])
        if self._layout.version < 3:
            return [r.event for r in self._reader.rows(stream, row[5], 1, -1, decoder,
                                                       text(row[4])) if r.type in tags]
        return self._reader.tagged(stream, row[5], tags, decoder, text(row[4]))

    def _rows(
        self, stream: str, start: int, stop: int | None, decode: bool
    ) -> Iterator[StoredEvent]:
        row = self._stream_row(stream)
        if row is None:
            raise UnknownGame(f"no stream {stream!r} in {self.path}")
        if self.on_read is not None:
            self.on_read(stream)
        decoder = self._decoder_for(stream, row[4], row[6]) if decode else None  # once a read
        return self._reader.rows(stream, row[5], start, stop if stop is not None else -1,
                                 decoder, text(row[4]))

    def verify(self, stream: str) -> int | None:
        """Check a stream's hash chain and recorded head; the first bad seq, or None."""
        row = self._stream_row(stream)
        if row is None:
            raise UnknownGame(f"no stream {stream!r} in {self.path}")
        return verify_chain(self._reader.rows(stream, row[5], 1, -1, None), expected_head=row[2],
                            hash_every=row[7] if type(row[7]) is int else -1)

    def chain_holds(self, stream: str) -> bool:
        """Quickly: whether a stream's chain holds (its payloads hash to every hash it
        stores and to its head); False: :meth:`verify` or ``chain_break`` over
        :meth:`read` rows tells where. An older layout (schema 2) is verified whole."""
        row = self._stream_row(stream)
        if row is None:
            raise UnknownGame(f"no stream {stream!r} in {self.path}")
        if self._layout.version < 3:
            return self.verify(stream) is None
        cursor = self._db.execute("SELECT seq, payload, hash FROM events WHERE stream_key = ?"
                                  " ORDER BY seq", (row[5],))
        return chain_holds(cursor, row[2], row[7], row[1])

    def _hash_every(self, stream: str, every: Any) -> int:
        """A stream's hash_every as stored, if it is one rinklog writes."""
        if type(every) is not int or every not in HASH_EVERY_WRITTEN:
            raise CorruptDatabase(f"{self.path}: stream {stream!r} has hash_every {every!r}, "
                                  "which rinklog does not write (run rinklog audit)")
        return every


# What the events' insert binds for a NULL hash cell (``nullif(?, 0)`` stores NULL). Python
# 3.11's sqlite3 "adapts" every bound value that is not exactly an int, float, str or
# bytearray, bytes and None included: it looks the value's type up among the registered
# adapters, then asks ``sqlite3.PrepareProtocol`` for ``__adapt__`` (an AttributeError
# formatted and cleared) and the value for ``__conform__``: about 3,500 instructions a value,
# two a row (its payload and hash cell), 11% of a season writer's instructions a game
# (callgrind, docs/benchmarks.md). An int and a bytearray bind directly: a bytearray as the
# same BLOB its bytes would be, so every stored byte is what it was.
_NULL_CELL = 0


def _frozen(classes: list[type] | None) -> frozenset[type] | None:
    return None if classes is None else frozenset(classes)
