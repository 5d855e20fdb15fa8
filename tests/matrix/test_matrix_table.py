"""Matrix Hockey: what is checked where it is entered (``matrix picks``: the [referee]
table, cup picks, who still owes picks; ``matrix play``: who sent none) and the
referee's table of 2.2 (one X per game, the KDH shootout X)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.matrix.context import Referee
from engine.matrix.dice import SeededDie
from engine.matrix.games import Fixture, play_game
from engine.matrix.goals import Entry
from engine.matrix.state import evolve
from events.matrix import DieRolled, RefereeCupDrawsEntered, RefereeDrawsEntered
from tests.matrix.matrix_helpers import WEEK1, new_season, run


def _open(capsys, tmp_path: Path, league: str = "example") -> tuple[list[str], str]:
    db = ["--db", str(tmp_path / "l.db")]
    code, out, _ = run(capsys, "matrix", "open", "--league", league, "--seed", "t", *db)
    assert code == 0
    return db, out.strip()


def _picks(capsys, tmp_path: Path, db: list[str], season: str, week: int, text: str
           ) -> tuple[int, str, str]:
    f = tmp_path / f"week{week}.toml"
    f.write_text(text, encoding="utf-8")
    return run(capsys, "matrix", "picks", season, str(f), "--week", str(week), *db)


def _team(capsys, db: list[str], season: str, division: str, number: int) -> str:
    _, out, _ = run(capsys, "matrix", "teams", season, "--json", *db)
    return next(t["team"] for t in json.loads(out) if t["division"] == division
                and t["number"] == number)


def _refused(result: tuple[int, str, str], *words: str) -> None:
    code, _, err = result
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, err


# --- 3.1.3: an ONR team's random pick is among the columns it has left -------------------

def test_3_1_3_a_table_onr_column_already_used_is_refused_at_picks(capsys, tmp_path) -> None:
    db, season = _open(capsys, tmp_path)
    assert run(capsys, "matrix", "picks", season, str(WEEK1), "--week", "1", *db)[0] == 0
    assert run(capsys, "matrix", "play", season, "--week", "1", *db)[0] == 0
    # week 1: the Cybérians (ONR) were given F at the table
    _refused(_picks(capsys, tmp_path, db, season, 2,
                    '[referee]\nonr = { cyberians = { column = "F" } }\n'),
             "week2.toml", "onr cyberians", "column F is already used")
    _refused(_picks(capsys, tmp_path, db, season, 2,
                    '[referee]\nonr = { cyberians = { extra_time = "X" } }\n'),
             "onr cyberians", "extra_time 'X'")  # 3.1.2: X once
    _refused(_picks(capsys, tmp_path, db, season, 2,
                    '[snowmen]\ncolumn = "A"\nextra_time = 1\n'
                    '[referee]\nonr = { snowmen = { column = "B" } }\n'),
             "onr snowmen", "not ONR")
    assert _picks(capsys, tmp_path, db, season, 2,
                  '[referee]\nonr = { cyberians = { column = "G", extra_time = 1 } }\n'
                  )[0] == 0


# --- 2.1.4, 3.1.3: the bonus goal goes to a team of the division that sent picks -----------

def test_2_1_4_a_table_bonus_for_an_onr_team_is_refused_at_picks(capsys, tmp_path) -> None:
    db, season = _open(capsys, tmp_path)
    _refused(_picks(capsys, tmp_path, db, season, 1, '[groggs]\ncolumn = "B"\nextra_time = 1\n'
                    '[referee]\nbonus = { elite = "snowmen" }\n'),
             "bonus elite", "snowmen sent no picks", "3.1.3")
    # sent in the same file, or before, the bonus may be typed
    assert _picks(capsys, tmp_path, db, season, 1, '[snowmen]\ncolumn = "I"\nextra_time = 3\n'
                  '[referee]\nbonus = { elite = "snowmen" }\n')[0] == 0
    assert _picks(capsys, tmp_path, db, season, 1, '[referee]\nbonus = { elite = "snowmen" }\n'
                  )[0] == 0


def test_2_1_4_a_table_bonus_for_another_division_s_team_is_refused(capsys, tmp_path) -> None:
    db, season = _open(capsys, tmp_path, "demo")
    other = _team(capsys, db, season, "d2a", 1)
    _refused(_picks(capsys, tmp_path, db, season, 1,
                    f'[{other}]\ncolumn = "A"\nextra_time = 1\n'
                    f'[referee]\nbonus = {{ elite = "{other}" }}\n'),
             "bonus elite", f"{other} plays in d2a")


# --- the calendar: cup picks only for a week with a cup round -----------------------------

def test_cup_picks_for_a_week_without_a_cup_round_are_refused(capsys, tmp_path) -> None:
    db, season = _open(capsys, tmp_path, "demo")
    team = _team(capsys, db, season, "d3a", 5)
    # the calendar (substitute): KDH rounds in weeks 1-7, WG rounds in weeks 1-8
    _refused(_picks(capsys, tmp_path, db, season, 9,
                    f'[[{team}]]\ncompetition = "kdh"\ncolumn = "A"\nextra_time = 1\n'),
             "week 9", team, "no kdh round is played in week 9")
    _refused(_picks(capsys, tmp_path, db, season, 9,
                    f'[[{team}]]\ncompetition = "wg"\ncolumn = "A"\nextra_time = 1\n'),
             "no wg round is played in week 9")
    # sent in advance for a week with a round (the draw is not made yet): accepted
    assert _picks(capsys, tmp_path, db, season, 3,
                  f'[[{team}]]\ncompetition = "kdh"\ncolumn = "A"\nextra_time = 1\n')[0] == 0


# --- 4 (a typical week): who still owes picks; who sent none --------------------------------

def test_a_championship_only_file_while_the_cups_are_on_names_who_owes_picks(capsys,
                                                                             tmp_path) -> None:
    db, season = _open(capsys, tmp_path, "demo")
    wg_team = json.loads(run(capsys, "matrix", "cups", season, "--json", *db)[1]
                         )["wg"]["groups"][0][0]
    code, out, err = _picks(capsys, tmp_path, db, season, 1,
                            f'[{wg_team}]\ncolumn = "A"\nextra_time = 1\n')
    assert code == 0 and "picks of 1 team recorded" in out
    assert err.count("\n") == 1 and err.startswith("rinklog: warning:")
    assert "still owes picks" in err and "wg: " in err and "kdh: " in err
    assert wg_team in err.split("wg: ")[1]  # it owes its WG picks
    # a file with its cup picks too: no warning
    code, _, err = _picks(capsys, tmp_path, db, season, 1,
                          f'[[{wg_team}]]\ncolumn = "A"\nextra_time = 1\n'
                          f'[[{wg_team}]]\ncompetition = "wg"\ncolumn = "B"\nextra_time = 1\n')
    assert code == 0 and err == ""


def test_play_lists_the_teams_that_sent_no_picks(capsys, tmp_path) -> None:
    db, season = _open(capsys, tmp_path)
    assert run(capsys, "matrix", "picks", season, str(WEEK1), "--week", "1", *db)[0] == 0
    code, out, _ = run(capsys, "matrix", "play", season, "--week", "1", *db)
    assert code == 0
    assert out.splitlines()[-1] == "  no picks (ONR, 3.1.3) in the championship: cyberians"



# --- 4 (a typical week): a pick already played is told when sent and when replaced ----------

RULE_4 = ("If an already played pick has been sent, a roll of a die will determine which "
          "remaining one will be used. No penalty will be enforced but this pick will modify "
          "the value of the column.")


def test_4_a_column_already_played_is_warned_at_picks_and_listed_at_play(capsys,
                                                                        tmp_path) -> None:
    db, season = _open(capsys, tmp_path)
    assert run(capsys, "matrix", "picks", season, str(WEEK1), "--week", "1", *db)[0] == 0
    assert run(capsys, "matrix", "play", season, "--week", "1", *db)[0] == 0
    # week 1 (the worked week's file): the Sleigh Dogs played column F
    code, out, err = _picks(capsys, tmp_path, db, season, 2,
                            '[sleigh-dogs]\ncolumn = "F"\nextra_time = "1"\n')
    assert code == 0 and "picks of 1 team recorded" in out  # one team: no "1 teams"
    assert err.count("\n") == 1 and err.startswith("rinklog: warning:"), err
    for words in ("week2.toml", "sleigh-dogs", "column F", "already played", "(4)", "die",
                  "no penalty"):
        assert words in err, err
    # sent in advance for week 3 too: the same column in two weeks not played yet
    code, _, err = _picks(capsys, tmp_path, db, season, 3,
                          '[snowmen]\ncolumn = "A"\nextra_time = "1"\n')
    assert code == 0 and err == ""
    code, _, err = _picks(capsys, tmp_path, db, season, 4,
                          '[snowmen]\ncolumn = "A"\nextra_time = "1"\n')
    assert code == 0 and "snowmen" in err and "column A" in err and "week 3" in err, err
    code, out, _ = run(capsys, "matrix", "play", season, "--week", "2", *db)
    assert code == 0
    replaced = [line for line in out.splitlines() if "sleigh-dogs" in line and "(4)" in line]
    assert len(replaced) == 1, out
    # the die's column, read back from the stream's PickReplaced event
    _, events, _ = run(capsys, "events", season, "--json", *db)
    picked = [e for e in map(json.loads, events.splitlines())
              if e["type"] == "matrix.PickReplaced"
              and e.get("team") == "sleigh-dogs"]
    assert len(picked) == 1 and picked[0]["column"] != "F"
    assert f"column F replaced by {picked[0]['column']}" in replaced[0], replaced[0]
    # the team that sent a fresh column is not listed
    assert not [line for line in out.splitlines() if "replaced by" in line
                and "sleigh-dogs" not in line], out


# --- 2.2: one X per game, and the shootout X, typed at the table ----------------------------

def _tied(ref: Referee, competition: str, round_: int, stage: str, a: str, b: str,
          plays: dict[str, list[str]], a_value: str = "X", b_value: str = "1",
          a_shootout: str = "", b_shootout: str = ""):
    home = Entry(a, "x", "A", a_value, shootout=a_shootout)
    away = Entry(b, "y", "A", b_value, shootout=b_shootout)
    play_game(ref, Fixture(competition, 1, round_, stage, a, b), home, away, [home, away], "",
              {}, plays)
    game = ref.events[-1]
    typed = [e for e in ref.events if isinstance(e, DieRolled) and not e.seeded]
    return game, typed


def test_2_2_the_table_types_one_x_per_game() -> None:
    state = new_season("demo")
    a, b, c = state.created.wg_teams[:3]
    plays = {a: ["championship", "wg"], b: ["championship"], c: ["wg"]}
    evolve(state, RefereeDrawsEntered(1, {}, {}, {a: 3}))  # the championship game's X
    evolve(state, RefereeCupDrawsEntered(1, {"wg": {a: 0}}, {}))  # the WG game's X
    ref = Referee(state, SeededDie("t", state.season_id))
    game, typed = _tied(ref, "championship", 1, "", a, b, plays)
    assert (game.home.extra_time_value, game.winner, game.decided) == (3, a, "AP")
    game, typed = _tied(ref, "wg", 1, "group A", a, c, plays)
    assert (game.home.extra_time_value, game.winner, game.decided) == (0, c, "AP")
    assert [(d.value, d.purpose) for d in typed] == [("3", f"X for {a}"), ("0", f"X for {a}")]


def test_2_2_the_table_types_the_kdh_shootout_x() -> None:
    state = new_season("demo")
    a, b = state.divisions[-1].teams[:2]
    evolve(state, RefereeDrawsEntered(1, {}, {}, {}))
    evolve(state, RefereeCupDrawsEntered(1, {}, {a: 5}))
    ref = Referee(state, SeededDie("t", state.season_id))
    game, typed = _tied(ref, "kdh", 1, "qualifying", a, b, {a: ["kdh"], b: ["kdh"]}, "1", "1",
                        "X", "4")
    assert (game.home.shootout_value, game.away.shootout_value) == (5, 4)
    assert (game.winner, game.decided) == (a, "SO")
    assert [(d.value, d.faces) for d in typed] == [("5", 6)]  # 2.2: X = 0-5


@pytest.mark.parametrize(("text", "words"), [
    ("[referee]\nx_kdh = { snowmen = 1 }\n", "x_kdh snowmen: no kdh game that week"),
    ("[referee]\nshootout = { snowmen = 1 }\n", "shootout snowmen: no KDH game"),
    ("[referee]\nshootout = { snowmen = 6 }\n", "[referee]"),
    ("[referee]\nx_wg = { nobody = 1 }\n", "x_wg nobody: no such team"),
])
def test_2_2_table_cup_draws_errors_are_one_line(capsys, tmp_path, text, words) -> None:
    db, season = _open(capsys, tmp_path)
    _refused(_picks(capsys, tmp_path, db, season, 1, text), words)


def test_2_2_cup_draws_typed_at_the_table_pass_the_audit(capsys, tmp_path) -> None:
    db, season = _open(capsys, tmp_path, "demo")
    cups = json.loads(run(capsys, "matrix", "cups", season, "--json", *db)[1])
    home, away = cups["kdh"][0]["games"][0]
    assert _picks(capsys, tmp_path, db, season, 1,
                  f'[referee]\nx_kdh = {{ {home} = 2 }}\nshootout = {{ {away} = 1 }}\n')[0] == 0
    _, out, _ = run(capsys, "events", season, "--json", *db)
    cup = [e for e in map(json.loads, out.splitlines())
           if e["type"] == "matrix.RefereeCupDrawsEntered"]
    assert [(c["x"], c["shootout"]) for c in cup] == [({"kdh": {home: 2}}, {away: 1})]
    assert run(capsys, "matrix", "play", season, "--week", "1", *db)[0] == 0
    code, out, _ = run(capsys, "audit", season, *db)
    assert code == 0, out
