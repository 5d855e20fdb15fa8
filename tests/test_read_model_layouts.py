"""Stored read models in an older layout are held to the events in that layout.

"Stored games keep their bytes and keep auditing: ... old games re-check under the rules
they were played under" (DEVELOPERS.md). Issue 34 (item 3) moved a goalie's ``g``, ``a``,
``p`` and ``pim`` from a skater row of GP 0 (``rm_player_stats``) to his goalie line (new
columns of ``rm_goalie_stats``). A database written before then keeps its rows as that
rinklog folded them; ``rinklog audit`` holds them to what the events give in that layout,
never skips them. A table whose columns are neither today's nor an older rinklog's is a
finding: dropping a column must not take a table out of the audit.

``tests/data/goalies-as-skaters.db.gz`` was written by rinklog before issue 34 item 3 (see
tests/data/README.md): its rows are what that rinklog stored, not what the code under test
makes. Which goalies have a skater row there is counted from the events (a goalie named
by ``PenaltyAssessed``, ``AssistsAwarded`` or ``GoalScored``; tests/test_goalie_lines.py).
"""

from __future__ import annotations

import gzip
import sqlite3
from pathlib import Path

import pytest

from events.catalogue import open_store
from projections import store as rm
from tests.setups import run_cli
from tests.test_goalie_lines import goalie_scoring

DATA = Path(__file__).resolve().parent / "data"
OLD_GAMES = ("g14", "g18", "g34", "faceoff-1", "dice-1")
SCORING = ("g", "a", "p", "pim")


@pytest.fixture
def old_db(tmp_path: Path) -> Path:
    path = tmp_path / "old.db"
    path.write_bytes(gzip.decompress((DATA / "goalies-as-skaters.db.gz").read_bytes()))
    return path


@pytest.fixture
def new_db(tmp_path: Path) -> Path:
    """Today's database: seeded game 14 (both goalies penalized, tests/test_goalie_lines.py),
    its read models stored."""
    path = tmp_path / "new.db"
    code, _, err = run_cli(["sim", "--home", "HFX", "--away", "QUE", "--seed", "14",
                            "--game-id", "g14", "--db", str(path)])
    assert code == 0, err
    assert run_cli(["projections", "update", "--db", str(path)])[0] == 0
    return path


def _sql(path: Path, *statements: str) -> list[tuple]:
    db = sqlite3.connect(path, isolation_level=None)  # autocommit, as a hand edit
    try:
        rows: list[tuple] = []
        for sql in statements:
            rows = db.execute(sql).fetchall()
        return rows
    finally:
        db.close()


def _columns(path: Path, table: str) -> list[str]:
    return [r[1] for r in _sql(path, f"PRAGMA table_info({table})")]


def _audit(path: Path) -> tuple[int, str]:
    code, out, err = run_cli(["audit", "--all", "--db", str(path)])
    return code, out + err


def test_the_fixture_is_an_older_layout_with_goalies_as_skaters(old_db: Path) -> None:
    assert not set(SCORING) & set(_columns(old_db, "rm_goalie_stats"))
    assert "games_in_net" in _columns(old_db, "rm_goalie_stats")
    seen = {"a": 0, "pim": 0}
    with open_store(old_db, create=False) as store:
        for game in OLD_GAMES:
            events = [row.event for row in store.read(game)]
            for (team, player), line in goalie_scoring(events).items():
                stored = _sql(old_db, f"SELECT g, a, p, pim, gp FROM rm_player_stats WHERE "
                                      f"game_id = '{game}' AND team = '{team}' "
                                      f"AND player = '{player}'")
                if any(line.values()):  # a skater row of GP 0 with his scoring
                    assert stored == [(line["g"], line["a"], line["p"], line["pim"], 0)]
                    seen = {k: seen[k] + line[k] for k in seen}
    assert seen["a"] >= 1 and seen["pim"] >= 6  # the cases are there


def test_an_untouched_old_database_audits_clean_and_is_held_row_for_row(old_db: Path) -> None:
    before = old_db.read_bytes()
    code, out = _audit(old_db)
    assert code == 0, out
    assert old_db.read_bytes() == before  # the audit writes nothing
    with open_store(old_db, create=False) as store:
        for game in OLD_GAMES:
            events = [row.event for row in store.read(game)]
            assert rm.stored_differences(store, game, events) == [], game


@pytest.mark.parametrize(("table", "edit"), [
    ("rm_player_stats", "UPDATE rm_player_stats SET pim = 0 WHERE game_id = 'g14' "
                        "AND player = 'zeke-lindqvist'"),  # a goalie's skater row
    ("rm_player_stats", "DELETE FROM rm_player_stats WHERE game_id = 'g18' "
                        "AND player = 'zeke-lindqvist'"),
    ("rm_player_stats", "UPDATE rm_player_stats SET g = g + 1, p = p + 1 WHERE "
                        "(game_id, team, player) = (SELECT game_id, team, player FROM "
                        "rm_player_stats WHERE game_id = 'g34' AND gp = 1 ORDER BY player "
                        "LIMIT 1)"),  # a skater's
    ("rm_goalie_stats", "UPDATE rm_goalie_stats SET sv = sv + 1 WHERE game_id = 'dice-1'"),
    ("rm_team_stats", "UPDATE rm_team_stats SET ppg = ppg + 1 WHERE game_id = 'faceoff-1'"),
    ("rm_toi_shifts", "UPDATE rm_toi_shifts SET [end] = [end] + 1 WHERE game_id = 'dice-1' "
                      "AND shift = 1"),
])
def test_an_edited_old_database_fails_the_audit(old_db: Path, table: str, edit: str) -> None:
    _sql(old_db, edit)
    code, out = _audit(old_db)
    assert code == 1
    assert table in out


def test_todays_database_audits_clean(new_db: Path) -> None:
    code, out = _audit(new_db)
    assert code == 0, out


def test_a_column_dropped_and_a_stats_row_edited_fails_the_audit(new_db: Path) -> None:
    """The forger: drop a column of rm_goalie_stats, then edit the stats freely."""
    _sql(new_db, "ALTER TABLE rm_goalie_stats DROP COLUMN so",
         "UPDATE rm_player_stats SET g = g + 3, p = p + 3 WHERE game_id = 'g14' "
         "AND player = (SELECT player FROM rm_player_stats WHERE game_id = 'g14' "
         "ORDER BY player LIMIT 1)")
    code, out = _audit(new_db)
    assert code == 1
    assert "rm_goalie_stats" in out


@pytest.mark.parametrize("column", ["so", "pim", "games_in_net"])
def test_a_table_in_no_known_layout_is_a_finding(new_db: Path, column: str) -> None:
    _sql(new_db, f"ALTER TABLE rm_goalie_stats DROP COLUMN {column}")
    columns = _columns(new_db, "rm_goalie_stats")
    code, out = _audit(new_db)
    assert code == 1
    line = next(line for line in out.splitlines() if "rm_goalie_stats" in line)
    assert all(c in line for c in columns) and column not in line.split("rm_goalie_stats")[1]


def test_another_projections_table_with_a_column_dropped_is_a_finding(new_db: Path) -> None:
    _sql(new_db, "DROP VIEW rm_toi_shifts", "ALTER TABLE rm_toi_player_shifts DROP COLUMN shifts")
    code, out = _audit(new_db)
    assert code == 1
    assert "rm_toi_player_shifts: columns game_id, team, player are neither" in out


def test_an_edited_packed_shift_fails_the_audit(new_db: Path) -> None:
    _sql(new_db, "UPDATE rm_toi_player_shifts SET shifts = json_replace(shifts, '$[0][3]', 99)"
                 " WHERE game_id = 'g14' AND player = (SELECT min(player) FROM "
                 "rm_toi_player_shifts WHERE game_id = 'g14')")
    code, out = _audit(new_db)
    assert code == 1
    assert "rm_toi_player_shifts" in out


def _shifts_as_rows(path: Path, edit: str = "") -> None:
    """Today's database put back in the layout before issue 35: rm_toi_shifts a table of
    the view's rows (``edit``: then changed), rm_toi_player_shifts gone."""
    _sql(path, "CREATE TABLE shifts_kept AS SELECT * FROM rm_toi_shifts",
         "DROP VIEW rm_toi_shifts", "DROP TABLE rm_toi_player_shifts",
         "CREATE TABLE rm_toi_shifts (game_id TEXT, team TEXT, player TEXT, shift INTEGER,"
         " period INTEGER, start INTEGER, [end] INTEGER, duration INTEGER, charge FLOAT,"
         " PRIMARY KEY (game_id, team, player, shift)) WITHOUT ROWID",
         "INSERT INTO rm_toi_shifts SELECT * FROM shifts_kept", "DROP TABLE shifts_kept",
         *([edit] if edit else []))


def test_shifts_a_row_in_the_older_layout_audit_clean(new_db: Path) -> None:
    _shifts_as_rows(new_db)
    assert _sql(new_db, "SELECT count(*) FROM rm_toi_shifts")[0][0] > 100
    code, out = _audit(new_db)
    assert code == 0, out


def test_an_edited_shift_in_the_older_layout_fails_the_audit(new_db: Path) -> None:
    _shifts_as_rows(new_db, "UPDATE rm_toi_shifts SET duration = duration + 60 "
                            "WHERE game_id = 'g14' AND shift = 2")
    code, out = _audit(new_db)
    assert code == 1
    assert "rm_toi_shifts: " in out


def test_a_shifts_table_beside_todays_is_a_finding(new_db: Path) -> None:
    """Both layouts at once (the view replaced by a table of other rows) is neither."""
    _sql(new_db, "CREATE TABLE shifts_kept AS SELECT * FROM rm_toi_shifts",
         "DROP VIEW rm_toi_shifts",
         "CREATE TABLE rm_toi_shifts AS SELECT * FROM shifts_kept WHERE shift = 1")
    code, out = _audit(new_db)
    assert code == 1
    assert "rm_toi_shifts: columns game_id, team, player, shift" in out


def test_an_old_database_opened_for_writing_keeps_its_shifts_as_a_view(old_db: Path) -> None:
    """`projections update` on a file an older rinklog wrote: its shifts table becomes
    today's packed rows, and the view of the same name gives back the very rows the old
    table held."""
    before = _sql(old_db, "SELECT * FROM rm_toi_shifts ORDER BY 1, 2, 3, 4")
    assert len(before) > 100
    assert run_cli(["projections", "update", "--db", str(old_db)])[0] == 0
    assert _sql(old_db, "SELECT type FROM sqlite_master WHERE name = 'rm_toi_shifts'") == [
        ("view",)]
    assert _sql(old_db, "SELECT * FROM rm_toi_shifts ORDER BY 1, 2, 3, 4") == before
    code, out = _audit(old_db)
    assert code == 0, out


def test_a_column_added_is_a_finding(new_db: Path) -> None:
    _sql(new_db, "ALTER TABLE rm_player_stats ADD COLUMN note TEXT")
    code, out = _audit(new_db)
    assert code == 1
    assert "rm_player_stats" in out and "note" in out


def test_todays_rows_in_the_older_layout_are_held_to_the_older_fold(new_db: Path) -> None:
    """Today's rows with the four columns dropped are an older layout's table, but not its
    rows: game 14's penalized goalies have no skater row of GP 0 there."""
    _sql(new_db, *(f"ALTER TABLE rm_goalie_stats DROP COLUMN {c}" for c in SCORING))
    code, out = _audit(new_db)
    assert code == 1
    assert "rm_player_stats" in out


def test_a_missing_table_is_a_finding(new_db: Path) -> None:
    _sql(new_db, "DROP TABLE rm_team_stats")
    code, out = _audit(new_db)
    assert code == 1
    assert "rm_team_stats: columns (none: no such table)" in out


def test_a_goalie_never_in_net_had_no_goalie_line_before_issue_34() -> None:
    """Before issue 34 the goalie lines were the scoresheet's goalies only (finish_game_stats
    at that commit); a dressed goalie never in net who took a penalty had only his skater
    row of GP 0. No seeded game in the fixture has one: this holds the inverse to it."""
    from projections.layouts import goalies_as_skaters
    from projections.models.stats import GOALIE_COUNTS, SKATER_COUNTS, GameStats

    st = GameStats()
    backup = dict.fromkeys(SKATER_COUNTS, 0) | {"pim": 10}
    st.moved_to_goalie_lines[("QUE", "backup")] = (backup, True)
    today = {"rm_player_stats": [],
             "rm_goalie_stats": [{"game_id": "x", "team": "QUE", "player": "backup",
                                  **dict.fromkeys(GOALIE_COUNTS, 0), "pim": 10,
                                  "games_in_net": None}],
             "rm_team_stats": []}
    old = goalies_as_skaters(today, st, "x")
    assert old["rm_goalie_stats"] == []
    assert old["rm_player_stats"] == [{"game_id": "x", "team": "QUE", "player": "backup",
                                       **backup}]
