"""Trust: forgeries of a database or an export file are caught by ``audit`` and refused by
``import``; receipts and signatures hold games to what a commissioner kept.

The database has every kind of stream: seeded games, a branch with new dice, a branch
that repeats its parent, a live game stopped half way, a season with its games, and
stored read models. Every forgery the issue names is tried, with the chain re-hashed
where that is what a forger would do; then 1,000 random single mutations of any stored
row and column, and 1,000 of an export file.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

import msgspec
import pytest
from forge import audit_forged, chained, delete_stream, rebuild_read_models, replace_stream
from setups import setup_for, simulate

from engine.bones.coach import CoachPolicy, DefaultCoach
from engine.bones.dice import derive_roll
from engine.dice import SeededDice
from engine.systems import system_of
from events.common import BranchStarted, GameCreated
from events.errors import RinklogError
from events.league import GameCoachSet, SeasonGameOpened, SeasonGameRecorded
from events.store import EventStore, encode_meta
from projections import store as read_models
from projections.index import stream_index
from replay.cli.app import main
from replay.games.coach_habits import coach_habits
from replay.games.game_streams import (
    create_game,
    load_inputs,
    open_store,
    play_game,
    read_game,
)
from replay.games.session import branch_game, continue_game, new_live_game, resume_point
from replay.leagues.audit import AuditReport, audit_all, audit_blobs, audit_game, audit_stream
from replay.leagues.ledger import recorded_games, table_committer
from replay.leagues.naming import game_seed
from replay.leagues.receipts import ReceiptEntry, generate_key, load_signing_key, load_verify_key
from replay.leagues.runner import table_game
from replay.leagues.transfer import (
    ExportFile,
    ExportRow,
    ImportRefused,
    export_game,
    import_game,
    verify_export,
)

GAME = "HFX-QUE-trust"
KEY = "(SELECT key FROM streams WHERE stream=?)"  # a stream's events.stream_key


class _Half:
    """Seeded dice that stop half way (a live game left for later)."""

    def __init__(self, stop: int) -> None:
        self.stop = stop

    def roll(self, n: int):
        if n > self.stop:
            raise KeyboardInterrupt
        return derive_roll("live", "HFX-QUE-live1", n)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("trust") / "base.db"
    with open_store(path) as store:
        simulate(store, "HFX", "QUE", seed="trust", game_id=GAME)
        simulate(store, "WPG", "SAS", seed="trust")
        branch_game(store, GAME, 600, seed="what-if", game_id=f"{GAME}-b1")
        branch_game(store, GAME, 300, game_id=f"{GAME}-same")
        gid = new_live_game(store, setup_for("HFX", "QUE"))
        folded = resume_point(store, gid)
        try:
            continue_game(folded, _Half(200), DefaultCoach(), table_committer(store, gid))
        except KeyboardInterrupt:
            pass
    assert main(["season", "--league", "demo", "--seed", "t", "--games", "2", "--workers", "1",
                 "--db", str(path), "--json"]) == 0
    read_models.update(path)
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    return path


def _copy(base: Path, folder: Path, name: str = "copy.db") -> Path:
    target = folder / name
    shutil.copyfile(base, target)
    return target


def _sql(path: Path, *statements: tuple[str, tuple]) -> None:
    """Change a database behind rinklog's back, as a forger with sqlite3 would."""
    raw = sqlite3.connect(path)
    for sql, args in statements:
        raw.execute(sql, args)
    raw.commit()
    raw.close()


def _audit_fails(path: Path, *ids: str, blobs: bool = False) -> bool:
    """Whether ``rinklog audit`` (of the given games, else --all) reports a failure;
    ``blobs``: only the blob checks of ``--all`` (what a changed blob row meets first).
    It stops at the first failing report: ``--all`` fails when one stream's audit does
    (``audit_all`` is each stream's ``audit_game`` and checks that only add failures),
    so the whole of ``audit_all`` runs only when every stream passes on its own."""
    try:
        with open_store(path) as store:
            if blobs:
                return any(not r.ok for r in audit_blobs(store))
            streams = ids or store.stream_ids()
            if any(not audit_game(store, g).ok for g in streams):
                return True
            return not ids and any(not r.ok for r in audit_all(store))
    except RinklogError:
        return True  # the database is refused before any game is trusted


def test_the_honest_database_passes_every_check(base: Path) -> None:
    with open_store(base) as store:
        reports = audit_all(store)
        kinds = sorted(r.kind for r in reports)
        assert all(r.ok for r in reports), [r.failure for r in reports if not r.ok]
        live = next(r for r in reports if r.game_id == "HFX-QUE-live1")
        assert live.in_progress and live.events > 200
    assert kinds == ["game"] * 7 + ["season"]
    assert main(["audit", "--all", "--db", str(base)]) == 0


# --- the forgeries the issue names ----------------------------------------------------------

def test_a_branch_renamed_over_the_seeded_original_is_caught(base: Path, tmp_path: Path) -> None:
    path = _copy(base, tmp_path)
    raw = sqlite3.connect(path)
    original_meta = raw.execute("SELECT meta FROM streams WHERE stream=?", (GAME,)).fetchone()[0]
    raw.execute(f"DELETE FROM events WHERE stream_key={KEY}", (GAME,))
    raw.execute("DELETE FROM streams WHERE stream=?", (GAME,))
    # the branch's rows follow its streams row (by key) to the original's name
    meta = json.loads(raw.execute("SELECT meta FROM streams WHERE stream=?",
                                  (f"{GAME}-b1",)).fetchone()[0])
    forged = {k: v for k, v in meta.items() if k not in ("parent", "parent_seq", "dice_schedule")}
    raw.execute("UPDATE streams SET stream=?, meta=? WHERE stream=?",
                (GAME, json.dumps(forged, sort_keys=True, separators=(",", ":")), f"{GAME}-b1"))
    raw.commit()
    raw.close()
    with open_store(path) as store:
        report = audit_game(store, GAME)
        assert not report.ok and report.failure.check in ("identity", "index")
        # Re-hashed without its lineage event, the reseeded rolls give it away.
        events = [e for e in read_game(store, GAME) if not isinstance(e, BranchStarted)]
        rehashed = audit_forged(store, GAME, events)
    assert rehashed.failure is not None and rehashed.failure.check == "dice"
    assert original_meta  # the original was there to be replaced
    assert main(["audit", "--all", "--db", str(path)]) == 1


def test_a_seeded_game_cut_short_is_caught(base: Path, tmp_path: Path) -> None:
    path = _copy(base, tmp_path)
    with open_store(path) as store:
        events = read_game(store, GAME)
        rows = store.read(GAME, decode=False)
    cut = len(events) - 200
    raw = sqlite3.connect(path)
    raw.execute(f"DELETE FROM events WHERE stream_key={KEY} AND seq>?", (GAME, cut))
    goals = {"home": 0, "away": 0}
    for e in events[:cut]:
        if type(e).__name__ == "GoalScored":
            goals[e.side] += 1
    meta = json.loads(raw.execute("SELECT meta FROM streams WHERE stream=?", (GAME,)).fetchone()[0])
    meta.pop("decided")
    meta.update(home_goals=goals["home"], away_goals=goals["away"])
    raw.execute("UPDATE streams SET version=?, head_hash=?, meta=? WHERE stream=?",
                (cut, rows[cut - 1].hash, json.dumps(meta, sort_keys=True, separators=(",", ":")),
                 GAME))
    raw.commit()
    raw.close()
    with open_store(path) as store:
        report = audit_game(store, GAME)
        assert report.failure is not None
        assert (report.failure.check, report.failure.seq) == ("rules", cut + 1)
        assert "only a live game may stop early" in report.failure.expected
        with pytest.raises(RinklogError, match="rules check fails"):
            # and an export of it is refused: re-encode the file by hand as a forger would
            data = _forged_export(store, GAME, rows[:cut], meta)
            verify_export(data)


def _forged_export(store, game: str, rows, meta: dict) -> bytes:
    honest = msgspec.msgpack.decode(export_game(store, f"{GAME}-same"), type=ExportFile)
    entry = ReceiptEntry(game, "game", "bones", 1, len(rows), rows[-1].hash, meta)
    receipt = msgspec.structs.replace(honest.receipt, games=[entry])
    return msgspec.msgpack.encode(msgspec.structs.replace(
        honest, receipt=receipt,
        rows=[ExportRow(r.seq, r.type, r.payload, r.prev_hash, r.hash) for r in rows]))


def test_a_changed_score_in_the_stream_index_is_caught(base: Path, tmp_path: Path) -> None:
    path = _copy(base, tmp_path)
    _sql(path, ("UPDATE streams SET meta = json_set(meta, '$.home_goals', 9) WHERE stream=?",
                (GAME,)))
    with open_store(path) as store:
        report = audit_game(store, GAME)
    assert report.failure is not None and report.failure.check == "index"
    assert main(["audit", GAME, "--db", str(path)]) == 1


@pytest.mark.parametrize("kind", ["season", "branch", ""])
def test_a_changed_kind_cannot_hide_a_game_from_audit_all(base: Path, tmp_path: Path,
                                                         kind: str) -> None:
    path = _copy(base, tmp_path)
    _sql(path, ("UPDATE streams SET kind=? WHERE stream=?", (kind, GAME)))
    with open_store(path) as store:
        reports = {r.game_id: r for r in audit_all(store)}
    assert reports[GAME].failure is not None and reports[GAME].failure.check == "kind"
    assert main(["audit", "--all", "--db", str(path)]) == 1


@pytest.mark.parametrize("system", ["league", "dicehockey", "", "BONES"])
def test_a_changed_system_in_the_stream_index_is_caught(base: Path, tmp_path: Path,
                                                        system: str, capsys) -> None:
    """The stored system is index like kind and meta: it must be the system of the
    GameCreated ruleset, and a wrong one fails the audit in one line naming the stream."""
    path = _copy(base, tmp_path)
    _sql(path, ("UPDATE streams SET system=? WHERE stream=?", (system, GAME)))
    with open_store(path) as store:
        reports = {r.game_id: r for r in audit_all(store)}
    failure = reports[GAME].failure
    assert failure is not None and failure.check == "index" and failure.seq == 1
    assert failure.expected.startswith("system 'bones'") and repr(system) in failure.recorded
    assert [g for g, r in reports.items() if not r.ok] == [GAME]
    capsys.readouterr()
    assert main(["audit", "--all", "--db", str(path)]) == 1
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if "FAILED" in line][0].startswith(GAME)
    assert "Traceback" not in out


def test_a_changed_season_system_is_caught(base: Path, tmp_path: Path) -> None:
    path = _copy(base, tmp_path)
    with open_store(path) as store:
        season = next(s.stream for s in store.streams(kind="season"))
    _sql(path, ("UPDATE streams SET system='bones' WHERE stream=?", (season,)))
    with open_store(path) as store:
        report = audit_game(store, season)
    assert report.failure is not None and report.failure.check == "index"
    assert "'league'" in report.failure.expected


def test_orphan_rows_and_unclassifiable_streams_fail_audit_all(base: Path, tmp_path: Path) -> None:
    path = _copy(base, tmp_path)
    _sql(path, (f"UPDATE events SET stream_key=999 WHERE stream_key={KEY} AND seq=1", (GAME,)))
    with open_store(path) as store:
        reports = {r.game_id: r for r in audit_all(store)}
    assert reports["(rows of no stream, key 999)"].failure.check == "stream"
    assert reports[GAME].failure.check == "chain"


def test_a_season_game_played_with_another_seed_is_caught(base: Path, tmp_path: Path) -> None:
    path = _copy(base, tmp_path)
    with open_store(path) as store:
        game = next(s.stream for s in store.streams(kind="game") if s.meta.get("season"))
        created = read_game(store, game)[0]
        assert isinstance(created, GameCreated)
        home, away, charts = load_inputs(store, created)
        other = play_game(setup_for(home, away, charts), home, away, game_id=game, seed="rigged",
                          dice=SeededDice("rigged", game, derive_roll), season=created.season,
                          number=created.number,
                          goalies=(created.home_goalie, created.away_goalie))
    _sql(path, (f"DELETE FROM events WHERE stream_key={KEY}", (game,)),
         ("DELETE FROM streams WHERE stream=?", (game,)))
    with open_store(path) as store:
        store.append(game, other.events, 0, kind="game", system="bones",
                     meta=other.meta())
        report = audit_game(store, game)
    assert report.failure is not None and report.failure.check == "season"
    assert "seed" in report.failure.expected


def test_a_live_flag_is_in_the_chain(base: Path) -> None:
    with open_store(base) as store:
        events = read_game(store, "HFX-QUE-live1")
        assert isinstance(events[0], GameCreated) and events[0].live
        # the same half game claiming to be a finished simulation is not accepted
        sim = msgspec.structs.replace(events[0], live=False)
        report = audit_forged(store, "HFX-QUE-live1", [sim, *events[1:]])
    assert report.failure is not None and report.failure.check == "rules"


# --- receipts and signatures ------------------------------------------------------------------

def test_receipt_signed_end_to_end(base: Path, tmp_path: Path, capsys) -> None:
    key = tmp_path / "league.key"
    public = generate_key(key)
    assert (key.stat().st_mode & 0o777) == 0o600
    receipt = tmp_path / "results.json"
    assert main(["receipt", GAME, f"{GAME}-b1", "--sign-key", str(key), "-o", str(receipt),
                 "--db", str(base)]) == 0
    kept = json.loads(receipt.read_text())
    assert [g["game"] for g in kept["games"]] == [GAME, f"{GAME}-b1"]
    assert kept["signature"]["public_key"] == public
    assert kept["games"][1]["meta"]["parent"] == GAME
    capsys.readouterr()
    assert main(["audit", "--receipt", str(receipt), "--public-key", f"{key}.pub",
                 "--db", str(base)]) == 0
    assert "signature ok" in capsys.readouterr().out
    # a database where the game changed no longer matches the receipt
    path = _copy(base, tmp_path)
    _sql(path, (f"DELETE FROM events WHERE stream_key={KEY}", (GAME,)),
         ("DELETE FROM streams WHERE stream=?", (GAME,)))
    with open_store(path) as store:
        # the same teams played again with other dice, under the kept game's id
        simulate(store, "HFX", "QUE", seed="again", game_id=GAME)
        read_models.update(store, [GAME])  # the old game's stored rows refolded too
        assert audit_game(store, GAME).ok  # an honest game in itself...
    assert main(["audit", "--receipt", str(receipt), "--db", str(path)]) == 1  # ...not the kept one
    # a changed receipt fails its signature; another key is not the league's
    forged = dict(kept)
    forged["games"] = [dict(kept["games"][0], meta={**kept["games"][0]["meta"], "home_goals": 9}),
                       kept["games"][1]]
    bad = tmp_path / "forged.json"
    bad.write_text(json.dumps(forged))
    assert main(["audit", "--receipt", str(bad), "--db", str(base)]) == 1
    other = tmp_path / "other.key"
    generate_key(other)
    assert main(["audit", "--receipt", str(receipt), "--public-key", f"{other}.pub",
                 "--db", str(base)]) == 1
    assert main(["keygen", str(key)]) == 1  # never overwrites a key


def test_signed_export_and_import_with_receipt(base: Path, tmp_path: Path) -> None:
    key = tmp_path / "league.key"
    generate_key(key)
    signing = load_signing_key(key)
    pinned = load_verify_key(f"{key}.pub")
    from replay.leagues.season_transfer import export_season, import_file, verify_file

    with open_store(base) as store:
        season = next(s.stream for s in store.streams(kind="season"))
        for game in (GAME, f"{GAME}-b1", season):  # a season travels whole (issue 32)
            data = (export_season if game == season else export_game)(store, game, signing)
            target = tmp_path / f"{game}.db"
            with open_store(target) as other:
                verified = import_file(other, verify_file(data, public_key=pinned))
                assert verified.signed_by == pinned.encode().hex()
                assert all(r.ok for r in audit_all(other))
                assert other.head_hash(game) == store.head_hash(game)
            with open_store(tmp_path / f"other-{game}.db") as other, \
                    pytest.raises(ImportRefused, match="not the league key|not signed"):
                import_file(other, verify_file(data, public_key=load_verify_key(
                    generate_key(tmp_path / f"{game}.other.key"))))
    unsigned = tmp_path / "unsigned.rinklog"
    assert main(["export", GAME, "-o", str(unsigned), "--db", str(base)]) == 0
    assert main(["export", GAME, "-o", str(unsigned), "--db", str(base)]) == 1  # no overwrite
    assert main(["export", GAME, "-o", str(base), "--force", "--db", str(base)]) == 1  # never the db
    assert main(["import", str(unsigned), "--public-key", f"{key}.pub",
                 "--db", str(tmp_path / "x.db")]) == 1
    receipt = tmp_path / "r.json"
    assert main(["receipt", f"{GAME}-b1", "-o", str(receipt), "--db", str(base)]) == 0
    assert main(["import", str(unsigned), "--receipt", str(receipt),
                 "--db", str(tmp_path / "y.db")]) == 1  # not the game the receipt names


# --- random mutations ------------------------------------------------------------------------

# each table about as often as it has columns (events: stream_key, seq, type_key, payload and
# hash; streams: key, stream, kind, version, head, meta, system, format, hash_every;
# event_types: key, tag...)
_TABLES = ["events"] * 8 + ["streams"] * 9 + ["event_types"] * 2 + ["blobs"] * 3 + \
    ["rinklog_meta"] + ["rm"] * 3


def _hash_cell(rng: random.Random, raw: sqlite3.Connection, key: tuple, value):
    """A new value for an ``events.hash`` cell (schema 5: the 32 bytes at a checkpoint,
    NULL between): a checkpoint's emptied or changed; a NULL cell given the row's own hash
    (what the store computes for it), other bytes or text."""
    if value is not None:
        return rng.choice([None, _mutate_value(rng, value), value.hex()])
    stream = raw.execute("SELECT stream FROM streams WHERE key = ?", (key[0],)).fetchone()
    choices = [bytes(rng.randrange(256) for _ in range(32)), "x"]
    if stream is not None:
        with EventStore(raw.execute("PRAGMA database_list").fetchone()[2],
                        create=False) as store:
            choices.append(bytes.fromhex(store.read(stream[0], key[1], key[1],
                                                    decode=False)[0].hash))
    return rng.choice(choices)


def _mutate_value(rng: random.Random, value):
    if isinstance(value, bytes):
        if not value:
            return b"\x00"
        changed = bytearray(value)
        changed[rng.randrange(len(changed))] ^= 1 << rng.randrange(8)
        return bytes(changed)
    if isinstance(value, int):
        return value + rng.choice([-1, 1, 7])
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        if not value:
            return "x"
        i = rng.randrange(len(value))
        return value[:i] + chr((ord(value[i]) + 1) % 0x7F or 0x30) + value[i + 1:]
    return "x"


def _one_mutation(rng: random.Random, path: Path) -> tuple[str, list[str]] | None:
    """Change one column of one stored row; the description and streams it touches."""
    raw = sqlite3.connect(path)
    try:
        table = rng.choice(_TABLES)
        if table == "rm":
            names = [r[0] for r in raw.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'rm_%' "
                "AND name != 'rm_checkpoints'")]
            table = rng.choice(names)
        info = raw.execute(f"PRAGMA table_info({table})").fetchall()
        cols = [r[1] for r in info]
        # a row is found by its rowid, or by its primary key in a WITHOUT ROWID table (the
        # events, the read models)
        keyed = "WITHOUT ROWID" in raw.execute("SELECT sql FROM sqlite_master WHERE name = ?",
                                               (table,)).fetchone()[0]
        keys = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5]] if keyed else ["rowid"]
        count = raw.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        if not count:
            return None
        # rng.choice(rows) without reading every row (every payload) for one: the same draw
        # (choice is rows[randrange(len(rows))]) picks the same row of the same scan
        row = raw.execute(f"SELECT {', '.join(f'[{k}]' for k in keys)}, * FROM {table} "
                          "LIMIT 1 OFFSET ?", (rng.randrange(count),)).fetchone()
        key, values = row[:len(keys)], row[len(keys):]
        col = rng.randrange(len(cols))
        if (table, cols[col]) == ("events", "hash"):
            if rng.random() < 0.5:  # a checkpoint's cell as often as a NULL one
                stored = raw.execute("SELECT count(*) FROM events WHERE hash IS NOT NULL")
                row = raw.execute("SELECT stream_key, seq, * FROM events WHERE hash IS NOT NULL"
                                  " LIMIT 1 OFFSET ?",
                                  (rng.randrange(stored.fetchone()[0]),)).fetchone()
                key, values = row[:2], row[2:]
            new = _hash_cell(rng, raw, key, values[col])
        else:
            new = _mutate_value(rng, values[col])
        where = " AND ".join(f"[{k}]=?" for k in keys)
        names = dict(raw.execute("SELECT key, stream FROM streams"))
        try:
            try:
                raw.execute(f"UPDATE {table} SET [{cols[col]}]=? WHERE {where}", (new, *key))
            except sqlite3.IntegrityError:
                if type(values[col]) is not int:
                    raise
                # a key or seq that another row has: move it out of the way instead (else
                # events.seq, event_types.key... would hardly ever be mutated)
                new = -1000 - values[col]
                raw.execute(f"UPDATE {table} SET [{cols[col]}]=? WHERE {where}", (new, *key))
            raw.commit()
        except sqlite3.IntegrityError:
            return None  # the schema refuses it: nothing was stored
        streams = []
        for name in ("stream", "game_id", "season"):
            if name in cols:
                streams += [str(values[cols.index(name)]), str(new) if cols[col] == name else ""]
        if table == "events":  # the stream the row was in, and the one it moved to, if any
            streams += [names[key[0]], names.get(new, "") if cols[col] == "stream_key" else ""]
        return f"{table}.{cols[col]} {values[col]!r:.40} -> {new!r:.40}", [s for s in streams if s]
    finally:
        raw.close()


def test_1000_random_single_mutations_of_the_database_are_caught(base: Path,
                                                                  tmp_path: Path) -> None:
    rng = random.Random(2026)
    done = 0
    missed = []
    while done < 1000:
        path = _copy(base, tmp_path, "m.db")
        mutation = _one_mutation(rng, path)
        if mutation is None:
            continue
        done += 1
        what, streams = mutation
        # the streams a row names are audited; a blob row meets the blob checks of --all,
        # the schema row the opening of the database
        if not _audit_fails(path, *streams, blobs=what.startswith("blobs.")):
            missed.append(what)
    assert missed == []


def test_1000_random_mutations_of_an_export_file_are_refused(base: Path) -> None:
    with open_store(base) as store:
        data = export_game(store, f"{GAME}-b1")
    decoded = msgspec.msgpack.decode(data)
    rng = random.Random(8)
    missed = []
    for n in range(1000):
        if n % 2:
            bad = bytearray(data)
            bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
            mutated = bytes(bad)
        else:
            mutated = msgspec.msgpack.encode(_mutate_tree(rng, decoded))
        if mutated == data:
            continue
        try:
            verify_export(mutated)
        except ImportRefused:
            continue
        missed.append(n)
    assert missed == []


def _mutate_tree(rng: random.Random, tree):
    """The decoded file with one leaf changed (a field of the receipt, a row or a blob)."""
    copy = msgspec.msgpack.decode(msgspec.msgpack.encode(tree))
    node, key = copy, None
    while True:
        if isinstance(node, dict) and node:
            key = rng.choice(sorted(node))
        elif isinstance(node, list) and node:
            key = rng.randrange(len(node))
        else:
            break
        if isinstance(node[key], (dict, list)) and node[key]:
            node = node[key]
        else:
            node[key] = _mutate_value(rng, node[key])
            return copy
    return {**copy, "version": copy["version"] + 1}


def _leaf_paths(node, path=()):
    if isinstance(node, dict):
        for key, value in node.items():
            if key != "type":
                yield from _leaf_paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _leaf_paths(value, (*path, i))
    else:
        yield path


def test_rehashed_mutations_of_any_event_field_are_caught(base: Path) -> None:
    """A forger changes one field of one event, re-hashes the chain and re-derives the index:
    the audit alone catches it (a seeded game is a function of its first event and its
    coach's legal choices), and the receipt of the honest game catches it regardless."""
    with open_store(base) as store:
        events = read_game(store, GAME)
        honest = audit_game(store, GAME)
        missed = _rehashed_misses(store, events, honest.head_hash)
    assert missed == []


def _rehashed_misses(store, events: list, honest_head: str) -> list:
    rng = random.Random(215)
    tried, missed = 0, []
    while tried < 300:
        i = rng.randrange(len(events))
        tree = msgspec.to_builtins(events[i])
        paths = list(_leaf_paths(tree))
        if not paths:
            continue
        path = rng.choice(paths)
        node = tree
        for key in path[:-1]:
            node = node[key]
        old = node[path[-1]]
        node[path[-1]] = (not old) if isinstance(old, bool) else \
            "x" if old is None else _mutate_value(rng, old)
        try:
            event = msgspec.convert(tree, type(events[i]))
        except msgspec.ValidationError:
            continue  # not an event the catalogue accepts: no forger can store it
        if event == events[i]:
            continue
        tried += 1
        forged = [*events[:i], event, *events[i + 1:]]
        report = audit_forged(store, GAME, forged)
        if report.ok:
            missed.append((i, path))
        assert report.head_hash != honest_head  # the receipt's head never matches
    return missed


def test_a_season_game_relabelled_with_other_options_is_caught(tmp_path: Path) -> None:
    """A FaceOff season's game re-hashed with an optional rule the season did not turn on,
    or under another ruleset, fails the season check, whatever its decisions."""
    db = tmp_path / "fo.db"
    root = tmp_path / "league"
    shutil.copytree(Path(__file__).resolve().parent.parent / "fixtures" / "bones" / "leagues"
                    / "demo", root)
    toml = root / "league.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        "games = 82", 'games = 82\nruleset = "faceoff2008"'), encoding="utf-8")
    assert main(["season", "--league", str(root), "--seed", "o", "--games", "1",
                 "--workers", "1", "--db", str(db), "--json"]) == 0
    with open_store(db) as store:
        game = next(s.stream for s in store.streams(kind="game"))
        events = read_game(store, game)
        season = store.read(events[0].season, 1, 1)[0].event

        def audited(stream_events: list) -> AuditReport:
            stored = store.stream_record(game)
            rows = chained(stream_events, stored.format)  # as the stream's own bytes are
            record = msgspec.structs.replace(stored, head_hash=rows[-1].hash,
                                             meta=encode_meta(stream_index(stream_events).meta))
            return audit_stream(game, record, rows, store, lambda _: season)

        assert audited(events).ok
        for change in ({"faceoff_fatigue": True}, {"ruleset": "bones", "ruleset_version": 2}):
            report = audited([msgspec.structs.replace(events[0], **change), *events[1:]])
            assert report.failure is not None and report.failure.check == "season", report


@pytest.mark.parametrize("sql", [
    f"UPDATE events SET payload = 'text' WHERE stream_key = {KEY} AND seq = 5",
    f"UPDATE events SET seq = 'five' WHERE stream_key = {KEY} AND seq = 5",
    f"UPDATE events SET hash = x'00ff' WHERE stream_key = {KEY} AND seq = 5",
    f"UPDATE events SET hash = lower(hex(hash)) WHERE stream_key = {KEY} AND seq = 5",
    f"UPDATE events SET hash = lower(hex(hash)) WHERE stream_key = {KEY} AND seq = 1",
    f"UPDATE events SET type_key = 'seven' WHERE stream_key = {KEY} AND seq = 5",
    f"UPDATE events SET type_key = 2.5 WHERE stream_key = {KEY} AND seq = 5",
    f"UPDATE events SET stream_key = 'x' WHERE stream_key = {KEY} AND seq = 5",
    "UPDATE event_types SET tag = 7 WHERE key IN (SELECT type_key FROM events e"
    f" WHERE e.stream_key = {KEY} AND e.seq = 5)",
    "UPDATE event_types SET tag = x'00' WHERE key IN (SELECT type_key FROM events e"
    f" WHERE e.stream_key = {KEY} AND e.seq = 5)",
    "UPDATE streams SET key = key + 1000 WHERE stream = ?",  # (a text key is refused)
    "UPDATE streams SET version = 'many' WHERE stream = ?",
    "UPDATE streams SET head_hash = x'00' WHERE stream = ?",
    "UPDATE streams SET meta = x'7b7d' WHERE stream = ?",
    "UPDATE streams SET format = 'two' WHERE stream = ?",
    "UPDATE streams SET format = 2.0 + 0.5 WHERE stream = ?",
    "UPDATE streams SET format = 1 WHERE stream = ?",  # msgpack: the JSON does not decode
    "UPDATE streams SET hash_every = 'every' WHERE stream = ?",
    "UPDATE streams SET hash_every = 32.0 + 0.5 WHERE stream = ?",
    "UPDATE streams SET hash_every = 1 WHERE stream = ?",  # a hash expected on every row
    f"UPDATE events SET hash = NULL WHERE stream_key = {KEY} AND seq = 32",  # a checkpoint
    f"UPDATE events SET hash = 'x' WHERE stream_key = {KEY} AND seq = 31",  # a NULL cell
    "UPDATE blobs SET content = 'text' WHERE hash IN (SELECT hash FROM blobs LIMIT 1) AND ? != ''",
    "UPDATE blobs SET media_type = 3 WHERE hash IN (SELECT hash FROM blobs LIMIT 1) AND ? != ''",
])
def test_values_of_another_sqlite_type_are_caught_without_a_traceback(
        base: Path, tmp_path: Path, sql: str, capsys) -> None:
    """SQLite keeps whatever type a hand edit writes: a text payload, a real version, a
    blob hash. The audit reads each so that it cannot check out, and says so in one line."""
    path = _copy(base, tmp_path)
    _sql(path, (sql, (GAME,)))
    assert main(["audit", "--all", "--db", str(path)]) == 1
    out = capsys.readouterr()
    assert "Traceback" not in out.err and "FAILED" in out.out


def test_audit_all_in_workers_reports_the_same_as_in_one_process(tmp_path: Path,
                                                                  monkeypatch) -> None:
    """audit --all with worker processes (each opening the file read-only) gives the
    reports of a single-process audit, in the same order, a tampered game included."""
    from replay.leagues import audit as audit_module

    db = tmp_path / "season.db"
    assert main(["season", "--games", "6", "--workers", "1", "--db", str(db)]) == 0
    raw = sqlite3.connect(db)
    raw.execute("UPDATE streams SET meta = replace(meta, '\"decided\"', '\"decidex\"') "
                "WHERE rowid = (SELECT max(rowid) FROM streams)")
    raw.commit()
    raw.close()
    monkeypatch.setattr(audit_module, "PARALLEL_FROM", 2)
    with open_store(db) as store:
        alone = audit_all(store, workers=1)
        crew = audit_all(store, workers=2)
    assert [r.to_json() for r in crew] == [r.to_json() for r in alone]
    # the game's index, and the season's stored standings (the season stores them), which
    # that game no longer counts in
    assert {(r.game_id, r.failure.check) for r in crew if not r.ok} == {
        ("demo-1-0006", "index"), ("demo-1", "read models")}


# --- read models: every stored row answers to a stream (issue 20, hole 2) -------------------

def _failures(path: Path) -> dict[str, str]:
    with open_store(path) as store:
        return {r.game_id: r.failure.recorded for r in audit_all(store) if r.failure}


def test_a_read_model_row_for_a_game_that_does_not_exist_is_named(base: Path,
                                                                    tmp_path: Path) -> None:
    path = _copy(base, tmp_path)
    _sql(path, ("INSERT INTO rm_scoresheet_games (game_id, decided, home, away, home_goals,"
                " away_goals) SELECT 'FAKE-GAME-1', decided, home, away, 9, 0"
                " FROM rm_scoresheet_games WHERE game_id=?", (GAME,)))
    failures = _failures(path)
    assert failures == {"read models rm_scoresheet_games":
                        "rm_scoresheet_games: rows for 'FAKE-GAME-1', which is no game stream"}
    assert main(["audit", "--all", "--db", str(path)]) == 1


def test_read_model_rows_with_no_checkpoint_and_checkpoints_of_no_game_are_named(
        base: Path, tmp_path: Path) -> None:
    path = _copy(base, tmp_path)
    _sql(path, ("DELETE FROM rm_checkpoints WHERE stream=? AND projection='penalties'", (GAME,)),
         ("INSERT INTO rm_checkpoints (projection, stream, seq) VALUES ('toi', 'NO-SUCH', 5)", ()),
         ("INSERT INTO rm_standings (season, rank, team, name, gp, w, l, otl, t, points,"
          " points_pct, road_wins, gf, ga, diff) VALUES"
          " ('forged-season', 1, 'HFX', 'Halifax', 1, 1, 0, 0, 0, 2, 1.0, 1, 5, 0, 5)", ()))
    lines = sorted(_failures(path).values())
    assert lines == [
        "rm_checkpoints: a 'toi' checkpoint for 'NO-SUCH', which is no game stream",
        f"rm_penalties: rows for '{GAME}' with no 'penalties' checkpoint",
        "rm_standings: rows for 'forged-season', which is no season stream"]


def test_rows_stored_at_an_earlier_checkpoint_are_held_to_those_events(base: Path,
                                                                         tmp_path: Path) -> None:
    # A checkpoint moved back to seq 100 while the rows are the whole game's: the rows are
    # no fold of the first 100 events (a forger hiding edited rows behind a stale mark).
    path = _copy(base, tmp_path)
    _sql(path, ("UPDATE rm_checkpoints SET seq=100 WHERE stream=? AND projection='scoresheet'",
                (GAME,)))
    with open_store(path) as store:
        report = audit_game(store, GAME)
    assert report.failure is not None and report.failure.check == "read models"
    assert "rm_scoresheet_goals" in report.failure.recorded or \
        "rm_scoresheet_games" in report.failure.recorded


def test_rows_of_a_live_game_folded_before_it_went_on_audit_clean(base: Path,
                                                                     tmp_path: Path) -> None:
    path = _copy(base, tmp_path)
    with open_store(path) as store:
        gid = new_live_game(store, setup_for("WPG", "SAS"))
        try:
            continue_game(resume_point(store, gid), _Half(100), DefaultCoach(),
                          table_committer(store, gid))
        except KeyboardInterrupt:
            pass
        read_models.update(store, [gid])
        try:
            continue_game(resume_point(store, gid), _Half(150), DefaultCoach(),
                          table_committer(store, gid))
        except KeyboardInterrupt:
            pass
        assert store.version(gid) > store.connection.execute(
            "SELECT max(seq) FROM rm_checkpoints WHERE stream=?", (gid,)).fetchone()[0]
        assert audit_game(store, gid).ok


# --- import refuses what audit refuses (issue 20, hole 5) -----------------------------------

def test_import_is_audited_where_it_lands_and_refused_whole(base: Path, tmp_path: Path) -> None:
    # The database already holds the game's season, with the head the file's season has but
    # a changed row: the file verifies on its own, yet the season in this database fails its
    # chain check (so would `audit` of the game there). Import must refuse it and write
    # nothing.
    with open_store(base) as store:
        game = next(s.stream for s in store.streams(kind="game") if s.meta.get("season"))
        season = store.info(game).meta["season"]
        data = export_game(store, game)
    path = _copy(base, tmp_path)
    _sql(path, (f"DELETE FROM events WHERE stream_key={KEY}", (game,)),
         ("DELETE FROM streams WHERE stream=?", (game,)),
         (f"UPDATE events SET payload=payload || CAST(' ' AS BLOB) WHERE stream_key={KEY}"
          " AND seq=1", (season,)))
    with open_store(path) as store:
        verify_export(data)  # the file alone is sound
        before = store.connection.execute("SELECT count(*) FROM events").fetchone()
        with pytest.raises(ImportRefused, match=f"season {season} fails its chain check"):
            import_game(store, data)
        assert not store.exists(game)
        assert store.connection.execute("SELECT count(*) FROM events").fetchone() == before


# --- no command writes over its database (issue 20, hole 4) ---------------------------------

@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
@pytest.mark.parametrize("command", [
    ["report", GAME, "--force"], ["export", GAME, "--force"], ["receipt", GAME]])
def test_no_output_path_may_be_the_database(base: Path, tmp_path: Path, capsys,
                                            command: list[str], suffix: str) -> None:
    path = _copy(base, tmp_path)
    target = Path(f"{path}{suffix}")
    if suffix:
        target.write_bytes(b"")  # SQLite's file beside an open database
    before = path.read_bytes()
    assert main([*command, "-o", str(target), "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(target) in err
    assert "is the database" in err or "already exists" in err  # receipt overwrites no file
    assert path.read_bytes() == before
    # SQLite removes its -wal and -shm files when the database closes; nothing was written
    assert not target.exists() or target.read_bytes() == (b"" if suffix else before)
    with open_store(path) as store:
        assert audit_game(store, GAME).ok


def test_a_season_site_may_not_be_written_over_the_database(base: Path, tmp_path: Path,
                                                          capsys) -> None:
    path = _copy(base, tmp_path, "index.html")  # the database named like the site's front page
    before = path.read_bytes()
    assert main(["report", "--season", "demo-t", "-o", str(tmp_path), "--force",
                 "--db", str(path)]) == 1
    assert "is the database" in capsys.readouterr().err
    assert path.read_bytes() == before


# --- an audit failure names the field that differs (issue 20, hole 6) ----------------------

def test_an_audit_failure_names_the_field_and_both_values(base: Path) -> None:
    with open_store(base) as store:
        events = read_game(store, GAME)
        i = next(i for i, e in enumerate(events) if type(e).__name__ == "GoalScored")
        goal = events[i]
        forged = msgspec.structs.replace(goal, scorer="XX-99")
        report = audit_forged(store, GAME, [*events[:i], forged, *events[i + 1:]])
    assert report.failure is not None and report.failure.seq == i + 1
    assert report.failure.expected == f"GoalScored.scorer = {goal.scorer!r}"
    assert report.failure.recorded == "GoalScored.scorer = 'XX-99'"


def test_audit_all_of_an_empty_database_says_so(tmp_path: Path, capsys) -> None:
    path = tmp_path / "empty.db"
    open_store(path).close()
    assert main(["audit", "--all", "--db", str(path)]) == 0
    assert capsys.readouterr().out == (f"{path}: no games, seasons or blobs in the database: "
                                       "nothing to audit\n")


# --- the season is the ledger of its games (issue 20) -------------------------------------

SEASON = "demo-l"  # league demo, seed "l": two simulated games, game 3 played at the table


class _Typed:
    """Dice typed at the table: whatever the player (or a forger) chooses, here derived
    from a word so the test can repeat them."""

    def __init__(self, word: str) -> None:
        self.word = word

    def roll(self, n: int):
        return derive_roll(self.word, "typed", n)


@pytest.fixture(scope="module")
def ledger_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ledger") / "ledger.db"
    assert main(["season", "--league", "demo", "--seed", "l", "--games", "2", "--workers", "1",
                 "--db", str(path), "--json"]) == 0
    with open_store(path) as store:
        gid = table_game(store, SEASON, 3)
        continue_game(resume_point(store, gid), _Typed("table"), DefaultCoach(),
                      table_committer(store, gid))
    rebuild_read_models(path)
    return path


def _failing(path: Path) -> dict[str, AuditReport]:
    with open_store(path) as store:
        return {r.game_id: r for r in audit_all(store) if not r.ok}


def _season_events(path: Path) -> list:
    with open_store(path) as store:
        return [row.event for row in store.read(SEASON)]


def _rehash_season(path: Path, events: list) -> None:
    replace_stream(path, SEASON, events, kind="season", system="league")


def _played(store, honest: GameCreated, *, live: bool, dice, seed: str | None,
            notes: list, coach=None, game_id: str = "", number: int = 0) -> list:
    """A game of the season's teams and cards played again, as a forger would play it."""
    home, away, charts = load_inputs(store, honest)
    game = create_game(setup_for(home, away, charts), home, away,
                       game_id=game_id or honest.game_id, seed=seed,
                       goalies=(honest.home_goalie, honest.away_goalie),
                       season=honest.season, number=number or honest.number, live=live)
    system = system_of(game.created.ruleset)
    events = [game.created, *notes]
    state = system.initial_state(game.created, home, away, charts)
    for batch in system.steps(state, dice, coach or DefaultCoach()):
        events.extend(batch)
    return events


def test_the_ledger_database_passes_and_recorded_games_are_in_ledger_order(ledger_db: Path) -> None:
    assert _failing(ledger_db) == {}
    with open_store(ledger_db) as store:
        recorded = recorded_games(store, SEASON)
        heads = {g: store.head_hash(g) for g in (f"{SEASON}-000{n}" for n in (1, 2, 3))}
    assert [(g.game, g.number, g.mode) for g in recorded] == [
        (f"{SEASON}-0001", 1, "simulated"), (f"{SEASON}-0002", 2, "simulated"),
        (f"{SEASON}-0003", 3, "table")]
    assert {g.game: g.head for g in recorded} == heads
    events = _season_events(ledger_db)
    assert [type(e).__name__ for e in events] == [
        "SeasonCreated", "SeasonCoachSet", "SeasonGameRecorded", "SeasonGameRecorded",
        "SeasonTableGameStarted", "SeasonGameRecorded"]


def test_a_simulated_season_game_relabelled_as_a_table_game_is_named(ledger_db: Path,
                                                                     tmp_path: Path) -> None:
    """Seeded game 1 replaced by a 'table game' (live, typed dice the forger chose, no
    seed): consistent in itself, re-hashed, read models rebuilt; the season recorded game 1
    as simulated, with another head."""
    path = _copy(ledger_db, tmp_path)
    game = f"{SEASON}-0001"
    with open_store(path) as store:
        honest = read_game(store, game)
        forged = _played(store, honest[0], live=True, dice=_Typed("chosen"), seed=None,
                         notes=[honest[1]])  # the season pin, copied
    replace_stream(path, game, forged)
    rebuild_read_models(path)
    failures = _failing(path)
    assert list(failures) == [game]
    failure = failures[game].failure
    assert failure.check == "season" and "a simulated game" in failure.expected
    assert "relabelled" in failure.recorded
    assert main(["audit", "--all", "--db", str(path)]) == 1


def test_a_table_game_swapped_for_the_seeded_simulation_is_named(ledger_db: Path,
                                                                 tmp_path: Path) -> None:
    path = _copy(ledger_db, tmp_path)
    game = f"{SEASON}-0003"
    with open_store(path) as store:
        honest = read_game(store, game)
        seed = game_seed("l", 3)
        forged = _played(store, honest[0], live=False, seed=seed, notes=[honest[1]],
                         dice=SeededDice(seed, game, derive_roll))
    replace_stream(path, game, forged)
    rebuild_read_models(path)
    failures = _failing(path)
    assert list(failures) == [game]
    assert failures[game].failure.check == "season"
    assert "a table game" in failures[game].failure.expected


def test_a_deleted_season_game_is_named(ledger_db: Path, tmp_path: Path) -> None:
    """Without game 2 the season would read as 'not yet played': its record names it."""
    path = _copy(ledger_db, tmp_path)
    game = f"{SEASON}-0002"
    delete_stream(path, game)
    rebuild_read_models(path)
    failures = _failing(path)
    assert list(failures) == [game]
    assert failures[game].failure.check == "season"
    assert "no such game" in failures[game].failure.recorded
    assert main(["audit", "--all", "--db", str(path)]) == 1


def test_a_season_game_moved_out_of_its_season_is_named(ledger_db: Path, tmp_path: Path) -> None:
    """Game 2 kept under its id but no longer claiming the season (a standalone game of
    the same seeded dice, re-hashed): a sound game in itself, and the season, which
    recorded it, names it."""
    path = _copy(ledger_db, tmp_path)
    game = f"{SEASON}-0002"
    with open_store(path) as store:
        created, _pin, *rest = read_game(store, game)
    standalone = msgspec.structs.replace(created, season="", number=0)
    replace_stream(path, game, [standalone, *rest])
    rebuild_read_models(path)
    failures = _failing(path)
    assert list(failures) == [game]
    assert "no such game of the season" in failures[game].failure.recorded


def test_a_game_moved_into_a_forged_season_stream_is_named(ledger_db: Path,
                                                           tmp_path: Path) -> None:
    """A game played at the table outside the season, with the teams of game 4 at the
    other rink, moved in as game 4: the season stream forged to schedule it that way and
    re-hashed (its records kept), the game pinned to the forged opening, read models
    rebuilt. The moved game is in no record, and the games played before pin the real
    opening."""
    path = _copy(ledger_db, tmp_path)
    events = _season_events(path)
    created = events[0]
    number, home, away = created.schedule[3]
    schedule = [list(f) for f in created.schedule]
    schedule[3] = [number, away, home]
    forged_season = [msgspec.structs.replace(created, schedule=schedule), *events[1:]]
    _rehash_season(path, forged_season)
    moved_id = f"{SEASON}-0004"
    bones = system_of("bones")
    with open_store(path) as store:
        opening = store.read(SEASON, 2, 2)[0].hash  # the forged opening
        charts = load_inputs(store, read_game(store, f"{SEASON}-0001")[0])[2]
        cards = {tid: msgspec.json.decode(store.get_blob(digest), type=bones.team_type)
                 for tid, digest in created.team_hashes.items()}
    # the game as it was played at the table (the teams of game 4, the season's cards)
    game = create_game(setup_for(cards[away], cards[home], charts), cards[away], cards[home],
                       game_id=moved_id, season=SEASON,
                       number=4, live=True)
    moved = [game.created, SeasonGameOpened(season=SEASON, opening=opening)]
    state = bones.initial_state(game.created, cards[away], cards[home], charts)
    for batch in bones.steps(state, _Typed("moved"), DefaultCoach()):
        moved.extend(batch)
    replace_stream(path, moved_id, moved)
    rebuild_read_models(path)
    failures = _failing(path)
    assert failures[moved_id].failure.check == "season"
    assert "not in the season's record" in failures[moved_id].failure.recorded
    # the games played under the real schedule pin its opening, not the forged one
    assert {f"{SEASON}-000{n}" for n in (1, 2, 3)} <= set(failures)
    assert "opening" in failures[f"{SEASON}-0001"].failure.expected
    assert main(["audit", "--all", "--db", str(path)]) == 1


def test_the_schedule_of_an_unplayed_game_edited_is_named(ledger_db: Path, tmp_path: Path) -> None:
    """The schedule is in the season stream's chain (SeasonCreated), and every game played
    pins the opening's hash: an unplayed game's fixture changed and the season re-hashed
    (its records kept as they were) leaves every played game pinning another opening."""
    path = _copy(ledger_db, tmp_path)
    events = _season_events(path)
    created = events[0]
    schedule = [list(f) for f in created.schedule]
    schedule[49] = [schedule[49][0], schedule[49][2], schedule[49][1]]  # game 50, other rink
    _rehash_season(path, [msgspec.structs.replace(created, schedule=schedule), *events[1:]])
    rebuild_read_models(path)
    failures = _failing(path)
    assert set(failures) == {f"{SEASON}-000{n}" for n in (1, 2, 3)}
    assert all(r.failure.check == "season" and "opening" in r.failure.expected
               for r in failures.values())
    assert main(["audit", "--all", "--db", str(path)]) == 1


_OTHER_HABITS = CoachPolicy(pull_goalie_at=20, pull_when_behind=9, change_at_stoppage=1)


@pytest.mark.parametrize("record", ["kept", "rewritten"])
def test_a_season_game_resimulated_under_other_coach_habits_is_named(
        ledger_db: Path, tmp_path: Path, record: str) -> None:
    """Hole 3: game 2 re-simulated with the same seeded dice under other coach-file habits
    and swapped in, read models rebuilt. Recorded in the game (GameCoachSet) they are not
    the season's (SeasonCoachSet); left out (the game claims the default coach), the
    audit re-derives every choice from the default coach and the first one differs. With
    the season's record of the game rewritten too (its opening, which games pin, is
    unchanged), the coach's re-derivation alone names it."""
    path = _copy(ledger_db, tmp_path)
    game = f"{SEASON}-0002"
    seed = game_seed("l", 2)
    with open_store(path) as store:
        honest = read_game(store, game)
        coach = DefaultCoach(_OTHER_HABITS, _OTHER_HABITS)
        told = _played(store, honest[0], live=False, seed=seed, dice=SeededDice(seed, game, derive_roll),
                       notes=[honest[1], GameCoachSet(home=coach_habits((_OTHER_HABITS,) * 2)[0],
                                                      away=coach_habits((_OTHER_HABITS,) * 2)[1])],
                       coach=coach)
        hidden = [e for e in told if not isinstance(e, GameCoachSet)]
        honest_head = store.head_hash(game)
    assert [e for e in hidden[2:]] != honest[2:]  # other habits, other choices
    for forged, check in ((told, "season"), (hidden, "rules")):
        copy = _copy(path, tmp_path, "swap.db")
        head = replace_stream(copy, game, forged)
        assert head != honest_head
        if record == "rewritten":
            events = _season_events(copy)
            events = [msgspec.structs.replace(e, head=head)
                      if isinstance(e, SeasonGameRecorded) and e.game == game else e
                      for e in events]
            _rehash_season(copy, events)
        rebuild_read_models(copy)
        failures = _failing(copy)
        assert list(failures) == [game], failures
        failure = failures[game].failure
        if record == "rewritten":
            assert failure.check == check, failure
        assert main(["audit", "--all", "--db", str(copy)]) == 1


def test_a_standalone_game_records_its_coach_habits(base: Path, tmp_path: Path) -> None:
    """sim --coach FILE: the game records the habits it was played with (GameCoachSet);
    the same game claiming the default coach (the event left out, re-hashed) fails the
    rules check at the first choice the default coach would not make."""
    path = _copy(base, tmp_path)
    with open_store(path) as store:
        simulate(store, "HFX", "QUE", seed="habits", game_id="habits",
                 coach=(_OTHER_HABITS, _OTHER_HABITS))
        events = read_game(store, "habits")
        assert isinstance(events[1], GameCoachSet) and events[1].home["pull_goalie_at"] == 20
        assert audit_game(store, "habits").ok
        hidden = audit_forged(store, "habits", [events[0], *events[2:]])
        plain = read_game(store, GAME)
    assert hidden.failure is not None and hidden.failure.check == "rules", hidden.failure
    assert not any(isinstance(e, GameCoachSet) for e in plain)  # the default: no event


def test_a_season_before_season_records_audits_with_a_warning(ledger_db: Path,
                                                             tmp_path: Path) -> None:
    """A season stream of SeasonCreated alone (written before seasons recorded their
    games) passes, saying what it does not prove; its games, without a pin, pass."""
    path = _copy(ledger_db, tmp_path)
    events = _season_events(path)
    _rehash_season(path, events[:1])
    for n in (1, 2, 3):
        game = f"{SEASON}-000{n}"
        with open_store(path) as store:
            kept = [e for e in read_game(store, game) if not isinstance(e, SeasonGameOpened)]
        replace_stream(path, game, kept)
    rebuild_read_models(path)
    with open_store(path) as store:
        reports = {r.game_id: r for r in audit_all(store)}
    assert all(r.ok for r in reports.values()), [r.failure for r in reports.values() if not r.ok]
    assert "before season records" in reports[SEASON].warnings[0]


# --- keygen in a git work tree (issue 33 item 4) ---------------------------------------------

def _git(folder: Path, *args: str) -> str:
    import subprocess
    return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True,
                          check=True).stdout


def test_keygen_refuses_a_key_git_would_commit(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33: "keygen writes the key with mode 0600 (as now) and, inside a git work
    tree, refuses a path that git would not ignore unless --force, naming the .gitignore
    line to add"."""
    if shutil.which("git") is None:
        pytest.skip("no git here")
    tree = tmp_path / "league"
    (tree / "keys").mkdir(parents=True)
    _git(tree, "init", "-q")
    key = tree / "keys" / "league.key"
    assert main(["keygen", str(key)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "/keys/league.key" in err and ".gitignore" in err, err
    assert not key.exists() and not Path(f"{key}.pub").exists()  # nothing written
    (tree / ".gitignore").write_text("*.key\n")
    assert main(["keygen", str(key)]) == 0  # ignored: `git add .` leaves it out
    assert key.stat().st_mode & 0o777 == 0o600
    _git(tree, "add", ".")
    assert _git(tree, "diff", "--cached", "--name-only").split() == [".gitignore",
                                                                     "keys/league.key.pub"]
    (tree / ".gitignore").unlink()
    forced = tree / "forced.key"
    assert main(["keygen", str(forced), "--force"]) == 0  # the user's call
    assert forced.stat().st_mode & 0o777 == 0o600
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    assert main(["keygen", str(outside / "league.key")]) == 0  # no work tree
    monkeypatch.setenv("PATH", str(tmp_path / "no-git-here"))  # git missing: no work tree
    assert main(["keygen", str(key.with_name("again.key"))]) == 0


def test_export_of_a_broken_chain_names_the_break(base: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 33: "export of a stream with a broken chain says 'is a stream, not a game'
    instead of naming the break"."""
    path = _copy(base, tmp_path)
    _sql(path, (f"DELETE FROM events WHERE seq = 3 AND stream_key={KEY}", (GAME,)))
    capsys.readouterr()
    assert main(["export", GAME, "-o", str(tmp_path / "x.rinklog"), "--db", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "chain check at event 3" in err, err
    assert "not a game" not in err and not (tmp_path / "x.rinklog").exists()
