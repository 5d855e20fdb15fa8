"""DICE Hockey rulings not pinned elsewhere (docs/rulings.md, "DICE Hockey")."""

from __future__ import annotations

import pytest
from dicehockey_support import carry, crosby, decide, new_state, pid, plain, put, rate

from engine.dicehockey import faceoffs
from engine.dicehockey.coach import DefaultCoach
from engine.dicehockey.game import IllegalChoice, check_choice, evolve
from engine.dicehockey.lines import on_ice, slots_for
from engine.dicehockey.puck import count_space, whistle
from engine.dicehockey.rulesets import VERSION_2
from engine.dicehockey.state import Call, Step
from events.dicehockey import (
    DumpDeclared,
    ExtraAttackerAdded,
    GoalieChanged,
    LinesChanged,
    PenaltyEnded,
    PlayStopped,
    TimingSpaceCounted,
)


def test_r_6a_a_face_off_range_never_leaves_00_99() -> None:
    assert faceoffs.home_upto(30, -30) == 99 and faceoffs.home_upto(-30, 30) == -1


@pytest.mark.parametrize(("version", "modifier"), [(VERSION_2, -5 - 10), (1, -5)])
def test_r_8b_a_rebound_against_a_tired_defense_keeps_the_minus_10(version, modifier) -> None:
    """8: "After a shot has been saved, if it goes to an offensive player ignore all
    defensive ratings and only use the player's passer rating ... If he is in possession
    of a rebound he ignores any defense and now gets to subtract -5" (Hossa, passer -5).
    9: "At any time you leave a line in after their playing time has run out ... On
    defense ignore your defense ratings and subtract -10 to your opponents passing
    numbers." The -10 is no defensive rating (9 names it besides ignoring them) and 9
    says "at any time": Hossa's rebound against a tired pair is -5 - 10 = -15 (ruling
    R-DH-8b). Version 1 dropped the -10 (-5), and its games keep that."""
    state = new_state()
    state.version = version
    plain(state)
    rate(state, "home", "C", passer=-5)
    rate(state, "away", "LD", defense=5)
    rate(state, "away", "RD", defense=4)
    carry(state, "home", "C")
    state.rebound = True
    state.away.d_spaces = 2  # 9: "A line change must be made after two timing spaces"
    assert state.away.tired()
    event = decide(state, 40)[0]
    assert event.modifier == modifier and event.value == 40 + modifier
    assert ("9: tired defense -10" in event.modifiers) == (version == VERSION_2)
    carry(state, "home", "C")
    state.rebound = True
    state.away.d_spaces = 0  # rested: the rebound ignores the +9 defense, passer only
    assert decide(state, 40)[0].modifier == -5


def test_r_9a_a_line_is_tired_as_soon_as_its_two_spaces_are_used() -> None:
    """9: "A line change must be made after two timing spaces"; left on after that, it
    pays at once (ruling R-DH-9a: either unit costs its team)."""
    state = new_state()
    state.home.f_spaces = 1
    assert not state.home.tired()
    state.home.f_spaces = 2
    assert state.home.tired()
    state.home.f_spaces, state.home.d_spaces = 0, 2
    assert state.home.tired()


def test_r_9c_a_change_never_takes_the_carrier_off_the_ice() -> None:
    state = new_state()
    carry(state, "home", "LD")
    state.coach_window = True
    team = state.home
    with pytest.raises(IllegalChoice, match="pair may not change"):
        check_choice(state, LinesChanged(side="home", forwards=1, defense=2,
                                         slots=slots_for(team, 1, 2), rule="9"))
    state.window = "dump"  # both units may change, but not past the carrier
    with pytest.raises(IllegalChoice, match="stays on the ice"):
        check_choice(state, LinesChanged(side="home", forwards=1, defense=2,
                                         slots=slots_for(team, 1, 2), rule="9"))


def test_r_9f_a_dump_is_no_timing_space() -> None:
    state = new_state()
    carrier = carry(state, "home", "C")
    events = decide(state, 3, Step("dump", side="home", player=carrier, reason="choice"))
    assert not any(isinstance(e, TimingSpaceCounted) for e in events) and state.space == 0


def test_r_9_a_dump_is_declared_only_by_the_carrier_before_his_roll() -> None:
    state = new_state()
    carry(state, "home", "C")
    with pytest.raises(IllegalChoice, match="team with the puck"):
        check_choice(state, DumpDeclared(side="away", player=pid(state, "away", "C"), rule="9"))


def test_r_10a_a_player_out_is_replaced_by_the_fourth_lines_player_in_his_slot() -> None:
    state = new_state()
    rw = pid(state, "home", "RW")
    state.home.out[rw] = "injured"
    assert on_ice(state, "home")["RW"] == state.home.team.lines.forwards[3][2]


def test_r_11a_b_stamina_on_a_top_pair_waits_only_as_any_pair_does() -> None:
    state = new_state()
    state.puck, state.window, state.coach_window = None, "stoppage", True
    rate(state, "home", "LD", stamina="B")
    for pair in (2, 3):
        event = LinesChanged(side="home", forwards=1, defense=pair,
                             slots=slots_for(state.home, 1, pair), rule="9")
        check_choice(state, event)
        evolve(state, event)
        for _ in range(2):  # its full shift: two timing spaces (9)
            for space in count_space(state, "turnover", "19"):
                evolve(state, space)
        state.puck, state.window, state.coach_window = None, "stoppage", True
    check_choice(state, LinesChanged(side="home", forwards=1, defense=1,
                                     slots=slots_for(state.home, 1, 1), rule="9"))


def test_r_15b_a_clear_leaves_the_puck_with_the_power_plays_defenseman_by_parity() -> None:
    state = new_state(options=["learning_game"])
    plain(state)
    for event in whistle(state, "penalty", "15",
                         (Call("away", pid(state, "away", "RW"), "Tripping", "minor"),)):
        evolve(state, event)
    carry(state, "away", "C")
    rate(state, "away", "C", passing=crosby().passing)
    decide(state, 55)
    assert state.puck == ("home", pid(state, "home", "LD"))  # 55 is odd
    carry(state, "away", "C")
    decide(state, 56)
    assert state.puck == ("home", pid(state, "home", "RD"))


def test_r_15d_a_misconduct_sits_ten_timing_spaces_without_a_man_short() -> None:
    state = new_state()
    carry(state, "home", "C")
    events = decide(state, 79, Step("special", side="home", player=pid(state, "home", "C")))
    assessed = next(e for e in events if getattr(e, "kind", "") == "misconduct")
    assert assessed.spaces == 10 and not assessed.short and state.home.men_short() == 0
    state.puck = None
    for _ in range(10):
        spaced = count_space(state, "turnover", "19")
        for event in spaced:
            evolve(state, event)
    assert isinstance(spaced[-1], PenaltyEnded) and not state.home.penalties


def test_r_16a_special_10_49_is_play_on_or_a_scrum() -> None:
    state = new_state()
    carry(state, "home", "C")
    events = decide(state, 20, Step("special", side="home", player=pid(state, "home", "C")))
    assert events[0].kind == "play_on" and state.queue[0].kind == "pass"
    events = decide(state, 40, Step("special", side="home", player=pid(state, "home", "C")))
    assert events[0].kind == "scrum" and isinstance(events[-1], PlayStopped)


def test_r_17a_an_injured_player_is_out_for_the_rest_of_the_game() -> None:
    state = new_state()
    carry(state, "home", "C")
    centre = pid(state, "home", "C")
    decide(state, 89, Step("special", side="home", player=centre))
    assert state.home.out[centre] == "injured" and centre not in on_ice(state, "home").values()


def test_r_19a_a_breakaway_is_its_possessions_first_shot_and_a_timing_space() -> None:
    state = new_state()
    put(state, "away", "C", crosby())
    carry(state, "home", "C")
    decide(state, 57, Step("turnover", side="home", player=pid(state, "home", "C")))
    events = decide(state, 80)
    assert any(isinstance(e, TimingSpaceCounted) and e.reason == "shot" for e in events)


def test_22_the_offenses_coach_picks_the_delayed_penalty_extra_attacker() -> None:
    """22: "take any player from any line and add him to the line currently on the ice":
    the coach's pick of any dressed skater off the ice; the default coach's habit is the
    widest goal range."""
    state = new_state()
    carry(state, "home", "C")
    decide(state, 6, Step("penalty_what", side="home", player=pid(state, "away", "RD"),
                          source="skater", team="away"))
    assert state.queue[0].kind == "extra_attacker" and state.queue[0].side == "home"
    on = set(on_ice(state, "home").values())
    free = [c for c in state.home.team.skaters if c.id not in on]
    habit = DefaultCoach().lines(state)
    assert habit == [ExtraAttackerAdded(side="home", player=max(free, key=lambda c: c.goal).id,
                                        rule="22")]
    for wrong in (pid(state, "home", "LW"), state.home.goalie, pid(state, "away", "LW")):
        with pytest.raises(IllegalChoice, match="22"):
            check_choice(state, ExtraAttackerAdded(side="home", player=wrong, rule="22"))
    narrowest = min(free, key=lambda c: c.goal).id
    pick = ExtraAttackerAdded(side="home", player=narrowest, rule="22")
    check_choice(state, pick)
    evolve(state, pick)
    assert on_ice(state, "home")["EA"] == narrowest and state.queue[0].kind == "pass"
    with pytest.raises(IllegalChoice, match="22"):  # no second pick without a new call
        check_choice(state, pick)
    # a second delayed call in the same delay: he is named again, the same or another;
    # the habit names the widest range off the ice (the one on is on the ice)
    decide(state, 6, Step("penalty_what", side="home", player=pid(state, "away", "LD"),
                          source="skater", team="away"))
    assert state.queue[0].kind == "extra_attacker" and len(state.delayed) == 2
    check_choice(state, pick)  # keeping him
    (again,) = DefaultCoach().lines(state)
    assert again.player != narrowest and again.player == max(
        (c for c in free if c.id != narrowest), key=lambda c: c.goal).id


def test_r_22e_the_goalie_is_pulled_for_a_free_skater_at_a_window() -> None:
    state = new_state()
    carry(state, "home", "C")
    state.coach_window = True
    on_ice_now = pid(state, "home", "LW")
    with pytest.raises(IllegalChoice, match="no free skater"):
        check_choice(state, GoalieChanged(side="home", goalie=state.home.goalie, pulled=True,
                                          extra_attacker=on_ice_now, rule="22"))
    extra = state.home.team.lines.forwards[3][0]
    pull = GoalieChanged(side="home", goalie=state.home.goalie, pulled=True,
                         extra_attacker=extra, rule="22")
    check_choice(state, pull)
    evolve(state, pull)
    assert on_ice(state, "home")["EA"] == extra


def test_r_22f_an_extra_attacker_whose_line_comes_on_is_not_counted_twice() -> None:
    """22: the extra attacker is a sixth skater. When his own line comes on (here the
    fourth line, with the extra attacker its LW), he plays his slot and the first free
    dressed skater takes the extra attacker's place: no player stands in two slots."""
    state = new_state()
    carry(state, "home", "C")
    state.coach_window = True
    extra = state.home.team.lines.forwards[3][0]
    pull = GoalieChanged(side="home", goalie=state.home.goalie, pulled=True,
                         extra_attacker=extra, rule="22")
    evolve(state, pull)
    state.home.forwards = 4  # the fourth line comes on, the extra attacker with it
    slots = on_ice(state, "home")
    skaters = [p for p in slots.values() if p is not None]
    assert slots["LW"] == extra and slots["EA"] != extra
    assert len(skaters) == len(set(skaters)) == 6


@pytest.mark.parametrize("kind", ["minor", "misconduct"])
def test_r_22g_a_penalized_extra_attacker_goes_to_the_box(kind: str) -> None:
    """15: "Take the player off of his line and place him in the penalty box" holds for
    the extra attacker too (22: "place your extra skater there"). With the goalie still
    pulled his box is filled: after a minor as 15 fills any hole ("No matter which player
    the penalty was on, the LW box is empty": the LW steps into it, a man short); after a
    misconduct, not short, by the first free dressed skater (as R-DH-22f). Version 1 kept
    him on as the extra attacker from the box."""
    from events.dicehockey import PenaltyAssessed

    state = new_state()
    carry(state, "home", "C")
    state.coach_window = True
    on = set(on_ice(state, "home").values())
    extra = next(c.id for c in state.home.team.skaters if c.id not in on)
    evolve(state, GoalieChanged(side="home", goalie=state.home.goalie, pulled=True,
                                extra_attacker=extra, rule="22"))
    assert on_ice(state, "home")["EA"] == extra
    left_wing = on_ice(state, "home")["LW"]
    short = kind == "minor"
    evolve(state, PenaltyAssessed(id=1, side="home", player=extra, infraction="hooking",
                                  kind=kind, minutes=2 if short else 10,
                                  clears=2 if short else 0, spaces=0 if short else 10,
                                  short=short, period=1, space=0, roll=1, rule="15"))
    slots = on_ice(state, "home")
    skaters = [p for p in slots.values() if p is not None]
    assert extra not in skaters
    assert len(skaters) == len(set(skaters)) == (5 if short else 6)
    if short:
        assert slots["LW"] is None and slots["EA"] == left_wing
    else:
        assert slots["EA"] is not None and slots["EA"] not in on
    state.version = 1  # as a version-1 game played it: he stayed on from the box
    assert on_ice(state, "home")["EA"] == extra
