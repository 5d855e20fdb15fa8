"""Calibration (replay/calibrate.py) and ``rinklog calibrate``."""

from __future__ import annotations

import json
import math

import pytest

from replay.calibrate import NHL_2023_24, NHL_SEASON, calibrate
from replay.cli import main


@pytest.fixture(scope="module")
def table():
    return calibrate("demo", 20, seed=3)


def test_small_run_has_every_row(table) -> None:
    assert table.games == 20 and table.league == "demo"
    keys = [r.key for r in table.rows]
    assert set(NHL_2023_24) <= set(keys)
    for row in table.rows:
        assert math.isfinite(row.ours), row
    assert 1 < table.row("goals").ours < 8
    assert 80 < table.row("save_pct").ours < 100


def test_reference_table_present() -> None:
    assert "2023-24" in NHL_SEASON
    for key in ("goals", "shots", "shooting_pct", "save_pct", "pp_opportunities", "pp_pct",
                "pim", "blocked", "overtime_pct", "shootout_pct"):
        label, value, tolerance, mode = NHL_2023_24[key]
        assert value > 0 and tolerance > 0 and mode in ("rel", "abs") and label


def test_deterministic() -> None:
    assert calibrate("demo", 4, seed=5).to_json() == calibrate("demo", 4, seed=5).to_json()


def test_cli_calibrate_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "--league", "demo", "--games", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 4 and data["team_games"] == 8
    assert {r["key"] for r in data["rows"]} >= set(NHL_2023_24)


def test_cli_calibrate_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "--league", "nowhere", "--games", "4"]) == 1
    assert "no bundled league" in capsys.readouterr().err
    assert main(["calibrate", "--games", "0"]) == 1
    assert "at least 1" in capsys.readouterr().err
