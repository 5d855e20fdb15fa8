"""DICE Hockey's ruleset versions: a game keeps the rules it was created under.

``tests/data/dicehockey-v1.db.gz`` holds four games played by rinklog's DICE Hockey
version 1 (before rules round 4, tests/data/README.md). Version 2 decides some things
differently for new games (engine/dicehockey/rulesets.py); a stored version-1 game must
still replay, audit and branch byte for byte as it was played."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from events.catalogue import open_store
from events.common import GameCreated
from replay.tooling.game_streams import read_game
from tests.setups import run_cli

DATA = Path(__file__).resolve().parents[1] / "data"
# The head hashes the version-1 rinklog printed when it stored them (tests/data/README.md).
HEADS = {
    "ALD-BRK-v1-1-dicehockey": "fb8b5cecd4b99e74fdcf72236a05fc52f139d428d9106447f8821f40f4a12409",
    "ALD-BRK-v1-2-dicehockey": "b5db8ef73c50d5f3d583e7cfa269de4446bb4863c7c732a1234ae026284ec511",
    "ALD-BRK-v1-3-dicehockey": "75c9435779aa5506bf480b5ebc71d6062dc0404bde0f384d51c9e9bd74b86c6f",
    "CDV-DRF-v1-4-dicehockey": "a47d17fd397989da45fe69596799ec4761caab91b6dcd87a5c15d7f4129d6a47",
}


@pytest.fixture
def v1_db(tmp_path: Path) -> Path:
    path = tmp_path / "v1.db"
    path.write_bytes(gzip.decompress((DATA / "dicehockey-v1.db.gz").read_bytes()))
    return path


def test_version_1_games_audit_clean_under_the_rules_they_were_played_by(v1_db: Path) -> None:
    with open_store(v1_db) as store:
        for game_id, head in HEADS.items():
            created = read_game(store, game_id)[0]
            assert isinstance(created, GameCreated) and created.ruleset_version == 1
            assert store.head_hash(game_id) == head
    code, out, err = run_cli(["audit", "--all", "--db", str(v1_db)])
    assert (code, err) == (0, ""), out + err
    for game_id in HEADS:
        assert game_id in out


def test_a_version_1_game_branches_under_version_1(v1_db: Path) -> None:
    code, out, err = run_cli(["branch", "ALD-BRK-v1-1-dicehockey", "--at", "400", "--seed",
                              "other", "--db", str(v1_db)])
    assert code == 0, out + err
    with open_store(v1_db) as store:
        branches = [s for s in store.stream_ids() if s.startswith("ALD-BRK-v1-1-dicehockey-")]
        assert branches
        assert read_game(store, branches[0])[0].ruleset_version == 1
    code, out, err = run_cli(["audit", "--all", "--db", str(v1_db)])
    assert code == 0, out + err


def test_a_new_game_is_created_under_version_2(tmp_path: Path) -> None:
    db = str(tmp_path / "new.db")
    code, out, err = run_cli(["sim", "--ruleset", "dicehockey", "--league", "dicedemo",
                              "--home", "ALD", "--away", "BRK", "--seed", "v2", "--db", db])
    assert code == 0, out + err
    with open_store(db) as store:
        (game_id,) = store.stream_ids()
        assert read_game(store, game_id)[0].ruleset_version == 2
