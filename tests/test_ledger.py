"""The season as the ledger of its games (issue 20): what the writer records and how it
records it. The forgeries the ledger catches are in tests/test_trust.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.common import GameCoachSet, SeasonGameOpened
from events.errors import RinklogError
from events.league import SeasonCoachSet, SeasonCreated, SeasonGameRecorded
from replay.cli.app import main
from replay.leagues.stored_seasons import recorded_games
from replay.tooling.audit import audit_all
from replay.tooling.game_streams import open_store, read_game
from replay.tooling.transfer import export_game, import_game


@pytest.fixture(scope="module")
def season_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ledger") / "season.db"
    assert main(["season", "--games", "3", "--workers", "2", "--db", str(path)]) == 0
    return path


def test_each_game_is_recorded_with_its_head_and_pins_the_opening(season_db: Path) -> None:
    with open_store(season_db) as store:
        rows = store.read("demo-1")
        recorded = recorded_games(store, "demo-1")
        assert [type(r.event) for r in rows[:2]] == [SeasonCreated, SeasonCoachSet]
        assert rows[1].event == SeasonCoachSet(home={}, away={})  # the default coach
        assert [(g.game, g.mode, g.head) for g in recorded] == [
            (f"demo-1-000{n}", "simulated", store.head_hash(f"demo-1-000{n}")) for n in (1, 2, 3)]
        for n in (1, 2, 3):
            events = read_game(store, f"demo-1-000{n}")
            assert events[1] == SeasonGameOpened(season="demo-1", opening=rows[1].hash)
            assert not isinstance(events[2], GameCoachSet)  # the default coach: no event


def test_a_season_with_a_coach_file_records_it_and_holds_to_it(tmp_path: Path) -> None:
    coach = tmp_path / "coach.toml"
    coach.write_text("pull_goalie_at = 40\n[away]\nchange_at_stoppage = 2\n", encoding="utf-8")
    db = tmp_path / "c.db"
    assert main(["season", "--games", "1", "--workers", "1", "--coach", str(coach),
                 "--db", str(db)]) == 0
    with open_store(db) as store:
        opening = store.read("demo-1", 2, 2)[0].event
        game = read_game(store, "demo-1-0001")
        assert all(r.ok for r in audit_all(store))
    assert opening == SeasonCoachSet(home={"pull_goalie_at": 40},
                                     away={"pull_goalie_at": 40, "change_at_stoppage": 2})
    assert game[2] == GameCoachSet(home=opening.home, away=opening.away)
    # played on without the coach file it started with: refused, nothing written
    assert main(["season", "--games", "2", "--workers", "1", "--db", str(db)]) == 1
    assert main(["season", "--games", "2", "--workers", "1", "--coach", str(coach),
                 "--db", str(db)]) == 0


def test_a_rolled_back_atomic_write_leaves_neither_stream_changed(season_db: Path,
                                                                   tmp_path: Path) -> None:
    db = tmp_path / "copy.db"
    db.write_bytes(season_db.read_bytes())
    with open_store(db) as store:
        version = store.version("demo-1")
        with pytest.raises(RuntimeError), store.transaction():
            store.append("demo-1", [SeasonGameRecorded(game="demo-1-0004", number=4,
                                                       mode="simulated", head="00")], version)
            raise RuntimeError("the game's rows failed")
        assert store.version("demo-1") == version
        assert [g.game for g in recorded_games(store, "demo-1")][-1] == "demo-1-0003"


def test_season_games_exported_one_by_one_import_with_their_season(season_db: Path,
                                                                    tmp_path: Path) -> None:
    """Each export carries the season up to its game's record; importing them one by one
    grows the season stream as the writer did, and the database audits whole."""
    target = tmp_path / "commissioner.db"
    with open_store(season_db) as store:
        files = [export_game(store, f"demo-1-000{n}") for n in (1, 2)]
        heads = [store.read("demo-1", n, n)[0].hash for n in (3, 4)]
    with open_store(target) as other:
        import_game(other, files[0])
        assert other.head_hash("demo-1") == heads[0]  # opening + game 1's record
        assert all(r.ok for r in audit_all(other))
        import_game(other, files[1])
        assert other.head_hash("demo-1") == heads[1]
        assert all(r.ok for r in audit_all(other))
    # the second alone names the first, which its season recorded, as missing
    alone = tmp_path / "alone.db"
    with open_store(alone) as other:
        import_game(other, files[1])
        failing = [r.game_id for r in audit_all(other) if not r.ok]
    assert failing == ["demo-1-0001"]


def test_a_season_stored_before_season_records_cannot_grow(season_db: Path,
                                                           tmp_path: Path) -> None:
    from forge import replace_stream

    db = tmp_path / "old.db"
    db.write_bytes(season_db.read_bytes())
    with open_store(db) as store:
        created = store.read("demo-1", 1, 1)[0].event
    replace_stream(db, "demo-1", [created], kind="season", system="league")
    with pytest.raises(RinklogError, match="before seasons recorded their games"):
        from replay.leagues.ledger import check_opening, ledger_of

        with open_store(db) as store:
            check_opening(ledger_of(store, "demo-1"), None)
    assert main(["season", "--games", "4", "--workers", "1", "--db", str(db)]) == 1


def test_a_branch_of_a_season_game_is_no_game_of_its_record(season_db: Path,
                                                            tmp_path: Path) -> None:
    """A what-if of a season game keeps the season's pin and is audited as a branch: the
    season's record holds its games, not their branches."""
    from replay.tooling.session import branch_game

    db = tmp_path / "whatif.db"
    db.write_bytes(season_db.read_bytes())
    with open_store(db) as store:
        branch = branch_game(store, "demo-1-0001", 600, seed="what-if")
        assert read_game(store, branch.game_id)[1] == read_game(store, "demo-1-0001")[1]
        reports = audit_all(store)
    assert all(r.ok for r in reports), [(r.game_id, r.failure) for r in reports if not r.ok]
