"""--csv: every table a command shows, as CSV a spreadsheet opens, with the same rows and
values as its --json."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from replay.cli.app import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def rows_of(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.fixture(scope="module")
def season_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("csv") / "season.db")
    assert main(["season", "--games", "3", "--workers", "1", "--db", db]) == 0
    assert main(["sim", "--home", "HFX", "--away", "QUE", "--seed", "csv", "--db", db]) == 0
    return db


def test_games_csv_has_the_json_rows_with_nested_fields_as_columns(capsys, season_db) -> None:
    as_json = json.loads(run(capsys, "games", "--json", "--db", season_db))
    table = rows_of(run(capsys, "games", "--csv", "--db", season_db))
    assert [r["game_id"] for r in table] == [r["game_id"] for r in as_json]
    first = next(r for r in as_json if r.get("score"))
    row = next(r for r in table if r["game_id"] == first["game_id"])
    assert row["score.home"] == str(first["score"]["home"])
    assert row["events"] == str(first["events"])


@pytest.mark.parametrize(("command", "key"), [("toi", "players"), ("penalties", "penalties")])
def test_game_tables_as_csv(capsys, season_db, command: str, key: str) -> None:
    game = "HFX-QUE-csv"
    as_json = json.loads(run(capsys, command, game, "--json", "--db", season_db))[key]
    table = rows_of(run(capsys, command, game, "--csv", "--db", season_db))
    assert len(table) == len(as_json) > 0
    for want, got in zip(as_json, table, strict=True):
        assert got["game_id"] == game
        for field, value in want.items():
            if not isinstance(value, (dict, list)):
                assert got[field] == ("" if value is None else str(value)), field


def test_stats_csv_has_skaters_then_goalies(capsys, season_db) -> None:
    as_json = json.loads(run(capsys, "stats", "--all", "--json", "--db", season_db))
    table = rows_of(run(capsys, "stats", "--all", "--csv", "--db", season_db))
    assert len(table) == len(as_json["skaters"]) + len(as_json["goalies"])
    assert {r["role"] for r in table} == {"skater", "goalie"}
    goals = sum(int(r["g"]) for r in table if r["role"] == "skater")
    assert goals == sum(s["g"] for s in as_json["skaters"])


def test_standings_and_leaders_csv(capsys, season_db) -> None:
    as_json = json.loads(run(capsys, "standings", "--json", "--db", season_db))
    table = rows_of(run(capsys, "standings", "--csv", "--db", season_db))
    assert [r["team"] for r in table] == [r["team"] for r in as_json]
    assert [int(r["rank"]) for r in table] == list(range(1, len(table) + 1))
    boards = json.loads(run(capsys, "leaders", "--json", "--db", season_db))
    table = rows_of(run(capsys, "leaders", "--csv", "--db", season_db))
    assert len(table) == sum(len(rows) for rows in boards.values())
    assert {r["board"] for r in table} == {title for title, rows in boards.items() if rows}


def test_matrix_results_and_standings_csv(capsys, tmp_path: Path) -> None:
    db = str(tmp_path / "matrix.db")
    season = run(capsys, "matrix", "open", "--league", "demo", "--seed", "csv", "--db", db).strip()
    run(capsys, "matrix", "demo", season, "--no-close", "--db", db)
    for command in ("results", "standings"):
        as_json = json.loads(run(capsys, "matrix", command, season, "--json", "--db", db))
        table = rows_of(run(capsys, "matrix", command, season, "--csv", "--db", db))
        assert len(table) == len(as_json) > 0
        assert set(table[0]) >= {k for k, v in as_json[0].items() if not isinstance(v, dict)}


def test_json_and_csv_together_is_one_line_error(capsys, season_db) -> None:
    assert main(["games", "--json", "--csv", "--db", season_db]) == 1
    err = capsys.readouterr().err
    assert err.strip() == "rinklog: error: give --json or --csv, not both"
