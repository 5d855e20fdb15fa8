"""Loading teams and the chart pack: shipped fixtures load, bad files fail on one line."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
import tomli_w

from engine.bones.codes import GoalieCell, SkaterCell, parse_goalie_cell, parse_skater_cell
from events.errors import CardError, UnknownTeam
from replay.data.reading import FIXTURES
from replay.leagues.validate import validate_path
from replay.systems.bones import cardgen
from replay.systems.bones.library import (
    default_charts,
    find_team,
    list_teams,
    load_charts,
    load_team,
)

TEAMS = FIXTURES / "bones" / "teams"
CHARTS = FIXTURES / "bones" / "charts" / "standard.toml"
WHITE = cardgen.WHITE


@pytest.fixture(scope="module")
def team_data() -> dict[str, Any]:
    return tomllib.loads((TEAMS / "hfx.toml").read_text())


def _write(tmp_path: Path, data: dict[str, Any], name: str = "bad.toml") -> Path:
    path = tmp_path / name
    path.write_text(tomli_w.dumps(data))
    return path


# --- shipped fixtures -------------------------------------------------------------------

def test_every_shipped_file_validates() -> None:
    assert validate_path(FIXTURES) == []


def test_shipped_teams() -> None:
    teams = list_teams()
    assert len(teams) >= 2
    assert [t.id for t in teams] == sorted(t.id for t in teams)
    for team in teams:
        assert len(team.skaters) == 18 and len(team.goalies) == 2
        assert sum(s.is_defenseman for s in team.skaters) == 6
        assert (TEAMS / f"{team.id.lower()}.toml").is_file()


def test_every_cell_of_every_card_parses() -> None:
    # parse_*_cell raise ValueError on a cell that is not a code (8.10, 11.10)
    skaters = [parse_skater_cell(cell) for team in list_teams() for skater in team.skaters
               for column in skater.action for cell in column]
    goalies = [parse_goalie_cell(cell) for team in list_teams() for goalie in team.goalies
               for column in goalie.action for cell in column]
    assert skaters and all(isinstance(cell, SkaterCell) for cell in skaters)
    assert goalies and all(isinstance(cell, GoalieCell) for cell in goalies)


def test_find_team() -> None:
    assert find_team("HFX").name == "Halifax Harbourmen"
    assert find_team("hfx").id == "HFX"
    with pytest.raises(UnknownTeam) as err:
        find_team("BOS")
    assert "'BOS'" in str(err.value) and "HFX" in str(err.value) and "QUE" in str(err.value)


def test_env_var_points_at_another_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        team_data: dict[str, Any]) -> None:
    folder = tmp_path / "bones" / "teams"
    folder.mkdir(parents=True)
    data = copy.deepcopy(team_data)
    data["id"], data["name"] = "MYT", "My Team"
    _write(folder, data, "myt.toml")
    monkeypatch.setenv("RINKLOG_FIXTURES", str(tmp_path))
    assert [t.id for t in list_teams()] == ["MYT"]
    assert find_team("MYT").name == "My Team"
    with pytest.raises(UnknownTeam, match="teams: MYT"):
        find_team("HFX")
    assert default_charts() == load_charts(CHARTS)  # no pack there: the shipped one


def test_chart_pack() -> None:
    charts = default_charts()
    assert set(charts.substitute) == {"faceoffs", "team_defense", "clearing", "assists",
                                      "retaliation", "exact_time", "special_occurrences"}
    # transcribed tables (5.00, 10.70, 18.10, 21.00)
    assert charts.blocked_shots == [[3], [3, 11], [2, 3, 11], [3, 9], [3, 8]]
    assert charts.bench_penalty[0][1] == "4:00" and charts.bench_penalty[1][2] == "2:00"
    assert charts.injuries[0] == ["P", "-2", "-2", "-1", "-1", "-1", "-1", "-2", "-2", "-2", "P"]
    assert charts.injuries[5][3] == "P"
    assert charts.shootout[0] == ["1-6(1)", "1-6(1)", "1-6(1)", "1-8(1)", "2-5(2)"]
    assert charts.shootout[10][4] == "6-8(5)"
    assert charts.faceoffs[2][5] == "LW-H"  # 7.00's example: blue 3, white 7


def test_faceoffs_are_balanced() -> None:
    sides: dict[str, float] = {}
    for column in default_charts().faceoffs:
        for white, cell in enumerate(column, start=2):
            side = cell.split("-")[1].split("/")[0]
            sides[side] = sides.get(side, 0.0) + WHITE[white] / 6
    assert sides["H"] == pytest.approx(sides["V"])


# --- bad files --------------------------------------------------------------------------

Edit = Callable[[dict[str, Any]], str]


def _bad_range(d: dict[str, Any]) -> str:
    d["skaters"][0]["n"] = "7-3"
    return "field 'n'"


def _unknown_code(d: dict[str, Any]) -> str:
    d["skaters"][2]["action"][3][4] = "Q7"
    return "field 'action[3][4]'"


def _missing_field(d: dict[str, Any]) -> str:
    del d["skaters"][1]["mc"]
    return "field 'mc'"


def _matrix_size(d: dict[str, Any]) -> str:
    d["skaters"][3]["action"][2] = d["skaters"][3]["action"][2][:10]
    return "field 'action[2]'"


def _bad_goalie_cell(d: dict[str, Any]) -> str:
    d["goalies"][1]["action"][0][0] = "8"
    return "field 'action[0][0]'"


def _goalie_range(d: dict[str, Any]) -> str:
    d["goalies"][0]["gm_range"] = "1-13"
    return "field 'gm_range'"


@pytest.mark.parametrize("edit", [_bad_range, _unknown_code, _missing_field, _matrix_size,
                                  _bad_goalie_cell, _goalie_range])
def test_bad_card_names_file_player_and_field(tmp_path: Path, team_data: dict[str, Any],
                                               edit: Edit) -> None:
    data = copy.deepcopy(team_data)
    field = edit(data)
    path = _write(tmp_path, data)
    with pytest.raises(CardError) as err:
        load_team(path)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    kind = "goalie" if "goalie" in edit.__name__ else "skater"
    player = next(p for p in data[f"{kind}s"] if f"'{p['id']}' ({p['name']})" in message)
    assert f"{kind} '{player['id']}' ({player['name']}): " in message
    assert field in message
    assert validate_path(path) == [message]


@pytest.mark.parametrize(
    ("where", "who", "expect"),
    [
        (("forwards", 1, 0), "ghost-player", "is not a skater on this team"),
        (("defense", 0, 1), None, "is not a defenseman"),  # a forward on a pair
        (("forwards", 3, 2), "again", "is named twice"),
    ],
)
def test_bad_lines(tmp_path: Path, team_data: dict[str, Any], where: tuple[str, int, int],
                   who: str | None, expect: str) -> None:
    data = copy.deepcopy(team_data)
    group, i, j = where
    if who == "again":
        who = data["lines"]["forwards"][0][0]
    elif who is None:  # drop the fourth line and pair one of its forwards
        who = data["lines"]["forwards"].pop()[0]
    data["lines"][group][i][j] = who
    path = _write(tmp_path, data)
    with pytest.raises(CardError) as err:
        load_team(path)
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"{path}: ")
    assert f"field 'lines.{group}[{i}][{j}]'" in message
    assert f"player '{who}'" in message and expect in message


def test_unknown_goalie_in_lines(tmp_path: Path, team_data: dict[str, Any]) -> None:
    data = copy.deepcopy(team_data)
    data["lines"]["goalies"][1] = "nobody"
    with pytest.raises(CardError, match=r"field 'lines.goalies\[1\]': player 'nobody'"):
        load_team(_write(tmp_path, data))


def test_duplicate_player_id(tmp_path: Path, team_data: dict[str, Any]) -> None:
    data = copy.deepcopy(team_data)
    data["skaters"][5]["id"] = data["skaters"][4]["id"]
    with pytest.raises(CardError, match=r"field 'id': '.*' is used twice"):
        load_team(_write(tmp_path, data))


def test_team_level_field(tmp_path: Path, team_data: dict[str, Any]) -> None:
    data = copy.deepcopy(team_data)
    data["bench_minor"] = "0-6"
    with pytest.raises(CardError, match=r"bad.toml: field 'bench_minor': not a dice range"):
        load_team(_write(tmp_path, data))


def test_toml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('id = "HFX"\nname = "Halifax\n[lines]\n')
    with pytest.raises(CardError) as err:
        load_team(path)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: line 2: TOML syntax error")
    assert validate_path(path) == [message]


def test_bad_chart_pack(tmp_path: Path) -> None:
    data = tomllib.loads(CHARTS.read_text())
    data["faceoffs"][4][6] = "G-H"
    path = _write(tmp_path, data, "charts.toml")
    with pytest.raises(CardError, match=r"charts.toml: field 'faceoffs\[4\]\[6\]'"):
        load_charts(path)
    data = tomllib.loads(CHARTS.read_text())
    data["special_occurrences"][0][0] = 99
    with pytest.raises(CardError, match=r"special_occurrences\[0\]\[0\]'.*99"):
        load_charts(_write(tmp_path, data, "charts.toml"))


def test_validate_folder_reports_one_line_per_bad_file(tmp_path: Path,
                                                      team_data: dict[str, Any]) -> None:
    _write(tmp_path, team_data, "good.toml")
    _write(tmp_path, tomllib.loads(CHARTS.read_text()), "charts.toml")
    bad = copy.deepcopy(team_data)
    bad["skaters"][0]["action"][0][0] = "Q7"
    _write(tmp_path, bad, "bad.toml")
    (tmp_path / "junk.toml").write_text("x = 1\n")
    errors = validate_path(tmp_path)
    assert len(errors) == 2
    assert errors[0].startswith(f"{tmp_path / 'bad.toml'}: skater ")
    assert errors[1].startswith(f"{tmp_path / 'junk.toml'}: neither a team")


# --- the generator ----------------------------------------------------------------------

def test_generator_is_deterministic_and_validates(tmp_path: Path) -> None:
    one = cardgen.team_to_toml(cardgen.generate_team("TST", "Testville Tests", "seed-1"))
    two = cardgen.team_to_toml(cardgen.generate_team("TST", "Testville Tests", "seed-1"))
    other = cardgen.team_to_toml(cardgen.generate_team("TST", "Testville Tests", "seed-2"))
    assert one == two and one != other
    path = tmp_path / "tst.toml"
    path.write_text(one)
    team = load_team(path)
    assert team.id == "TST" and len(team.skaters) == 18


def test_generated_roster_shape() -> None:
    team = cardgen.generate_team("GEN", "Generated", "shape", strength=0.5)
    forwards = [s for s in team.skaters if not s.is_defenseman]
    assert sorted(s.positions[0] for s in forwards) == ["C"] * 4 + ["LW"] * 4 + ["RW"] * 4
    assert len({s.id for s in team.skaters} | {g.id for g in team.goalies}) == 20
    assert 2 <= sum(s.ace_pk for s in team.skaters) <= 4
    by_id = {s.id: s for s in team.skaters}
    top = sum(by_id[i].shift for i in team.lines.forwards[0])
    assert top > sum(by_id[i].shift for i in team.lines.forwards[3])
    shares = cardgen.summarize(team)
    assert 0.40 < shares["F numeric"] < 0.52 and 0.25 < shares["F pass"] < 0.38
    assert 7 < shares["F mean numeric"] < 9.5 and 5 < shares["D mean numeric"] < 7.5


def test_fo_10_70_generated_defensemen_carry_blocked_shot_ratings() -> None:
    """FaceOff 10.70 counts "the Blocked Shot ratings ... of the players playing in the LD
    and RD positions", so the rating belongs on defensemen's cards, and "0 Bs" among its
    cases means not every defenseman has one; Hockey Bones 10.70 puts B on "some forwards"
    too. A generated shutdown defenseman (defense 4-5) has it, the others by chance."""
    teams = [cardgen.generate_team(t, t, "blocks") for t in ("AAA", "BBB", "CCC", "DDD")]
    d = [s for t in teams for s in t.skaters if s.is_defenseman]
    assert all(s.blocker for s in d if s.defense >= 4)
    assert 0.6 <= sum(s.blocker for s in d) / len(d) < 1  # most, not all
    forwards = [s for t in teams for s in t.skaters if not s.is_defenseman]
    assert 0 < sum(s.blocker for s in forwards) < len(forwards)  # "some forwards"


def test_blocked_shot_ratings_move_no_other_draw() -> None:
    """The defensemen's B comes from a stream of its own: taking it off again gives the
    team as the generator drew it before the ratings were added, field for field."""
    team = cardgen.generate_team("GEN", "Generated", "shape", strength=0.2)
    rated = cardgen.blocked_shot_ratings(team, "shape")
    assert rated == team  # the generator's output already carries exactly these
    bare = msgspec.structs.replace(team, skaters=[
        msgspec.structs.replace(s, blocker=False) if s.is_defenseman else s
        for s in team.skaters])
    again = cardgen.blocked_shot_ratings(bare, "shape")
    assert again == team
    changed = {(a.id, f) for a, b in zip(bare.skaters, again.skaters, strict=True)
               for f in a.__struct_fields__ if getattr(a, f) != getattr(b, f)}
    assert changed and {f for _, f in changed} == {"blocker"}
    assert {pid for pid, _ in changed} <= {s.id for s in team.skaters if s.is_defenseman}


def test_goalie_penalty_cells_move_no_other_draw() -> None:
    """11.10 X: a goalie's penalty cells are drawn one of four (``Tuning.goalie_x``); other
    four leave every other cell and field of every card as it was."""
    base = cardgen.generate_team("GEN", "Generated", "goalies")
    saves = cardgen.generate_team("GEN", "Generated", "goalies",
                                  tune=cardgen.Tuning(goalie_x=("F", "F", "F", "F")))
    assert saves.skaters == base.skaters and saves.lines == base.lines
    assert (saves.bench_minor, saves.game_misconduct) == (base.bench_minor,
                                                          base.game_misconduct)
    for a, b in zip(base.goalies, saves.goalies, strict=True):
        cells = [(x, y) for ca, cb in zip(a.action, b.action, strict=True)
                 for x, y in zip(ca, cb, strict=True)]
        assert {(x, y) for x, y in cells if x != y} == {(x, "F") for x, _ in cells
                                                        if x.startswith("X")}
        assert msgspec.structs.replace(a, action=b.action) == b


def test_demo_goalies_are_rarely_penalized() -> None:
    """11.10: X is "goalie is assessed a penalty", Xn only when the red die is n or less.
    Over the demo league's goalie cards a read is a penalty about 0.02 x 1/2 x 1/6 of the
    time (X1 in half the penalty cells, F in the rest), against 1.25% with the default
    cells (X, X2, X3, X4): NHL goalies take a few minutes a season."""
    from replay.leagues.league import load_league

    def chance(cell: str) -> float:
        if cell == "X":
            return 1.0
        return int(cell[1]) / 6 if cell[:1] == "X" and cell[1:].isdigit() else 0.0

    def per_read(goalie) -> float:
        cells = (c for col in goalie.action for c in col)
        return sum(w * chance(c) for w, c in zip(cardgen.CELL_WEIGHTS, cells, strict=True))

    demo = [g for t in load_league("demo").teams.values() for g in t.goalies]
    assert sum(map(per_read, demo)) / len(demo) < 0.003
    default = cardgen.generate_team("GEN", "Generated", "goalies").goalies
    assert sum(map(per_read, default)) / len(default) > 0.008


@pytest.mark.parametrize("team_id", ["HFX", "QUE", "SAS", "WPG"])
def test_bundled_teams_carry_the_generators_blocked_shot_ratings(team_id: str) -> None:
    """The bundled teams (seed 'rinklog') hold their defensemen's B as the generator
    gives it; FaceOff 10.70 finds B on a blue line of each."""
    team = load_team(TEAMS / f"{team_id.lower()}.toml")
    assert cardgen.blocked_shot_ratings(team, "rinklog") == team
    by_id = {s.id: s for s in team.skaters}
    assert any(by_id[ld].blocker or by_id[rd].blocker for ld, rd in team.lines.defense)


def test_cardgen_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cardgen.main([str(tmp_path), "abc:Alphabet City:0.4", "--seed", "x"]) == 0
    assert "wrote" in capsys.readouterr().out
    team = load_team(tmp_path / "abc.toml")
    assert (team.id, team.name) == ("ABC", "Alphabet City")
    assert validate_path(tmp_path) == []
