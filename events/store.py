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

Schema versions (docs/storage.md): 1 had no ``streams.system``; 2 adds it; 3 is the
compact layout: an ``events`` row is ``(stream_key, seq, type_key, payload, hash)``, keyed
by the integer ``streams.key`` and ``event_types.key``, the hash as its 32 raw bytes and no
stored ``prev_hash`` (it is the previous row's hash); the ``event_rows`` view shows the
rows with schema 2's columns, as text, for plain SQL. Schema 4 adds ``streams.format``, the
payload format of each stream (1 for every stream written before), and the per-type views
of format-2 events (events/views.py). Schema 5 adds ``streams.hash_every``: a stream created
since stores its rows' hashes only at checkpoints (every 32nd row, NULL between;
events/checkpoints.py), every older stream keeps 1 (every row's hash). A row's hash is
always computed from the payloads when it is read, so the API is unchanged. Opening a
schema-1 to -4 database for writing migrates it to 5 in one transaction (schema 1's system
is filled from ``kind``: every stream schema 1 ever held was a Hockey Bones game or a
season), after checking that every row of schema 1 or 2 links to the one before, so no
stored ``prev_hash`` that says otherwise is dropped. A read-only open (``create=False``)
writes nothing and reads an older layout as it is (a schema-1 stream's system from its
``kind``, every older stream as format 1 and hash_every 1). Payloads and hashes are never
changed, so every head hash, receipt and export stays as it was.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import msgspec

from events.base import tag_of
from events.checkpoints import (
    GENESIS,
    HASH_EVERY,
    HASH_EVERY_WRITTEN,
    Chained,
    ChainRow,
    chain_break,
    chain_hashes,
    checkpoint_cells,
    stored_cell,
    stored_cells,
)
from events.errors import CorruptDatabase, RinklogError, StreamConflict, UnknownGame
from events.formats import (
    FORMATS,
    MSGPACK,
    NEW_STREAM_FORMAT,
    Decoder,
    check_format,
    decoder,
    encoder,
    struct_classes,
)
from events.views import refresh_views

__all__ = [
    "GENESIS",
    "ChainRow",
    "SCHEMA_VERSION",
    "EventStore",
    "StoredEvent",
    "StreamInfo",
    "StreamRecord",
    "blob_hash",
    "chain_hash",
    "chain_hashes",
    "encode_meta",
    "verify_chain",
]

SCHEMA_VERSION = 5

_META_ENCODER = msgspec.json.Encoder(order="sorted")
_OUR_TABLES = frozenset({"rinklog_meta", "events", "streams", "event_types", "blobs"})
_OLD_TABLES = frozenset({"rinklog_meta", "events", "streams", "blobs"})  # schemas 1 and 2
_READ_CHUNK = 2000

_BLOBS = """
CREATE TABLE IF NOT EXISTS blobs (
    hash TEXT PRIMARY KEY,  -- BLAKE2b-256 hex of content
    media_type TEXT NOT NULL,
    content BLOB NOT NULL
);
"""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rinklog_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS streams (
    key INTEGER PRIMARY KEY AUTOINCREMENT,  -- events.stream_key, never reused
    stream TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    version INTEGER NOT NULL,
    head_hash TEXT NOT NULL,  -- hex
    meta TEXT NOT NULL,  -- JSON object
    system TEXT NOT NULL,  -- the system whose events decode the stream
    format INTEGER NOT NULL DEFAULT 1,  -- its payload format (events/formats.py)
    hash_every INTEGER NOT NULL DEFAULT 1  -- a row's hash is stored when seq % it = 0
);
CREATE TABLE IF NOT EXISTS event_types (
    key INTEGER PRIMARY KEY,  -- events.type_key
    tag TEXT NOT NULL UNIQUE  -- the event's tag (its first value in the payload)
);
CREATE TABLE IF NOT EXISTS events (
    stream_key INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    type_key INTEGER NOT NULL,
    payload BLOB NOT NULL,  -- the event's bytes in the stream's format
    hash BLOB,  -- BLAKE2b-256 (32 bytes) of the previous row's hash + payload, at a
                -- checkpoint of the stream's hash_every (NULL elsewhere)
    PRIMARY KEY (stream_key, seq)
) WITHOUT ROWID;
""" + _BLOBS + f"""
CREATE VIEW IF NOT EXISTS event_rows (stream, seq, type, payload, prev_hash, hash) AS
SELECT s.stream, e.seq, t.tag,
       CASE s.format WHEN 2 THEN CAST(e.payload AS TEXT) ELSE e.payload END,
       CASE WHEN e.seq = 1 THEN '{GENESIS}' ELSE (SELECT lower(hex(p.hash)) FROM events p
            WHERE p.stream_key = e.stream_key AND p.seq = e.seq - 1
            AND p.hash IS NOT NULL) END,
       CASE WHEN e.hash IS NOT NULL THEN lower(hex(e.hash)) END
FROM events e JOIN streams s ON s.key = e.stream_key
LEFT JOIN event_types t ON t.key = e.type_key;
"""

# Schema 2's tables, for a database that lacks one of them when it is migrated.
_SCHEMA_2 = """
CREATE TABLE IF NOT EXISTS events (
    stream TEXT NOT NULL,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    payload BLOB NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (stream, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS streams (
    stream TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    version INTEGER NOT NULL,
    head_hash TEXT NOT NULL,
    meta TEXT NOT NULL,
    system TEXT NOT NULL
);
""" + _BLOBS

# Schema 1 -> 2: every stream a schema-1 database holds is a season (league events) or a
# game of the one system rinklog then played (Hockey Bones, with FaceOff 2008 as a ruleset).
_SCHEMA1_SYSTEM = "CASE kind WHEN 'season' THEN 'league' ELSE 'bones' END"
_MIGRATE_1_TO_2 = (
    "ALTER TABLE streams ADD COLUMN system TEXT NOT NULL DEFAULT ''",
    f"UPDATE streams SET system = {_SCHEMA1_SYSTEM}",
)

# Schema 2 -> the compact layout, run after _UNLINKED found every row linked to the one
# before. Payloads are copied as stored (a text one a hand edit left stays text); a hash was
# checked to be 64 lowercase hex digits, so its 32 bytes give back the same text. Every
# stream keeps payload format 1 and hash_every 1 (the columns' defaults).
_MIGRATE_2_TO_5 = (
    "ALTER TABLE events RENAME TO events_2",
    "ALTER TABLE streams RENAME TO streams_2",
    *(s for s in _SCHEMA.split(";") if "rinklog_meta" not in s and "blobs" not in s),
    "INSERT INTO streams (stream, kind, version, head_hash, meta, system)"
    " SELECT stream, kind, version, head_hash, meta, system FROM streams_2 ORDER BY rowid",
    "INSERT INTO event_types (tag) SELECT DISTINCT type FROM events_2 ORDER BY type",
    "INSERT INTO events (stream_key, seq, type_key, payload, hash)"
    " SELECT s.key, e.seq, t.key, e.payload, rinklog_unhex(e.hash) FROM events_2 e"
    " JOIN streams s ON s.stream = e.stream JOIN event_types t ON t.tag = e.type"
    " ORDER BY s.key, e.seq",
    "DROP TABLE events_2",
    "DROP TABLE streams_2",
)

# Schema 3 -> 4: every stream written so far is msgpack (format 1).
_MIGRATE_3_TO_4 = ("ALTER TABLE streams ADD COLUMN format INTEGER NOT NULL DEFAULT 1",)

# Schema 4 -> 5: every stream written so far stores every row's hash (hash_every 1); the
# events table's hash column loses its NOT NULL (_nullable_hash) and event_rows learns to
# show the NULL cells between checkpoints.
_MIGRATE_4_TO_5 = (
    "ALTER TABLE streams ADD COLUMN hash_every INTEGER NOT NULL DEFAULT 1",
    "DROP VIEW IF EXISTS event_rows",
    next(s for s in _SCHEMA.split(";") if "VIEW" in s),
)
_HASH_NOT_NULL = re.compile(r"\bhash\s+BLOB\s+NOT\s+NULL\b", re.IGNORECASE)

# The first row (stream, seq) of schema 2 that does not link to the row before it (seq
# not 1..n, prev_hash not the previous hash or GENESIS, a hash that is not 64 lowercase hex
# digits), or that belongs to no listed stream: what schema 3 could not keep.
_UNLINKED = f"""
SELECT stream, seq, why FROM (
    SELECT stream, seq,
        CASE WHEN stream NOT IN (SELECT stream FROM streams) THEN 'belongs to no listed stream'
             WHEN seq IS NOT row_number() OVER w THEN 'is out of sequence'
             WHEN prev_hash IS NOT lag(hash, 1, '{GENESIS}') OVER w
                 THEN 'does not link to the event before it'
             WHEN typeof(hash) != 'text' OR length(hash) != 64
                  OR hash GLOB '*[^0-9a-f]*' THEN 'has a malformed hash'
             WHEN typeof(type) != 'text' THEN 'has a malformed type' END AS why
    FROM events WINDOW w AS (PARTITION BY stream ORDER BY seq)
) WHERE why IS NOT NULL LIMIT 1
"""
_ORPHAN = re.compile(r"\(rows of no stream, key (-?[0-9]+)\)")  # stream_ids' name of them


class StoredEvent(msgspec.Struct, frozen=True, gc=False):
    """One row of a stream: the decoded event with its bytes and hashes.

    ``event`` is None when the row was read with ``decode=False``. ``prev_hash`` and
    ``hash`` are the chain's, computed from the payloads when the store read the row;
    ``stored`` is then what its hash cell holds (hex, None for NULL: a stream stores its
    hashes only at checkpoints, events/checkpoints.py), which :func:`verify_chain` holds to
    ``hash``. A row made otherwise (an older layout's, a forger's) leaves ``stored`` UNSET:
    its ``hash`` is a claim, which :func:`verify_chain` recomputes.
    """

    seq: int
    type: str
    event: Any
    payload: bytes
    prev_hash: str
    hash: str
    stored: str | None | msgspec.UnsetType = msgspec.UNSET


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


def _text(value: Any) -> str:
    """A stored value as text (bytes decoded leniently)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _blob_bytes(value: Any) -> bytes:
    """Stored content as bytes (text a hand edit left is encoded, so it fails its hash)."""
    return value if isinstance(value, bytes) else _text(value).encode("utf-8", "surrogatepass")


def chain_hash(prev_hash: str, payload: bytes) -> str:
    """The hash of an event: BLAKE2b-256 of the previous hash's 32 bytes + the payload."""
    return hashlib.blake2b(bytes.fromhex(prev_hash) + payload, digest_size=32).hexdigest()


def blob_hash(content: bytes) -> str:
    """The content address of a blob: BLAKE2b-256 hex of its bytes."""
    return hashlib.blake2b(content, digest_size=32).hexdigest()


def verify_chain(rows: Iterable[ChainRow], expected_head: str | None = None,
                 hash_every: int | None = None) -> int | None:
    """The first seq at which a stream read from seq 1 stops checking out, else None.

    Row n must have ``seq == n``, ``prev_hash`` equal to row n-1's hash (:data:`GENESIS`
    for n = 1) and ``hash == chain_hash(prev_hash, payload)``, and a row the store read
    must store that hash where the stream's ``hash_every`` keeps one and nothing elsewhere
    (events/checkpoints.py: a changed payload is caught at the next checkpoint; without
    ``hash_every``, every hash it stores must be right); so a
    removed row (a gap) and reordered rows are caught at the first seq affected. With
    ``expected_head`` (the stream's recorded head hash), a changed last payload and missing
    rows at the end are reported too, as the first seq past the last row.
    """
    found = chain_break(rows, expected_head, hash_every)
    return None if found is None else found.seq


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
        self._system_sql = "system"  # the column, or its schema-1 derivation from kind
        self._format_sql = "format"  # the column, or 1 in a layout older than schema 4
        self._hash_every_sql = "hash_every"  # the column, or 1 in one older than schema 5
        # the layout read: 5, or an older one opened read-only (4: no hash_every column;
        # 3: compact, no format column either; 2: schema 1's and 2's rows)
        self._layout = SCHEMA_VERSION
        if not create and str(path) != ":memory:" and not self.path.exists():
            raise RinklogError(f"{self.path}: no such database")
        try:
            self._db = sqlite3.connect(str(path), isolation_level=None, timeout=10.0)
        except sqlite3.Error as err:
            raise RinklogError(f"{self.path}: cannot open database ({err})") from None
        try:
            self._open(create)
        except BaseException:
            self._db.close()
            raise

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

    def _open(self, writable: bool) -> None:
        db = self._db
        try:  # look before changing anything: a foreign file is refused untouched
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except (sqlite3.DatabaseError, UnicodeDecodeError) as err:  # a damaged schema too
            raise CorruptDatabase(f"{self.path} is not a rinklog database ({err})") from None
        if tables and "rinklog_meta" not in tables:
            others = ", ".join(sorted(tables)[:5])
            raise CorruptDatabase(
                f"{self.path} is not a rinklog database (it holds other tables: {others})"
            )
        try:
            if writable or not tables:  # the journal mode is kept in the file: set it once
                db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            # Checkpoint (and fsync) every ~16 MB of WAL rather than every 4 MB: appends of
            # whole games run ~10% faster; the WAL file is cut back to 64 MB at most.
            db.execute("PRAGMA wal_autocheckpoint=4000")
            db.execute("PRAGMA journal_size_limit=67108864")
        except sqlite3.DatabaseError as err:
            raise CorruptDatabase(f"{self.path} is not a rinklog database ({err})") from None
        if "rinklog_meta" not in tables:
            with self._transaction():  # a new database
                self._create_schema()
        version = self._check_version()
        if version >= 3:
            if ("streams" in tables and not self._has_column("streams", "key")) or \
                    ("events" in tables and not self._has_column("events", "stream_key")) or \
                    ("streams" in tables and (
                        self._has_column("streams", "format") != (version >= 4)
                        or self._has_column("streams", "hash_every") != (version >= 5))):
                raise CorruptDatabase(f"{self.path}: schema version {version} but the "
                                      "streams or events table is not of that schema")
        if version == SCHEMA_VERSION:
            if not tables >= _OUR_TABLES:
                with self._transaction():  # one lacking tables: they are empty
                    self._create_schema()
        elif writable:
            self._migrate()
        elif version in (3, 4):  # read as it is, every stream hash_every 1 (and, in
            # schema 3, format 1); nothing is written
            self._layout, self._hash_every_sql = version, "1"
            if version == 3:
                self._format_sql = str(MSGPACK)
            if not tables >= _OUR_TABLES:
                raise CorruptDatabase(f"{self.path}: a schema-{version} database lacking tables "
                                      f"({', '.join(sorted(_OUR_TABLES - tables))}); open it "
                                      "for writing to add them")
        else:  # read in its own layout; nothing is written
            self._layout, self._format_sql, self._hash_every_sql = 2, str(MSGPACK), "1"
            if version == 2 and not self._has_column("streams", "system"):
                raise CorruptDatabase(f"{self.path}: schema version 2 but the streams table "
                                      "has no system column")
            if not tables >= _OLD_TABLES:
                raise CorruptDatabase(f"{self.path}: a schema-{version} database lacking "
                                      f"tables ({', '.join(sorted(_OLD_TABLES - tables))}); "
                                      "open it for writing to add them")
            if not self._has_column("streams", "system"):
                self._system_sql = _SCHEMA1_SYSTEM
        if writable and self._types is not None:
            refresh_views(self._db, self._event_classes())

    def _migrate(self) -> None:
        """Schema 1, 2, 3 or 4 -> 5 in one transaction (another process may have done it
        meanwhile); from 1 or 2 refused, writing nothing, when a row does not link to the
        one before it, and the space the old rows took is given back afterwards (VACUUM),
        when no one else is reading."""
        db = self._db
        db.create_function("rinklog_unhex", 1, bytes.fromhex, deterministic=True)
        with self._transaction():
            version = self._check_version()
            if version == SCHEMA_VERSION:
                return
            if version in (3, 4):
                for statement in (*_MIGRATE_3_TO_4[:4 - version], *_MIGRATE_4_TO_5):
                    db.execute(statement)
                self._nullable_hash()
                self._set_version()
                return
            for statement in _SCHEMA_2.split(";"):  # a table it lacked, as it would have been
                if statement.strip():
                    db.execute(statement)
            if version == 2 and not self._has_column("streams", "system"):
                raise CorruptDatabase(f"{self.path}: schema version 2 but the streams table "
                                      "has no system column")
            if not self._has_column("streams", "system"):  # schema 1
                for statement in _MIGRATE_1_TO_2:
                    db.execute(statement)
            bad = db.execute(_UNLINKED).fetchone()
            if bad is not None:
                raise CorruptDatabase(
                    f"{self.path}: cannot migrate this schema-{version} database to schema "
                    f"{SCHEMA_VERSION}: stream {_text(bad[0])!r} event {_text(bad[1])} "
                    f"{bad[2]}; nothing was changed (rinklog audit reads it as it is)")
            for statement in _MIGRATE_2_TO_5:
                if statement.strip():
                    db.execute(statement)
            self._set_version()
        try:
            db.execute("VACUUM")
        except sqlite3.OperationalError:  # busy, or no room for the copy: it stays larger
            pass

    def _nullable_hash(self) -> None:
        """Schema 4 -> 5: ``events.hash`` may be NULL (a row between checkpoints). No row
        changes, so the table's definition is edited in place, as SQLite documents for
        dropping a NOT NULL constraint (lang_altertable.html, "otheralter"), rather than
        every row copied to a new table."""
        db = self._db
        sql = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table'"
                         " AND name = 'events'").fetchone()[0]
        nullable, found = _HASH_NOT_NULL.subn("hash BLOB", sql, count=1)
        if not found:
            raise CorruptDatabase(f"{self.path}: cannot migrate to schema {SCHEMA_VERSION}: "
                                  "the events table is not of schema 4 (its hash column); "
                                  "nothing was changed")
        version = db.execute("PRAGMA schema_version").fetchone()[0]
        db.execute("PRAGMA writable_schema = ON")
        try:
            db.execute("UPDATE sqlite_master SET sql = ? WHERE type = 'table'"
                       " AND name = 'events'", (nullable,))
            db.execute(f"PRAGMA schema_version = {int(version) + 1}")
        finally:
            db.execute("PRAGMA writable_schema = OFF")

    def _has_column(self, table: str, column: str) -> bool:
        return any(r[1] == column for r in self._db.execute(f"PRAGMA table_info({table})"))

    def _create_schema(self) -> None:
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                self._db.execute(statement)
        self._db.execute(
            "INSERT OR IGNORE INTO rinklog_meta (key, value) VALUES ('schema_version', ?)",
            (str(SCHEMA_VERSION),),
        )

    def _set_version(self) -> None:
        self._db.execute("UPDATE rinklog_meta SET value = ? WHERE key = 'schema_version'",
                         (str(SCHEMA_VERSION),))

    def _check_version(self) -> int:
        """The schema version (1 to this rinklog's); a newer or invalid one is refused."""
        row = self._db.execute(
            "SELECT value FROM rinklog_meta WHERE key = 'schema_version'"
        ).fetchone()
        value = str(row[0]) if row is not None else ""
        if value in ("1", "2", "3", "4", str(SCHEMA_VERSION)):
            return int(value)
        if value.isascii() and value.isdigit() and int(value) > SCHEMA_VERSION:
            raise CorruptDatabase(
                f"{self.path} was written by a newer rinklog (schema version {value}, "
                f"this one reads up to {SCHEMA_VERSION})"
            )
        raise CorruptDatabase(f"{self.path}: rinklog_meta has no valid schema_version ({value!r})")

    # --- plumbing ---------------------------------------------------------------------

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    def transaction(self) -> _Transaction:
        """One transaction around several writes (and reads of what they wrote): every
        append and blob inside it commits with it or, on any exception, none does."""
        self._check_writable()
        return _Transaction(self._db, on_rollback=self._type_keys.clear)

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
        return self._db.execute(
            f"SELECT kind, version, head_hash, meta, {self._system_sql},"
            f" {'stream' if self._layout == 2 else 'key'}, {self._format_sql},"
            f" {self._hash_every_sql} FROM streams WHERE stream = ?", (stream,)
        ).fetchone()

    def _events_key(self, stream: str) -> Any:
        """What a stream's rows are stored under, whether or not it is listed (rows of no
        stream by the name :meth:`stream_ids` gave them)."""
        if self._layout == 2:
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
                f"{self.path}: stream {stream!r} is of system {_text(system)!r}, which this "
                f"rinklog does not know (it knows {known}; run rinklog audit)"
            )
        return decoder(event_type, format)

    def _check_writable(self) -> None:
        if self._layout != SCHEMA_VERSION:
            old = 1 if self._system_sql != "system" else self._layout
            raise RinklogError(f"{self.path} is a schema-{old} database opened read-only: a "
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
            if chained is None:
                try:
                    hashes = chain_hashes(payloads, head)  # the chain goes on from the head
                except (TypeError, ValueError):
                    raise CorruptDatabase(f"{self.path}: stream {stream!r} has a malformed "
                                          "head hash (run rinklog audit)") from None
                cells, last = stored_cells(hashes, actual + 1, every), hashes[-1]
            else:  # a new stream: its checkpoints are every HASH_EVERY-th row's from seq 1
                cells, last = (checkpoint_cells(len(payloads), chained.checkpoints, every),
                               chained.head)
            type_keys = self._type_keys
            new_keys: dict[str, int] = {}
            for tag in dict.fromkeys(tags):  # in order of first appearance, as ever
                if tag not in type_keys:  # a tag new to this store
                    new_keys[tag] = self._type_key(tag)
            keys = {**type_keys, **new_keys}
            seq = actual + len(payloads)
            # the rows built by C-level iterators: the writer's share of a season game is
            # this and SQLite's own inserting
            rows = zip(itertools.repeat(key, len(tags)), range(actual + 1, seq + 1),
                       map(keys.__getitem__, tags), payloads, cells, strict=True)
            try:
                db.executemany(
                    "INSERT INTO events (stream_key, seq, type_key, payload, hash)"
                    " VALUES (?, ?, ?, ?, ?)",
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
                last = next(self._gen_rows(parent, source[5], upto_seq, upto_seq, None), None)
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
        digest = blob_hash(content)
        with self._transaction():
            self._db.execute(
                "INSERT OR IGNORE INTO blobs (hash, media_type, content) VALUES (?, ?, ?)",
                (digest, media_type, bytes(content)),
            )
        return digest

    # --- reading ----------------------------------------------------------------------

    def get_blob(self, digest: str) -> bytes:
        """The bytes stored under ``digest``; checked against it on the way out."""
        row = self._db.execute("SELECT content FROM blobs WHERE hash = ?", (digest,)).fetchone()
        if row is None:
            raise CorruptDatabase(f"{self.path} holds no blob {digest}")
        content = _blob_bytes(row[0])
        if blob_hash(content) != digest:
            raise CorruptDatabase(f"{self.path}: blob {digest} does not match its hash")
        return content

    def has_blob(self, digest: str) -> bool:
        """Whether a blob with this hash is stored."""
        found = self._db.execute("SELECT 1 FROM blobs WHERE hash = ?", (digest,)).fetchone()
        return found is not None

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
        sql = (f"SELECT stream, kind, version, head_hash, meta, {self._system_sql},"
               f" {self._format_sql} FROM streams")
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
        row = self._db.execute(
            f"SELECT stream, kind, version, head_hash, meta, {self._system_sql},"
            f" {self._format_sql}, {self._hash_every_sql} FROM streams WHERE stream = ?",
            (stream,),
        ).fetchone()
        if row is None:
            return None
        stream_id, kind, version, head, meta, system, format, every = row
        # As stored, whatever SQLite's loose typing let a hand edit put there: a version,
        # format or hash_every that is not an integer reads as -1, which matches no stream,
        # no format and no hash_every, and the rest as text.
        return StreamRecord(_text(stream_id), _text(kind),
                            version if type(version) is int else -1, _text(head), _text(meta),
                            _text(system), format if type(format) is int else -1,
                            every if type(every) is int else -1)

    def stream_ids(self) -> list[str]:
        """Every stream named in the ``streams`` table or by an event row (rows of a stream
        the table does not list are orphans the audit reports)."""
        listed = [r[0] for r in self._db.execute("SELECT stream FROM streams ORDER BY rowid")]
        seen = set(listed)
        if self._layout == 2:
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
        row = self._db.execute(
            "SELECT content, media_type FROM blobs WHERE hash = ?", (digest,)
        ).fetchone()
        return None if row is None else (_blob_bytes(row[0]), _text(row[1]))

    def blob_hashes(self) -> list[str]:
        """The hash column of every stored blob."""
        return [str(r[0]) for r in self._db.execute("SELECT hash FROM blobs ORDER BY hash")]

    def raw_rows(self, stream: str) -> list[StoredEvent]:
        """A stream's event rows as stored, undecoded, whether or not it is listed; a value
        a hand edit left with another SQLite type is read so that it cannot check out (a
        payload as bytes, hashes and type as text, a seq that is not an integer as -1)."""
        key = self._events_key(stream)
        if key is None:
            return []
        # every hash computed from the payloads (in the compact layout, once, from
        # GENESIS: no stored hash is trusted), beside what its cell stores; a row of
        # another SQLite type than its column's made again so that it cannot check out
        return [row if (type(row.seq) is int and type(row.type) is str
                        and type(row.payload) is bytes and type(row.prev_hash) is str
                        and type(row.hash) is str)
                else StoredEvent(row.seq if type(row.seq) is int else -1, _text(row.type), None,
                                 _blob_bytes(row.payload), _text(row.prev_hash),
                                 _text(row.hash), row.stored)
                for row in self._gen_rows(stream, key, 1, -1, None)]

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

    def _rows(
        self, stream: str, start: int, stop: int | None, decode: bool
    ) -> Iterator[StoredEvent]:
        row = self._stream_row(stream)
        if row is None:
            raise UnknownGame(f"no stream {stream!r} in {self.path}")
        decoder = self._decoder_for(stream, row[4], row[6]) if decode else None  # once a read
        return self._gen_rows(stream, row[5], start, stop if stop is not None else -1, decoder,
                              _text(row[4]))

    def _gen_rows(self, stream: str, key: Any, start: int, stop: int,
                  decoder: Decoder | None, system: str = "") -> Iterator[StoredEvent]:
        """Rows of ``stream`` (stored under ``key``) from ``start`` to ``stop`` (-1: the
        end), decoded with ``decoder`` (the stream's system's, in its format) unless it is
        None."""
        if self._layout >= 3:
            # hashed forward from the last hash stored before ``start`` (GENESIS if none):
            # the rows from there to ``start`` are read for their payloads
            first, prev = 1, bytes(32)
            if start > 1:
                found = self._db.execute(
                    "SELECT seq, hash FROM events WHERE stream_key = ? AND seq < ?"
                    " AND typeof(hash) = 'blob' AND length(hash) = 32"
                    " ORDER BY seq DESC LIMIT 1", (key, start)).fetchone()
                if found is not None and type(found[0]) is int:
                    first, prev = found[0] + 1, found[1]
            cursor = self._db.execute(
                "SELECT e.seq, t.tag, e.payload, e.hash FROM events e"
                " LEFT JOIN event_types t ON t.key = e.type_key"
                " WHERE e.stream_key = ? AND e.seq >= ? AND (? < 0 OR e.seq <= ?)"
                " ORDER BY e.seq",
                (key, min(first, start), stop, stop),
            )
            chunks = _linked(cursor, prev, start)
        else:
            cursor = self._db.execute(
                "SELECT seq, type, payload, prev_hash, hash FROM events"
                " WHERE stream = ? AND seq >= ? AND (? < 0 OR seq <= ?) ORDER BY seq",
                (key, start, stop, stop),
            )
            chunks = ([(*r, msgspec.UNSET) for r in chunk]  # hashes as stored: claims
                      for chunk in iter(lambda: cursor.fetchmany(_READ_CHUNK), []))
        decode_one = None if decoder is None else decoder.decode
        tags: dict[type, str] = {}
        for chunk in chunks:
            for seq, type_, payload, prev_hash, digest, cell in chunk:
                event = None
                if decode_one is not None:
                    try:
                        if not isinstance(payload, bytes):
                            raise ValueError(f"a {type(payload).__name__} payload, not bytes")
                        event = decode_one(payload)
                    except (msgspec.DecodeError, ValueError) as err:  # ValueError: mangled UTF-8
                        raise CorruptDatabase(
                            f"{self.path}: stream {stream!r} event {seq} does not decode as an "
                            f"event of system {system!r} ({err})"
                        ) from None
                    cls = type(event)
                    tag = tags.get(cls) or tags.setdefault(cls, tag_of(cls))
                    if tag != type_ and isinstance(event, msgspec.Struct):
                        raise CorruptDatabase(
                            f"{self.path}: stream {stream!r} event {seq} is stored as {type_!r}"
                            f" but decodes as {tag!r}"
                        )
                yield StoredEvent(seq, type_, event, payload, prev_hash, digest, cell)

    def verify(self, stream: str) -> int | None:
        """Check a stream's hash chain and recorded head; the first bad seq, or None."""
        row = self._stream_row(stream)
        if row is None:
            raise UnknownGame(f"no stream {stream!r} in {self.path}")
        return verify_chain(self._gen_rows(stream, row[5], 1, -1, None), expected_head=row[2],
                            hash_every=row[7] if type(row[7]) is int else -1)

    def _hash_every(self, stream: str, every: Any) -> int:
        """A stream's hash_every as stored, if it is one rinklog writes."""
        if type(every) is not int or every not in HASH_EVERY_WRITTEN:
            raise CorruptDatabase(f"{self.path}: stream {stream!r} has hash_every {every!r}, "
                                  "which rinklog does not write (run rinklog audit)")
        return every


def _frozen(classes: list[type] | None) -> frozenset[type] | None:
    return None if classes is None else frozenset(classes)


def _linked(cursor: sqlite3.Cursor, prev: bytes,
            start: int) -> Iterator[list[tuple[Any, ...]]]:
    """Compact-layout rows ``(seq, tag, payload, hash cell)`` a chunk at a time as ``(seq,
    type, payload, prev_hash, hash, stored)`` from seq ``start`` on: each hash computed
    from the payloads, forward from ``prev`` (the 32-byte hash of the row before the first
    one read; the rows before ``start`` are read only for that), each prev_hash the hash
    of the row before, its type the tag its type key names ("" for none), ``stored`` what
    its hash cell holds (events.checkpoints.stored_cell)."""
    blake2b = hashlib.blake2b
    prev_hex = prev.hex()
    while chunk := cursor.fetchmany(_READ_CHUNK):
        out = []
        for seq, tag, payload, cell in chunk:
            digest = blake2b(prev + (payload if type(payload) is bytes else _blob_bytes(payload)),
                             digest_size=32)
            prev, digest = digest.digest(), digest.hexdigest()
            if type(seq) is not int or seq >= start:
                out.append((seq, "" if tag is None else tag, payload, prev_hex, digest,
                            None if cell is None else stored_cell(cell)))
            prev_hex = digest
        yield out


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception. Inside a
    transaction already open on the connection (:meth:`EventStore.transaction`) it is part
    of that one: the outer one commits or rolls back."""

    def __init__(self, db: sqlite3.Connection,
                 on_rollback: Callable[[], None] | None = None) -> None:
        self._db = db
        self._outer = False
        self._on_rollback = on_rollback  # e.g. forget event_types keys learnt inside it

    def __enter__(self) -> None:
        self._outer = self._db.in_transaction
        if not self._outer:
            self._db.execute("BEGIN IMMEDIATE")

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._outer:
            return
        if exc_type is None:
            self._db.execute("COMMIT")
        else:
            self._db.execute("ROLLBACK")
            if self._on_rollback is not None:
                self._on_rollback()
