"""Season receipts (issue 20): the RFC 6962 Merkle tree against known values, a receipt of
a Hockey Bones, a DICE Hockey and a Matrix Hockey season, every forgery the issue names
(a game cut short, swapped, deleted; an earlier week rewritten, then more games added)
named against the receipt, and the verifier of docs/trust.md run on a real receipt."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from engine.bones.coach import DefaultCoach
from engine.bones.dice import derive_roll
from events.catalogue import open_store
from events.errors import RinklogError
from events.matrix import GamePlayed, WeekEnded
from projections import store as read_models
from replay.cli.app import main
from replay.games.session import continue_game, resume_point
from replay.leagues import merkle
from replay.leagues.audit import audit_all
from replay.leagues.ledger import table_committer
from replay.leagues.matrix import season as matrix
from replay.leagues.receipts import generate_key, load_signing_key, load_verify_key
from replay.leagues.runner import table_game
from replay.leagues.season_receipts import (
    audit_season_receipt,
    encode,
    load_season_receipt,
    season_leaves,
    season_proof,
    season_receipt,
)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "trust.md"
BONES, DICE, MATRIX = "demo-r", "dicedemo-r", "matrix-example-7-s1"

# --- the tree: known values of Certificate Transparency's reference implementation ------
# transparency-dev/merkle testonly/constants.go and reference_test.go (RFC 6962 trees of
# these eight leaves): the root of each tree size, some audit paths and consistency proofs.
LEAVES = [bytes.fromhex(h) for h in ("", "00", "10", "2021", "3031", "40414243",
                                     "5051525354555657", "606162636465666768696a6b6c6d6e6f")]
ROOTS = ["e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
         "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
         "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
         "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
         "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
         "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
         "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
         "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
         "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"]
INCLUSION = [  # (index, size, audit path)
    (0, 1, []),
    (0, 2, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7"]),
    (1, 2, ["6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"]),
    (2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (1, 5, ["6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
    (0, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
    (5, 8, ["bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
]
CONSISTENCY = [  # (first size, second size, proof)
    (1, 1, []),
    (1, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
    (2, 5, ["5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
    (6, 8, ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
]


@pytest.mark.parametrize("size", range(9))
def test_tree_roots_are_certificate_transparencys(size: int) -> None:
    assert merkle.root(LEAVES[:size]).hex() == ROOTS[size]


@pytest.mark.parametrize(("index", "size", "path"), INCLUSION)
def test_audit_paths_are_certificate_transparencys(index: int, size: int, path: list[str]) -> None:
    got = merkle.inclusion_proof(LEAVES[:size], index)
    assert [p.hex() for p in got] == path
    root = bytes.fromhex(ROOTS[size])
    assert merkle.verify_inclusion(LEAVES[index], index, size, got, root)
    others = [i for i in range(size) if LEAVES[i] != LEAVES[index]]
    assert not any(merkle.verify_inclusion(LEAVES[i], index, size, got, root) for i in others)
    if size > 1:  # another place, or a path one hash short, proves nothing
        assert not merkle.verify_inclusion(LEAVES[index], (index + 1) % size, size, got, root)
        assert not merkle.verify_inclusion(LEAVES[index], index, size, got[:-1], root)


@pytest.mark.parametrize(("first", "second", "proof"), CONSISTENCY)
def test_consistency_proofs_are_certificate_transparencys(first: int, second: int,
                                                          proof: list[str]) -> None:
    got = merkle.consistency_proof(LEAVES[:second], first)
    assert [p.hex() for p in got] == proof
    old, new = bytes.fromhex(ROOTS[first]), bytes.fromhex(ROOTS[second])
    assert merkle.verify_consistency(first, second, old, new, got)
    rewritten = [b"rewritten", *LEAVES[1:first]]  # an earlier leaf changed: another old root
    assert not merkle.verify_consistency(first, second, merkle.root(rewritten), new, got)


def test_every_proof_of_small_trees_verifies_and_no_other() -> None:
    for size in range(1, 9):
        root = merkle.root(LEAVES[:size])
        for first in range(size + 1):
            proof = merkle.consistency_proof(LEAVES[:size], first)
            # transparency-dev/merkle's vectors: "consistency check on empty tree (size1
            # is zero) is useless" (tests/test_merkle_vectors.py)
            assert merkle.verify_consistency(first, size, merkle.root(LEAVES[:first]), root,
                                             proof) is (first > 0)
            if 0 < first < size:
                swapped = [*LEAVES[:first - 1], LEAVES[size - 1]]
                assert not merkle.verify_consistency(first, size, merkle.root(swapped), root,
                                                     proof)


def test_a_three_leaf_tree_by_hand_from_the_rfc() -> None:
    """RFC 6962 2.1 with hashlib: MTH(D[3]) = H(1 || H(1 || H(0||a) || H(0||b)) || H(0||c)),
    the split at 2; the audit path of c is [MTH(D[0:2])]; of a, [H(0||b), H(0||c)]."""
    def h(data: bytes) -> bytes:
        return hashlib.sha256(data).digest()
    a, b, c = b"a", b"b", b"c"
    left = h(b"\x01" + h(b"\x00" + a) + h(b"\x00" + b))
    assert merkle.root([a, b, c]) == h(b"\x01" + left + h(b"\x00" + c))
    assert merkle.inclusion_proof([a, b, c], 2) == [left]
    assert merkle.inclusion_proof([a, b, c], 0) == [h(b"\x00" + b), h(b"\x00" + c)]
    # PROOF(2, D[3]) = [MTH(D[2:3])]: the old root is the left subtree itself
    assert merkle.consistency_proof([a, b, c], 2) == [h(b"\x00" + c)]


# --- seasons --------------------------------------------------------------------------------

def _run(*argv: str) -> int:
    return main([*argv])


@pytest.fixture(scope="module")
def key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("key") / "league.key"
    generate_key(path)
    return path


@pytest.fixture(scope="module")
def bones(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Hockey Bones season after week 1: its first three games."""
    path = tmp_path_factory.mktemp("bones") / "season.db"
    assert _run("season", "--league", "demo", "--seed", "r", "--games", "3", "--workers", "1",
                "--db", str(path)) == 0
    return path


@pytest.fixture(scope="module")
def dice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("dice") / "season.db"
    assert _run("season", "--league", "dicedemo", "--seed", "r", "--games", "3", "--workers",
                "1", "--db", str(path)) == 0
    return path


@pytest.fixture(scope="module")
def matrix_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("matrix") / "season.db"
    assert _run("matrix", "open", "--league", "example", "--seed", "7", "--db", str(path)) == 0
    assert _run("matrix", "demo", MATRIX, "--no-close", "--db", str(path)) == 0
    return path


def _copy(db: Path, folder: Path, name: str = "copy.db") -> Path:
    target = folder / name
    shutil.copyfile(db, target)
    return target


def _receipt(db: Path, season: str, out: Path, key: Path | None = None) -> Path:
    extra = ["--key", str(key)] if key else []
    assert _run("receipt", "--season", season, *extra, "-o", str(out), "--db", str(db)) == 0
    return out


def _findings(db: Path, receipt: Path, pub: Path | None = None,
              all_streams: bool = True) -> dict[str, str]:
    """The receipt check's findings by stream: what was expected."""
    with open_store(db, create=False) as store:
        found = audit_season_receipt(store, receipt, load_verify_key(str(pub)) if pub else None,
                                     all_streams=all_streams)
    return {r.game_id: r.failure.expected + " / " + r.failure.recorded
            for r in found.reports if r.failure is not None and r.failure.check == "receipt"}


def _unrecord(db: Path, game: str) -> None:
    """The season stream re-written without its record of ``game`` (re-hashed as the
    store hashes it): what a forger who deletes or replaces a season game must do too, the
    season being the ledger of its games (docs/trust.md), for the audit alone to pass.
    Only the receipt (the season's published head and games) tells the difference."""
    from forge import replace_stream

    with open_store(db, create=False) as store:
        season = store.info(game).meta["season"]
        events = [row.event for row in store.read(season)]
    kept = [e for e in events if getattr(e, "game", None) != game]
    assert len(kept) < len(events)
    replace_stream(db, season, kept, kind="season", system="league")


def _drop(db: Path, stream: str) -> None:
    """Delete a stream, its rows and its read-model rows, as a forger with sqlite3 would
    (a season game's record in its season stream too: :func:`_unrecord`)."""
    with open_store(db, create=False) as store:
        info = store.info(stream)
    if info.kind == "game" and info.meta.get("season"):
        _unrecord(db, stream)
    raw = sqlite3.connect(db)
    key = raw.execute("SELECT key FROM streams WHERE stream=?", (stream,)).fetchone()[0]
    raw.execute("DELETE FROM events WHERE stream_key=?", (key,))
    raw.execute("DELETE FROM streams WHERE stream=?", (stream,))
    tables = [t for (t,) in raw.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                        "AND name LIKE 'rm_%'")]
    for table in tables:
        if "game_id" in [c[1] for c in raw.execute(f"PRAGMA table_info({table})")]:
            raw.execute(f"DELETE FROM {table} WHERE game_id=?", (stream,))
    if "rm_checkpoints" in tables:
        raw.execute("DELETE FROM rm_checkpoints WHERE stream=?", (stream,))
    raw.commit()
    raw.close()


class _OtherDice:
    """A table game's typed rolls, another game's."""

    def __init__(self, game: str) -> None:
        self.game = game

    def roll(self, n: int):
        return derive_roll("forged", self.game, n)


def _replayed_at_the_table(db: Path, season: str, number: int) -> str:
    """Game ``number`` deleted and played again at the table with other rolls: an honest
    looking game (typed dice), which the audit alone cannot tell from the original."""
    game = f"{season}-{number:04d}"
    _drop(db, game)
    with open_store(db) as store:
        assert table_game(store, season, number) == game
        folded = resume_point(store, game)
        continue_game(folded, _OtherDice(game), DefaultCoach(), table_committer(store, game))
    read_models.update(db)
    return game


def _audit_passes(db: Path) -> bool:
    with open_store(db, create=False) as store:
        return all(r.ok for r in audit_all(store))


@pytest.mark.parametrize(("fixture", "season"), [("bones", BONES), ("dice", DICE),
                                                 ("matrix_db", MATRIX)])
def test_a_season_receipt_holds_the_season_it_was_issued_for(
        request: pytest.FixtureRequest, fixture: str, season: str, key: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = request.getfixturevalue(fixture)
    out = _receipt(db, season, tmp_path / "week.json", key)
    receipt = json.loads(out.read_text())
    with open_store(db, create=False) as store:
        games = season_leaves(store, season)
        system = ("matrix" if fixture == "matrix_db" else
                  "dicehockey" if fixture == "dice" else "bones")
        assert (receipt["season"], receipt["system"], receipt["n_games"]) == \
            (season, system, len(games))
        assert receipt["season_head"] == store.head_hash(season)
        assert receipt["games"] == [{"game": g.game, "head": g.head} for g in games]
        if fixture != "matrix_db":  # a league season's games are its own streams
            assert [g.head for g in games] == [store.head_hash(g.game) for g in games]
    assert len(games) == (66 if fixture == "matrix_db" else 3)
    capsys.readouterr()
    assert _run("audit", "--all", "--receipt", str(out), "--public-key", f"{key}.pub",
                "--db", str(db)) == 0
    text = capsys.readouterr().out
    assert f"the {len(games)} games of receipt" in text and "signature ok" in text
    assert _run("audit", "--receipt", str(out), "--db", str(db)) == 0  # the season alone


def test_the_signature_is_the_leagues_and_a_changed_receipt_is_refused(
        bones: Path, key: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _receipt(bones, BONES, tmp_path / "week.json", key)
    other = tmp_path / "other.key"
    generate_key(other)
    assert _run("audit", "--all", "--receipt", str(out), "--public-key", f"{other}.pub",
                "--db", str(bones)) == 1
    assert "not the league key" in capsys.readouterr().err
    data = json.loads(out.read_text())
    data["games"][1]["head"] = "0" * 64  # the games no longer give the root
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data))
    assert _run("audit", "--all", "--receipt", str(changed), "--db", str(bones)) == 1
    assert "do not give its root" in capsys.readouterr().err
    data = json.loads(out.read_text())
    data["standings_digest"] = "0" * 64  # the signed tree head changed
    changed.write_text(json.dumps(data))
    assert _run("audit", "--all", "--receipt", str(changed), "--db", str(bones)) == 1
    assert "signature does not verify" in capsys.readouterr().err


def test_a_game_cut_short_is_named(bones: Path, tmp_path: Path) -> None:
    out = _receipt(bones, BONES, tmp_path / "week.json")
    db = _copy(bones, tmp_path)
    game = f"{BONES}-0002"
    with open_store(db, create=False) as store:
        rows = store.raw_rows(game)
    cut = len(rows) - 100
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM events WHERE stream_key=(SELECT key FROM streams WHERE stream=?) "
                "AND seq>?", (game, cut))
    raw.execute("UPDATE streams SET version=?, head_hash=? WHERE stream=?",
                (cut, rows[cut - 1].hash, game))
    raw.commit()
    raw.close()
    found = _findings(db, out)
    assert list(found) == [game] and rows[-1].hash[:16] in found[game]
    assert _run("audit", "--all", "--receipt", str(out), "--db", str(db)) == 1


def test_a_game_swapped_for_another_is_named_where_the_audit_alone_passes(
        bones: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _receipt(bones, BONES, tmp_path / "week.json")
    db = _copy(bones, tmp_path)
    game = _replayed_at_the_table(db, BONES, 2)
    assert _audit_passes(db)  # a well-formed season: only the receipt can tell
    found = _findings(db, out)
    # the forged game is recorded last (the tree grows at its end), so game 3 moved up
    assert sorted(found) == [BONES, game, f"{BONES}-0003"]
    assert found[f"{BONES}-0003"].startswith("game 3 of the season") and \
        found[f"{BONES}-0003"].endswith(" / game 2")
    # the season stream, re-written with the forged game's record, is not the published one
    assert found[BONES].startswith("the season stream extending")
    capsys.readouterr()
    assert _run("audit", "--all", "--receipt", str(out), "--db", str(db)) == 1
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith(game))
    assert "receipt check" in line and "FAILED" in line


def test_a_deleted_game_is_named_where_the_audit_alone_passes(bones: Path,
                                                               tmp_path: Path) -> None:
    out = _receipt(bones, BONES, tmp_path / "week.json")
    db = _copy(bones, tmp_path)
    game = f"{BONES}-0002"
    _drop(db, game)
    read_models.update(db)  # the standings of the two games left
    assert _audit_passes(db)
    found = _findings(db, out)
    assert sorted(found) == [BONES, game] and "not in the database's season" in found[game]


def test_a_rewritten_week_is_named_by_the_receipt_published_that_week(
        bones: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    week1 = _receipt(bones, BONES, tmp_path / "week1.json")
    honest = _copy(bones, tmp_path, "honest.db")
    assert _run("season", "--league", "demo", "--seed", "r", "--games", "5", "--workers", "1",
                "--db", str(honest)) == 0
    capsys.readouterr()
    assert _run("audit", "--all", "--receipt", str(week1), "--db", str(honest)) == 0
    text = capsys.readouterr().out
    assert "the 3 games of receipt" in text and "first 3 of its 5" in text
    assert f"{BONES}-0005: played since the receipt" in text
    forged = _copy(bones, tmp_path, "forged.db")
    game = _replayed_at_the_table(forged, BONES, 2)  # week 1 rewritten...
    assert _run("season", "--league", "demo", "--seed", "r", "--games", "5", "--workers", "1",
                "--db", str(forged)) == 0  # ...then more games added
    assert _audit_passes(forged)
    with open_store(forged, create=False) as store:  # today's receipt is a fine one
        assert season_receipt(store, BONES).n_games == 5
    found = _findings(forged, week1)
    # the season's record re-written, the game, and game 3 moved up in the tree
    assert sorted(found) == [BONES, game, f"{BONES}-0003"]
    assert _run("audit", "--all", "--receipt", str(week1), "--db", str(forged)) == 1
    assert "consistency proof" not in capsys.readouterr().out  # no claim that it extends


def test_a_dice_hockey_season_names_a_deleted_game(dice: Path, tmp_path: Path) -> None:
    out = _receipt(dice, DICE, tmp_path / "week.json")
    db = _copy(dice, tmp_path)
    _drop(db, f"{DICE}-0003")
    read_models.update(db)
    assert _audit_passes(db)
    assert sorted(_findings(db, out)) == [DICE, f"{DICE}-0003"]


# --- Matrix Hockey: one stream, its games GamePlayed events ---------------------------------

def _matrix_events(db: Path) -> list:
    with open_store(db, create=False) as store:
        return [row.event for row in store.read(MATRIX)]


def _rewrite(db: Path, events: list) -> None:
    """The season stream replaced by ``events``, re-hashed by the store (a forger's)."""
    _drop(db, MATRIX)
    with open_store(db) as store:
        matrix.record(store, None, MATRIX, events)


def _week_end(events: list, week: int) -> int:
    return next(i for i, e in enumerate(events) if isinstance(e, WeekEnded) and e.week == week)


def _played(events: list) -> list[int]:
    return [i for i, e in enumerate(events) if isinstance(e, GamePlayed)]


def _matrix_ids(events: list) -> list[str]:
    return [f"{MATRIX}:w{e.week:02d}:{e.competition}:{e.home.team}-{e.away.team}"
            for e in events if isinstance(e, GamePlayed)]


@pytest.fixture(scope="module")
def matrix_week3(matrix_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The receipt the league published after week 3, from the database as it was then
    (the season stream up to week 3's end: a prefix of today's chain)."""
    folder = tmp_path_factory.mktemp("week3")
    then = _copy(matrix_db, folder, "then.db")
    events = _matrix_events(matrix_db)
    _rewrite(then, events[:_week_end(events, 3) + 1])
    assert _audit_passes(then)
    return _receipt(then, MATRIX, folder / "week3.json")


def test_a_matrix_season_extends_its_week_3_receipt(matrix_db: Path, matrix_week3: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert _run("audit", "--all", "--receipt", str(matrix_week3), "--db", str(matrix_db)) == 0
    published = len(json.loads(matrix_week3.read_text())["games"])
    assert f"the {published} games of receipt" in capsys.readouterr().out


def test_a_rewritten_matrix_week_is_named_by_its_weeks_receipt(
        matrix_db: Path, matrix_week3: Path, tmp_path: Path) -> None:
    db = _copy(matrix_db, tmp_path)
    events = _matrix_events(db)
    i = next(i for i in _played(events) if events[i].week == 2)
    events[i] = msgspec.structs.replace(events[i], home_goals=events[i].home_goals + 3)
    _rewrite(db, events)
    found = _findings(db, matrix_week3)
    ids = _matrix_ids(events)
    first = ids.index(_matrix_ids([events[i]])[0])
    published = len(json.loads(matrix_week3.read_text())["games"])
    # the changed game and every published game after it (their heads chain on it)
    assert set(ids[first:published]) <= set(found) and ids[first] in found
    assert not set(ids[:first]) & set(found)
    assert MATRIX in found  # the season stream no longer extends the published one


@pytest.mark.parametrize("forgery", ["cut", "swap", "delete"])
def test_matrix_games_cut_swapped_or_deleted_are_named(matrix_db: Path, tmp_path: Path,
                                                       forgery: str) -> None:
    out = _receipt(matrix_db, MATRIX, tmp_path / "now.json")
    db = _copy(matrix_db, tmp_path)
    events = _matrix_events(db)
    ids = _matrix_ids(events)
    played = _played(events)
    if forgery == "cut":  # the season cut short in week 11: its last games gone
        events = events[:played[-3]]
        named = ids[-3:]
    elif forgery == "swap":  # two games of week 5 swapped in the stream
        a, b = [i for i in played if events[i].week == 5][:2]
        events[a], events[b] = events[b], events[a]
        named = [ids[played.index(a)], ids[played.index(b)]]
    else:
        gone = [i for i in played if events[i].week == 6][0]
        named = [ids[played.index(gone)]]
        del events[gone]
    _rewrite(db, events)
    found = _findings(db, out)
    assert set(named) <= set(found), (named, found)
    assert not set(ids[:played.index(min(i for i in played
                                          if ids[played.index(i)] in named))]) & set(found)
    assert _run("audit", "--all", "--receipt", str(out), "--db", str(db)) == 1


# --- the CLI and the documented verifier ------------------------------------------------------

def test_receipt_season_errors_are_one_line(bones: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = str(bones)
    for argv, message in (
            (["receipt", "--season", "nope"], "no season 'nope'"),
            (["receipt", "--season", BONES, "--proof", "nope"], "not a game of season"),
            (["receipt", f"{BONES}-0001", "--season", BONES], "--season takes no game ids"),
            (["receipt", "--proof", f"{BONES}-0001"], "--proof GAME goes with --season"),
            (["receipt", "--season", f"{BONES}-0001"], "not a season")):
        capsys.readouterr()
        assert _run(*argv, "--db", db) == 1, argv
        err = capsys.readouterr().err.strip()
        assert message in err and len(err.splitlines()) == 1, err
    out = _receipt(bones, BONES, tmp_path / "week.json")
    assert _run("audit", f"{BONES}-0001", "--receipt", str(out), "--db", db) == 1
    assert "season's receipt" in capsys.readouterr().err


def test_a_receipt_with_a_failing_game_is_not_issued(bones: Path, tmp_path: Path) -> None:
    db = _copy(bones, tmp_path)
    raw = sqlite3.connect(db)
    raw.execute("UPDATE streams SET meta = json_set(meta, '$.home_goals', 9) WHERE stream=?",
                (f"{BONES}-0001",))
    raw.commit()
    raw.close()
    with open_store(db, create=False) as store, pytest.raises(RinklogError,
                                                               match="fails the audit"):
        season_receipt(store, BONES)


def _doc_block(marker: str) -> str:
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(rf"<!-- {marker} -->\n```python\n(.*?)```", text, re.S)
    assert found, f"docs/trust.md has no {marker} block"
    return found.group(1)


@pytest.mark.parametrize(("fixture", "season"), [("bones", BONES), ("matrix_db", MATRIX)])
def test_the_documented_verifier_checks_a_real_proof(request: pytest.FixtureRequest,
                                                      fixture: str, season: str, key: Path,
                                                      tmp_path: Path) -> None:
    db = request.getfixturevalue(fixture)
    receipt = json.loads(_receipt(db, season, tmp_path / "week.json", key).read_text())
    namespace: dict = {}
    exec(compile(_doc_block("verifier"), str(DOCS), "exec"), namespace)  # noqa: S102
    verify, tree_root = namespace["verify"], namespace["tree_root"]
    assert tree_root(receipt["games"]) == receipt["root"]
    with open_store(db, create=False) as store:
        games = season_leaves(store, season)
        proofs = [json.loads(encode(season_proof(store, season, g.game))) for g in games]
    assert _run("receipt", "--season", season, "--proof", games[-1].game, "-o",
                str(tmp_path / "proof.json"), "--db", str(db)) == 0
    assert json.loads((tmp_path / "proof.json").read_text()) == proofs[-1]
    assert all(verify(receipt, p) for p in proofs)
    for p in proofs[:3]:
        assert not verify(receipt, {**p, "head": "0" * 64})  # another head
        assert not verify(receipt, {**p, "index": (p["index"] + 1) % len(games)})
    other = {**proofs[1], "game": proofs[0]["game"]}  # another game's id
    assert not verify(receipt, other)
    namespace = {}
    exec(compile(_doc_block("signature"), str(DOCS), "exec"), namespace)  # noqa: S102
    public = load_signing_key(key).verify_key.encode().hex()
    assert namespace["signed_by"](receipt, public)
    assert not namespace["signed_by"]({**receipt, "n_games": receipt["n_games"] + 1}, public)


def test_a_receipt_of_no_games_is_extended_by_every_season_from_the_empty_root(
        bones: Path, tmp_path: Path) -> None:
    """RFC 6962 2.1: "The hash of an empty list is the hash of an empty string"; a
    consistency proof from a tree of size 0 proves nothing (transparency-dev/merkle's
    vectors), so a receipt published before any game holds by its root alone."""
    week = json.loads(_receipt(bones, BONES, tmp_path / "week.json").read_text())
    with open_store(bones, create=False) as store:
        opening = store.read(BONES, 2, 2)[0].hash
    empty = {**week, "games": [], "n_games": 0, "season_events": 2,
             "season_head": opening,
             "root": hashlib.sha256(b"").hexdigest()}
    (tmp_path / "empty.json").write_text(json.dumps(empty))
    assert _run("audit", "--receipt", str(tmp_path / "empty.json"),
                "--db", str(bones)) == 0
    (tmp_path / "forged.json").write_text(json.dumps({**empty, "root": "00" * 32}))
    assert _run("audit", "--receipt", str(tmp_path / "forged.json"),
                "--db", str(bones)) == 1


def test_the_documented_verifier_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    """Issue 33: "the offline verifier in docs/trust.md crashes on a non-hex path entry";
    run as the page says (python verify.py RECEIPT PROOF), it says so in one line."""
    script = tmp_path / "verify.py"
    script.write_text(_doc_block("verifier"), encoding="utf-8")
    leaf = ["g", "0" * 64]
    games = [{"game": "g", "head": "0" * 64}, {"game": "h", "head": "1" * 64}]
    receipt = {"n_games": 2, "games": games,
               "root": merkle.root([json.dumps(g, separators=(",", ":")).encode()
                                    for g in (leaf, ["h", "1" * 64])]).hex()}
    (tmp_path / "r.json").write_text(json.dumps(receipt))
    good = {"game": "g", "head": "0" * 64, "index": 0, "n_games": 2,
            "path": [merkle.leaf_hash(b'["h","' + b"1" * 64 + b'"]').hex()]}
    for proof, code, said in ((good, 0, "in the season"),
                              ({**good, "index": 1}, 1, "NOT in the season"),
                              ({**good, "path": ["zz" * 32]}, 1, "path entry 1 is not a hash"),
                              ({**good, "path": ["00"]}, 1, "path entry 1 is not a hash"),
                              ({**good, "index": "0"}, 1, "not a receipt and a proof"),
                              ({"game": "g"}, 1, "not a receipt and a proof")):
        (tmp_path / "p.json").write_text(json.dumps(proof))
        done = subprocess.run([sys.executable, str(script), str(tmp_path / "r.json"),
                               str(tmp_path / "p.json")], capture_output=True, text=True,
                              check=False)
        assert done.returncode == code, (proof, done.stderr)
        shown = (done.stdout + done.stderr).strip()
        assert said in shown and len(shown.splitlines()) == 1, shown


def test_the_receipt_file_is_what_load_reads(bones: Path, key: Path, tmp_path: Path) -> None:
    out = _receipt(bones, BONES, tmp_path / "week.json", key)
    loaded = load_season_receipt(out)
    with open_store(bones, create=False) as store:
        again = season_receipt(store, BONES, load_signing_key(key))
    assert loaded == again  # Ed25519 signatures are deterministic
    assert out.read_bytes() == encode(again)
