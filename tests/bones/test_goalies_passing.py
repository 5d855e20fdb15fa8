"""11.10, 11.20 goalies and rebounds; 12.00, 12.10 interceptions; 13.00 passes."""

from __future__ import annotations

import msgspec
from bones_support import R, apply, fill, penalize, plain, rate

from engine.bones import goalies, passing
from engine.bones.state import Step
from events.bones import (
    ClearingChecked,
    GoalieInjured,
    GoalieResult,
    GoalScored,
    PlayStopped,
    PuckIntercepted,
    PuckPassed,
    ReboundChecked,
)


def save(state, cell, roll=None, in_range=True, kind="normal"):
    roll = roll or R(3, 3, 4, 4)
    rate(state, "away", "goalie", action=fill(cell))
    shooter = state.home.slots["C"]
    state.queue = [Step("goalie", side="home", player=shooter, shot=kind, in_range=in_range)]
    return goalies.decide_goalie(state, state.queue[0], roll)


def outcome(events):
    return next(e for e in events if isinstance(e, GoalieResult)).outcome


def test_11_10_f_is_frozen_in_the_goalie_zone(state):
    events = save(state, "F")
    assert outcome(events) == "frozen"
    assert PlayStopped(reason="frozen", zone="away") in events


def test_11_10_fg_goal_only_in_range(state):
    assert any(isinstance(e, GoalScored) for e in save(state, "FG"))
    assert outcome(save(state, "FG", in_range=False)) == "frozen"


def test_11_10_f_question_1_injures_goalie_on_red_1(state):
    assert any(isinstance(e, GoalieInjured) for e in save(state, "F?1", R(3, 3, 4, 1)))
    assert not any(isinstance(e, GoalieInjured) for e in save(state, "F?1", R(3, 3, 4, 2)))


def test_11_10_slot_code_goes_to_own_player(state):
    events = save(state, "LD")
    assert outcome(events) == "to_defense"
    assert any(isinstance(e, PuckPassed) and e.to_player == state.away.slots["LD"]
               for e in events)


def test_11_10_slot_g_code_is_a_goal_in_range(state):
    assert outcome(save(state, "RWG")) == "goal"
    assert outcome(save(state, "RWG", in_range=False)) == "to_defense"


def test_11_10_star_slot_goal_else_to_shooting_team(state):
    assert outcome(save(state, "*lw")) == "goal"
    events = save(state, "*lw", in_range=False)
    assert outcome(events) == "to_offense"
    assert any(isinstance(e, PuckIntercepted) and e.side == "home" for e in events)


def test_11_10_slot_code_to_vacant_position_is_frozen(state):
    penalize(state, "away", slot="RW")
    assert outcome(save(state, "RW", in_range=False)) == "frozen"


def test_11_10_xn_penalty_when_red_at_most_n(state):
    assert outcome(save(state, "X2", R(3, 3, 4, 2))) == "penalty"
    assert outcome(save(state, "X2", R(3, 3, 4, 3))) == "frozen"
    assert outcome(save(state, "X", R(3, 3, 4, 6))) == "penalty"


def test_11_10_ps1_on_red_1_then_reroll_1_or_2(state):
    assert outcome(save(state, "PS1", R(3, 3, 4, 1))) == "penalty_shot"
    assert outcome(save(state, "PS1", R(3, 3, 4, 2))) == "frozen"
    step = Step("ps_red", side="home", player=state.home.slots["C"])
    assert goalies.decide_penalty_shot_red(state, step, R(1, 1, 1, 2))[0].awarded
    assert not goalies.decide_penalty_shot_red(state, step, R(1, 1, 1, 3))[0].awarded


def test_11_20_goalie_r_gives_a_rebound_from_the_upper_chart(state):
    events = save(state, "R", R(3, 3, 4, 2))
    checked = next(e for e in events if isinstance(e, ReboundChecked))
    goalie = state.away.card(state.away.goalie)
    assert checked.slot == goalie.rebounds.upper[1] and checked.chart == "upper"


def test_11_20_red_6_rerolls_on_the_lower_chart(state):
    events = save(state, "R", R(3, 3, 4, 6))
    checked = next(e for e in events if isinstance(e, ReboundChecked))
    assert checked.slot is None
    apply(state, events)
    assert state.queue[0].kind == "rebound_lower"
    lower = goalies.decide_rebound_lower(state, state.queue[0], R(1, 1, 1, 6))[0]
    assert lower.slot == state.away.card(state.away.goalie).rebounds.lower[5]


def test_11_20_skater_r_ignores_all_but_a_goal(state):
    assert outcome(save(state, "F", kind="R")) == "rebound"
    assert outcome(save(state, "FG", kind="R")) == "goal"


def test_11_20_second_r_in_a_sequence_is_frozen(state):
    state.shots_this_sequence = 2
    assert outcome(save(state, "R")) == "frozen"


def test_11_20_clearing_total_ld_rd_less_one_for_a_screen(state):
    plain(state, "home")
    rate(state, "away", "LD", clearing=2)
    rate(state, "away", "RD", clearing=3)
    rebounder = state.home.slots["C"]
    assert goalies.clearing_total(state, "home", rebounder).total == 5
    rate(state, "home", "LW", screening=True)
    assert goalies.clearing_total(state, "home", rebounder).total == 4
    penalize(state, "home", slot="RW")  # short-handed shooters: no screen
    assert goalies.clearing_total(state, "home", rebounder).total == 5


def test_11_20_rebounder_with_screen_rating_does_not_screen_himself(state):
    plain(state, "home")
    rate(state, "away", "LD", clearing=2)
    rate(state, "away", "RD", clearing=3)
    rebounder = rate(state, "home", "LW", screening=True)
    assert goalies.clearing_total(state, "home", rebounder).total == 5


def test_11_20_cleared_puck_is_an_interception(state):
    plain(state, "home")
    state.charts = msgspec.structs.replace(state.charts, clearing=["6-12"] * 11)
    step = Step("clearing", side="home", player=state.home.slots["LW"],
                shooter=state.home.slots["C"])
    events = goalies.decide_clearing(state, step, R(2, 3, 3, 1))
    assert isinstance(events[0], ClearingChecked) and events[0].cleared
    assert isinstance(events[1], PuckIntercepted) and events[1].side == "away"


# --- 12.00 / 12.10 / 13.00 ------------------------------------------------------------

def carrier(state, side="home", slot="C"):
    pid = state.team(side).slots[slot]
    return pid, state.team(side).card(pid)


def test_12_00_interception_goes_to_the_pass_chart_slot_on_the_other_team(state):
    pid, card = carrier(state)
    event = passing.resolve_interception(state, "home", pid, 2)[0]
    assert event.side == "away" and event.to_player == state.away.slots[card.passes[1]]


def test_12_00_red_6_even_strength_short_handed_power_play(state):
    pid, card = carrier(state)
    assert passing.resolve_interception(state, "home", pid, 6)[0].slot == card.pass_six.es
    penalize(state, "away", slot="RW")  # home on the power play: a pass instead
    event = passing.resolve_interception(state, "home", pid, 6)[0]
    assert isinstance(event, PuckPassed) and event.side == "home"


def test_12_00_red_6_short_handed_uses_pk_entry(state):
    penalize(state, "home", slot="RW")
    pid, card = carrier(state)
    event = passing.resolve_interception(state, "home", pid, 6)[0]
    assert isinstance(event, PuckIntercepted) and event.slot == card.pass_six.pk


def test_12_00_interception_to_vacant_slot_is_a_pass(state):
    pid, card = carrier(state)
    state.away.slots[card.passes[0]] = None
    event = passing.resolve_interception(state, "home", pid, 1)[0]
    assert isinstance(event, PuckPassed) and event.to_player == pid


def test_12_10_pulled_goalie_one_man_up_keeps_red_1_2(state):
    state.home.pulled = True
    state.home.slots["G"] = state.home.team.lines.forwards[1][0]
    pid, _ = carrier(state)
    assert isinstance(passing.resolve_interception(state, "home", pid, 2)[0], PuckPassed)
    assert isinstance(passing.resolve_interception(state, "home", pid, 3)[0], PuckIntercepted)


def test_13_00_pass_goes_to_own_slot(state):
    pid, card = carrier(state)
    event = passing.resolve_pass(state, "home", pid, 4)[0]
    assert event.to_player == state.home.slots[card.passes[3]]


def test_13_00_short_handed_pass_is_an_interception(state):
    penalize(state, "home", slot="RW")
    pid, _ = carrier(state)
    assert all(not isinstance(e, PuckPassed) or e.to_player == pid
               for e in passing.resolve_pass(state, "home", pid, 1))


def test_13_00_red_6_pulled_goalie_goes_to_sixth_skater(state):
    state.home.pulled = True
    extra = state.home.team.lines.forwards[1][0]
    state.home.slots["G"] = extra
    pid, _ = carrier(state)
    assert passing.resolve_pass(state, "home", pid, 6)[0].to_player == extra


def test_12_10_pulled_goalie_two_men_up_keeps_red_1_to_4(state):
    penalize(state, "away", slot="RW")  # 6 on 4 with the goalie pulled
    state.home.pulled = True
    state.home.slots["G"] = state.home.team.lines.forwards[1][0]
    pid, _ = carrier(state)
    assert isinstance(passing.resolve_interception(state, "home", pid, 4)[0], PuckPassed)
    assert isinstance(passing.resolve_interception(state, "home", pid, 5)[0], PuckIntercepted)


def test_12_10_pulled_goalie_three_men_up_always_keeps(state):
    penalize(state, "away", slot="RW")
    penalize(state, "away", slot="LW")  # 6 on 3
    state.home.pulled = True
    state.home.slots["G"] = state.home.team.lines.forwards[1][0]
    pid, _ = carrier(state)
    for red in range(1, 6):
        assert isinstance(passing.resolve_interception(state, "home", pid, red)[0], PuckPassed)


def test_11_20a_ruling_clearing_reads_all_four_dice_red_for_a_parenthesised_range(state):
    """11.20: "roll all four dice and refer to the CLEARING TABLE ... Check to see if the
    blue and white die roll is "in range"". 3.20: a dice range is compared with "a single
    roll of all four dice"; for 3-6(3) "a blue die result of 3 with a white dice total of 6
    and a red die result of 1, 2, or 3" is in range. Ruling R-11.20a: blue and whites are
    compared with the range's numbers, the red decides only at a parenthesised value (3.20),
    and the same roll's red then picks the interceptor (quick reference: "red die for
    player on def team who now has puck")."""
    plain(state, "home")
    state.charts = msgspec.structs.replace(state.charts, clearing=["3-6(3)"] * 11)
    shooter = state.home.slots["C"]
    step = Step("clearing", side="home", player=state.home.slots["LW"], shooter=shooter)

    def cleared(roll) -> bool:
        first = goalies.decide_clearing(state, step, roll)[0]
        assert isinstance(first, ClearingChecked) and first.range == "3-6(3)"
        return first.cleared

    # the text's Example 1 for 3-6(3), red last
    assert [cleared(R(b, 3, 3, 6)) for b in (1, 2)] == [True, True]  # blue below 3
    assert [cleared(R(3, w, 1, 6)) for w in (1, 4)] == [True, True]  # whites 2, 5
    assert [cleared(R(3, 3, 3, red)) for red in range(1, 7)] == [True] * 3 + [False] * 3
    assert not cleared(R(3, 4, 3, 1))  # whites 7: out, whatever the red
    assert not cleared(R(4, 1, 1, 1))  # blue above 3
    # the red die of the clearing roll picks the defender who takes the puck (12.00)
    events = goalies.decide_clearing(state, step, R(3, 3, 3, 2))
    card = state.home.card(shooter)
    intercept = next(e for e in events if isinstance(e, PuckIntercepted))
    assert (intercept.side, intercept.slot) == ("away", card.passes[1])


# --- what the table prompt says of a pass to the passer himself (issue 34, 13) ---------------

def test_13_00_and_12_00_a_pass_to_the_passer_himself_says_the_rule(tmp_path) -> None:
    """13.00: "Refer to the red die value and the PASS chart on the player's card to
    determine which position on the Playing Board for the offensive team will receive
    possession of the puck. (This can be the same player that already has possession.)"
    12.00: "If the interception goes to a vacant position on the Playing Board, the player
    with the puck retains possession of the puck and it is treated as a successful pass
    result instead." Both are the rules, not a fault: the line says which."""
    from setups import simulate

    from engine.bones.explain import describe
    from replay.games.game_streams import open_store

    store = open_store(tmp_path / "g.db")
    for seed in ("1", "5"):
        simulate(store, "HFX", "QUE", seed=seed, game_id=f"g{seed}")
    kept = [row.event for g in ("g1", "g5") for row in store.read(g)
            if isinstance(row.event, PuckPassed) and row.event.from_player == row.event.to_player]
    assert {e.rule for e in kept} == {"13.00", "12.00", "12.10"}  # the seeded games' 
    for e in kept:
        line = describe(None, e)
        assert line is not None and "→" not in line, line
        assert line.startswith(f"  pass {e.from_player} keeps the puck"), line
        if e.rule == "13.00":
            assert "his own position (13.00)" in line, line
        else:
            assert "a vacant position" in line and f"({e.rule})" in line, line
