"""The season as the ledger of its games (issue 20): what the writer records and how it
records it. The forgeries the ledger catches are in tests/test_trust.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.common import GameCoachSet, SeasonGameOpened
from events.errors import RinklogError
from events.league import SeasonCoachSet, SeasonCreated, SeasonGameRecorded
from replay.cli.app import main
from replay.games.game_streams import open_store, read_game
from replay.leagues.audit import audit_all
from replay.leagues.stored_seasons import recorded_games
from replay.leagues.transfer import export_game, import_game


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


def test_a_season_travels_whole_and_its_games_only_into_it(season_db: Path,
                                                           tmp_path: Path) -> None:
    """Issue 32 (4): `rinklog export S` writes the season stream and every game as one
    file that imports and audits whole. A game of the season imports only into the
    database that holds its season, where it is checked against the season's ledger and
    recorded through the season's writer; into one without it, it is refused in one line
    naming the season to import first (it used to write the season as of the game's record,
    and `audit --all` then named the season's other games as deleted or moved)."""
    from test_table_league import _Table

    from replay.games.session import continue_game, resume_point
    from replay.leagues.ledger import table_committer
    from replay.leagues.runner import table_game
    from replay.leagues.season_transfer import export_season, import_file, verify_file
    from replay.leagues.transfer import ImportRefused

    with open_store(season_db) as store:
        whole = export_season(store, "demo-1")
        one = export_game(store, "demo-1-0002")
        heads = {s.stream: s.head_hash for s in store.streams()}
    commissioner = tmp_path / "commissioner.db"
    with open_store(commissioner) as other:
        imported = import_file(other, verify_file(whole, "season.rinklog"))
        assert (imported.season, imported.games) == ("demo-1", 3)
        assert {s.stream: s.head_hash for s in other.streams()} == heads
        assert all(r.ok for r in audit_all(other))
    alone = tmp_path / "alone.db"
    with open_store(alone) as other, pytest.raises(ImportRefused) as refused:
        import_game(other, one, "game2.rinklog")
    assert "a game of season demo-1" in str(refused.value)
    assert "import the season first" in str(refused.value)
    with open_store(alone) as other:
        assert other.stream_ids() == []  # nothing written
    # a game played at the table in a copy of the season comes home to the commissioner
    coach = tmp_path / "coach.db"
    coach.write_bytes(commissioner.read_bytes())
    with open_store(coach) as store:
        gid = table_game(store, "demo-1", 4)
        table = _Table("bones")
        continue_game(resume_point(store, gid), table.coach, table.coach,
                      table_committer(store, gid))
        played = export_game(store, gid)
    with open_store(commissioner) as other:
        before = other.version("demo-1")
        import_game(other, played, "game4.rinklog")
        records = [r.event for r in other.read("demo-1", before + 1)]
        assert [(type(e).__name__, e.game) for e in records] == [
            ("SeasonTableGameStarted", gid), ("SeasonGameRecorded", gid)]
        bad = [(r.game_id, r.failure) for r in audit_all(other) if not r.ok]
        assert bad == []


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
    from replay.games.session import branch_game

    db = tmp_path / "whatif.db"
    db.write_bytes(season_db.read_bytes())
    with open_store(db) as store:
        branch = branch_game(store, "demo-1-0001", 600, seed="what-if")
        assert read_game(store, branch.game_id)[1] == read_game(store, "demo-1-0001")[1]
        reports = audit_all(store)
    assert all(r.ok for r in reports), [(r.game_id, r.failure) for r in reports if not r.ok]
