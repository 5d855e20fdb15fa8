"""Schema 5's hash checkpoints (docs/storage.md, events/checkpoints.py): a new stream stores
the hash of each 32nd row only; every hash a reader sees is computed from the payloads, so
reading, exports, receipts and branches give what a store with a hash on every row (schema
4's) gives; and a stored hash out of place, a changed payload or a changed hash_every is
caught by ``verify``, the audit and ``audit --all`` in workers."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import msgspec
import pytest
from setups import simulate

import events.store
from events.checkpoints import HASH_EVERY, chain_break, chain_hashes, chained, stored_cells
from events.store import GENESIS, chain_hash
from replay.games.game_streams import open_store
from replay.games.session import branch_game
from replay.leagues import audit as audit_module
from replay.leagues.audit import audit_all, audit_game
from replay.leagues.transfer import export_game, import_game

GAME = "HFX-QUE-ckpt"
KEY = "(SELECT key FROM streams WHERE stream = ?)"


def _write(path: Path) -> None:
    with open_store(path) as store:
        simulate(store, "HFX", "QUE", seed="ckpt", game_id=GAME)
        simulate(store, "WPG", "SAS", seed="ckpt")


@pytest.fixture(scope="module")
def dbs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The same games in a schema-5 store (checkpoints) and with a hash on every row (as
    schema 4 stored them: hash_every 1)."""
    folder = tmp_path_factory.mktemp("ckpt")
    _write(folder / "five.db")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(events.store, "HASH_EVERY", 1)
        _write(folder / "every.db")
    return folder / "five.db", folder / "every.db"


def _raw(path: Path, sql: str, *args) -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        rows = db.execute(sql, args).fetchall()
        db.commit()
        return rows
    finally:
        db.close()


def test_stored_cells_are_the_checkpoints() -> None:
    hashes = [bytes([i]) * 32 for i in range(1, 101)]
    cells = stored_cells(hashes, 1, 32)
    assert [i + 1 for i, c in enumerate(cells) if c is not None] == [32, 64, 96]
    assert cells[31] == hashes[31]
    later = stored_cells(hashes[:10], 60, 32)  # rows 60-69 of a stream: 64 only
    assert [c for c in later if c is not None] == [hashes[4]]
    assert stored_cells(hashes, 1, 1) == hashes


def test_a_new_stream_stores_exactly_its_checkpoint_hashes(dbs: tuple[Path, Path]) -> None:
    five, every = dbs
    with open_store(five) as store:
        rows = store.read(GAME, decode=False)
        assert store.stream_record(GAME).hash_every == HASH_EVERY == 32
    cells = _raw(five, f"SELECT seq, hash FROM events WHERE stream_key = {KEY} ORDER BY seq",
                 GAME)
    assert len(cells) == len(rows) > 1000
    assert [(seq, digest) for seq, digest in cells if digest is not None] == \
        [(r.seq, bytes.fromhex(r.hash)) for r in rows if r.seq % 32 == 0]
    # a hash on every row holds the same hashes, all stored
    assert _raw(every, f"SELECT hash FROM events WHERE stream_key = {KEY} ORDER BY seq",
                GAME) == [(bytes.fromhex(r.hash),) for r in rows]
    # ~33 bytes an event fewer: the events table of the checkpointed store is smaller
    size = "SELECT sum(length(hash)) FROM events"
    assert _raw(five, size)[0][0] * 20 < _raw(every, size)[0][0]


@pytest.mark.parametrize("start", [1, 2, 31, 32, 33, 64, 65, 100])
def test_reading_and_branching_at_any_seq_give_every_rows_hashes(dbs: tuple[Path, Path],
                                                                 tmp_path: Path,
                                                                 start: int) -> None:
    five, every = dbs
    results = []
    for path in dbs:
        copy = tmp_path / path.name
        shutil.copyfile(path, copy)
        with open_store(copy) as store:
            whole = store.read(GAME, decode=False)
            part = store.read(GAME, start, start + 40, decode=False)
            lazy = list(store.iter_events(GAME, start, decode=False))
            branch = branch_game(store, GAME, start, game_id=f"b{start}").game_id
            assert store.copy_prefix(GAME, f"c{start}", start) == start
            assert store.head_hash(f"c{start}") == whole[start - 1].hash
            assert store.verify(f"c{start}") is None
            results.append(([(r.seq, r.prev_hash, r.hash) for r in whole],
                            [(r.seq, r.prev_hash, r.hash) for r in part],
                            [(r.seq, r.hash) for r in lazy],
                            store.head_hash(branch),
                            [r.hash for r in store.raw_rows(branch)],
                            store.stream_record(branch).hash_every,
                            audit_game(store, branch).ok))
    assert results[0][:5] == results[1][:5]
    assert results[0][1][0] == (start, results[0][0][start - 2][2] if start > 1 else GENESIS,
                                results[0][0][start - 1][2])
    assert (results[0][5], results[1][5]) == (HASH_EVERY, 1)  # a branch keeps its parent's
    assert results[0][6] and results[1][6]


def test_exports_and_receipts_are_those_of_a_hash_on_every_row(dbs: tuple[Path, Path],
                                                               tmp_path: Path) -> None:
    five, every = dbs
    with open_store(five) as a, open_store(every) as b:
        exported = export_game(a, GAME)
        assert exported == export_game(b, GAME)
        assert a.head_hash(GAME) == b.head_hash(GAME)
        assert [r.hash for r in a.raw_rows(GAME)] == [r.hash for r in b.raw_rows(GAME)]
    with open_store(tmp_path / "in.db") as other:  # an import stores checkpoints
        import_game(other, exported)
        assert other.stream_record(GAME).hash_every == HASH_EVERY
        assert all(r.ok for r in audit_all(other))


def _tampered(dbs: tuple[Path, Path], tmp_path: Path, *statements: str) -> Path:
    path = tmp_path / "t.db"
    shutil.copyfile(dbs[0], path)
    for sql in statements:
        _raw(path, sql, *[GAME] * sql.count("?"))
    return path


def _failure(path: Path):
    with open_store(path) as store:
        report = audit_game(store, GAME, read_models=False)
        verified = store.verify(GAME)
    assert report.failure is not None and report.failure.check == "chain"
    assert verified == report.failure.seq
    return report.failure


def _payload_flip(seq: int) -> str:
    # one character of the payload changed (the JSON stays readable)
    return (f"UPDATE events SET payload = CAST(replace(CAST(payload AS TEXT), '\"', '''')"
            f" AS BLOB) WHERE stream_key = {KEY} AND seq = {seq}")


@pytest.mark.parametrize("seq, caught, span", [(40, 64, "events 33-64"), (64, 64, "events 33-64"),
                                              (1, 32, "events 1-32"), (65, 96, "events 65-96")])
def test_a_changed_payload_is_caught_at_the_next_checkpoint(dbs, tmp_path: Path, seq: int,
                                                            caught: int, span: str) -> None:
    failure = _failure(_tampered(dbs, tmp_path, _payload_flip(seq)))
    assert failure.seq == caught
    assert f"a payload in {span} was changed" in failure.recorded


def test_a_changed_payload_after_the_last_checkpoint_is_caught_at_the_head(dbs,
                                                                           tmp_path: Path) -> None:
    with open_store(dbs[0]) as store:
        last = store.version(GAME)
    assert last % 32  # the last rows lie past the last checkpoint
    failure = _failure(_tampered(dbs, tmp_path, _payload_flip(last - 1)))
    first = last - last % 32 + 1
    assert failure.seq == last + 1
    assert f"a payload in events {first}-{last} was changed" in failure.recorded


@pytest.mark.parametrize("sql, caught", [
    # a hash written into a NULL cell: the right one, another, text
    (f"UPDATE events SET hash = (SELECT hash FROM events WHERE stream_key = {KEY} AND seq = 32)"
     f" WHERE stream_key = {KEY} AND seq = 32", None),  # (no change: the honest control)
    (f"UPDATE events SET hash = zeroblob(32) WHERE stream_key = {KEY} AND seq = 40", 40),
    (f"UPDATE events SET hash = 'x' WHERE stream_key = {KEY} AND seq = 7", 7),
    # a checkpoint cell emptied, changed, shortened, given as text
    (f"UPDATE events SET hash = NULL WHERE stream_key = {KEY} AND seq = 64", 64),
    (f"UPDATE events SET hash = zeroblob(32) WHERE stream_key = {KEY} AND seq = 64", 64),
    (f"UPDATE events SET hash = substr(hash, 1, 31) WHERE stream_key = {KEY} AND seq = 64", 64),
    (f"UPDATE events SET hash = lower(hex(hash)) WHERE stream_key = {KEY} AND seq = 64", 64),
    # the stream's hash_every changed
    ("UPDATE streams SET hash_every = 1 WHERE stream = ?", 1),
    ("UPDATE streams SET hash_every = 16 WHERE stream = ?", 1),  # not a value rinklog writes
    ("UPDATE streams SET hash_every = 64 WHERE stream = ?", 1),
    ("UPDATE streams SET hash_every = 33 WHERE stream = ?", 1),
    ("UPDATE streams SET hash_every = 0 WHERE stream = ?", 1),
    ("UPDATE streams SET hash_every = 'x' WHERE stream = ?", 1),
])
def test_a_hash_out_of_place_or_a_changed_hash_every_is_caught(dbs, tmp_path: Path, sql: str,
                                                               caught: int | None) -> None:
    path = _tampered(dbs, tmp_path, sql)
    if caught is None:
        with open_store(path) as store:
            assert audit_game(store, GAME, read_models=False).ok
        return
    assert _failure(path).seq == caught


def test_the_correct_hash_written_between_checkpoints_is_caught(dbs, tmp_path: Path) -> None:
    with open_store(dbs[0]) as store:
        right = store.read(GAME, 50, 50, decode=False)[0].hash
    path = _tampered(dbs, tmp_path, f"UPDATE events SET hash = x'{right}'"
                                    f" WHERE stream_key = {KEY} AND seq = 50")
    failure = _failure(path)
    assert failure.seq == 50 and "no hash stored at event 50" in failure.expected


def test_audit_all_in_workers_reports_a_checkpoint_break_as_one_process_does(
        dbs, tmp_path: Path, monkeypatch) -> None:
    path = _tampered(dbs, tmp_path, _payload_flip(40))
    monkeypatch.setattr(audit_module, "PARALLEL_FROM", 2)
    with open_store(path) as store:
        alone = audit_all(store, workers=1)
        crew = audit_all(store, workers=2)
    assert [r.to_json() for r in crew] == [r.to_json() for r in alone]
    assert [(r.game_id, r.failure.check, r.failure.seq) for r in crew if not r.ok] == \
        [(GAME, "chain", 64)]


def test_claimed_hashes_are_recomputed() -> None:
    """Rows that are not the store's (an export's, a forger's) have their hashes checked
    one by one, whatever hash_every says."""
    payloads = [b"a", b"b", b"c"]
    rows, prev = [], GENESIS
    for seq, payload in enumerate(payloads, 1):
        digest = chain_hash(prev, payload)
        rows.append(events.store.StoredEvent(seq, "X", None, payload, prev, digest))
        prev = digest
    assert chain_break(rows, prev, 32) is None
    forged = [rows[0], msgspec.structs.replace(rows[1], payload=b"x"), rows[2]]
    found = chain_break(forged, prev, 32)
    assert found is not None and found.seq == 2 and "(the payload was changed)" in found.found


def test_a_stream_with_a_hash_on_every_row_given_checkpoints_is_caught(dbs,
                                                                       tmp_path: Path) -> None:
    """An older stream (hash_every 1) claimed to keep checkpoints: its first row stores a
    hash where none would be kept."""
    path = tmp_path / "t.db"
    shutil.copyfile(dbs[1], path)
    _raw(path, "UPDATE streams SET hash_every = 32 WHERE stream = ?", GAME)
    failure = _failure(path)
    assert failure.seq == 1 and "no hash stored at event 1" in failure.expected


def test_a_worker_chained_game_is_stored_as_the_store_would_chain_it(tmp_path: Path) -> None:
    """A season's writer inserts a worker's rows (Chained: tags, payloads, the checkpoint
    hashes, the head) as they are: the same rows, cells and head as append_encoded's own
    chaining; a Chained laid out for another hash_every is refused before anything is
    written."""
    with open_store(tmp_path / "src.db") as store:
        simulate(store, "HFX", "QUE", seed="ckpt", game_id=GAME)
        encoded = [(r.type, r.payload) for r in store.raw_rows(GAME)]
    hashes = chain_hashes(payload for _, payload in encoded)
    rows = chained(encoded, hashes)
    assert len(rows.checkpoints) == len(encoded) // HASH_EVERY > 0
    with open_store(tmp_path / "out.db") as store:
        store.append_encoded("by-store", encoded, 0, system="bones")
        assert store.append_chained("by-worker", rows, system="bones") == len(encoded)
        wrong = msgspec.structs.replace(rows, every=1, checkpoints=list(hashes))
        with pytest.raises(ValueError, match="one every 1"):
            store.append_chained("refused", wrong, system="bones")
        assert not store.exists("refused")
        assert store.head_hash("by-worker") == store.head_hash("by-store") == hashes[-1].hex()
    got = _raw(tmp_path / "out.db", "SELECT e.seq, e.type_key, e.payload, e.hash FROM events e"
               f" WHERE e.stream_key = {KEY} ORDER BY seq", "by-worker")
    want = _raw(tmp_path / "out.db", "SELECT e.seq, e.type_key, e.payload, e.hash FROM events e"
                f" WHERE e.stream_key = {KEY} ORDER BY seq", "by-store")
    assert got == want
    assert [seq for seq, _, _, cell in got if cell is not None] == \
        list(range(HASH_EVERY, len(encoded) + 1, HASH_EVERY))
