"""Calibration (replay/leagues/calibrate.py) and ``rinklog calibrate``."""

from __future__ import annotations

import json
import math

import pytest

from replay.cli.app import main
from replay.leagues.calibrate import NHL_2023_24, NHL_SEASON, calibrate
from replay.systems.bones.calibration import block_figures


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
                "pim", "overtime_pct", "shootout_pct"):
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


def test_blocked_shots_are_not_an_nhl_band(table) -> None:
    """10.70 as transcribed caps blocks near 9% of shots: that is the game, so blocks
    stand beside the table's own expectation, not the NHL's figure."""
    assert "blocked" not in NHL_2023_24
    assert table.row("blocked").nhl is None and table.row("blocked_implied").nhl is None
    assert table.all_within == all(r.within for r in table.rows if r.nhl is not None)


def test_block_figures_sum_the_table_chances_of_the_shots_checked() -> None:
    from engine.bones.shots import block_chance
    from events.bones import ShotTaken
    from replay.systems.bones.library import default_charts

    charts = default_charts()

    def shot(blockers: int, block: str) -> ShotTaken:
        return ShotTaken(side="home", shooter="x", kind="normal", range_name="N", range="2-7",
                         in_range=False, blockers=blockers, block=block, roll=1, rule="10.70")

    events = [shot(3, "blocked"), shot(2, "screened"), shot(0, ""), shot(5, "")]
    figures = block_figures(events, charts)
    chances = [float(block_chance(charts, n)) for n in (3, 2, 5)]
    assert figures["blocked"] == 1 and figures["block_checks"] == 3
    assert figures["blocked_implied"] == pytest.approx(sum(chances))
    assert figures["block_variance"] == pytest.approx(sum(p * (1 - p) for p in chances))
    assert chances[0] == pytest.approx(5 / 36 * 4 / 6)


def test_observed_blocks_agree_with_what_the_table_implies(table) -> None:
    blocks = table.blocks
    assert blocks.checked > 20 * 40  # most shots meet a blocker
    assert 0.05 < blocks.implied / blocks.checked < 0.10  # 2 or 3 blockers: 7.4%-9.3%
    assert abs(blocks.z) < 4
    team_games = 2 * table.games
    assert table.row("blocked").ours == pytest.approx(blocks.observed / team_games)
    assert table.row("blocked_implied").ours == pytest.approx(blocks.implied / team_games)


def test_cli_calibrate_json_reports_blocks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "--league", "demo", "--games", "4", "--json"]) == 0
    blocks = json.loads(capsys.readouterr().out)["blocks"]
    assert set(blocks) == {"observed", "implied", "sd", "z", "shots_checked"}
    assert blocks["shots_checked"] > 0 and blocks["implied"] > 0


def test_cli_calibrate_ruleset_faceoff2008(capsys: pytest.CaptureFixture[str]) -> None:
    """--ruleset plays the league under FaceOff 2008: no shootout (5.00), other blocks;
    the shootout row has the text's 0 and no NHL judgement, and FaceOff 10.70 blocks
    shots with the shipped cards (their defensemen carry B) as its table says."""
    assert main(["calibrate", "--league", "demo", "--games", "12", "--ruleset", "faceoff2008",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = {r["key"]: r["ours"] for r in data["rows"]}
    assert rows["shootout_pct"] == 0
    shootout = next(r for r in data["rows"] if r["key"] == "shootout_pct")
    assert shootout["nhl"] is None and shootout["within"] is None
    assert shootout["text"] == 0 and "no shootout" in shootout["note"]
    assert data["blocks"]["observed"] > 0 and abs(data["blocks"]["z"]) < 4
    bones = {r.key: r.ours for r in calibrate("demo", 12).rows}
    assert rows["goals"] != bones["goals"] or rows["shots"] != bones["shots"]
    assert main(["calibrate", "--games", "4", "--ruleset", "nope"]) == 1
    assert "unknown 'nope'" in capsys.readouterr().err


def test_blocks_without_any_blocker_on_the_ice_have_no_z() -> None:
    """FaceOff 10.70 with teams that have no B-rated defensemen: nothing can be blocked, so
    there is no z to report (and the JSON stays JSON: no NaN)."""
    import json

    from replay.leagues.calibrate import Blocks

    none = Blocks(observed=0, implied=0.0, sd=0.0, checked=0)
    assert none.z is None and json.loads(json.dumps(none.to_json()))["z"] is None
    some = Blocks(observed=12, implied=10.0, sd=2.0, checked=100)
    assert some.z == 1.0


def test_faceoff_5_00_a_tie_went_to_overtime(tmp_path) -> None:
    """FaceOff 5.00: a game tied after three periods plays a 5-minute overtime, and a tie
    stands after it: the game went to overtime, so calibrate counts it there (and not as
    a shootout). HFX-QUE seed 1 under FaceOff ends in a tie (the README's example)."""
    from setups import simulate

    from replay.games.game_streams import open_store, read_game
    from replay.leagues.calibrate import game_figures
    from replay.systems.bones.library import default_charts

    with open_store(tmp_path / "t.db") as store:
        result = simulate(store, "HFX", "QUE", seed="1", ruleset="faceoff2008")
        events = read_game(store, result.game_id)
    figures = game_figures(events, default_charts(), "bones")
    assert figures["overtime"] == 1 and figures["shootout"] == 0
    assert figures["home_regulation"] == figures["away_regulation"]


def test_bones_rows_keep_the_nhl_shootout_band(table) -> None:
    row = table.row("shootout_pct")
    assert row.nhl == 7.5 and row.within is not None and row.text is None


def test_independent_tie_is_the_chance_two_independent_scores_are_equal() -> None:
    from replay.leagues.calibrate import independent_tie

    # home scored 0 and 1 in one game each, away 1 in both: P(home 1) x P(away 1) = 1/2
    assert independent_tie({"home": {0: 1, 1: 1}, "away": {1: 2}}, 2) == 0.5
    # 0-0 in a game, 1-2 in another: home {0, 1}, away {0, 2}: only 0-0, 1/2 x 1/2
    assert independent_tie({"home": {0: 1, 1: 1}, "away": {0: 1, 2: 1}}, 2) == 0.25


def test_overtime_row_stands_beside_the_independent_tie_share(table) -> None:
    """The rules give no score effects, so the share of games to overtime is set beside
    what independent regulation scores would give (the text's level), with its sd."""
    row = table.row("overtime_pct")
    assert row.nhl == 23.0 and row.text is not None and 0 < row.text < 40
    assert row.text_sd == pytest.approx(100 * math.sqrt(row.text / 100 * (1 - row.text / 100)
                                                        / table.games))
    assert "independently" in row.note
    assert row.to_json()["text_z"] == pytest.approx(round(row.text_z, 4))


def test_goalie_minutes_are_the_minutes_charged_to_goalies(tmp_path) -> None:
    """Goalies' penalty minutes (11.10 X, 14.00) per game, a tuning aid row."""
    from setups import simulate

    from events.bones import PenaltyAssessed
    from replay.games.game_streams import open_store, read_game
    from replay.systems.bones.calibration import goalie_minutes
    from replay.systems.bones.library import find_team

    goalies = {g.id for t in ("HFX", "QUE") for g in find_team(t).goalies}
    with open_store(tmp_path / "g.db") as store:
        events = read_game(store, simulate(store, "HFX", "QUE", seed="2").game_id)
    charged = [e.minutes for e in events if isinstance(e, PenaltyAssessed)
               and e.player in goalies]
    assert charged and goalie_minutes(events) == sum(charged)


def test_goalie_minutes_row(table) -> None:
    row = table.row("goalie_pim")
    assert row.nhl is None and 0 <= row.ours < table.row("pim").ours
