"""Matrix Hockey 2.2: extra time, X, the limits on each value, the KDH shootout."""

from __future__ import annotations

from collections import Counter

from engine.matrix.extra_time import EXTRA_TIME_LIMITS, available_extra_time, golden_goal
from events.matrix import DieRolled, PickReplaced
from tests.matrix.matrix_helpers import new_season, pick, play, score, side

# the example league, week 1: Snowmen - Teddy Bears, Igloos - Icebergs... (3.1.4)
WEEK1 = {"sleigh-dogs": "F(2)", "snowmen": "I(3)", "cyberians": "F(2)",
         "ice-crocodiles": "F(0)", "teddy-bears": "D(1)", "grizzlies": "F(2)",
         "freezing-ass": "D(1)", "groggs": "B(X)", "igloos": "F(3)", "icebergs": "I(3)",
         "puck-pukers": "J(1)", "ice-breakers": "K(3)"}


def _week1(**changes: str):
    state = new_season()
    picks = {t: pick(p) for t, p in {**WEEK1, **changes}.items()}
    return state, play(state, 1, picks, bonus={"elite": "puck-pukers"})


def test_2_2_the_higher_extra_time_value_scores_the_golden_goal() -> None:
    assert golden_goal(3, 1) == "home" and golden_goal(0, 2) == "away"
    _, events = _week1()
    assert score(events, "snowmen") == (4, 3, "AP")


def test_3_1_2_equal_values_end_a_championship_game_in_a_draw() -> None:
    _, events = _week1(**{"snowmen": "I(1)"})
    assert score(events, "snowmen") == (3, 3, "DRAW")


def test_2_2_x_is_0_to_3_by_a_die_typed_at_the_table_or_seeded() -> None:
    state = new_season()
    picks = {t: pick(p) for t, p in {**WEEK1, "snowmen": "I(X)"}.items()}
    events = play(state, 1, picks, bonus={"elite": "puck-pukers"}, x={"snowmen": 0})
    assert score(events, "snowmen") == (3, 4, "AP")  # X became 0 < 1
    die = next(e for e in events if isinstance(e, DieRolled) and e.purpose == "X for snowmen")
    assert (die.faces, die.value, die.seeded) == (4, "0", False)


def test_2_2_the_value_is_used_even_when_the_game_ends_in_regular_time() -> None:
    state, _ = _week1()
    assert state.teams["puck-pukers"].used_extra_time("championship") == Counter({"1": 1})


def test_2_2_championship_limits_x_once_0_and_3_twice_1_and_2_three_times() -> None:
    assert EXTRA_TIME_LIMITS["championship"] == {"0": 2, "1": 3, "2": 3, "3": 2, "X": 1}
    assert sum(EXTRA_TIME_LIMITS["championship"].values()) == 11  # eleven games
    assert available_extra_time("championship", Counter({"X": 1, "3": 2})) == ["0", "1", "2"]


def test_4_a_value_used_up_is_replaced_by_a_die() -> None:
    state, _ = _week1()  # the Groggs played X in week 1
    week2 = {t: pick(f"{c}(1)") for t, c in zip(state.team_order(), "ACDEFGHIJKAC",
                                                strict=True)}
    events = play(state, 2, {**week2, "groggs": pick("A(X)")}, bonus={"elite": "snowmen"})
    replaced = next(e for e in events if isinstance(e, PickReplaced) and e.team == "groggs")
    assert replaced.reason == "repeat" and replaced.extra_time != "X"
    assert replaced.rule == "4"
    assert side(events, "groggs").extra_time == replaced.extra_time


def test_3_2_2_and_3_3_2_cup_extra_time_values() -> None:
    assert EXTRA_TIME_LIMITS["kdh"] == {"0": 2, "1": 2, "2": 2, "X": 1}  # no 3 in the KDH
    assert EXTRA_TIME_LIMITS["wg"] == {"0": 2, "1": 2, "2": 2, "X": 2}  # all twice
