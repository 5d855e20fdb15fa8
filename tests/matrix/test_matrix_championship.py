"""Matrix Hockey 3.1.1-3.1.4: the championship, and the full week 1 of 3.1.4 driven
through the ``rinklog matrix`` commands with the text's picks and draws."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from engine.matrix.state import WEEKS
from events.matrix import BonusDrawn
from tests.matrix.matrix_helpers import ROOT, WEEK1, new_season, run
from tests.matrix.matrix_season import season_events


@pytest.fixture
def week1(capsys, tmp_path: Path) -> tuple[Path, str]:
    db = tmp_path / "league.db"
    code, season, _ = run(capsys, "matrix", "open", "--league", "example", "--seed", "t",
                          "--db", str(db))
    assert code == 0
    season = season.strip()
    assert run(capsys, "matrix", "picks", season, str(WEEK1), "--week", "1",
               "--db", str(db))[0] == 0
    assert run(capsys, "matrix", "play", season, "--week", "1", "--db", str(db))[0] == 0
    return db, season


def _results(capsys, db: Path, season: str) -> dict[str, tuple]:
    code, out, _ = run(capsys, "matrix", "results", season, "--week", "1", "--json",
                       "--db", str(db))
    assert code == 0
    return {r["home"]: (r["away"], r["score"]["home"], r["score"]["away"], r["decided"])
            for r in json.loads(out)}


def test_3_1_4_the_worked_week_1_through_the_commands(capsys, week1) -> None:
    db, season = week1
    assert _results(capsys, db, season) == {
        "sleigh-dogs": ("ice-crocodiles", 3, 2, "REG"),  # printed 3-2
        # printed 1-2: the rules give the Cybérians 5 - 4 (four others on F) - 1 (the
        # ONR penalty goal) = 0 (ruling M-3.1.4a)
        "cyberians": ("grizzlies", 0, 2, "REG"),
        "snowmen": ("teddy-bears", 4, 3, "AP"),  # printed 4-3 AP: the golden goal
        "freezing-ass": ("groggs", 6, 3, "REG"),  # printed 6-3: 4 - 1 + 2 + the bonus
        "igloos": ("icebergs", 2, 2, "DRAW"),  # printed 2-2 AP: equal extra time (M-3.1.4c)
        # printed 6-7 AP, which is week 5's row (J 6, K 6); week 1's gives 3-2 (M-3.1.4b)
        "puck-pukers": ("ice-breakers", 3, 2, "REG"),
    }


def test_3_1_4_explain_names_the_row_the_column_and_the_teams_sharing_it(capsys, week1) -> None:
    db, season = week1
    code, out, _ = run(capsys, "events", season, "--json", "--db", str(db))
    seq = next(e["seq"] for e in map(json.loads, out.splitlines())
               if e["type"] == "matrix.GamePlayed" and e["home"]["team"] == "snowmen")
    code, out, _ = run(capsys, "explain", season, str(seq), "--db", str(db))
    assert code == 0
    assert "Snowmen 3: week 1 row I = 4, minus 1 for Icebergs on I" in out
    assert "golden goal" in out


def test_3_1_4_the_table_draws_are_recorded_as_typed_dice(capsys, week1) -> None:
    db, season = week1
    _, out, _ = run(capsys, "events", season, "--json", "--db", str(db))
    dice = [e for e in map(json.loads, out.splitlines()) if e["type"] == "matrix.DieRolled"]
    assert {(d["purpose"], d["value"], d["seeded"]) for d in dice} == {
        ("championship column for cyberians (onr)", "F", False),
        ("championship extra time for cyberians (onr)", "X", False),
        ("elite bonus goal", "freezing-ass", False),
    }
    code, out, _ = run(capsys, "audit", season, "--db", str(db))
    assert code == 0, out


def test_3_1_4_a_week_is_played_once(capsys, week1) -> None:
    db, season = week1
    code, _, err = run(capsys, "matrix", "play", season, "--week", "1", "--db", str(db))
    assert code == 1 and "week 1 of" in err and "already played" in err
    code, _, err = run(capsys, "matrix", "picks", season, str(WEEK1), "--week", "1",
                       "--db", str(db))
    assert code == 1 and "already played" in err


def test_3_1_1_divisions_of_twelve_each_team_meets_every_other_once() -> None:
    state = new_season("demo", "s")
    assert [(d.id, d.level, len(d.teams)) for d in state.divisions] == [
        ("elite", 1, 12), ("d2a", 2, 12), ("d2b", 2, 12), ("d3a", 3, 12), ("d3b", 3, 12),
        ("d3c", 3, 12), ("d3d", 3, 12)]
    for d in state.divisions:
        pairs = [frozenset(g) for week in range(1, WEEKS + 1) for g in state.schedule[week]
                 if g[0] in d.teams]
        assert len(pairs) == len(set(pairs)) == 66
        for week in range(1, WEEKS + 1):
            playing = [t for g in state.schedule[week] for t in g if t in d.teams]
            assert sorted(playing) == sorted(d.teams)
        # every team hosts 5 or 6 of its 11 games (none left without a home game)
        home = Counter(g[0] for week in range(1, WEEKS + 1) for g in state.schedule[week]
                       if g[0] in d.teams)
        assert sorted(home[t] for t in d.teams) == [5] * 6 + [6] * 6


def test_3_1_1_an_unknown_team_in_a_fixed_schedule_is_named(capsys, tmp_path: Path) -> None:
    text = (ROOT / "fixtures/matrix/leagues/example/league.toml").read_text(encoding="utf-8")
    bad = tmp_path / "league.toml"
    assert 'away = "ice-crocodiles"' in text
    bad.write_text(text.replace('away = "ice-crocodiles"', 'away = "ice-crocodile"', 1),
                   encoding="utf-8")
    code, _, err = run(capsys, "matrix", "open", "--league", str(bad), "--db",
                       str(tmp_path / "x.db"))
    assert code == 1 and err.count("\n") == 1
    assert "schedule: week" in err and "no team 'ice-crocodile'" in err


def test_3_1_1_a_division_that_is_not_twelve_teams_is_refused(capsys, tmp_path: Path) -> None:
    text = (ROOT / "fixtures/matrix/leagues/example/league.toml").read_text(encoding="utf-8")
    bad = tmp_path / "league.toml"
    bad.write_text(text.replace('  { id = "ice-breakers", name = "Ice Breakers", number = 12 },\n',
                                ""), encoding="utf-8")
    code, _, err = run(capsys, "matrix", "open", "--league", str(bad), "--db",
                       str(tmp_path / "x.db"))
    assert code == 1 and "twelve teams" in err and err.count("\n") == 1


def test_3_1_3_picks_sent_again_replace_the_earlier_ones(capsys, tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    season = run(capsys, "matrix", "open", "--league", "example", "--db", str(db))[1].strip()
    first = tmp_path / "a.toml"
    first.write_text('[snowmen]\ncolumn = "A"\nextra_time = 0\n', encoding="utf-8")
    again = tmp_path / "b.toml"
    again.write_text('[snowmen]\ncolumn = "I"\nextra_time = 3\n', encoding="utf-8")
    for f in (first, again):
        assert run(capsys, "matrix", "picks", season, str(f), "--week", "1", "--db", str(db))[0] == 0
    run(capsys, "matrix", "play", season, "--week", "1", "--db", str(db))
    _, out, _ = run(capsys, "matrix", "teams", season, "--json", "--db", str(db))
    snowmen = next(t for t in json.loads(out) if t["team"] == "snowmen")
    assert "I" not in snowmen["left"]["championship"]["columns"]
    assert "A" in snowmen["left"]["championship"]["columns"]
    assert snowmen["left"]["championship"]["extra_time"]["3"] == 1


@pytest.mark.parametrize(("text", "words"), [
    ('[snowmen]\ncolumn = "Z"\nextra_time = 1\n', "column 'Z'"),
    ('[snowmen]\ncolumn = "A"\nextra_time = 7\n', "extra_time '7'"),
    ('[nobody]\ncolumn = "A"\nextra_time = 1\n', "[nobody]"),
    ('[snowmen]\ncolumn = "A"\nextra_time = 1\ncompetition = "kdh"\n', "kdh"),
    ('[snowmen]\ncolumn = "A"\nextra_time = 1\nextra_goals = -1\n', "snowmen"),
    ('[snowmen]\ncolum = "A"\n', "snowmen"),
    ("[referee]\nbonus = { elite = 3 }\n", "[referee]"),
    ('[referee]\nonr = { snowmen = { column = "Q" } }\n', "column 'Q'"),
    ("[referee]\nx = { snowmen = 5 }\n", "[referee]"),
])
def test_picks_file_errors_are_one_line(capsys, tmp_path: Path, text: str, words: str) -> None:
    db = tmp_path / "l.db"
    season = run(capsys, "matrix", "open", "--league", "example", "--db", str(db))[1].strip()
    f = tmp_path / "picks.toml"
    f.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "matrix", "picks", season, str(f), "--week", "1", "--db", str(db))
    assert code == 1 and words in err and err.count("\n") == 1 and "Traceback" not in err


def test_3_1_2_weeks_are_played_in_order_the_last_two_one_after_the_other(capsys, week1) -> None:
    db, season = week1
    code, _, err = run(capsys, "matrix", "play", season, "--week", "3", "--db", str(db))
    assert code == 1 and "week 2 of" in err and "not played yet" in err
    code, _, err = run(capsys, "matrix", "play", season, "--week", "12", "--db", str(db))
    assert code == 1 and "weeks run 1-11" in err


def test_2_1_4_one_bonus_goal_a_division_a_week() -> None:
    events = season_events("m")  # ruling M-2.1.4a
    bonus = [(e.week, e.division) for e in events if isinstance(e, BonusDrawn)]
    assert len(bonus) == len(set(bonus)) == 7 * WEEKS


def test_picks_for_several_competitions_are_an_array_of_tables(capsys, tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    season = run(capsys, "matrix", "open", "--league", "demo", "--seed", "t",
                 "--db", str(db))[1].strip()
    f = tmp_path / "week1.toml"
    f.write_text('[[elite-puffins]]\ncompetition = "championship"\ncolumn = "A"\n'
                 'extra_time = 0\n[[elite-puffins]]\ncompetition = "wg"\ncolumn = "J"\n'
                 'extra_time = "X"\nextra_goals = 1\n', encoding="utf-8")
    _, out, _ = run(capsys, "matrix", "teams", season, "--json", "--db", str(db))
    team = next(t["team"] for t in json.loads(out) if t["division"] == "elite"
                and t["number"] == 1)
    f.write_text(f.read_text(encoding="utf-8").replace("elite-puffins", team), encoding="utf-8")
    assert run(capsys, "matrix", "picks", season, str(f), "--week", "1", "--db", str(db))[0] == 0
    assert run(capsys, "matrix", "play", season, "--week", "1", "--db", str(db))[0] == 0
    _, out, _ = run(capsys, "matrix", "teams", season, "--json", "--db", str(db))
    left = next(t for t in json.loads(out) if t["team"] == team)["left"]
    assert "A" not in left["championship"]["columns"] and "J" not in left["wg"]["columns"]
    assert left["wg"]["extra_time"]["X"] == 1 and left["championship"]["extra_time"]["0"] == 1
    _, out, _ = run(capsys, "matrix", "results", season, "--week", "1", "--json", "--db", str(db))
    assert {r["competition"] for r in json.loads(out) if team in (r["home"], r["away"])} == {
        "championship", "wg"}
