"""8.10, 8.20 action codes, with 6.10/6.20 timing, 7.30, 14.60, 19.00, 20.00."""

from __future__ import annotations

import pytest
from bones_support import R, action, apply, new_state, penalize, plain, rate

from engine.bones import timing
from events.bones import ActionResolved, PlayStopped, PuckIntercepted, PuckPassed, SequencePlayed
from events.errors import RinklogError


def resolved(events) -> ActionResolved:
    return next(e for e in events if isinstance(e, ActionResolved))


def setup_defense(state):
    """Away defends with the 9.21 example ratings: 9 against the home LW."""
    plain(state, "away")
    plain(state, "home")
    for slot, d in {"LW": 2, "LD": 3, "C": 3, "RD": 4, "RW": 3}.items():
        rate(state, "away", slot, defense=d)


# --- 8.10 numeric codes against Team Defense (9.00) ---------------------------------

def test_8_10_numeric_equal_to_team_defense_is_a_shot(state):
    setup_defense(state)
    res = resolved(action(state, "home", "LW", "9"))
    assert (res.result, res.value, res.target) == ("shot", 9, 9)


def test_8_10_numeric_below_team_defense_is_an_interception(state):
    setup_defense(state)
    events = action(state, "home", "LW", "8")
    assert resolved(events).result == "interception"
    assert any(isinstance(e, PuckIntercepted) and e.side == "away" for e in events)


def test_8_10_power_play_adds_one(state):
    setup_defense(state)
    penalize(state, "away", slot="RW")
    res = resolved(action(state, "home", "LW", "8"))
    assert res.value == 9
    assert "+1 power play (8.10)" in res.modifiers


def test_8_10_shadow_directly_across_takes_two(state):
    """Ruling R-8.10a: "directly across" the home LW is the away RW."""
    setup_defense(state)
    rate(state, "away", "RW", shadow=True)
    res = resolved(action(state, "home", "LW", "10"))
    assert res.value == 8 and res.result == "interception"


def test_8_10_shadow_elsewhere_does_not_count(state):
    setup_defense(state)
    rate(state, "away", "LW", shadow=True)
    assert resolved(action(state, "home", "LW", "10")).value == 10


def test_8_10_out_of_position_takes_two(state):
    setup_defense(state)
    rate(state, "home", "LW", positions=["C"])
    res = resolved(action(state, "home", "LW", "10"))
    assert res.value == 8
    assert "-2 out of position (8.10, 15.10)" in res.modifiers


def test_8_10_star_is_an_automatic_shot(state):
    res = resolved(action(state, "home", "C", "*"))
    assert res.result == "shot" and res.shooter == state.home.slots["C"]


def test_8_10_r_is_a_shot_with_rebound(state):
    assert resolved(action(state, "home", "C", "R")).shot == "R"


def test_8_10_star_h_shot_only_for_home(state):
    assert resolved(action(state, "home", "C", "*H")).result == "shot"
    assert resolved(action(state, "away", "C", "*H")).result == "interception"


def test_8_10_star_hn_compares_with_team_defense(state):
    setup_defense(state)
    assert resolved(action(state, "home", "LW", "*H9")).result == "shot"
    assert resolved(action(state, "home", "LW", "*H8")).result == "interception"


def test_8_10_star_dn_compares_with_ld_plus_rd(state):
    setup_defense(state)  # LD 3 + RD 4 = 7
    assert resolved(action(state, "home", "LW", "*D7")).result == "shot"
    assert resolved(action(state, "home", "LW", "*D6")).result == "interception"


def test_8_10_star_dn_out_of_position_is_an_interception(state):
    setup_defense(state)
    rate(state, "home", "LW", positions=["RW"])
    assert resolved(action(state, "home", "LW", "*D2")).result == "interception"


def pull(state, side):
    """``side`` pulls its goalie for a second-line forward as sixth attacker (15.00)."""
    team = state.team(side)
    team.slots["G"] = team.team.lines.forwards[1][0]
    team.pulled = True


@pytest.mark.parametrize("pulled", ["home", "away"])
def test_8_10_shadow_minus_two_only_at_5_on_5_not_with_a_goalie_pulled(state, pulled):
    setup_defense(state)
    rate(state, "away", "RW", shadow=True)
    pull(state, pulled)
    res = resolved(action(state, "home", "LW", "10"))
    assert res.value == 10 and not any("shadow" in m for m in res.modifiers)


@pytest.mark.parametrize("pulled", ["home", "away"])
def test_8_10_out_of_position_minus_two_only_at_5_on_5_not_with_a_goalie_pulled(state, pulled):
    setup_defense(state)
    rate(state, "home", "LW", positions=["C"])
    pull(state, pulled)
    res = resolved(action(state, "home", "LW", "10"))
    assert res.value == 10 and not any("out of position" in m for m in res.modifiers)


def test_8_10_star_dn_out_of_position_is_a_shot_chance_with_a_goalie_pulled(state):
    setup_defense(state)  # LD 3 + RD 4 = 7
    rate(state, "home", "LW", positions=["RW"])
    pull(state, "home")
    assert resolved(action(state, "home", "LW", "*D7")).result == "shot"


def test_8_10_shadow_and_out_of_position_do_not_apply_at_4_on_4(state):
    setup_defense(state)
    rate(state, "home", "LW", positions=["C"])
    rate(state, "away", "RW", shadow=True)
    state.home.slots["C"] = state.away.slots["C"] = None
    res = resolved(action(state, "home", "LW", "10"))
    assert res.value == 10 and res.modifiers[-1].startswith("9.30/9.40")


def test_8_10_at_compares_teammates_passing_with_red(state):
    plain(state, "home")
    rate(state, "home", "RW", passing=2)
    rate(state, "home", "C", passing=1)
    assert resolved(action(state, "home", "LW", "@", R(3, 3, 4, 3))).result == "shot"
    assert resolved(action(state, "home", "LW", "@", R(3, 3, 4, 4))).result == "interception"


def test_8_10_at_short_handed_is_an_interception(state):
    penalize(state, "home", slot="RW")
    assert resolved(action(state, "home", "LW", "@", R(3, 3, 4, 1))).result == "interception"


def test_8_10_p_is_a_pass(state):
    events = action(state, "home", "LW", "P")
    assert resolved(events).result == "pass"
    assert any(isinstance(e, PuckPassed) for e in events)


def test_8_10_pn_pass_when_above_intimidation(state):
    plain(state, "away")
    rate(state, "away", "LD", intimidation=2)
    assert resolved(action(state, "home", "LW", "P3")).result == "pass"
    assert resolved(action(state, "home", "LW", "P2")).result == "interception"


def test_8_10_pp_is_a_pass_only_on_the_power_play(state):
    assert resolved(action(state, "home", "LW", "PP")).result == "interception"
    penalize(state, "away", slot="RW")
    assert resolved(action(state, "home", "LW", "PP")).result == "pass"


def test_8_10_pfn_from_the_point_beats_forechecking(state):
    plain(state, "away")
    rate(state, "away", "LW", forechecking=1)
    rate(state, "away", "C", forechecking=1)
    assert resolved(action(state, "home", "LD", "Pf3")).result == "pass"
    res = resolved(action(state, "home", "LD", "Pf2"))
    assert (res.result, res.target) == ("interception", 2)


def test_8_10_pfn_interception_brings_the_interceptor_a_shot(state):
    plain(state, "away")
    rate(state, "away", "LW", forechecking=2)
    rate(state, "home", "LD", passes=["C"] * 5)
    events = action(state, "home", "LD", "Pf1")
    res = resolved(events)
    assert (res.result, res.shooter, res.shot) == ("interception", state.away.slots["C"], "N")
    assert any(isinstance(e, PuckIntercepted) and e.to_player == res.shooter for e in events)


def test_12_00_pfn_interception_to_a_vacant_slot_keeps_the_puck_without_a_shot(state):
    """HFX-QUE-152: the forechecked pass is intercepted toward an empty C; the carrier
    keeps the puck (a pass, 12.00) and the interceptor's shot (8.10 Pf) is nobody's."""
    plain(state, "away")
    rate(state, "away", "LW", forechecking=2)
    state.away.slots["C"] = None  # 4 on 4: the C slot stays empty (15.00)
    state.home.slots["C"] = None
    rate(state, "home", "LD", passes=["C"] * 5)
    events = action(state, "home", "LD", "Pf1")
    res = resolved(events)
    assert res.result == "interception"
    assert (res.shooter, res.shot) == (None, "")
    kept = next(e for e in events if isinstance(e, PuckPassed))
    assert kept.to_player == res.player
    apply(state, events)
    assert state.queue[0].kind == "action" and state.puck == ("home", res.player)


def test_8_10_pfn_by_a_forward_is_a_plain_pass(state):
    plain(state, "away")
    rate(state, "away", "LW", forechecking=3)
    assert resolved(action(state, "home", "C", "Pf1")).result == "pass"


def test_8_10_x_is_a_penalty(state):
    res = resolved(action(state, "home", "C", "X"))
    assert res.result == "penalty"


def test_8_10_xn_red_above_n_plays_on(state):
    assert resolved(action(state, "home", "C", "X3", R(3, 3, 4, 4))).result == "play_on"
    assert resolved(action(state, "home", "C", "X3", R(3, 3, 4, 3))).result == "penalty"


def test_8_10_xh_and_xv(state):
    assert resolved(action(state, "home", "C", "XH")).result == "penalty"
    assert resolved(action(state, "away", "C", "XH")).result == "interception"
    assert resolved(action(state, "away", "C", "XV")).result == "penalty"
    assert resolved(action(state, "home", "C", "XV")).result == "interception"


def test_8_10_hash_is_an_infraction(state):
    events = action(state, "home", "C", "#")
    assert resolved(events).result == "stoppage"
    assert PlayStopped(reason="infraction", zone=None) in events


def test_8_10_icing_stops_play_in_the_icing_team_zone(state):
    events = action(state, "home", "C", "I")
    assert PlayStopped(reason="icing", zone="home") in events


def test_8_10_icing_when_short_handed_is_an_interception(state):
    penalize(state, "home", slot="RW")
    assert resolved(action(state, "home", "C", "I")).result == "interception"


# --- 6.00: the period ends after its last sequence, whatever the last action was -------

@pytest.mark.parametrize(("period", "last"), [(3, 50), (4, 12)])
@pytest.mark.parametrize(("cell", "red", "short"), [("X3", 4, False), ("P+", 3, True)])
def test_6_00_carrier_who_keeps_the_puck_on_the_last_sequence_ends_the_period(
        state, period, last, cell, red, short):
    """Xn play-on (8.10) and + penalty killing (8.20) keep the puck with the carrier; on
    the period's last sequence the period ends instead of a 51st (13th) sequence."""
    if short:
        penalize(state, "home", slot="RW")
    state.period, state.sequence = period, last - 1
    events = action(state, "home", "C", cell, R(3, 3, 4, red))
    apply(state, events)
    assert resolved(events).result in ("play_on", "kill")
    assert state.sequence == last
    assert [s.kind for s in state.queue] == ["end_period"]


def test_6_00_carrier_who_keeps_the_puck_before_the_last_sequence_rolls_again(state):
    state.period, state.sequence = 3, 48
    apply(state, action(state, "home", "C", "X3", R(3, 3, 4, 4)))
    assert [s.kind for s in state.queue] == ["action"]


def test_6_00_no_action_roll_once_the_period_is_over(state):
    state.period, state.sequence = 3, 50
    with pytest.raises(RinklogError, match="6.00"):
        action(state, "home", "C", "X3", R(3, 3, 4, 4))


# --- quick reference: late-penalty house rule ---------------------------------------

def test_qr_late_penalty_house_rule_is_off_by_default(state):
    """The house rule is an option of a game (GameCreated), off unless chosen."""
    assert state.late_penalty_house_rule is False
    state.period, state.sequence = 3, 45
    assert resolved(action(state, "home", "C", "X", R(3, 3, 4, 2))).result == "penalty"
    state.period, state.sequence = 4, 3
    assert resolved(action(state, "home", "C", "X", R(3, 3, 4, 2))).result == "penalty"


def test_qr_late_penalty_house_rule_is_read_from_the_game_created_event():
    assert new_state(late_penalty_house_rule=True).late_penalty_house_rule is True
    assert new_state().late_penalty_house_rule is False


def test_qr_late_penalty_house_rule_only_red_1_is_a_penalty():
    state = new_state(late_penalty_house_rule=True)
    state.period, state.sequence = 3, 40
    res = resolved(action(state, "home", "C", "X", R(3, 3, 4, 2)))
    assert (res.result, res.rule) == ("play_on", "QR")
    assert resolved(action(state, "home", "C", "X", R(3, 3, 4, 1))).result == "penalty"


def test_qr_late_penalty_house_rule_window_opens_at_15_00_of_the_third():
    """Sequence 38 runs 14:48-15:12 (6.30: a sequence's time is its start): not in the
    last five minutes; sequence 39 starts at 15:12: in them, as is sequence 50."""
    assert timing.period_seconds(38, 0) < 15 * 60 <= timing.period_seconds(39, 0)
    state = new_state(late_penalty_house_rule=True)
    results = {}
    for period, used in ((3, 37), (3, 38), (3, 49), (2, 45)):
        state.period, state.sequence = period, used  # the action uses sequence used + 1
        results[(period, used + 1)] = resolved(action(state, "home", "C", "X",
                                                      R(3, 3, 4, 2))).result
    assert results == {(3, 38): "penalty", (3, 39): "play_on", (3, 50): "play_on",
                       (2, 46): "penalty"}


def test_qr_late_penalty_house_rule_holds_in_all_of_overtime():
    state = new_state(late_penalty_house_rule=True)
    for used in (0, 11):  # the first and the twelfth overtime sequence
        state.period, state.sequence = 4, used
        assert resolved(action(state, "home", "C", "X", R(3, 3, 4, 2))).result == "play_on"


# --- 8.20 special codes -------------------------------------------------------------

def test_8_20_plus_kills_a_sequence_when_short_handed(state):
    penalize(state, "home", slot="RW")
    events = action(state, "home", "C", "P+")
    assert resolved(events).result == "kill"
    assert any(isinstance(e, SequencePlayed) for e in events)


def test_8_20_plus_is_ignored_at_even_strength(state):
    assert resolved(action(state, "home", "C", "P+")).result == "pass"


def test_19_00_s_under_pressure_offense_is_a_shot(state):
    state.home.tactic = "pressure"
    assert resolved(action(state, "home", "C", "PS")).result == "shot"


def test_19_00_s_without_pressure_offense_reads_the_code(state):
    assert resolved(action(state, "home", "C", "PS")).result == "pass"


def test_8_20_question_mark_queues_an_injury_check(state):
    events = action(state, "home", "C", "#?")
    assert resolved(events).injury
    apply(state, events)
    assert state.injured == state.home.slots["C"]
    assert [s.kind for s in state.queue][:2] == ["injury", "faceoff"]


def test_20_00_checking_game_takes_two_or_three(state):
    setup_defense(state)
    state.away.tactic = "checking1"
    assert resolved(action(state, "home", "LW", "10")).value == 8
    state.away.tactic = "checking2"
    assert resolved(action(state, "home", "LW", "10")).value == 7


# --- 7.30 defensive-zone face-off bonus ---------------------------------------------

def test_7_30_numeric_after_defensive_zone_draw_adds_two(state):
    setup_defense(state)
    state.dz_bonus = "home"
    res = resolved(action(state, "home", "LW", "7"))
    assert (res.value, res.result) == (9, "shot")


def test_7_30_value_above_14_is_a_shot(state):
    state.dz_bonus = "home"
    res = resolved(action(state, "home", "LW", "13"))
    assert (res.result, res.value, res.target) == ("shot", 15, None)


def test_7_30_bonus_is_lost_after_any_roll(state):
    state.dz_bonus = "home"
    events = action(state, "home", "LW", "P")
    apply(state, events[:2])
    assert state.dz_bonus == ""


# --- 6.10 / 6.20 / 13.00 time ---------------------------------------------------------

def test_6_10_shot_interception_stoppage_penalty_use_a_sequence(state):
    for cell in ("*", "1", "#", "X"):
        events = action(state, "home", "C", cell)
        assert isinstance(events[0], SequencePlayed), cell
        assert resolved(events).time


def test_6_10_even_strength_pass_uses_a_sequence(state):
    assert resolved(action(state, "home", "C", "P")).time


def test_6_20_first_power_play_pass_uses_no_time(state):
    penalize(state, "away", slot="RW")
    events = action(state, "home", "C", "P")
    assert not any(isinstance(e, SequencePlayed) for e in events)
    assert resolved(events).time is False


def test_13_00_second_power_play_pass_uses_time_and_brings_a_shot(state):
    penalize(state, "away", slot="RW")
    state.pp_passes = 1
    events = action(state, "home", "C", "P")
    res = resolved(events)
    assert res.time and res.shot == "N"
    passed = next(e for e in events if isinstance(e, PuckPassed))
    assert res.shooter == passed.to_player or passed.to_player == res.player


# --- 14.60 the delayed penalty's one roll ---------------------------------------------

def test_14_60_delayed_roll_that_is_not_a_shot_stops_play(state):
    state.delayed = True
    events = action(state, "away", "C", "P")
    assert resolved(events).result == "stoppage"
    assert PlayStopped(reason="penalty", zone=None) in events


def test_14_60_delayed_roll_shot_is_taken(state):
    state.delayed = True
    assert resolved(action(state, "away", "C", "*")).result == "shot"


def test_12_00_kept_puck_on_the_power_play_is_a_first_pass_without_time(state):
    penalize(state, "away", slot="RW")
    rate(state, "home", "C", passes=["RW"] * 5)  # every lost puck heads for the empty RW
    events = action(state, "home", "C", "1")  # 1 + 1 never reaches the Team Defense
    res = resolved(events)
    assert res.result == "interception" and res.time is False
    assert not any(isinstance(e, SequencePlayed) for e in events)
    kept = next(e for e in events if isinstance(e, PuckPassed))
    assert kept.to_player == res.player


def test_12_00_second_kept_puck_on_the_power_play_is_a_timed_shot(state):
    penalize(state, "away", slot="RW")
    rate(state, "home", "C", passes=["RW"] * 5)
    state.pp_passes = 1
    res = resolved(action(state, "home", "C", "1"))
    assert res.time and res.shot == "N" and res.shooter == res.player


def test_quick_reference_forward_on_the_blue_line_loses_two_on_the_power_play(state):
    penalize(state, "away", slot="RW")
    plain(state, "home")
    forward = state.home.team.lines.forwards[1][0]
    state.home.slots["LD"] = forward  # a forward plays the point on the power play
    res = resolved(action(state, "home", "LD", "8"))
    assert res.value == 8 + 1 - 2
    assert any("blue line" in m for m in res.modifiers)


def test_19_00_pressure_offense_holds_only_at_5_on_5_or_goalie_pulled(state):
    state.home.tactic = "pressure"
    penalize(state, "away", slot="RW")  # 5 on 4: no pressure offense
    assert resolved(action(state, "home", "C", "PS")).result == "pass"
    state.away.pulled = True  # a goalie pulled: pressure offense applies again
    state.away.slots["G"] = state.away.team.lines.forwards[1][0]
    assert resolved(action(state, "home", "C", "PS")).result == "shot"


def test_quick_reference_short_handed_pp_and_pn_are_interceptions(state):
    penalize(state, "home", slot="RW")
    for cell in ("PP", "P3"):
        assert resolved(action(state, "home", "C", cell)).result == "interception", cell
