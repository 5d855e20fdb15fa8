"""The writer holds every game a worker returns to what it can check itself before it
stores it (issue 33, replay/leagues/returned.py).

Issue 33: "a worker that returns a forged but self-consistent game (a die changed, the
chain re-hashed, its read-model rows changed to 9 goals) gets it stored as 'played and
audited' and entered in the season's ledger"; done when "a worker patched to return a
forged game [...] gets nothing stored and the command exits non-zero in one line".

Here the worker is this process (``--workers 1``: the same check as a crew's or a
cluster's, tests/test_cluster.py runs one through a real LocalCluster); its ``_play`` is
patched (tests/cluster_tasks.py) to forge the season's second game (after its own
audit, whose finding it drops), as a forging worker would.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from replay.cli.app import main
from replay.games.game_streams import open_store
from replay.leagues.ledger import ledger_of
from tests import cluster_tasks

ROOT = Path(__file__).resolve().parents[1]
SEED = "forge"
SEASON = f"tiny-{SEED}"
FORGED = f"{SEASON}-{cluster_tasks.FORGED:04d}"


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """dicedemo's eight teams, two games each (DICE Hockey: injuries and suspensions carry
    into later games, 15, 17)."""
    folder = tmp_path_factory.mktemp("returned") / "tiny"
    shutil.copytree(ROOT / "fixtures/dicehockey/leagues/dicedemo", folder)
    toml = folder / "league.toml"
    text = toml.read_text().replace("games = 82", "games = 2")
    toml.write_text(text.replace('name = "dicedemo"', 'name = "tiny"').split("[playoffs]")[0])
    return folder


def nothing_stored_of(db: Path, game_id: str, before: bool = True) -> None:
    """No stream, no record in its season's ledger, no read-model row of ``game_id``
    (``before``: a game before it was stored, read models and all)."""
    with open_store(db) as store:
        assert not store.exists(game_id)
        assert ledger_of(store, SEASON).record_of(game_id) is None
    raw = sqlite3.connect(db)
    try:
        tables = [t for (t,) in raw.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm_%'")]
        assert "rm_scoresheet_games" in tables or not before
        for table in tables:
            columns = [c[1] for c in raw.execute(f"PRAGMA table_info({table})")]
            if "game_id" in columns:
                found = raw.execute(f"SELECT count(*) FROM {table} WHERE game_id = ?",
                                    (game_id,)).fetchone()[0]
                assert found == 0, table
    finally:
        raw.close()


@pytest.mark.parametrize(("how", "check"), [
    # "a die changed, the chain re-hashed": every seeded roll is its derivation (3.00)
    ("die", "dice check at event"),
    # "its read-model rows changed to 9 goals"
    ("goals", "read models check"),
    # "the game's identity against the ledger's slot (teams, seed, options)"
    ("seed", "season check at event 1: expected seed"),
    ("team", "season check at event 1: expected teams"),
    # "games_out (who is out of later games, DICE Hockey 15/17) re-derived from the
    # decoded events rather than taken from the worker"
    ("out", "games out check"),
])
def test_a_forged_game_from_a_worker_is_refused_in_one_line_and_nothing_is_stored(
        how: str, check: str, league: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "season.db"
    cluster_tasks.forge(how)
    try:
        capsys.readouterr()
        code = main(["season", "--league", str(league), "--seed", SEED, "--games", "2",
                     "--workers", "1", "--db", str(db)])
    finally:
        cluster_tasks.unforge()
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith(f"rinklog: error: {FORGED} as a worker returned it does not hold: "
                          f"{check}"), err
    assert err.count("\n") == 1 and "nothing of it was stored" in err
    nothing_stored_of(db, FORGED)


def test_an_honest_worker_s_games_are_stored_as_played(league: Path, tmp_path: Path) -> None:
    """The check refuses nothing an honest worker returns, and the rows stored are the
    ones the worker's audit passed (the whole database audits clean)."""
    db = tmp_path / "season.db"
    assert main(["season", "--league", str(league), "--seed", SEED, "--games", "2",
                 "--workers", "1", "--db", str(db)]) == 0
    assert main(["audit", "--all", "--db", str(db)]) == 0
    with open_store(db) as store:
        assert store.exists(FORGED)
        assert ledger_of(store, SEASON).record_of(FORGED) is not None


def test_a_rule_decision_forged_with_the_dice_right_is_found_only_where_the_rules_rerun(
        league: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """What the writer's check cannot see (docs/trust.md): a game's final score forged with
    every die right, re-hashed and folded again. Stored without --verify (the worker's
    audit is its word; `rinklog audit` finds it after); refused, nothing stored, when
    --verify chooses it: "think whether the writer should re-audit a sample of cluster
    games locally (e.g. `season --cluster --verify K`)" (issue 33)."""
    believed, caught = tmp_path / "believed.db", tmp_path / "caught.db"
    cluster_tasks.forge("rule")
    try:
        assert main(["season", "--league", str(league), "--seed", SEED, "--games", "2",
                     "--workers", "1", "--db", str(believed)]) == 0
        capsys.readouterr()
        code = main(["season", "--league", str(league), "--seed", SEED, "--games", "2",
                     "--workers", "1", "--verify", "2", "--db", str(caught)])
    finally:
        cluster_tasks.unforge()
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1
    assert err.startswith(f"rinklog: error: {FORGED} as a worker returned it does not hold: "
                          "rules check at event"), err
    nothing_stored_of(caught, FORGED)
    capsys.readouterr()
    assert main(["audit", FORGED, "--db", str(believed)]) == 1
    assert f"{FORGED}: FAILED at seq" in capsys.readouterr().out


def test_a_forged_playoff_game_is_refused_as_a_season_game_is(
        league: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    """The playoffs hand their games to the writer the same way (replay/leagues/playoffs.py):
    a worker that says the loser of its game won it, and one that returns no read-model
    rows, get nothing stored."""
    import dataclasses

    from replay.leagues import playoffs

    folder = tmp_path / "tiny"
    shutil.copytree(league, folder)
    toml = folder / "league.toml"
    toml.write_text(toml.read_text() + "\n[playoffs]\nteams = 4\nseries = [1, 1]\n")
    db = tmp_path / "season.db"
    assert main(["season", "--league", str(folder), "--seed", SEED, "--no-audit",
                 "--workers", "1", "--db", str(db)]) == 0
    honest = playoffs._play_with
    first = f"{SEASON}-p1-1-1"
    forgeries = {
        "winner": lambda p, game: dataclasses.replace(  # the loser, said to win
            p, winner=game.away if p.winner == game.home else game.home),
        "rows": lambda p, game: dataclasses.replace(p, read_models={}),
    }
    for how, forge in forgeries.items():
        monkeypatch.setattr(playoffs, "_play_with", lambda setup, fixture, forge=forge:
                            forge(honest(setup, fixture), fixture.game))
        capsys.readouterr()
        assert main(["playoffs", SEASON, "--league", str(folder), "--workers", "1",
                     "--db", str(db)]) == 1, how
        err = capsys.readouterr().err
        assert err.startswith(f"rinklog: error: {first} as a worker returned it does not "
                              "hold: "), err
        assert err.count("\n") == 1
        assert ("its events end with winner" if how == "winner" else "read models check") in err
        with open_store(db) as store:
            assert not store.exists(first)
