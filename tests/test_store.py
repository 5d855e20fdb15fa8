"""The SQLite event store: round trips, optimistic concurrency, hash chain, blobs, errors."""

from __future__ import annotations

import hashlib
import itertools
import sqlite3
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.base import Event
from events.bones import Roll
from events.errors import CorruptDatabase, RinklogError, StreamConflict, UnknownGame
from events.formats import JSON, MSGPACK, encode_events
from events.store import (
    GENESIS,
    EventStore,
    StoredEvent,
    StreamInfo,
    blob_hash,
    chain_hash,
    verify_chain,
)


class Rolled(Event, frozen=True):
    n: int
    roll: Roll


class Shot(Event, frozen=True):
    shooter: str
    in_range: bool
    rule: str = "10.00"


Sample = Rolled | Shot
SAMPLE = {"sample": Sample}  # the one system of these tests


class Stranger(Event, frozen=True):
    """An event the store's codec does not know."""

    x: int


def sample(count: int, offset: int = 0) -> list[Rolled | Shot]:
    out: list[Rolled | Shot] = []
    for i in range(offset, offset + count):
        if i % 2:
            out.append(Shot(f"player-{i}", in_range=i % 3 == 0))
        else:
            out.append(Rolled(i + 1, Roll(i % 6 + 1, (3, 4), 6 - i % 6)))
    return out


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "rinklog.db"


@pytest.fixture
def fresh_store(db_path: Path):
    with EventStore(db_path, decoders=SAMPLE) as store:
        yield store


def tamper(path: Path, *statements: str) -> None:
    """Edit the database behind the store's back, as an attacker with sqlite3 would."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for sql in statements:
            db.execute(sql)
    finally:
        db.close()


# --- append and read -------------------------------------------------------------------


def test_append_and_read_round_trip(fresh_store: EventStore) -> None:
    events = sample(5)
    assert fresh_store.append("g1", events, 0, system="sample") == 5
    rows = fresh_store.read("g1")
    assert [r.event for r in rows] == events
    assert [r.seq for r in rows] == [1, 2, 3, 4, 5]
    assert [r.type for r in rows] == ["Rolled", "Shot", "Rolled", "Shot", "Rolled"]
    assert all(isinstance(r, StoredEvent) for r in rows)
    # a new stream's payloads are format 2, JSON arrays: the tag, then the fields in order
    assert fresh_store.info("g1").format == JSON
    assert rows[0].payload == b'["Rolled",1,[1,[3,4],6]]'
    assert rows[1].payload == b'["Shot","player-1",false,"10.00"]'


def test_a_stream_of_format_1_is_msgpack_and_keeps_its_format(fresh_store: EventStore) -> None:
    events = sample(4)
    assert fresh_store.append("g1", events[:2], 0, system="sample", format=MSGPACK) == 2
    assert fresh_store.append("g1", events[2:], 2, format=JSON) == 4  # its own format wins
    rows = fresh_store.read("g1")
    assert [r.event for r in rows] == events
    assert [r.payload for r in rows] == [msgspec.msgpack.encode(e) for e in events]
    assert msgspec.msgpack.decode(rows[1].payload)["type"] == "Shot"
    assert fresh_store.info("g1").format == MSGPACK
    assert fresh_store.copy_prefix("g1", "g1-b", 3) == 3  # a branch shares its bytes
    assert fresh_store.info("g1-b").format == MSGPACK
    fresh_store.append("g1-b", sample(1, offset=9), 3)
    assert fresh_store.read("g1-b")[-1].payload == msgspec.msgpack.encode(sample(1, 9)[0])
    assert fresh_store.verify("g1-b") is None


def test_append_encoded_takes_the_streams_format(fresh_store: EventStore) -> None:
    fresh_store.append_encoded("g1", encode_events(sample(2), MSGPACK), 0, system="sample",
                               format=MSGPACK)
    fresh_store.append_encoded("g1", encode_events(sample(1, 2), MSGPACK), 2)  # its own
    with pytest.raises(ValueError, match="format 1: events encoded in format 2"):
        fresh_store.append_encoded("g1", encode_events(sample(1, 3)), 3, format=JSON)
    fresh_store.append_encoded("g2", encode_events(sample(2)), 0, system="sample")
    assert [fresh_store.info(s).format for s in ("g1", "g2")] == [MSGPACK, JSON]
    assert [r.event for r in fresh_store.read("g1")] == sample(3)
    assert [r.event for r in fresh_store.read("g2")] == sample(2)
    with pytest.raises(ValueError, match="payload format 7"):
        fresh_store.append("g3", sample(1), 0, system="sample", format=7)
    assert not fresh_store.exists("g3")


def test_seq_continues_across_appends(fresh_store: EventStore) -> None:
    v = fresh_store.append("g1", sample(3), 0, system="sample")
    v = fresh_store.append("g1", sample(4, offset=3), v)
    assert v == 7
    assert [r.seq for r in fresh_store.read("g1")] == list(range(1, 8))
    assert [r.event for r in fresh_store.read("g1")] == sample(7)
    assert [r.seq for r in fresh_store.read("g1", start=3, stop=5)] == [3, 4, 5]
    assert [r.seq for r in fresh_store.read("g1", start=6)] == [6, 7]
    assert [r.seq for r in fresh_store.iter_events("g1")] == list(range(1, 8))
    assert fresh_store.version("g1") == 7


def test_empty_append_creates_the_stream(fresh_store: EventStore) -> None:
    assert fresh_store.append("g1", [], 0, system="sample", meta={"home": "HFX"}) == 0
    assert fresh_store.exists("g1")
    assert fresh_store.read("g1") == []
    assert fresh_store.head_hash("g1") == GENESIS


def test_data_survives_reopening(db_path: Path) -> None:
    with EventStore(db_path, decoders=SAMPLE) as store:
        store.append("g1", sample(4), 0, system="sample")
        head = store.head_hash("g1")
    with EventStore(db_path, decoders=SAMPLE) as store:
        assert [r.event for r in store.read("g1")] == sample(4)
        assert store.head_hash("g1") == head


def test_wal_mode(fresh_store: EventStore, db_path: Path) -> None:
    db = sqlite3.connect(db_path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("SELECT value FROM rinklog_meta WHERE key='schema_version'").fetchone()
    db.close()


def test_streams_listing_and_meta(fresh_store: EventStore) -> None:
    fresh_store.append("g1", sample(2), 0, system="sample", meta={"home": "HFX", "away": "QUE"})
    fresh_store.append("season-1", [], 0, system="sample", kind="season")
    fresh_store.append("g2", sample(1), 0, system="sample")
    merged = fresh_store.update_meta("g1", winner="HFX", away="MTL")
    assert merged == {"home": "HFX", "away": "MTL", "winner": "HFX"}
    listed = fresh_store.streams()
    assert [s.stream for s in listed] == ["g1", "season-1", "g2"]
    assert listed[0] == StreamInfo(
        "g1",
        "game",
        2,
        fresh_store.head_hash("g1"),
        {"home": "HFX", "away": "MTL", "winner": "HFX"},
        "sample",
        JSON,
    )
    assert [s.stream for s in fresh_store.streams(kind="season")] == ["season-1"]
    assert [s.stream for s in fresh_store.streams(kind="game")] == ["g1", "g2"]
    with pytest.raises(UnknownGame, match="nope"):
        fresh_store.update_meta("nope", x=1)


def test_append_rejects_events_the_codec_cannot_read(fresh_store: EventStore) -> None:
    with pytest.raises(TypeError, match="Stranger"):
        fresh_store.append("g1", [*sample(2), Stranger(1)], 0, system="sample")
    assert not fresh_store.exists("g1")


# --- optimistic concurrency ------------------------------------------------------------


def test_expected_version_conflict_writes_nothing(fresh_store: EventStore) -> None:
    fresh_store.append("g1", sample(3), 0, system="sample")
    head = fresh_store.head_hash("g1")
    before = fresh_store.read("g1")
    for stale in (0, 2, 4):
        with pytest.raises(StreamConflict) as err:
            fresh_store.append("g1", sample(2, offset=3), stale, meta={"x": 1})
        message = str(err.value)
        assert "'g1'" in message and f"expected {stale}" in message and "version 3" in message
    assert fresh_store.version("g1") == 3
    assert fresh_store.head_hash("g1") == head
    assert fresh_store.read("g1") == before
    assert fresh_store.streams()[0].meta == {}


def test_conflict_on_a_missing_stream_creates_nothing(fresh_store: EventStore) -> None:
    with pytest.raises(StreamConflict):
        fresh_store.append("g1", sample(1), 5)
    assert not fresh_store.exists("g1")
    assert fresh_store.version("g1") == 0


def test_two_connections_race(db_path: Path) -> None:
    with (
        EventStore(db_path, decoders=SAMPLE) as a,
        EventStore(db_path, decoders=SAMPLE) as b,
    ):
        a.append("g1", sample(1), 0, system="sample")
        b.append("g1", sample(1, offset=1), 1)
        with pytest.raises(StreamConflict):
            a.append("g1", sample(1, offset=1), 1)
        assert a.version("g1") == 2
        assert [r.event for r in a.read("g1")] == sample(2)


# --- hash chain ------------------------------------------------------------------------


def test_hash_chain_recomputes(fresh_store: EventStore) -> None:
    fresh_store.append("g1", sample(3), 0, system="sample")
    fresh_store.append("g1", sample(2, offset=3), 3)
    rows = fresh_store.read("g1")
    prev = GENESIS
    for row in rows:
        assert row.prev_hash == prev
        expected = hashlib.blake2b(bytes.fromhex(prev) + row.payload, digest_size=32).hexdigest()
        assert row.hash == expected == chain_hash(prev, row.payload)
        prev = row.hash
    assert fresh_store.head_hash("g1") == prev
    assert verify_chain(rows) is None
    assert verify_chain(rows, expected_head=prev) is None
    assert fresh_store.verify("g1") is None


def test_hash_does_not_cover_the_stream_id(fresh_store: EventStore) -> None:
    fresh_store.append("g1", sample(4), 0, system="sample")
    fresh_store.append("another-name", sample(4), 0, system="sample")
    assert fresh_store.head_hash("g1") == fresh_store.head_hash("another-name")


@pytest.mark.parametrize("count, caught", [(5, 6), (40, 32)])
def test_verify_chain_detects_changed_payload_byte(fresh_store: EventStore, db_path: Path,
                                                   count: int, caught: int) -> None:
    """A stream stores its hash every 32nd row (schema 5): a changed payload is caught at
    the next checkpoint, or at the head (reported past the last row) after the last one."""
    fresh_store.append("g1", sample(count), 0, system="sample")
    head = fresh_store.head_hash("g1")
    payload = fresh_store.read("g1")[2].payload
    assert b"[3,4]" in payload  # the white dice, 3 and 4
    changed = payload.replace(b"[3,4]", b"[3,5]")
    tamper(db_path, f"UPDATE events SET payload = x'{changed.hex()}' WHERE seq = 3")
    rows = fresh_store.read("g1")
    assert rows[2].event.roll.whites == (3, 5)  # still decodes: only the hash betrays it
    assert verify_chain(rows, expected_head=head) == caught
    assert verify_chain(rows, expected_head=head, hash_every=32) == caught
    assert fresh_store.verify("g1") == caught


def test_verify_chain_detects_deleted_row(fresh_store: EventStore, db_path: Path) -> None:
    fresh_store.append("g1", sample(5), 0, system="sample")
    tamper(db_path, "DELETE FROM events WHERE seq = 3")
    assert verify_chain(fresh_store.read("g1"), expected_head=fresh_store.head_hash("g1")) == 3
    assert fresh_store.verify("g1") == 3


def test_verify_detects_deleted_last_row(fresh_store: EventStore, db_path: Path) -> None:
    fresh_store.append("g1", sample(5), 0, system="sample")
    tamper(db_path, "DELETE FROM events WHERE seq = 5")
    rows = fresh_store.read("g1")
    assert verify_chain(rows) is None  # a shorter chain is still a chain...
    assert fresh_store.verify("g1") == 5  # ...but not the one whose head was recorded


def test_verify_chain_detects_swapped_rows(fresh_store: EventStore, db_path: Path) -> None:
    fresh_store.append("g1", sample(5), 0, system="sample")
    tamper(
        db_path,
        "UPDATE events SET seq = -1 WHERE seq = 2",
        "UPDATE events SET seq = 2 WHERE seq = 4",
        "UPDATE events SET seq = 4 WHERE seq = -1",
    )
    # the rows read in seq order hash to another head (no checkpoint among 5 rows)
    assert verify_chain(fresh_store.read("g1"), expected_head=fresh_store.head_hash("g1")) == 6
    assert fresh_store.verify("g1") == 6


def test_verify_chain_detects_bad_numbering_and_links() -> None:
    def row(seq: int, prev: str, payload: bytes) -> StoredEvent:
        return StoredEvent(seq, "X", None, payload, prev, chain_hash(prev, payload))

    r1 = row(1, GENESIS, b"a")
    r2 = row(2, r1.hash, b"b")
    assert verify_chain([r1, r2]) is None
    assert verify_chain([row(0, GENESIS, b"a")]) == 1  # numbering starts at 1
    assert verify_chain([r1, row(3, r1.hash, b"b")]) == 2  # a renumbered row
    assert verify_chain([r1, row(2, GENESIS, b"b")]) == 2  # a re-linked row
    assert verify_chain([r2]) == 1
    assert verify_chain([]) is None
    assert verify_chain([], expected_head=GENESIS) is None
    assert verify_chain([r1], expected_head=r2.hash) == 2


# --- blobs -----------------------------------------------------------------------------


def test_blobs_are_content_addressed_and_idempotent(fresh_store: EventStore, db_path: Path) -> None:
    card = b'id = "hfx-crosby"\nname = "S. Crosby"\n'
    digest = fresh_store.put_blob(card, "application/toml")
    assert digest == hashlib.blake2b(card, digest_size=32).hexdigest() == blob_hash(card)
    assert fresh_store.put_blob(card, "application/toml") == digest
    assert fresh_store.put_blob(card, "text/plain") == digest
    assert fresh_store.get_blob(digest) == card
    assert fresh_store.has_blob(digest)
    other = fresh_store.put_blob(b"chart", "application/toml")
    assert other != digest
    db = sqlite3.connect(db_path)
    assert db.execute("SELECT COUNT(*) FROM blobs").fetchone()[0] == 2
    db.close()
    with pytest.raises(CorruptDatabase, match="0" * 64):
        fresh_store.get_blob("0" * 64)
    assert not fresh_store.has_blob("0" * 64)


def test_tampered_blob_is_caught(fresh_store: EventStore, db_path: Path) -> None:
    digest = fresh_store.put_blob(b"goalie card", "application/toml")
    tamper(db_path, "UPDATE blobs SET content = x'00'")
    with pytest.raises(CorruptDatabase, match=digest):
        fresh_store.get_blob(digest)


# --- branching -------------------------------------------------------------------------


def test_copy_prefix_shares_hashes(fresh_store: EventStore) -> None:
    fresh_store.append("g1", sample(6), 0, system="sample", meta={"home": "HFX"})
    parent = fresh_store.read("g1")
    assert fresh_store.copy_prefix("g1", "g1-b", 4, {"seed": "other"}) == 4
    child = fresh_store.read("g1-b")
    assert child == parent[:4]  # same seq, type, payload, prev_hash and hash
    assert fresh_store.head_hash("g1-b") == parent[3].hash
    assert fresh_store.version("g1-b") == 4
    info = next(s for s in fresh_store.streams() if s.stream == "g1-b")
    assert info.kind == "game"
    assert info.meta == {"parent": "g1", "parent_seq": 4, "seed": "other"}
    # the branch continues on its own chain; the parent is untouched
    fresh_store.append("g1-b", sample(1, offset=10), 4)
    assert fresh_store.verify("g1-b") is None
    assert fresh_store.read("g1") == parent
    assert fresh_store.read("g1-b")[4].prev_hash == parent[3].hash


def test_copy_prefix_errors(fresh_store: EventStore) -> None:
    fresh_store.append("g1", sample(3), 0, system="sample")
    fresh_store.append("g2", [], 0, system="sample")
    with pytest.raises(UnknownGame, match="nope"):
        fresh_store.copy_prefix("nope", "x", 1, {})
    with pytest.raises(ValueError, match="4"):
        fresh_store.copy_prefix("g1", "x", 4, {})
    with pytest.raises(StreamConflict, match="g2"):
        fresh_store.copy_prefix("g1", "g2", 2, {})
    assert not fresh_store.exists("x")
    assert fresh_store.copy_prefix("g1", "from-start", 0, {}) == 0
    assert fresh_store.head_hash("from-start") == GENESIS


# --- systems: each stream decodes with its own system's events --------------------------


class Drafted(Event, frozen=True):
    """An event of another system (a tag the first system's union does not have)."""

    pick: int


TWO_SYSTEMS = {"sample": Sample, "draft": Drafted}


def test_each_stream_decodes_with_its_systems_events(db_path: Path) -> None:
    with EventStore(db_path, decoders=TWO_SYSTEMS) as store:
        store.append("g1", sample(3), 0, system="sample")
        store.append("d1", [Drafted(1), Drafted(2)], 0, kind="season", system="draft")
        assert [r.event for r in store.read("g1")] == sample(3)
        assert [r.event for r in store.read("d1")] == [Drafted(1), Drafted(2)]
        assert [(s.stream, s.system) for s in store.streams()] == [("g1", "sample"),
                                                                  ("d1", "draft")]
        assert store.info("d1").system == "draft"
        assert store.stream_record("g1").system == "sample"
        # a later append keeps the stream's system (a system= given then is ignored)
        store.append("g1", sample(1, offset=3), 3, system="draft")
        assert store.info("g1").system == "sample"
        # another system's event is refused, nothing written
        with pytest.raises(TypeError, match="not an event of system 'sample'"):
            store.append("g1", [Drafted(3)], 4)
        with pytest.raises(TypeError, match="system 'draft'"):
            store.append("d1", sample(1), 2)
        assert store.version("g1") == 4 and store.version("d1") == 2


def test_a_new_stream_names_a_known_system(fresh_store: EventStore) -> None:
    with pytest.raises(ValueError, match="needs its system"):
        fresh_store.append("g1", sample(1), 0)
    with pytest.raises(ValueError, match="unknown system 'dice'"):
        fresh_store.append_encoded("g1", [], 0, system="dice")
    assert not fresh_store.exists("g1")
    fresh_store.append("g1", sample(1), 0, system="sample")
    with pytest.raises(StreamConflict):  # a conflict is a conflict, system or not
        fresh_store.append("g1", sample(1), 0)


def test_another_systems_payload_in_a_stream_does_not_decode(db_path: Path) -> None:
    with EventStore(db_path, decoders=TWO_SYSTEMS) as store:
        store.append("g1", sample(2), 0, system="sample")
        store.append_encoded("g1", encode_events([Drafted(7)]), 2)  # in the stream's format
        assert store.verify("g1") is None  # the chain is whole; the stream is not
        with pytest.raises(CorruptDatabase) as err:
            store.read("g1")
        message = str(err.value)
        assert "'g1'" in message and "event 3" in message and "system 'sample'" in message
        assert "\n" not in message
        assert [r.event for r in store.read("g1", 1, 2)] == sample(2)


def test_a_stream_of_an_unknown_system_fails_in_one_line(db_path: Path) -> None:
    with EventStore(db_path, decoders=TWO_SYSTEMS) as store:
        store.append("g1", sample(2), 0, system="sample")
        store.append("g2", sample(2), 0, system="sample")
    tamper(db_path, "UPDATE streams SET system = 'matrix' WHERE stream = 'g1'")
    with EventStore(db_path, decoders=TWO_SYSTEMS) as store:
        for call in (lambda: store.read("g1"), lambda: store.iter_events("g1")):
            with pytest.raises(CorruptDatabase) as err:
                call()
            message = str(err.value)
            assert "'g1'" in message and "'matrix'" in message and str(db_path) in message
            assert "\n" not in message
        assert len(store.read("g1", decode=False)) == 2  # raw rows and listing need no decoder
        assert store.info("g1").system == "matrix"
        assert [r.event for r in store.read("g2")] == sample(2)
    with EventStore(db_path) as plain:  # no decoders: any system reads as plain values
        assert plain.read("g1")[0].event[0] == "Rolled"


def test_copy_prefix_copies_the_system(db_path: Path) -> None:
    with EventStore(db_path, decoders=TWO_SYSTEMS) as store:
        store.append("d1", [Drafted(1), Drafted(2)], 0, system="draft")
        store.copy_prefix("d1", "d1-b", 1)
        assert store.info("d1-b").system == "draft"
        store.append("d1-b", [Drafted(9)], 1)
        assert [r.event for r in store.read("d1-b")] == [Drafted(1), Drafted(9)]


# --- the layout (schema 3) and older ones ----------------------------------------------


def test_schema_5_stores_keys_and_checkpoint_hashes(fresh_store: EventStore,
                                                    db_path: Path) -> None:
    """A row is (stream_key, seq, type_key, payload, hash): the stream id and the tag once
    each, the hash as 32 bytes at every 32nd row and NULL elsewhere, no prev_hash; the
    event_rows view shows schema 2's columns, a format-2 payload as its text, the hash where
    it is stored and a prev_hash where the row before stores one."""
    fresh_store.append("g1", sample(70), 0, system="sample")
    fresh_store.append("m1", sample(1), 0, system="sample", format=MSGPACK)
    fresh_store.copy_prefix("g1", "g1-b", 40)
    rows = fresh_store.read("g1", decode=False)
    db = sqlite3.connect(db_path)
    try:
        assert [r[1] for r in db.execute("PRAGMA table_info(events)")] == \
            ["stream_key", "seq", "type_key", "payload", "hash"]
        stored = db.execute("SELECT s.stream, e.seq, t.tag, e.payload, e.hash FROM events e"
                            " JOIN streams s ON s.key = e.stream_key"
                            " JOIN event_types t ON t.key = e.type_key"
                            " WHERE s.stream = 'g1' ORDER BY e.seq").fetchall()
        assert stored == [("g1", r.seq, r.type, r.payload,
                           bytes.fromhex(r.hash) if r.seq in (32, 64) else None) for r in rows]
        assert db.execute("SELECT tag FROM event_types ORDER BY key").fetchall() == \
            [("Rolled",), ("Shot",)]
        view = db.execute("SELECT stream, seq, type, payload, prev_hash, hash FROM event_rows"
                          " WHERE stream != 'm1' ORDER BY stream, seq").fetchall()
        shown = [(r.seq, r.type, r.payload.decode(),
                  r.prev_hash if r.seq in (1, 33, 65) else None,
                  r.hash if r.seq in (32, 64) else None) for r in rows]
        assert view == [("g1", *r) for r in shown] + [("g1-b", *r) for r in shown[:40]]
        m1 = fresh_store.read("m1", decode=False)[0]
        assert db.execute("SELECT payload FROM event_rows WHERE stream = 'm1'").fetchall() == \
            [(m1.payload,)]  # msgpack stays a blob
    finally:
        db.close()


def test_reading_from_the_middle_links_to_the_row_before(fresh_store: EventStore) -> None:
    fresh_store.append("g1", sample(5), 0, system="sample")
    rows = fresh_store.read("g1")
    assert fresh_store.read("g1", 3, 4) == rows[2:4]
    assert list(fresh_store.iter_events("g1", 2)) == rows[1:]
    fresh_store.append("g2", sample(70), 0, system="sample")  # checkpoints at 32 and 64
    rows = fresh_store.read("g2")
    for start in (2, 31, 32, 33, 34, 63, 64, 65, 70):
        assert fresh_store.read("g2", start, start + 1) == rows[start - 1:start + 1]


def test_rows_of_no_stream_are_never_adopted(fresh_store: EventStore, db_path: Path) -> None:
    """Rows a hand edit left under the key the next stream would get: creating that stream
    (an append or a branch) fails in one line, and the audit's listing names the rows."""
    fresh_store.append("g1", sample(3), 0, system="sample")
    tamper(db_path, "INSERT INTO events SELECT stream_key + 1, seq, type_key, payload, hash"
                    " FROM events")
    assert fresh_store.stream_ids() == ["g1", "(rows of no stream, key 2)"]
    assert len(fresh_store.raw_rows("(rows of no stream, key 2)")) == 3
    with EventStore(db_path, decoders=SAMPLE) as other:  # read by that name, listed or not
        assert other.raw_rows("(rows of no stream, key 2)") == fresh_store.raw_rows("g1")
    for create in (lambda: fresh_store.append("g2", sample(1), 0, system="sample"),
                   lambda: fresh_store.copy_prefix("g1", "g1-b", 2)):
        with pytest.raises(CorruptDatabase) as err:
            create()
        assert "\n" not in str(err.value) and str(db_path) in str(err.value)
    assert [s.stream for s in fresh_store.streams()] == ["g1"]  # nothing was written


def _old_db(db_path: Path, version: int) -> str:
    """A database in schema 1's or 2's layout, as rinklog wrote it before schema 3 (one
    events table keyed by the stream id, hex hashes and prev_hash): a game of 3 events, its
    branch at 2 and an empty season. The hash of its bytes."""
    from events.schema import SCHEMA_2
    db = sqlite3.connect(db_path, isolation_level=None)
    db.executescript(SCHEMA_2 + "CREATE TABLE rinklog_meta (key TEXT PRIMARY KEY,"
                     " value TEXT NOT NULL);")
    db.execute("INSERT INTO rinklog_meta VALUES ('schema_version', ?)", (str(version),))
    prev, rows = GENESIS, []
    for seq, event in enumerate(sample(3), start=1):
        payload = msgspec.msgpack.encode(event)
        digest = chain_hash(prev, payload)
        rows.append((seq, type(event).__name__, payload, prev, digest))
        prev = digest
    db.executemany("INSERT INTO events VALUES ('g1', ?, ?, ?, ?, ?)", rows)
    db.executemany("INSERT INTO events VALUES ('g1-b', ?, ?, ?, ?, ?)", rows[:2])
    db.executemany("INSERT INTO streams VALUES (?, ?, ?, ?, ?, 'sample')", [
        ("g1", "game", 3, prev, '{"home":"HFX"}'),
        ("g1-b", "game", 2, rows[1][4], '{"parent":"g1","parent_seq":2}'),
        ("s1", "season", 0, GENESIS, "{}")])
    if version == 1:
        db.execute("ALTER TABLE streams DROP COLUMN system")
    db.execute("VACUUM")
    db.close()
    return hashlib.sha256(db_path.read_bytes()).hexdigest()


def _dump(db_path: Path) -> list[str]:
    db = sqlite3.connect(db_path)
    try:
        return list(db.iterdump())
    finally:
        db.close()


def _version_and_columns(db_path: Path, table: str = "streams") -> tuple[str, list[str]]:
    db = sqlite3.connect(db_path)
    try:
        version = db.execute("SELECT value FROM rinklog_meta WHERE key='schema_version'")
        return version.fetchone()[0], [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
    finally:
        db.close()


def test_a_read_only_open_of_schema_1_reads_as_migrated_and_writes_nothing(db_path: Path) -> None:
    digest = _old_db(db_path, 1)
    with EventStore(db_path, create=False) as store:  # schema 1 knew Bones games and seasons
        assert [(s.stream, s.system) for s in store.streams()] == [
            ("g1", "bones"), ("g1-b", "bones"), ("s1", "league")]
        assert store.stream_record("s1").system == "league"
        assert len(store.read("g1")) == 3
        with pytest.raises(RinklogError, match="schema-1 database opened read-only"):
            store.append_encoded("g1", [], 3)
    assert hashlib.sha256(db_path.read_bytes()).hexdigest() == digest
    assert _version_and_columns(db_path)[0] == "1"


def test_a_read_only_open_of_schema_2_reads_it_and_writes_nothing(db_path: Path) -> None:
    digest = _old_db(db_path, 2)
    with EventStore(db_path, decoders=SAMPLE, create=False) as store:
        assert [(s.stream, s.system) for s in store.streams()] == [
            ("g1", "sample"), ("g1-b", "sample"), ("s1", "sample")]
        rows = store.read("g1")
        assert [r.event for r in rows] == sample(3)
        assert store.read("g1", 2, 3) == rows[1:]
        assert store.verify("g1") is None and store.verify("g1-b") is None
        assert store.raw_rows("g1-b") == [msgspec.structs.replace(r, event=None)
                                          for r in rows[:2]]
        assert store.stream_ids() == ["g1", "g1-b", "s1"]
        for write in (lambda: store.append_encoded("g1", [], 3),
                      lambda: store.copy_prefix("g1", "x", 1)):
            with pytest.raises(RinklogError, match="schema-2 database opened read-only"):
                write()
    assert hashlib.sha256(db_path.read_bytes()).hexdigest() == digest


@pytest.mark.parametrize("version", [1, 2])
def test_opening_an_old_schema_for_writing_migrates_to_5_in_place(db_path: Path,
                                                                 version: int) -> None:
    _old_db(db_path, version)
    with EventStore(db_path, create=False) as old:
        before = {s.stream: (s.kind, s.version, s.head_hash, s.meta) for s in old.streams()}
        old_rows = {s: [(r.seq, r.type, r.payload, r.prev_hash, r.hash)
                        for r in old.raw_rows(s)] for s in before}
    tamper(db_path, "PRAGMA journal_mode=WAL")
    decoders = {"bones": Sample, "league": Sample, "sample": Sample}
    with EventStore(db_path, decoders=decoders) as store:
        assert {s.stream: (s.kind, s.version, s.head_hash, s.meta)
                for s in store.streams()} == before
        assert {s: [(r.seq, r.type, r.payload, r.prev_hash, r.hash)
                    for r in store.raw_rows(s)] for s in before} == old_rows  # bytes, hashes
        assert all(r.stored == r.hash for s in before for r in store.raw_rows(s))
        assert [r.event for r in store.read("g1")] == sample(3)
        assert all(store.verify(s) is None for s in before)
        store.append("g1", sample(1, offset=3), 3)  # a migrated stream grows on its chain
        assert store.verify("g1") is None
        assert store.read("g1")[-1].payload == msgspec.msgpack.encode(sample(1, 3)[0])
        assert store.copy_prefix("g1-b", "g1-c", 2) == 2
        assert {s.stream: s.format for s in store.streams()} == dict.fromkeys(
            ["g1", "g1-b", "s1", "g1-c"], MSGPACK)
    assert _version_and_columns(db_path) == (
        "5", ["key", "stream", "kind", "version", "head_hash", "meta", "system", "format",
              "hash_every"])
    assert _version_and_columns(db_path, "events")[1] == [
        "stream_key", "seq", "type_key", "payload", "hash"]
    with EventStore(db_path, decoders=decoders) as store:  # nothing left to do
        assert store.head_hash("g1-b") == before["g1-b"][2]
        assert store.stream_ids() == ["g1", "g1-b", "s1", "g1-c"]


@pytest.mark.parametrize("edit, why", [
    ("UPDATE events SET prev_hash = hash WHERE stream = 'g1' AND seq = 3",
     "event 3 does not link to the event before it"),
    ("DELETE FROM events WHERE stream = 'g1' AND seq = 2", "event 3 is out of sequence"),
    ("UPDATE events SET hash = upper(hash) WHERE stream = 'g1-b' AND seq = 2",
     "'g1-b' event 2 has a malformed hash"),
    ("UPDATE events SET stream = 'ghost' WHERE stream = 'g1-b' AND seq = 2",
     "'ghost' event 2 belongs to no listed stream"),
])
def test_a_migration_that_would_lose_what_a_row_says_is_refused(
        db_path: Path, edit: str, why: str) -> None:
    """Schema 3 keeps no prev_hash, so a row that does not link to the one before it would
    lose the evidence: the writing open refuses in one line and changes nothing; a read
    command still reads the old layout, and the audit reports the break."""
    _old_db(db_path, 2)
    tamper(db_path, edit)
    dump = _dump(db_path)
    with pytest.raises(CorruptDatabase, match="cannot migrate") as err:
        EventStore(db_path, decoders=SAMPLE)
    message = str(err.value)
    assert why in message and str(db_path) in message and "\n" not in message
    assert _dump(db_path) == dump
    with EventStore(db_path, decoders=SAMPLE, create=False) as store:
        assert store.verify("g1") is not None or store.verify("g1-b") is not None


def test_a_schema_that_says_2_without_the_column_is_refused(db_path: Path) -> None:
    _old_db(db_path, 1)
    tamper(db_path, "UPDATE rinklog_meta SET value = '2' WHERE key = 'schema_version'")
    for create in (True, False):
        with pytest.raises(CorruptDatabase, match="no system column"):
            EventStore(db_path, create=create)


def test_a_schema_that_says_3_in_the_old_layout_is_refused(db_path: Path) -> None:
    _old_db(db_path, 2)
    tamper(db_path, "UPDATE rinklog_meta SET value = '3' WHERE key = 'schema_version'")
    for create in (True, False):
        with pytest.raises(CorruptDatabase, match="not of that schema"):
            EventStore(db_path, create=create)


# --- errors ----------------------------------------------------------------------------


def test_not_a_database_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database\n" * 100)
    with pytest.raises(CorruptDatabase) as err:
        EventStore(path, decoders=SAMPLE)
    assert str(path) in str(err.value)
    assert "\n" not in str(err.value)
    assert path.read_bytes().startswith(b"these are my notes")  # left as it was


def test_someone_elses_database(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    tamper(path, "CREATE TABLE recipes (name TEXT)", "INSERT INTO recipes VALUES ('soup')")
    with pytest.raises(CorruptDatabase, match="recipes") as err:
        EventStore(path, decoders=SAMPLE)
    assert str(path) in str(err.value)
    db = sqlite3.connect(path)
    assert db.execute("SELECT name FROM sqlite_master").fetchall() == [("recipes",)]
    db.close()


def test_newer_schema_is_refused(db_path: Path) -> None:
    EventStore(db_path, decoders=SAMPLE).close()
    tamper(db_path, "UPDATE rinklog_meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(CorruptDatabase, match="newer"):
        EventStore(db_path, decoders=SAMPLE)


def test_missing_database_without_create(tmp_path: Path) -> None:
    path = tmp_path / "missing.db"
    with pytest.raises(RinklogError, match="missing.db"):
        EventStore(path, decoders=SAMPLE, create=False)
    assert not path.exists()


def test_garbage_payload(fresh_store: EventStore, db_path: Path) -> None:
    fresh_store.append("g1", sample(3), 0, system="sample")
    tamper(db_path, "UPDATE events SET payload = x'c1ffee' WHERE seq = 2")
    with pytest.raises(CorruptDatabase) as err:
        fresh_store.read("g1")
    message = str(err.value)
    assert "'g1'" in message and "event 2" in message and str(db_path) in message
    assert len(fresh_store.read("g1", decode=False)) == 3  # raw rows stay readable
    assert fresh_store.verify("g1") == 4  # the head: no checkpoint among 3 rows


def test_type_column_must_match_payload(fresh_store: EventStore, db_path: Path) -> None:
    fresh_store.append("g1", sample(2), 0, system="sample")
    tamper(db_path, "UPDATE events SET type_key = (SELECT key FROM event_types"
                    " WHERE tag = 'Shot') WHERE seq = 1")
    with pytest.raises(CorruptDatabase, match="event 1"):
        fresh_store.read("g1")


def test_unknown_stream(fresh_store: EventStore) -> None:
    for call in (
        lambda: fresh_store.read("HFX-QUE-9"),
        lambda: fresh_store.iter_events("HFX-QUE-9"),
        lambda: fresh_store.head_hash("HFX-QUE-9"),
        lambda: fresh_store.verify("HFX-QUE-9"),
    ):
        with pytest.raises(UnknownGame, match="HFX-QUE-9"):
            call()
    assert not fresh_store.exists("HFX-QUE-9")
    assert fresh_store.version("HFX-QUE-9") == 0


# --- property --------------------------------------------------------------------------

dice = st.integers(1, 6)
rolls = st.builds(Roll, dice, st.tuples(dice, dice), dice)
events = st.one_of(
    st.builds(Rolled, st.integers(0, 2**40), rolls),
    st.builds(Shot, st.text(max_size=30), st.booleans(), st.text(max_size=6)),
)
_streams = itertools.count()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(batches=st.lists(st.lists(events, max_size=20), min_size=1, max_size=4))
def test_read_returns_what_was_appended(fresh_store: EventStore, batches) -> None:
    stream = f"prop-{next(_streams)}"
    version = 0
    for batch in batches:
        version = fresh_store.append(stream, batch, version, system="sample")
    rows = fresh_store.read(stream)
    flat = [e for batch in batches for e in batch]
    assert [r.event for r in rows] == flat
    assert version == len(flat) == fresh_store.version(stream)
    assert verify_chain(rows, expected_head=fresh_store.head_hash(stream)) is None


@pytest.mark.parametrize("version", ["3", "4"])
def test_a_schema_5_file_that_says_an_older_version_is_refused(db_path: Path,
                                                              version: str) -> None:
    """Its streams table has the later columns: no migration runs on it (it would add
    them again), for writing or reading."""
    EventStore(db_path, decoders=SAMPLE).close()
    tamper(db_path, f"UPDATE rinklog_meta SET value = '{version}' WHERE key = 'schema_version'")
    for create in (True, False):
        with pytest.raises(CorruptDatabase, match=f"schema version {version} but the streams"):
            EventStore(db_path, decoders=SAMPLE, create=create)
