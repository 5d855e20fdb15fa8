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
from replay.games.game_streams import read_game
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


@pytest.mark.parametrize("version", [1, 2])
def test_events_and_explain_say_the_goals_space_the_scoresheet_says(tmp_path: Path, v1_db: Path,
                                                                    version: int) -> None:
    """DICE 9, 12 (issue 31, item 9): a goal's timing space in `rinklog events` and
    `rinklog explain` is the scoresheet's in a version-2 game; a version-1 game keeps the
    bytes it stored (one space early for a goal on a possession's first shot)."""
    import json

    if version == 2:
        db, game_id = str(tmp_path / "v2.db"), "ALD-BRK-s9-dicehockey"
        assert run_cli(["sim", "--ruleset", "dicehockey", "--league", "dicedemo",
                        "--home", "ALD", "--away", "BRK", "--seed", "s9", "--db", db])[0] == 0
    else:
        db, game_id = str(v1_db), "ALD-BRK-v1-2-dicehockey"
    code, out, _ = run_cli(["scoresheet", game_id, "--json", "--db", db])
    sheet = [(g["period"], g["time"]) for g in json.loads(out)["goals"]]
    with open_store(db) as store:
        goals = [(e.period, e.space) for e in read_game(store, game_id)
                 if type(e).__name__ == "GoalScored"]
    assert len(goals) == len(sheet) >= 3
    if version == 2:
        assert goals == sheet
    else:  # stored as played: at least one goal on a first shot, one space early
        assert goals != sheet and all(g in (s, (s[0], s[1] - 1)) for g, s in zip(goals, sheet, strict=True))
    for number, (period, time) in enumerate(sheet, 1):
        code, out, _ = run_cli(["explain", game_id, "--goal", str(number), "--db", db])
        assert code == 0 and f"period {period}, space {time}," in out.splitlines()[0]
        said = next(line for line in out.splitlines() if "GoalScored" in line)
        stored = goals[number - 1]
        assert f"period {stored[0]} space {stored[1]};" in said  # the event as stored
