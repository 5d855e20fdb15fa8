"""10.10-10.70: shooting ranges, empty nets, penalty shots, blocked and screened shots."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from bones_support import R, penalize, plain, rate

from engine.bones import shots
from engine.bones.state import Step
from events.bones import GoalScored, PlayStopped, PuckIntercepted, ShotTaken


def shoot(state, side, slot, roll, kind="normal"):
    pid = state.team(side).slots[slot]
    state.puck = (side, pid)
    state.queue = [Step("shot", side=side, player=pid, shot=kind)]
    return shots.decide_shot(state, state.queue[0], roll)


def no_blockers(state, side="away"):
    plain(state, side)
    for slot in ("LD", "RD"):
        rate(state, side, slot, positions=["LW"], d="3-5")  # forwards: no D, no B


def card(state, side, slot):
    return state.team(side).card(state.team(side).slots[slot])


def test_10_10_normal_range_at_even_strength(state):
    assert shots.range_name(state, "home", "C", card(state, "home", "C"), "normal") == "N"


def test_10_20_power_play_range(state):
    penalize(state, "away")
    assert shots.range_name(state, "home", "C", card(state, "home", "C"), "normal") == "P"


def pull(state, side, extra_slot="LW", line=1):
    """``side`` pulls its goalie; the sixth skater goes to G (15.00)."""
    team = state.team(side)
    lines = team.team.lines
    team.slots["G"] = lines.forwards[line][0] if extra_slot == "LW" else lines.defense[line][0]
    team.pulled = True
    return team.card(team.slots["G"])


def test_10_20_power_play_with_the_goalie_pulled_shoots_p(state):
    """10.20: "A player on the POWER-PLAY uses this shooting range when ... Forward
    playing LW, RW or C ... Defenseman playing ANY position": pulling the goalie for a
    sixth skater (6 on 4) leaves the team on the power play (ruling R-QR-6th)."""
    penalize(state, "away")
    pull(state, "home")
    assert state.strength("home") == "pp"
    for slot in ("LW", "C", "LD", "RD"):  # RW: the player penalize() sent off left it open
        if state.home.slots[slot]:
            assert shots.range_name(state, "home", slot, card(state, "home", slot),
                                    "normal") == "P", slot
    no_blockers(state)
    rate(state, "home", "C", n="2-2", p="3-7")
    taken = shoot(state, "home", "C", R(3, 3, 3, 6))[0]
    assert isinstance(taken, ShotTaken)
    assert (taken.range_name, taken.range, taken.in_range, taken.rule) == ("P", "3-7", True,
                                                                            "10.20")


def test_10_20_a_blue_line_forward_on_a_pulled_goalie_power_play_keeps_d_and_10_11(state):
    """10.40: a forward at LD/RD uses D in place of P; 10.11: his N range on a rebound or
    a forced shot, on the power play, goalie pulled or not."""
    penalize(state, "away")
    pull(state, "home")
    forward = card(state, "home", "LW")
    assert shots.range_name(state, "home", "LD", forward, "normal") == "D"
    assert shots.range_name(state, "home", "LD", forward, "rebound") == "N"
    assert shots.range_name(state, "home", "LD", forward, "N") == "N"


def test_10_20_the_sixth_attacker_on_a_power_play(state):
    """The sixth skater stands at G (15.00). A defenseman there is a "Defenseman playing
    ANY position" and shoots P on the power play (10.20), N at even strength (10.10); a
    forward there is at none of LW, RW or C: the quick reference's N (ruling R-QR-6th)."""
    penalize(state, "away")
    forward = pull(state, "home")
    assert shots.range_name(state, "home", "G", forward, "normal") == "N"
    defenseman = pull(state, "home", extra_slot="LD", line=1)
    assert defenseman.is_defenseman
    assert shots.range_name(state, "home", "G", defenseman, "normal") == "P"
    even = pull(state, "away", extra_slot="LD", line=1)
    assert shots.range_name(state, "away", "G", even, "normal") == "S"  # 10.30 short-handed


def test_10_10_goalie_pulled_at_even_strength_shoots_n(state):
    """10.10: "6 on 5 with goalie pulled" is a NON POWER-PLAY situation: N."""
    pull(state, "home")
    assert state.strength("home") == "es"
    assert shots.range_name(state, "home", "C", card(state, "home", "C"), "normal") == "N"
    defenseman = pull(state, "home", extra_slot="LD", line=1)
    assert shots.range_name(state, "home", "G", defenseman, "normal") == "N"


def test_10_30_short_handed_range(state):
    penalize(state, "home")
    assert shots.range_name(state, "home", "C", card(state, "home", "C"), "normal") == "S"


def test_10_40_forward_on_blue_line_uses_d(state):
    forward = card(state, "home", "LW")
    assert shots.range_name(state, "home", "LD", forward, "normal") == "D"
    assert shots.range_name(state, "home", "LD", card(state, "home", "LD"), "normal") == "N"


def test_10_11_blue_line_forward_on_power_play_n_on_forced_shots(state):
    penalize(state, "away")
    forward = card(state, "home", "LW")
    assert shots.range_name(state, "home", "LD", forward, "N") == "N"
    assert shots.range_name(state, "home", "LD", forward, "normal") == "D"


def test_10_10_in_range_uses_the_named_range(state):
    no_blockers(state)
    rate(state, "home", "C", n="3-7")
    assert shoot(state, "home", "C", R(3, 3, 3, 6))[0].in_range
    assert not shoot(state, "home", "C", R(3, 4, 4, 6))[0].in_range


def test_10_50_empty_net_ranges(state):
    state.away.pulled = True
    events = shoot(state, "home", "C", R(4, 6, 6, 5))
    assert events[0].range == "4-12" and events[0].in_range
    assert any(isinstance(e, GoalScored) and e.strength == "EN" for e in events)
    penalize(state, "home")
    assert shoot(state, "home", "C", R(2, 6, 6, 5))[0].range == "2-12"


def test_10_50_empty_net_miss_red_1_to_3_is_icing(state):
    state.away.pulled = True
    events = shoot(state, "home", "C", R(5, 6, 6, 3))
    assert not events[0].in_range
    assert PlayStopped(reason="icing", zone="home") in events


def test_10_60_penalty_shot_range(state):
    events = shoot(state, "home", "C", R(3, 5, 5, 6), kind="ps")
    assert events[0].range == "3-6" and not events[0].in_range
    events = shoot(state, "home", "C", R(3, 2, 3, 6), kind="ps")
    assert events[0].in_range and isinstance(events[1], GoalScored)


def test_10_70_blockers_count_defensemen_and_b_forwards_cap_three(state):
    plain(state, "away")
    assert shots.blockers(state, "away") == 2
    rate(state, "away", "LW", blocker=True)
    rate(state, "away", "RW", blocker=True)
    assert shots.blockers(state, "away") == 3  # ruling R-10.70a: only three count


def test_10_70_all_blockers_count_on_the_penalty_kill(state):
    penalize(state, "away", slot="C")
    plain(state, "away")
    rate(state, "away", "LW", blocker=True)
    rate(state, "away", "RW", blocker=True)
    assert shots.blockers(state, "away") == 4


def test_10_70_checking_games_raise_the_cap(state):
    plain(state, "away")
    for slot in ("LW", "C", "RW"):
        rate(state, "away", slot, blocker=True)
    state.home.tactic = "checking1"
    assert shots.blockers(state, "away") == 4
    state.home.tactic = "checking2"
    assert shots.blockers(state, "away") == 5


def test_10_70_blocker_table(state):
    assert state.charts.blocked_shots == [[3], [3, 11], [2, 3, 11], [3, 9], [3, 8]]


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5])
def test_10_70_block_chance_is_the_share_of_all_rolls_the_shot_rules_block(state, count):
    """The odds of the table, listed exactly (calibrate sets observed blocks beside
    them): over all 1,296 rolls, decide_shot blocks block_chance of them."""
    plain(state, "away")  # two defensemen
    for slot in ("LW", "C", "RW")[:max(0, count - 2)]:
        rate(state, "away", slot, blocker=True)
    if count == 1:
        rate(state, "away", "RD", positions=["LW"], d="3-5")  # a forward, not a blocker
    state.home.tactic = "checking2" if count > 3 else None  # 20.00: the cap is 4 or 5
    assert shots.blockers(state, "away") == count
    blocked = sum(shoot(state, "home", "C", R(b, w1, w2, r))[0].block == "blocked"
                  for b, w1, w2, r in itertools.product(range(1, 7), repeat=4))
    assert Fraction(blocked, 6 ** 4) == shots.block_chance(state.charts, count)


def test_10_70_three_blockers_block_about_9_percent():
    from replay.systems.bones.library import default_charts

    charts = default_charts()
    assert shots.block_chance(charts, 3) == Fraction(5, 36) * Fraction(4, 6)  # 9.26%
    assert shots.block_chance(charts, 0) == 0
    assert shots.block_chance(charts, 7) == shots.block_chance(charts, 5)  # 5B line


def test_10_70_blocked_shot_on_red_3_to_6_is_an_interception(state):
    plain(state, "away")  # two defensemen: 3 or 11
    events = shoot(state, "home", "C", R(1, 5, 6, 4))
    assert events[0].block == "blocked"
    assert isinstance(events[1], PuckIntercepted) and events[1].side == "away"


def test_10_70_screened_shot_on_red_1_2_reads_blue_one_lower(state):
    plain(state, "away")
    rate(state, "home", "C", n="2-10")
    events = shoot(state, "home", "C", R(3, 1, 2, 2))  # blue 3 -> 2: in range
    assert isinstance(events[0], ShotTaken)
    assert events[0].block == "screened" and events[0].in_range
    rate(state, "home", "C", n="3-2")  # blue 3 unscreened would be out of range
    assert shoot(state, "home", "C", R(3, 1, 2, 2))[0].in_range


def test_10_70_no_block_off_the_table(state):
    plain(state, "away")
    assert shoot(state, "home", "C", R(1, 3, 4, 4))[0].block == ""


def test_3_20_example_1_a_shooting_range_read_at_every_roll():
    """3.20, Example 1: "For a dice roll range of 3-6(3), a blue die result of 1 or 2, OR a
    blue die result of 3 with a white dice total of 2 through 5, OR a blue die result of 3
    with a white dice total of 6 and a red die result of 1, 2, or 3 would all be considered
    "in range". All other dice roll results would be considered out of range." A shot reads
    its range with ``roll_in_range`` (2-10: no parenthesized value, any red)."""
    for blue, w1, w2, red in itertools.product(range(1, 7), repeat=4):
        total = w1 + w2
        expected = blue < 3 or (blue == 3 and (total < 6 or (total == 6 and red <= 3)))
        assert shots.roll_in_range("3-6(3)", R(blue, w1, w2, red)) is expected
        plain_range = blue < 2 or (blue == 2 and total <= 10)
        assert shots.roll_in_range("2-10", R(blue, w1, w2, red)) is plain_range
    with pytest.raises(ValueError, match="not a dice range"):
        shots.roll_in_range("7-2", R(1, 1, 1, 1))
