"""Matrix Hockey 3.1.5: points, and the tiebreakers in the text's order (goals scored
before goal difference), then a die."""

from __future__ import annotations

from engine.matrix.context import Referee
from engine.matrix.dice import SeededDie
from engine.matrix.seasons import rank_divisions
from engine.matrix.standings import Record, rank_key, tie_groups
from events.matrix import DivisionRanked
from tests.matrix.matrix_helpers import new_season


def _record(team: str, *games: tuple[int, int, str, bool | None]) -> Record:
    r = Record(team)
    for gf, ga, decided, won in games:
        r.add(gf, ga, decided, team if won else ("" if won is None else "other"))
    return r


def test_3_1_5_points_a_win_2_a_draw_1_an_extra_time_loss_1_a_loss_0() -> None:
    assert _record("a", (3, 2, "REG", True)).points == 2
    assert _record("a", (4, 3, "AP", True)).points == 2
    assert _record("a", (2, 2, "DRAW", None)).points == 1
    assert _record("a", (3, 4, "AP", False)).points == 1
    assert _record("a", (2, 3, "REG", False)).points == 0


def test_3_1_5_tiebreakers_in_order() -> None:
    # same points (4): most wins first
    two_wins = _record("a", (3, 2, "REG", True), (4, 3, "AP", True), (0, 5, "REG", False))
    one_win = _record("b", (3, 2, "REG", True), (2, 2, "DRAW", None), (2, 3, "AP", False))
    assert rank_key(two_wins) < rank_key(one_win)
    # same wins: most regular-time wins
    reg = _record("c", (3, 2, "REG", True), (1, 5, "REG", False))
    ap = _record("d", (3, 2, "AP", True), (1, 5, "REG", False))
    assert rank_key(reg) < rank_key(ap)


def test_3_1_5_goals_scored_come_before_goal_difference() -> None:
    scorers = _record("a", (9, 8, "REG", True), (0, 6, "REG", False))  # GF 9, GD -5
    defence = _record("b", (2, 0, "REG", True), (0, 1, "REG", False))  # GF 2, GD +1
    assert scorers.points == defence.points and scorers.wins == defence.wins
    assert rank_key(scorers) < rank_key(defence)
    groups = tie_groups({"a": scorers, "b": defence}, ["b", "a"])
    assert groups == [["a"], ["b"]]


def test_3_1_5_fewest_losses_then_fewest_extra_time_losses() -> None:
    # 2 points each, one regular-time win each: fewer losses first
    few = _record("a", (3, 2, "REG", True), (1, 1, "DRAW", None), (1, 1, "DRAW", None))
    many = _record("b", (3, 2, "REG", True), (2, 3, "AP", False), (2, 3, "AP", False))
    assert few.points == many.points == 4 and few.regular_wins == many.regular_wins
    assert rank_key(few)[3] < rank_key(many)[3]


def test_3_1_5_identical_records_are_ordered_by_a_die_at_the_end() -> None:
    state = new_season()  # nobody has played: all twelve identical
    ref = Referee(state, SeededDie("t", state.season_id))
    rank_divisions(ref)
    ranked = next(e for e in ref.events if isinstance(e, DivisionRanked))
    assert len(ranked.rolls) == 11 and sorted(ranked.order) == sorted(state.team_order())
    assert ranked.rule == "3.1.5"
