"""9.00-9.70: Team Defense."""

from __future__ import annotations

import msgspec
import pytest
from bones_support import penalize, plain, rate

from engine.bones.cards import TeamDefenseRow
from engine.bones.team_defense import (
    adjusted_center,
    blue_line_total,
    chart_defense,
    defensive_rating,
    team_defense,
)

# The TEAM DEFENSE chart is one of the substitute charts (tuned for realism); these tests
# pin their own copy so that tuning the shipped pack does not change what they check.
PINNED = [(0, 5), (4, 6), (7, 7), (10, 8), (12, 9), (15, 10), (18, 11), (22, 12)]


@pytest.fixture(autouse=True)
def pinned_chart(state):
    rows = [TeamDefenseRow(total=t, defense=d) for t, d in PINNED]
    state.charts = msgspec.structs.replace(state.charts, team_defense=rows)


def worked_example(state, side="away"):
    """9.21 example ratings: LW 2, LD 3, C 3, RD 4, RW 3."""
    plain(state, side)
    for slot, d in {"LW": 2, "LD": 3, "C": 3, "RD": 4, "RW": 3}.items():
        rate(state, side, slot, defense=d)


def test_9_21_adjusted_center():
    assert [adjusted_center(r) for r in range(6)] == [0, 1, 1, 2, 2, 2]


def test_9_20_worked_example_vs_lw_and_ld(state):
    worked_example(state)
    assert team_defense(state, "away", "LW").target == 9
    assert team_defense(state, "away", "LD").target == 9


def test_9_20_worked_example_vs_rw_and_rd(state):
    worked_example(state)
    assert team_defense(state, "away", "RW").target == 7
    assert team_defense(state, "away", "RD").target == 7


def test_9_20_worked_example_vs_center_is_unadjusted_minus_two(state):
    worked_example(state)
    total = team_defense(state, "away", "C")
    value, how = total.target, total.how
    assert value == 8
    assert "- 2" in how


def test_9_10_forward_on_blue_line_counts_zero_at_even_strength(state):
    forward = state.away.slots["LW"]
    state.away.slots["LW"], state.away.slots["LD"] = state.away.slots["LD"], forward
    rate(state, "away", "LD", defense=4)
    assert defensive_rating(state, "away", "LD") == 0


def test_9_10_forward_on_blue_line_counts_at_most_one_on_power_play(state):
    penalize(state, "home")  # away on the power play
    forward = state.away.slots["LW"]
    state.away.slots["LW"], state.away.slots["LD"] = state.away.slots["LD"], forward
    rate(state, "away", "LD", defense=4)
    assert defensive_rating(state, "away", "LD") == 1


def test_9_10_defenseman_rated_5_up_front_counts_4(state):
    d = state.away.slots["LD"]
    state.away.slots["LD"], state.away.slots["LW"] = state.away.slots["LW"], d
    rate(state, "away", "LW", defense=5)
    assert defensive_rating(state, "away", "LW") == 4


def test_9_30_four_on_four_uses_the_chart(state):
    penalize(state, "home", slot="C", short=0)  # coincidental: nobody short
    penalize(state, "away", slot="C", short=0)
    worked_example_total = {"LW": 2, "LD": 3, "RD": 4, "RW": 3}
    for slot, d in worked_example_total.items():
        rate(state, "away", slot, defense=d)
    total = team_defense(state, "away", "LW")
    value, how = total.target, total.how
    assert value == chart_defense(state, 12) == 9
    assert "9.30/9.40" in how


def test_9_30_chart_rows_take_largest_total_not_above(state):
    assert chart_defense(state, 0) == 5
    assert chart_defense(state, 9) == 7
    assert chart_defense(state, 10) == 8
    assert chart_defense(state, 40) == 12


def test_9_50_short_handed_team_uses_chart_of_all_ratings(state):
    penalize(state, "away", slot="RW")
    plain(state, "away")
    for slot, d in {"LW": 2, "C": 3, "LD": 3, "RD": 4}.items():
        rate(state, "away", slot, defense=d)
    total = team_defense(state, "away", "C")
    value, how = total.target, total.how
    assert value == chart_defense(state, 12) == 9
    assert "9.50" in how


def test_9_51_each_ace_penalty_killer_adds_one(state):
    penalize(state, "away", slot="RW")
    plain(state, "away")
    base = team_defense(state, "away", "C").target
    rate(state, "away", "LD", ace_pk=True)
    rate(state, "away", "C", ace_pk=True)
    assert team_defense(state, "away", "C").target == base + 2


def test_9_60_power_play_team_defense_is_ld_plus_rd_plus_2(state):
    penalize(state, "home")
    rate(state, "away", "LD", defense=3)
    rate(state, "away", "RD", defense=4)
    assert team_defense(state, "away", "LW").target == 9


def test_9_70_pulled_goalie_adds_one(state):
    worked_example(state)
    state.away.pulled = True
    state.away.slots["G"] = "nobody-extra"  # only the flag matters for 9.70
    assert team_defense(state, "away", "LW").target == 10


def test_8_10_star_d_compares_with_ld_plus_rd(state):
    rate(state, "away", "LD", defense=3)
    rate(state, "away", "RD", defense=2)
    assert blue_line_total(state, "away").target == 5
