"""Schemas 1, 2, 3 and 4 -> 5: databases written before streams recorded their system,
before the compact layout, before payload formats (every stream msgpack, format 1) and
before hash checkpoints (every row stores its hash: hash_every 1).

``tests/data/schema1.db.gz`` was written by rinklog at schema 1 (see tests/data/README.md):
a Hockey Bones game, a FaceOff 2008 game, a branch and a one-game season. The schema-2
database is that file as rinklog at schema 2 migrated it (the system column added and
filled from ``kind``, nothing else touched). The schema-3 database is made here as rinklog
at schema 3 wrote it: every stream in format 1 (the same head hashes: the README's game of
seed 2027 had head ``7ba371e9…``), without the format column; the schema-4 database is
made as rinklog at schema 4 wrote it (new streams in format 2, a hash on every row, no
hash_every column). Opening any for writing migrates it in place to schema 5; a read
command reads it in its own layout and writes nothing; either way every stored stream
keeps its rows' bytes and hashes, so its head hash and receipt, its payload format (it goes
on in msgpack, its branches too) and its hash on every row (hash_every 1).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sqlite3
from pathlib import Path

import msgspec
import pytest

import events.checkpoints
import events.formats
import events.store
from events.catalogue import open_store
from events.errors import CorruptDatabase, RinklogError
from events.formats import JSON, MSGPACK
from events.league import SeasonCreated
from events.schema import MIGRATE_1_TO_2
from events.store import GENESIS, HASH_EVERY, SCHEMA_VERSION
from replay.cli.app import main
from replay.leagues.audit import audit_all, audit_game
from replay.leagues.transfer import ImportRefused, export_game, verify_export

DATA = Path(__file__).resolve().parent / "data"
HEADS = {s["stream"]: s for s in json.loads((DATA / "schema1-heads.json").read_text())}
SYSTEMS = {"bones-1": "bones", "faceoff-1": "bones", "bones-1-b1": "bones",
           "demo-s1": "league", "demo-s1-0001": "bones"}


@pytest.fixture(params=[1, 2], ids=["schema1", "schema2"])
def old_db(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    path = tmp_path / "old.db"
    path.write_bytes(gzip.decompress((DATA / "schema1.db.gz").read_bytes()))
    if request.param == 2:  # what rinklog at schema 2 did to it on a writing open
        _raw(path, "BEGIN; " + "; ".join(MIGRATE_1_TO_2) + "; UPDATE rinklog_meta SET value"
                   " = '2' WHERE key = 'schema_version'; COMMIT; VACUUM;")
    return path


@pytest.fixture
def schema1_db(tmp_path: Path) -> Path:
    path = tmp_path / "old.db"
    path.write_bytes(gzip.decompress((DATA / "schema1.db.gz").read_bytes()))
    return path


def _raw(path: Path, sql: str) -> list[tuple]:
    db = sqlite3.connect(path, isolation_level=None)  # autocommit, as a hand edit
    try:
        if sql.startswith("BEGIN"):
            db.executescript(sql)
            return []
        return db.execute(sql).fetchall()
    finally:
        db.close()


def _schema_version(path: Path) -> str:
    return _raw(path, "SELECT value FROM rinklog_meta WHERE key = 'schema_version'")[0][0]


def _events_digest(path: Path) -> str:
    """A digest of every event row as schema 1 and 2 stored it (in schema 3: as its
    ``event_rows`` view shows it)."""
    digest = hashlib.blake2b()
    table = "event_rows" if _schema_version(path) in ("3", "4", "5") else "events"
    for row in _raw(path, f"SELECT stream, seq, type, payload, prev_hash, hash FROM {table} "
                          "ORDER BY stream, seq"):
        digest.update(repr(row).encode())
    return digest.hexdigest()


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_the_fixture_is_a_schema1_database(schema1_db: Path) -> None:
    assert _schema_version(schema1_db) == "1"
    assert "system" not in [r[1] for r in _raw(schema1_db, "PRAGMA table_info(streams)")]
    assert {r[0]: r[1] for r in _raw(schema1_db, "SELECT stream, head_hash FROM streams")} == \
        {s: h["head_hash"] for s, h in HEADS.items()}
    assert schema1_db.stat().st_size < 4_000_000
    assert (DATA / "schema1.db.gz").stat().st_size < 1_000_000


@pytest.mark.parametrize("journal", ["delete", "wal"])
def test_read_commands_on_an_old_database_work_and_write_nothing(
        old_db: Path, journal: str, capsys) -> None:
    """A read command (create=False) reads an old file in its own layout: the file, whether
    rinklog left it in WAL mode or not, stays byte for byte as it was."""
    _raw(old_db, f"PRAGMA journal_mode={journal}")
    version = _schema_version(old_db)
    before = _files(old_db.parent)
    capsys.readouterr()
    assert main(["games", "--db", str(old_db)]) == 0
    listed = capsys.readouterr().out
    assert [line.split()[0] for line in listed.splitlines()] == \
        ["bones-1", "faceoff-1", "bones-1-b1", "demo-s1-0001"]
    assert main(["audit", "--all", "--db", str(old_db)]) == 0
    assert main(["events", "faceoff-1", "--db", str(old_db)]) == 0
    assert main(["scoresheet", "bones-1-b1", "--db", str(old_db)]) == 0
    assert _files(old_db.parent) == before
    assert _schema_version(old_db) == version


def test_a_read_only_store_of_an_old_database_reads_its_systems(old_db: Path) -> None:
    version = _schema_version(old_db)
    with open_store(old_db, create=False) as store:
        assert {s.stream: s.system for s in store.streams()} == SYSTEMS
        assert store.stream_record("demo-s1").system == "league"
        assert isinstance(store.read("demo-s1")[0].event, SeasonCreated)
        assert all(r.ok for r in audit_all(store))
        # writing needs the migration, which a read-only open does not do
        with pytest.raises(RinklogError, match=f"schema-{version}") as err:
            store.copy_prefix("bones-1", "x", 10)
        assert str(old_db) in str(err.value) and "\n" not in str(err.value)
        with pytest.raises(RinklogError, match=f"schema-{version}"):
            store.append_encoded("bones-1", [], 1247)
    assert _schema_version(old_db) == version


def test_opening_for_writing_migrates_and_keeps_every_head_hash(old_db: Path, capsys) -> None:
    events_before = _events_digest(old_db)
    with open_store(old_db) as store:
        assert {s.stream: s.system for s in store.streams()} == SYSTEMS
        assert {s.stream: (s.kind, s.version, s.head_hash) for s in store.streams()} == \
            {s: (h["kind"], h["version"], h["head_hash"]) for s, h in HEADS.items()}
        for stream, head in HEADS.items():
            assert store.verify(stream) is None
            assert store.head_hash(stream) == head["head_hash"]
    assert _schema_version(old_db) == str(SCHEMA_VERSION) == "5"
    assert dict(_raw(old_db, "SELECT stream, system FROM streams")) == SYSTEMS
    assert set(_raw(old_db, "SELECT format FROM streams")) == {(MSGPACK,)}
    assert set(_raw(old_db, "SELECT hash_every FROM streams")) == {(1,)}
    assert _raw(old_db, "SELECT count(*) FROM events WHERE length(hash) IS NOT 32") == [(0,)]
    assert _events_digest(old_db) == events_before  # rows, payloads and hashes untouched
    assert [r[1] for r in _raw(old_db, "PRAGMA table_info(events)")] == \
        ["stream_key", "seq", "type_key", "payload", "hash"]
    assert {r[0] for r in _raw(old_db, "SELECT name FROM sqlite_master WHERE type='table'"
                                       " AND name NOT LIKE 'rm_%'")} == \
        {"rinklog_meta", "streams", "event_types", "events", "blobs", "sqlite_sequence"}
    with open_store(old_db) as store:  # a second open finds nothing to do
        assert {s.stream: s.system for s in store.streams()} == SYSTEMS
    capsys.readouterr()
    assert main(["audit", "--all", "--db", str(old_db)]) == 0
    out = capsys.readouterr().out
    for stream, head in HEADS.items():
        assert f"{stream}: ok" in out and head["head_hash"][:16] in out


def test_a_write_command_migrates_and_the_new_game_names_its_system(old_db: Path) -> None:
    assert main(["sim", "--home", "HFX", "--away", "QUE", "--seed", "new",
                 "--ruleset", "faceoff2008", "--game-id", "new-1", "--db", str(old_db)]) == 0
    assert main(["branch", "faceoff-1", "--at", "500", "--seed", "x", "--game-id", "fo-b",
                 "--db", str(old_db)]) == 0
    assert dict(_raw(old_db, "SELECT stream, system FROM streams")) == \
        {**SYSTEMS, "new-1": "bones", "fo-b": "bones"}
    # a new game is format 2; a branch of an old one shares its msgpack bytes and goes on so
    assert dict(_raw(old_db, "SELECT stream, format FROM streams")) == \
        {**dict.fromkeys(SYSTEMS, MSGPACK), "new-1": JSON, "fo-b": MSGPACK}
    assert main(["audit", "--all", "--db", str(old_db)]) == 0


@pytest.mark.parametrize("game", ["faceoff-1", "bones-1-b1", "demo-s1-0001"])
def test_export_and_import_of_a_migrated_game(old_db: Path, tmp_path: Path, game: str) -> None:
    with open_store(old_db):
        pass  # migrate
    exported = tmp_path / f"{game}.rinklog"
    # a season's game travels with its season (issue 32): the season's file carries it
    assert main(["export", SEASON_OF.get(game, game), "-o", str(exported),
                 "--db", str(old_db)]) == 0
    new_db = tmp_path / "new.db"
    assert main(["import", str(exported), "--db", str(new_db)]) == 0
    assert main(["audit", "--all", "--db", str(new_db)]) == 0
    with open_store(new_db) as store:
        assert store.head_hash(game) == HEADS[game]["head_hash"]
        assert {s.stream: s.system for s in store.streams()} == \
            {s: SYSTEMS[s] for s in ([game, "demo-s1"] if game.startswith("demo") else [game])}
        assert {s.format for s in store.streams()} == {MSGPACK}  # imported as exported


def test_a_schema1_game_exports_without_migrating_and_imports_into_a_new_database(
        old_db: Path, tmp_path: Path) -> None:
    before = old_db.read_bytes()
    exported = tmp_path / "b.rinklog"
    assert main(["export", "bones-1", "-o", str(exported), "--db", str(old_db)]) == 0
    assert main(["import", str(exported), "--db", str(tmp_path / "n.db")]) == 0
    assert main(["audit", "--all", "--db", str(tmp_path / "n.db")]) == 0
    assert old_db.read_bytes() == before  # export is a read command


def test_a_stream_of_a_system_this_rinklog_does_not_know_fails_in_one_line(
        old_db: Path, capsys) -> None:
    with open_store(old_db):
        pass
    _raw(old_db, "UPDATE streams SET system = 'dicehockey' WHERE stream = 'bones-1'")
    with open_store(old_db) as store:
        with pytest.raises(CorruptDatabase) as err:
            store.read("bones-1")
        message = str(err.value)
        assert "'bones-1'" in message and "'dicehockey'" in message and "\n" not in message
        assert store.read("faceoff-1", 1, 1)  # other streams read on
        assert len(store.read("bones-1", decode=False)) == 1247  # raw rows too
        report = audit_game(store, "bones-1")
        assert report.failure is not None and report.failure.check == "index"
    capsys.readouterr()
    assert main(["events", "bones-1", "--db", str(old_db)]) == 1
    err_lines = capsys.readouterr().err.splitlines()
    assert len(err_lines) == 1 and "dicehockey" in err_lines[0] and "bones-1" in err_lines[0]
    assert main(["games", "--db", str(old_db)]) == 0  # listing decodes nothing
    assert main(["audit", "--all", "--db", str(old_db)]) == 1
    out = capsys.readouterr().out
    assert [line.split(":")[0] for line in out.splitlines() if "FAILED" in line] == ["bones-1"]


def test_a_league_event_in_a_bones_stream_fails_decoding_and_the_audit(
        old_db: Path, capsys) -> None:
    """Each stream decodes with its own system's union: a league event does not decode in a
    Hockey Bones stream, though its tag is one rinklog knows."""
    with open_store(old_db) as store:
        season_row = store.read("demo-s1", 1, 1)[0]
        with pytest.raises(TypeError, match="system 'bones'"):
            store.append("bones-1", [season_row.event], 1247)  # the store refuses it
        # written past the store's check, as a worker's encoded rows are: the chain is fine
        store.append_encoded("bones-1", [(season_row.type, season_row.payload)], 1247)
        assert store.verify("bones-1") is None
        with pytest.raises(CorruptDatabase) as err:
            store.read("bones-1")
        message = str(err.value)
        assert "'bones-1'" in message and "event 1248" in message and "'bones'" in message
        assert "\n" not in message
        report = audit_game(store, "bones-1")
    assert report.failure is not None and report.failure.check == "decode"
    assert report.failure.seq == 1248
    capsys.readouterr()
    assert main(["audit", "bones-1", "--db", str(old_db)]) == 1
    assert "FAILED at seq 1248: decode check" in capsys.readouterr().out
    assert main(["events", "bones-1", "--db", str(old_db)]) == 1
    assert len(capsys.readouterr().err.splitlines()) == 1


# --- schema 3 -------------------------------------------------------------------------------

# event_rows as rinklog at schema 3 defined it (every payload a blob)
_SCHEMA3_EVENT_ROWS = f"""
CREATE VIEW event_rows (stream, seq, type, payload, prev_hash, hash) AS
SELECT s.stream, e.seq, t.tag, e.payload,
       CASE WHEN e.seq = 1 THEN '{GENESIS}' ELSE (SELECT lower(hex(p.hash)) FROM events p
            WHERE p.stream_key = e.stream_key AND p.seq = e.seq - 1) END,
       lower(hex(e.hash))
FROM events e JOIN streams s ON s.key = e.stream_key
LEFT JOIN event_types t ON t.key = e.type_key"""

# event_rows as rinklog at schema 4 defined it (a format-2 payload as text)
_SCHEMA4_EVENT_ROWS = f"""
CREATE VIEW event_rows (stream, seq, type, payload, prev_hash, hash) AS
SELECT s.stream, e.seq, t.tag,
       CASE s.format WHEN 2 THEN CAST(e.payload AS TEXT) ELSE e.payload END,
       CASE WHEN e.seq = 1 THEN '{GENESIS}' ELSE (SELECT lower(hex(p.hash)) FROM events p
            WHERE p.stream_key = e.stream_key AND p.seq = e.seq - 1) END,
       lower(hex(e.hash))
FROM events e JOIN streams s ON s.key = e.stream_key
LEFT JOIN event_types t ON t.key = e.type_key"""

_COMMANDS = (["sim", "--home", "HFX", "--away", "QUE", "--seed", "2027"],
             ["branch", "HFX-QUE-2027", "--at", "600", "--seed", "x", "--game-id", "b1"],
             ["sim", "--ruleset", "dicehockey", "--home", "ALD", "--away", "BRK", "--seed", "1"],
             ["season", "--games", "1", "--workers", "1"],
             ["matrix", "open", "--league", "example", "--seed", "2026"])


def _write_as_schema(path: Path, version: int, patch: pytest.MonkeyPatch) -> None:
    """Every kind of stream written as rinklog at schema ``version`` (3 or 4) wrote it: a
    hash on every row, ``events.hash NOT NULL``, no hash_every column (schema 3: every
    stream msgpack, no format column either), that schema's event_rows view."""
    patch.setattr(events.store, "HASH_EVERY", 1)  # a hash on every row
    patch.setattr(events.checkpoints, "HASH_EVERY", 1)  # as a season's workers chain them
    if version == 3:  # write as rinklog did before format 2
        patch.setattr(events.formats, "NEW_STREAM_FORMAT", MSGPACK)
        patch.setattr(events.store, "NEW_STREAM_FORMAT", MSGPACK)
    for command in _COMMANDS:
        assert main([*command, "--db", str(path)]) == 0
    views = [r[0] for r in _raw(path, "SELECT name FROM sqlite_master WHERE type = 'view'"
                                      " AND (name = 'event_rows' OR name GLOB 'ev_*')")]
    if version == 4:  # the ev_ views stay: schema 4 made them
        views = ["event_rows"]
    assert set(_raw(path, "SELECT format, hash_every FROM streams")) == \
        {(MSGPACK if version == 3 else JSON, 1)}
    schema_version = _raw(path, "PRAGMA schema_version")[0][0]
    _raw(path, "BEGIN; " + "".join(f"DROP VIEW {v}; " for v in views) +
         "ALTER TABLE streams DROP COLUMN hash_every; " +
         ("ALTER TABLE streams DROP COLUMN format; " if version == 3 else "") +
         (_SCHEMA3_EVENT_ROWS if version == 3 else _SCHEMA4_EVENT_ROWS) +
         f"; UPDATE rinklog_meta SET value = '{version}' WHERE key = 'schema_version'; "
         # events.hash NOT NULL, as schemas 3 and 4 defined it (SQLite's documented way)
         "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, "
         "'hash BLOB,', 'hash BLOB NOT NULL,') WHERE name = 'events'; "
         f"PRAGMA schema_version = {schema_version + 10}; PRAGMA writable_schema = OFF; "
         "COMMIT; VACUUM;")
    _raw(path, "PRAGMA journal_mode=DELETE")
    assert _raw(path, "PRAGMA integrity_check") == [("ok",)]
    assert "hash BLOB NOT NULL" in _raw(path, "SELECT sql FROM sqlite_master"
                                               " WHERE name = 'events'")[0][0]


SCHEMA3_STREAMS = {"HFX-QUE-2027": "bones", "b1": "bones", "ALD-BRK-1-dicehockey": "dicehockey",
                   "demo-1": "league", "demo-1-0001": "bones",
                   "matrix-example-2026-s1": "matrix"}


@pytest.fixture(scope="module")
def schema3_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every kind of stream, each in format 1, in the layout of schema 3."""
    path = tmp_path_factory.mktemp("schema3") / "s3.db"
    with pytest.MonkeyPatch.context() as patch:
        _write_as_schema(path, 3, patch)
    return path


def _copy_of(template: Path, folder: Path) -> Path:
    """A test's own copy of a module's template database."""
    path = folder / template.name
    path.write_bytes(template.read_bytes())
    return path


@pytest.fixture
def schema3_db(schema3_template: Path, tmp_path: Path) -> Path:
    return _copy_of(schema3_template, tmp_path)


SEASON_OF = {"demo-s1-0001": "demo-s1", "demo-1-0001": "demo-1"}


def _exported_and_imported(game: str, db: list[str], folder: Path) -> Path:
    """``game`` exported from ``db`` (a season's game with its season) and imported into a
    new database, which audits clean."""
    exported = folder / f"{game}.rinklog"
    assert main(["export", SEASON_OF.get(game, game), "-o", str(exported), *db]) == 0
    other = folder / f"{game}.db"
    assert main(["import", str(exported), "--db", str(other)]) == 0
    assert main(["audit", "--all", "--db", str(other)]) == 0
    return other


def _heads(path: Path) -> dict[str, str]:
    return dict(_raw(path, "SELECT stream, head_hash FROM streams"))


def test_the_schema3_database_is_what_rinklog_wrote_at_schema_3(schema3_db: Path) -> None:
    assert _schema_version(schema3_db) == "3"
    assert "format" not in [r[1] for r in _raw(schema3_db, "PRAGMA table_info(streams)")]
    assert dict(_raw(schema3_db, "SELECT stream, system FROM streams")) == SCHEMA3_STREAMS
    assert _heads(schema3_db)["HFX-QUE-2027"].startswith("7ba371e9")  # schema 3's bytes


def test_a_read_only_open_of_schema_3_reads_format_1_and_writes_nothing(
        schema3_db: Path, capsys) -> None:
    before = _files(schema3_db.parent)
    with open_store(schema3_db, create=False) as store:
        assert {s.stream: s.format for s in store.streams()} == \
            dict.fromkeys(SCHEMA3_STREAMS, MSGPACK)
        assert store.stream_record("ALD-BRK-1-dicehockey").format == MSGPACK
        assert all(store.verify(s) is None for s in SCHEMA3_STREAMS)
        assert all(r.ok for r in audit_all(store))
        with pytest.raises(RinklogError, match="schema-3 database opened read-only"):
            store.copy_prefix("HFX-QUE-2027", "x", 10)
    capsys.readouterr()
    assert main(["events", "ALD-BRK-1-dicehockey", "--json", "--db", str(schema3_db)]) == 0
    assert main(["export", "demo-1-0001", "-o", str(schema3_db.parent / "x.rinklog"),
                 "--db", str(schema3_db)]) == 0
    assert {k: v for k, v in _files(schema3_db.parent).items() if k != "x.rinklog"} == before


def test_opening_schema_3_for_writing_migrates_every_stream_as_format_1(
        schema3_db: Path, tmp_path: Path, capsys) -> None:
    heads, events_before = _heads(schema3_db), _events_digest(schema3_db)
    with open_store(schema3_db) as store:
        assert {s.stream: s.format for s in store.streams()} == \
            dict.fromkeys(SCHEMA3_STREAMS, MSGPACK)
    assert _schema_version(schema3_db) == "5"
    assert _heads(schema3_db) == heads and _events_digest(schema3_db) == events_before
    assert set(_raw(schema3_db, "SELECT hash_every FROM streams")) == {(1,)}
    assert _raw(schema3_db, "SELECT count(*) FROM ev_goal_scored") == [(0,)]  # format 2 only
    db = ["--db", str(schema3_db)]
    assert main(["branch", "ALD-BRK-1-dicehockey", "--at", "300", "--seed", "y", "--game-id", "d-b",
                 *db]) == 0
    assert main(["sim", "--home", "HFX", "--away", "QUE", "--seed", "new", *db]) == 0
    formats = dict(_raw(schema3_db, "SELECT stream, format FROM streams"))
    assert formats == {**dict.fromkeys(SCHEMA3_STREAMS, MSGPACK), "d-b": MSGPACK,
                       "HFX-QUE-new": JSON}
    # the branch keeps its parent's hash on every row; the new game stores checkpoints
    assert dict(_raw(schema3_db, "SELECT stream, hash_every FROM streams")) == {
        **dict.fromkeys(SCHEMA3_STREAMS, 1), "d-b": 1, "HFX-QUE-new": HASH_EVERY}
    assert _raw(schema3_db, "SELECT count(*) FROM events WHERE hash IS NULL AND stream_key"
                            " IN (SELECT key FROM streams WHERE hash_every = 1)") == [(0,)]
    capsys.readouterr()
    assert main(["audit", "--all", *db]) == 0
    assert main(["receipt", "--all", "-o", str(tmp_path / "r.json"), *db]) == 0
    assert main(["audit", "--receipt", str(tmp_path / "r.json"), *db]) == 0
    for game in ("HFX-QUE-2027", "b1", "d-b", "demo-1-0001", "matrix-example-2026-s1"):
        other = _exported_and_imported(game, db, tmp_path)
        with open_store(other) as store:
            assert store.head_hash(game) == _heads(schema3_db)[game]
            assert {s.format for s in store.streams()} == {MSGPACK}


def _as_version_2(data: bytes) -> bytes:
    """An export file as rinklog wrote it before payload formats (version 2)."""
    tree = msgspec.msgpack.decode(data)
    assert tree["version"] == 3
    del tree["payload_format"], tree["season_payload_format"]
    return msgspec.msgpack.encode({**tree, "version": 2})


def test_an_export_file_of_version_2_imports_as_format_1(schema1_db: Path, tmp_path: Path,
                                                         capsys) -> None:
    with open_store(schema1_db) as store:  # migrate
        v2 = tmp_path / "season-game.rinklog"
        v2.write_bytes(_as_version_2(export_game(store, "demo-s1-0001")))
        assert main(["import", str(v2), "--db", str(tmp_path / "alone.db")]) == 1
        assert "a game of season demo-s1" in capsys.readouterr().err  # read, then refused
        for game in ("bones-1-b1",):
            v2 = tmp_path / f"{game}.rinklog"
            v2.write_bytes(_as_version_2(export_game(store, game)))
            target = tmp_path / f"{game}.db"
            assert main(["import", str(v2), "--db", str(target)]) == 0
            with open_store(target) as other:
                assert other.head_hash(game) == HEADS[game]["head_hash"]
                assert {s.format for s in other.streams()} == {MSGPACK}
                assert all(r.ok for r in audit_all(other))
        assert main(["sim", "--home", "HFX", "--away", "QUE", "--seed", "v", "--game-id", "v",
                     "--db", str(schema1_db)]) == 0
    with open_store(schema1_db) as store:
        new = export_game(store, "v")
    assert msgspec.msgpack.decode(new)["payload_format"] == JSON
    with pytest.raises(ImportRefused, match="decode check"):  # JSON payloads read as msgpack
        verify_export(_as_version_2(new))
    with pytest.raises(ImportRefused, match="version 2 names no payload format"):
        verify_export(msgspec.msgpack.encode({**msgspec.msgpack.decode(new), "version": 2}))


# --- schema 4 -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def schema4_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every kind of stream, each in format 2, in the layout of schema 4 (a hash on every
    row, no hash_every column)."""
    path = tmp_path_factory.mktemp("schema4") / "s4.db"
    with pytest.MonkeyPatch.context() as patch:
        _write_as_schema(path, 4, patch)
    return path


@pytest.fixture
def schema4_db(schema4_template: Path, tmp_path: Path) -> Path:
    return _copy_of(schema4_template, tmp_path)


def test_a_read_only_open_of_schema_4_reads_every_hash_and_writes_nothing(
        schema4_db: Path) -> None:
    before = _files(schema4_db.parent)
    heads = _heads(schema4_db)
    with open_store(schema4_db, create=False) as store:
        assert {s.stream: s.format for s in store.streams()} == dict.fromkeys(heads, JSON)
        assert {s: store.stream_record(s).hash_every for s in heads} == dict.fromkeys(heads, 1)
        assert all(store.verify(s) is None for s in heads)
        assert all(r.ok for r in audit_all(store))
        rows = store.raw_rows("HFX-QUE-2027")
        assert all(r.stored == r.hash for r in rows)
        with pytest.raises(RinklogError, match="schema-4 database opened read-only"):
            store.copy_prefix("HFX-QUE-2027", "x", 10)
    assert _files(schema4_db.parent) == before


def test_opening_schema_4_for_writing_adds_hash_every_and_touches_no_row(
        schema4_db: Path, tmp_path: Path, capsys) -> None:
    heads, events_before = _heads(schema4_db), _events_digest(schema4_db)
    rows_before = _raw(schema4_db, "SELECT stream_key, seq, type_key, payload, hash FROM events"
                                   " ORDER BY stream_key, seq")
    with open_store(schema4_db) as store:
        assert {store.stream_record(s).hash_every for s in heads} == {1}
    assert _schema_version(schema4_db) == "5"
    assert _raw(schema4_db, "PRAGMA integrity_check") == [("ok",)]
    assert "hash BLOB NOT NULL" not in _raw(schema4_db, "SELECT sql FROM sqlite_master"
                                                        " WHERE name = 'events'")[0][0]
    assert _heads(schema4_db) == heads and _events_digest(schema4_db) == events_before
    assert _raw(schema4_db, "SELECT stream_key, seq, type_key, payload, hash FROM events"
                            " ORDER BY stream_key, seq") == rows_before
    db = ["--db", str(schema4_db)]
    assert main(["branch", "HFX-QUE-2027", "--at", "300", "--seed", "y", "--game-id", "b2",
                 *db]) == 0
    assert main(["sim", "--home", "HFX", "--away", "QUE", "--seed", "new", *db]) == 0
    assert dict(_raw(schema4_db, "SELECT stream, hash_every FROM streams")) == {
        **dict.fromkeys(heads, 1), "b2": 1, "HFX-QUE-new": HASH_EVERY}
    capsys.readouterr()
    assert main(["audit", "--all", *db]) == 0
    for game in ("HFX-QUE-2027", "b2", "demo-1-0001"):  # an import stores checkpoints
        other = _exported_and_imported(game, db, tmp_path)
        with open_store(other) as store:
            assert store.head_hash(game) == _heads(schema4_db)[game]
            assert store.stream_record(game).hash_every == HASH_EVERY
