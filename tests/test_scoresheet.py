"""The scoresheet projection: a pure fold that agrees with the stream's own totals."""

from __future__ import annotations

import re

import pytest
from setups import simulate

from events.bones import (
    AssistsAwarded,
    AssistsCounted,
    ExactTime,
    GoalScored,
    SequencePlayed,
    ShotTaken,
)
from events.common import GameEnded
from projections.scoresheet import build_scoresheet
from replay.games.game_streams import open_store, read_game

MATCHUPS = [("HFX", "QUE", "2026"), ("HFX", "WPG", "3"), ("SAS", "QUE", "11"),
            ("WPG", "SAS", "8"), ("QUE", "HFX", "5"), ("SAS", "HFX", "19")]
PERIOD_SECONDS = {1: 1200, 2: 1200, 3: 1200, 4: 300}


@pytest.fixture(scope="module")
def games() -> list[list]:
    store = open_store(":memory:")
    out = []
    for home, away, seed in MATCHUPS:
        result = simulate(store, home, away, seed=seed)
        out.append(read_game(store, result.game_id))
    store.close()
    return out


def test_projection_imports_no_engine() -> None:
    import projections.scoresheet as module

    source = open(module.__file__, encoding="utf-8").read()
    assert not re.search(r"^\s*(from|import)\s+(engine|replay)\b", source, re.M)


def test_goals_listed_equal_final_score(games) -> None:
    for events in games:
        sheet = build_scoresheet(events)
        end = events[-1]
        assert isinstance(end, GameEnded)
        assert sheet.decided == end.decided
        assert (sheet.home.goals, sheet.away.goals) == (end.home_goals, end.away_goals)
        bonus = {"home": 0, "away": 0}
        if end.decided == "SO":
            bonus[end.winner] = 1
        for side, line in (("home", sheet.home), ("away", sheet.away)):
            listed = sum(1 for g in sheet.goals if g.team == line.team)
            assert listed == line.goals - bonus[side]
            assert sum(line.goals_by_period) == listed
        assert len(sheet.goals) == sum(isinstance(e, GoalScored) for e in events)
        assert bool(sheet.shootout) == (end.decided == "SO")


def test_goal_times_within_period(games) -> None:
    for events in games:
        for goal in build_scoresheet(events).goals:
            assert re.fullmatch(r"\d\d:[0-5]\d", goal.time)
            minutes, seconds = map(int, goal.time.split(":"))
            assert 0 <= minutes * 60 + seconds <= PERIOD_SECONDS[goal.period]


def test_goal_times_and_assists_come_from_following_events(games) -> None:
    for events in games:
        expected = []
        for i, e in enumerate(events):
            if isinstance(e, GoalScored):
                time = next(x for x in events[i + 1:] if isinstance(x, ExactTime)
                            and x.kind == "goal")
                assists: list[str] = []
                for x in events[i + 1:]:
                    if isinstance(x, AssistsCounted) and x.count == 0:
                        break
                    if isinstance(x, AssistsAwarded):
                        assists = list(x.players)
                        break
                    if isinstance(x, GoalScored):
                        break
                expected.append((e.scorer, time.time, assists))
        got = [(g.scorer, int(g.time[:2]) * 60 + int(g.time[3:]), g.assists)
               for g in build_scoresheet(events).goals]
        assert got == expected


def test_goalie_saves_add_up(games) -> None:
    for events in games:
        sheet = build_scoresheet(events)
        for g in sheet.goalies:
            assert g.saves >= 0
            assert g.saves + g.goals_against == g.shots_against
        for line, other in ((sheet.home, sheet.away), (sheet.away, sheet.home)):
            against = sum(g.shots_against for g in sheet.goalies if g.team == other.team)
            assert against <= sum(line.shots)


def test_goalie_toi_is_24s_per_sequence(games) -> None:
    for events in games:
        sheet = build_scoresheet(events)
        for side, line in (("home", sheet.home), ("away", sheet.away)):
            played = sum(1 for e in events if isinstance(e, SequencePlayed)
                         and getattr(e, f"{side}_goalie") is not None)
            toi = sum(g.toi for g in sheet.goalies if g.team == line.team)
            assert toi == 24 * played


def test_shots_follow_the_counting_rule(games) -> None:
    for events in games:
        sheet = build_scoresheet(events)
        counted = sum(1 for e in events if isinstance(e, ShotTaken) and e.block != "blocked"
                      and not (e.kind == "empty_net" and not e.in_range))
        total = sum(sheet.home.shots) + sum(sheet.away.shots)
        goals = len(sheet.goals)
        assert counted <= total <= counted + goals
        periods = 4 if any(e.period == 4 for e in events if isinstance(e, SequencePlayed)) else 3
        assert len(sheet.home.shots) == len(sheet.away.shots) >= 3
        assert len(sheet.home.shots) >= periods


def test_power_play_goals_and_pim(games) -> None:
    for events in games:
        sheet = build_scoresheet(events)
        for line in (sheet.home, sheet.away):
            pp_goals = sum(1 for g in sheet.goals if g.team == line.team and g.strength == "PP")
            assert line.pp.goals == pp_goals
            assert line.pim == sum(p.minutes for p in sheet.penalties if p.team == line.team)


def test_json_keys(games) -> None:
    doc = build_scoresheet(games[0]).to_json()
    assert {"game_id", "decided", "home", "away", "goals", "penalties", "goalies",
            "shootout"} <= set(doc)
    assert {"team", "name", "goals", "shots", "pp", "pim"} <= set(doc["home"])


def test_fold_is_deterministic(games) -> None:
    assert build_scoresheet(games[1]) == build_scoresheet(list(games[1]))


def test_an_awarded_penalty_shot_is_listed_with_the_penalties(tmp_path):
    """11.10 PS1: the scoresheet lists the penalty shot (no minutes) against the goalie's
    team, in time order with the other penalties. Seed ps37 is a game with one."""
    from setups import simulate

    from events.bones import PenaltyShotAwarded
    from projections.scoresheet import build_scoresheet
    from replay.games.game_streams import open_store, read_game

    with open_store(tmp_path / "ps.db") as store:
        game = simulate(store, "WPG", "SAS", seed="ps37", game_id="ps37").game_id
        events = read_game(store, game)
    awarded = [e for e in events if isinstance(e, PenaltyShotAwarded) and e.awarded]
    assert awarded
    sheet = build_scoresheet(events).to_json()
    shots = [p for p in sheet["penalties"] if p["type"] == "penalty_shot"]
    assert len(shots) == len(awarded)
    fouling = "SAS" if awarded[0].side == "home" else "WPG"
    assert shots[0]["team"] == fouling and shots[0]["minutes"] == 0
    times = [(p["period"], p["time"]) for p in sheet["penalties"]]
    assert times == sorted(times)
