"""Matrix Hockey 2.1: goals from the matrix, extra goals, great saves and the bonus goal,
with the week-5 illustrations of the text (2.1.1, 2.1.2.2, 2.1.3.2)."""

from __future__ import annotations

import pytest

from engine.matrix.goals import Entry, column_value, regular_goals, shared_with
from tests.matrix.matrix_helpers import new_season, pick, play, score, side

# week 1-4 picks that keep columns A-G for week 5 (each column once a season)
FILLER = ["H", "I", "J", "K"]


def _weeks_1_to_4(state) -> None:
    teams = state.team_order()
    for week in range(1, 5):
        picks = {t: pick(f"{FILLER[(i + week) % 4]}({'0033'[week - 1]})")
                 for i, t in enumerate(teams)}
        play(state, week, picks)


def test_2_1_1_the_matrix_row_of_the_week_and_the_picked_column() -> None:
    matrix = new_season().matrices["championship"]
    # "week 5. The Sleigh Dogs picked column D and score 5 goals. The Snowmen picked
    # column C and score 6 goals ... the Snowmen would have won 6-5"
    assert column_value(matrix, 5, "D") == 5
    assert column_value(matrix, 5, "C") == 6
    assert regular_goals(6, 0, 0, 0, False, False) == 6


def test_2_1_1_one_goal_less_for_each_other_team_of_the_division_on_the_column() -> None:
    snowmen = Entry("snowmen", "elite", "C", "1")
    field = [snowmen, Entry("a", "elite", "C", "1"), Entry("b", "elite", "C", "1"),
             Entry("c", "elite", "C", "1"), Entry("d", "d2a", "C", "1")]
    assert shared_with(snowmen, field) == ["a", "b", "c"]  # d: another division
    # "the Snowmen would then have only scored 3 goals and lost to the Sleigh Dogs 3-5"
    assert regular_goals(6, 3, 0, 0, False, False) == 3


def test_2_1_1_a_value_below_zero_counts_as_zero() -> None:
    assert regular_goals(2, 3, 0, 0, False, False) == 0


def test_2_1_2_2_extra_goals_are_added_to_the_final_value() -> None:
    # "their coach had decided to use two Extra-Goals, the score would then be 5-5"
    assert regular_goals(6, 3, 2, 0, False, False) == 5


def test_2_1_2_2_the_extra_goal_is_added_after_the_value_was_set_to_zero() -> None:
    # "Both teams as well as two other teams have chosen column E ... 2 - 3 = -1 rounded
    # up to 0. Freezing Ass ... use one Extra Goal and therefore they win 1-0"
    assert regular_goals(2, 3, 1, 0, False, False) == 1
    assert regular_goals(2, 3, 0, 0, False, False) == 0


def test_2_1_3_2_a_great_save_comes_off_after_the_extra_goals_never_below_zero() -> None:
    # "If the Teddy Bears had played a Great Save, the Freezing Ass Extra Goal would then
    # have been cancelled and the score would have been 0-0. Now if Freezing Ass had
    # played one too, it would have been wasted and the score still 0-0"
    assert regular_goals(2, 3, 1, 1, False, False) == 0
    assert regular_goals(2, 3, 0, 1, False, False) == 0


def test_2_1_4_the_bonus_goal_comes_last_a_great_save_cannot_cancel_it() -> None:
    assert regular_goals(2, 0, 0, 5, True, False) == 1


@pytest.mark.parametrize(("snowmen", "others_on_c", "want"), [
    ("C(1)", 0, (5, 6, "REG")),  # 6-5 for the Snowmen
    ("C(1)", 3, (5, 3, "REG")),  # three other teams on C: 3-5
    ("C++(1)", 3, (5, 5, "DRAW")),  # two extra goals: 5-5 (equal extra time: a draw)
])
def test_2_1_week_5_sleigh_dogs_and_snowmen(snowmen: str, others_on_c: int, want) -> None:
    state = new_season()
    _weeks_1_to_4(state)
    picks = {t: pick(f"{c}(2)") for t, c in zip(
        ["cyberians", "ice-crocodiles", "grizzlies", "groggs", "igloos", "icebergs",
         "puck-pukers", "ice-breakers", "teddy-bears", "freezing-ass"],
        ["C"] * others_on_c + ["A", "B", "F", "G", "A", "B", "F", "G", "A", "B"][others_on_c:],
        strict=True)}
    events = play(state, 5, {**picks, "sleigh-dogs": pick("D(1)"), "snowmen": pick(snowmen)},
                  bonus={"elite": "puck-pukers"})
    assert score(events, "sleigh-dogs") == want


@pytest.mark.parametrize(("teddy", "freezing", "want"), [
    ("E(1)", "E+(2)", (0, 1, "REG")),  # Freezing Ass win 1-0 with one extra goal
    ("E#(1)", "E+(1)", (0, 0, "DRAW")),  # Teddy Bears' great save cancels it: 0-0
    ("E#(1)", "E+#(1)", (0, 0, "DRAW")),  # Freezing Ass's own great save is wasted
])
def test_2_1_week_5_teddy_bears_and_freezing_ass(teddy: str, freezing: str, want) -> None:
    state = new_season()
    _weeks_1_to_4(state)
    rest = {"sleigh-dogs": "A", "snowmen": "B", "cyberians": "E", "ice-crocodiles": "E",
            "grizzlies": "F", "groggs": "G", "igloos": "A", "icebergs": "B",
            "puck-pukers": "F", "ice-breakers": "G"}
    picks = {t: pick(f"{c}(2)") for t, c in rest.items()}
    events = play(state, 5, {**picks, "teddy-bears": pick(teddy),
                             "freezing-ass": pick(freezing)}, bonus={"elite": "snowmen"})
    assert score(events, "teddy-bears") == want
    assert sorted(side(events, "freezing-ass").shared_with) == ["cyberians", "ice-crocodiles",
                                                        "teddy-bears"]


def test_3_1_3_the_penalty_goal_comes_last_and_not_below_zero() -> None:
    assert regular_goals(5, 3, 0, 0, False, True) == 1  # ruling M-3.1.3c
    assert regular_goals(2, 3, 0, 0, False, True) == 0
