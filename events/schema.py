"""The event store's database layout: its tables, the schema versions, and the migrations
that bring an older database to the current one (docs/storage.md).

Schema versions: 1 had no ``streams.system``; 2 adds it; 3 is the compact layout: an
``events`` row is ``(stream_key, seq, type_key, payload, hash)``, keyed by the integer
``streams.key`` and ``event_types.key``, the hash as its 32 raw bytes and no stored
``prev_hash`` (it is the previous row's hash); the ``event_rows`` view shows the rows with
schema 2's columns, as text, for plain SQL. Schema 4 adds ``streams.format``, the payload
format of each stream (1 for every stream written before), and the per-type views of
format-2 events (events/views.py). Schema 5 adds ``streams.hash_every``: a stream created
since stores its rows' hashes only at checkpoints (every 32nd row, NULL between;
events/checkpoints.py), every older stream keeps 1 (every row's hash).

Opening a schema-1 to -4 database for writing migrates it to 5 in one transaction (schema
1's system is filled from ``kind``: every stream schema 1 ever held was a Hockey Bones game
or a season), after checking that every row of schema 1 or 2 links to the one before, so
no stored ``prev_hash`` that says otherwise is dropped. A read-only open writes nothing and
reads an older layout as it is (:class:`Layout`: a schema-1 stream's system from its
``kind``, every older stream as format 1 and hash_every 1). Payloads and hashes are never
changed, so every head hash, receipt and export stays as it was.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from events.checkpoints import GENESIS
from events.errors import CorruptDatabase
from events.formats import MSGPACK
from events.transactions import Transaction
from events.values import text

__all__ = ["MIGRATE_1_TO_2", "SCHEMA", "SCHEMA_2", "SCHEMA_VERSION", "Layout", "open_layout"]

SCHEMA_VERSION = 5

OUR_TABLES = frozenset({"rinklog_meta", "events", "streams", "event_types", "blobs"})
OLD_TABLES = frozenset({"rinklog_meta", "events", "streams", "blobs"})  # schemas 1 and 2

BLOBS = """
CREATE TABLE IF NOT EXISTS blobs (
    hash TEXT PRIMARY KEY,  -- BLAKE2b-256 hex of content
    media_type TEXT NOT NULL,
    content BLOB NOT NULL
);
"""

SCHEMA = """
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
""" + BLOBS + f"""
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
SCHEMA_2 = """
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
""" + BLOBS

# Schema 1 -> 2: every stream a schema-1 database holds is a season (league events) or a
# game of the one system rinklog then played (Hockey Bones, with FaceOff 2008 as a ruleset).
SCHEMA1_SYSTEM = "CASE kind WHEN 'season' THEN 'league' ELSE 'bones' END"
MIGRATE_1_TO_2 = (
    "ALTER TABLE streams ADD COLUMN system TEXT NOT NULL DEFAULT ''",
    f"UPDATE streams SET system = {SCHEMA1_SYSTEM}",
)

# Schema 2 -> the compact layout, run after UNLINKED found every row linked to the one
# before. Payloads are copied as stored (a text one a hand edit left stays text); a hash was
# checked to be 64 lowercase hex digits, so its 32 bytes give back the same text. Every
# stream keeps payload format 1 and hash_every 1 (the columns' defaults).
MIGRATE_2_TO_5 = (
    "ALTER TABLE events RENAME TO events_2",
    "ALTER TABLE streams RENAME TO streams_2",
    *(s for s in SCHEMA.split(";") if "rinklog_meta" not in s and "blobs" not in s),
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
MIGRATE_3_TO_4 = ("ALTER TABLE streams ADD COLUMN format INTEGER NOT NULL DEFAULT 1",)

# Schema 4 -> 5: every stream written so far stores every row's hash (hash_every 1); the
# events table's hash column loses its NOT NULL (_nullable_hash) and event_rows learns to
# show the NULL cells between checkpoints.
MIGRATE_4_TO_5 = (
    "ALTER TABLE streams ADD COLUMN hash_every INTEGER NOT NULL DEFAULT 1",
    "DROP VIEW IF EXISTS event_rows",
    next(s for s in SCHEMA.split(";") if "VIEW" in s),
)
_HASH_NOT_NULL = re.compile(r"\bhash\s+BLOB\s+NOT\s+NULL\b", re.IGNORECASE)

# The first row (stream, seq) of schema 2 that does not link to the row before it (seq
# not 1..n, prev_hash not the previous hash or GENESIS, a hash that is not 64 lowercase hex
# digits), or that belongs to no listed stream: what schema 3 could not keep.
UNLINKED = f"""
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


@dataclass(frozen=True)
class Layout:
    """The layout a store reads: the current one, or an older one opened read-only.

    ``version`` is 5, or 4 (no hash_every column), 3 (compact, no format column either) or
    2 (schema 1's and 2's rows); each ``*_sql`` is the column to select, or what stands for
    it in an older layout (schema 1's system derived from ``kind``, format 1, hash_every 1).
    """

    version: int = SCHEMA_VERSION
    system_sql: str = "system"
    format_sql: str = "format"
    hash_every_sql: str = "hash_every"

    @property
    def current(self) -> bool:
        return self.version == SCHEMA_VERSION

    @property
    def schema(self) -> int:
        """The schema version as the file says it (1 for schema 1's derived system)."""
        return 1 if self.system_sql != "system" else self.version


def open_layout(db: sqlite3.Connection, path: Path, writable: bool) -> Layout:
    """Check what ``db`` holds before changing anything (a foreign file is refused
    untouched), set its journal, create a new database's tables, migrate an older one when
    ``writable``; the layout to read it in."""
    tables = _tables(db, path)
    _set_journal(db, path, set_mode=writable or not tables)
    if "rinklog_meta" not in tables:
        with Transaction(db):  # a new database
            _create(db)
    version = check_version(db, path)
    if version >= 3:
        _check_compact(db, path, tables, version)
    if version == SCHEMA_VERSION:
        if not tables >= OUR_TABLES:
            with Transaction(db):  # one lacking tables: they are empty
                _create(db)
        return Layout()
    if writable:
        migrate(db, path)
        return Layout()
    return _read_only(db, path, tables, version)


def _tables(db: sqlite3.Connection, path: Path) -> set[str]:
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except (sqlite3.DatabaseError, UnicodeDecodeError) as err:  # a damaged schema too
        raise CorruptDatabase(f"{path} is not a rinklog database ({err})") from None
    if tables and "rinklog_meta" not in tables:
        others = ", ".join(sorted(tables)[:5])
        raise CorruptDatabase(f"{path} is not a rinklog database (it holds other tables: "
                              f"{others})")
    return tables


def _set_journal(db: sqlite3.Connection, path: Path, *, set_mode: bool) -> None:
    try:
        if set_mode:  # the journal mode is kept in the file: set it once
            db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        # Checkpoint (and fsync) every ~16 MB of WAL rather than every 4 MB: appends of
        # whole games run ~10% faster; the WAL file is cut back to 64 MB at most.
        db.execute("PRAGMA wal_autocheckpoint=4000")
        db.execute("PRAGMA journal_size_limit=67108864")
    except sqlite3.DatabaseError as err:
        raise CorruptDatabase(f"{path} is not a rinklog database ({err})") from None


def _check_compact(db: sqlite3.Connection, path: Path, tables: set[str], version: int) -> None:
    if ("streams" in tables and not has_column(db, "streams", "key")) or \
            ("events" in tables and not has_column(db, "events", "stream_key")) or \
            ("streams" in tables and (
                has_column(db, "streams", "format") != (version >= 4)
                or has_column(db, "streams", "hash_every") != (version >= 5))):
        raise CorruptDatabase(f"{path}: schema version {version} but the streams or events "
                              "table is not of that schema")


def _read_only(db: sqlite3.Connection, path: Path, tables: set[str], version: int) -> Layout:
    """An older database read as it is; nothing is written."""
    if version in (3, 4):  # every stream hash_every 1 (and, in schema 3, format 1)
        if not tables >= OUR_TABLES:
            raise CorruptDatabase(f"{path}: a schema-{version} database lacking tables "
                                  f"({', '.join(sorted(OUR_TABLES - tables))}); open it "
                                  "for writing to add them")
        return Layout(version, format_sql=str(MSGPACK) if version == 3 else "format",
                      hash_every_sql="1")
    if version == 2 and not has_column(db, "streams", "system"):
        raise CorruptDatabase(f"{path}: schema version 2 but the streams table has no "
                              "system column")
    if not tables >= OLD_TABLES:
        raise CorruptDatabase(f"{path}: a schema-{version} database lacking tables "
                              f"({', '.join(sorted(OLD_TABLES - tables))}); open it for "
                              "writing to add them")
    system = "system" if has_column(db, "streams", "system") else SCHEMA1_SYSTEM
    return Layout(2, system, str(MSGPACK), "1")


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Schema 1, 2, 3 or 4 -> 5 in one transaction (another process may have done it
    meanwhile); from 1 or 2 refused, writing nothing, when a row does not link to the one
    before it, and the space the old rows took is given back afterwards (VACUUM), when no
    one else is reading."""
    db.create_function("rinklog_unhex", 1, bytes.fromhex, deterministic=True)
    with Transaction(db):
        version = check_version(db, path)
        if version == SCHEMA_VERSION:
            return
        if version in (3, 4):
            for statement in (*MIGRATE_3_TO_4[:4 - version], *MIGRATE_4_TO_5):
                db.execute(statement)
            _nullable_hash(db, path)
            _set_version(db)
            return
        _migrate_rows(db, path, version)
        _set_version(db)
    try:
        db.execute("VACUUM")
    except sqlite3.OperationalError:  # busy, or no room for the copy: it stays larger
        pass


def _migrate_rows(db: sqlite3.Connection, path: Path, version: int) -> None:
    """Schema 1 or 2 -> the compact layout, inside the caller's transaction."""
    for statement in SCHEMA_2.split(";"):  # a table it lacked, as it would have been
        if statement.strip():
            db.execute(statement)
    if version == 2 and not has_column(db, "streams", "system"):
        raise CorruptDatabase(f"{path}: schema version 2 but the streams table has no "
                              "system column")
    if not has_column(db, "streams", "system"):  # schema 1
        for statement in MIGRATE_1_TO_2:
            db.execute(statement)
    bad = db.execute(UNLINKED).fetchone()
    if bad is not None:
        raise CorruptDatabase(
            f"{path}: cannot migrate this schema-{version} database to schema "
            f"{SCHEMA_VERSION}: stream {text(bad[0])!r} event {text(bad[1])} "
            f"{bad[2]}; nothing was changed (rinklog audit reads it as it is)")
    for statement in MIGRATE_2_TO_5:
        if statement.strip():
            db.execute(statement)


def _nullable_hash(db: sqlite3.Connection, path: Path) -> None:
    """Schema 4 -> 5: ``events.hash`` may be NULL (a row between checkpoints). No row
    changes, so the table's definition is edited in place, as SQLite documents for dropping
    a NOT NULL constraint (lang_altertable.html, "otheralter"), rather than every row
    copied to a new table."""
    sql = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table'"
                     " AND name = 'events'").fetchone()[0]
    nullable, found = _HASH_NOT_NULL.subn("hash BLOB", sql, count=1)
    if not found:
        raise CorruptDatabase(f"{path}: cannot migrate to schema {SCHEMA_VERSION}: the "
                              "events table is not of schema 4 (its hash column); nothing "
                              "was changed")
    version = db.execute("PRAGMA schema_version").fetchone()[0]
    db.execute("PRAGMA writable_schema = ON")
    try:
        db.execute("UPDATE sqlite_master SET sql = ? WHERE type = 'table'"
                   " AND name = 'events'", (nullable,))
        db.execute(f"PRAGMA schema_version = {int(version) + 1}")
    finally:
        db.execute("PRAGMA writable_schema = OFF")


def has_column(db: sqlite3.Connection, table: str, column: str) -> bool:
    return any(r[1] == column for r in db.execute(f"PRAGMA table_info({table})"))


def _create(db: sqlite3.Connection) -> None:
    for statement in SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    db.execute("INSERT OR IGNORE INTO rinklog_meta (key, value) VALUES ('schema_version', ?)",
               (str(SCHEMA_VERSION),))


def _set_version(db: sqlite3.Connection) -> None:
    db.execute("UPDATE rinklog_meta SET value = ? WHERE key = 'schema_version'",
               (str(SCHEMA_VERSION),))


def check_version(db: sqlite3.Connection, path: Path) -> int:
    """The schema version (1 to this rinklog's); a newer or invalid one is refused."""
    row = db.execute("SELECT value FROM rinklog_meta WHERE key = 'schema_version'").fetchone()
    value = str(row[0]) if row is not None else ""
    if value in ("1", "2", "3", "4", str(SCHEMA_VERSION)):
        return int(value)
    if value.isascii() and value.isdigit() and int(value) > SCHEMA_VERSION:
        raise CorruptDatabase(f"{path} was written by a newer rinklog (schema version "
                              f"{value}, this one reads up to {SCHEMA_VERSION})")
    raise CorruptDatabase(f"{path}: rinklog_meta has no valid schema_version ({value!r})")
