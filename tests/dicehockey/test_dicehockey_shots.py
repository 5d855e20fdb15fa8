"""DICE Hockey 8 (shooting, saves), 19 (breakaways, turnovers), 20 (forward defense, the
always-a-goal 00), 22 (goons, timing spaces, the empty net)."""

from __future__ import annotations

from dicehockey_support import (
    carry,
    crosby,
    decide,
    fleury,
    malone,
    new_state,
    pid,
    plain,
    put,
    put_goalie,
    rate,
)

from engine.dicehockey.state import Step
from events.dicehockey import (
    GoalScored,
    PlayStopped,
    PuckDumped,
    TimingSpaceCounted,
    TurnoverRolled,
)


def shooting(options: list[str] | None = None):
    state = new_state(options=["learning_game", *(options or [])])
    plain(state)
    put(state, "home", "C", crosby())
    put(state, "home", "LW", malone())
    put_goalie(state, "away", fleury())
    carry(state, "home", "C")
    return state


def shot(state, kind: str, value: int, slot: str = "LW", miss: str = ""):
    shooter = pid(state, "home", slot)
    return decide(state, value, Step("shot", side="home", player=shooter, shot=kind, miss=miss))


def test_8_ps_reads_the_shooters_range_gs_the_goalies() -> None:
    state = shooting()
    assert shot(state, "PS", 28)[0].goal  # Malone 00-28
    state = shooting()
    assert not shot(state, "GS", 28)[0].goal  # Fleury 00-04
    state = shooting()
    assert shot(state, "GS", 4)[0].goal


def test_8_every_shot_that_is_not_a_goal_is_a_save_with_the_puck_placed() -> None:
    state = shooting()
    taken = shot(state, "PS", 29)[0]
    assert not taken.goal and taken.puck_to is not None and taken.goalie == state.away.goalie


def test_20_a_00_is_always_a_goal_even_with_modifiers() -> None:
    state = shooting(["forward_defense"])
    for slot in ("LW", "C", "RW"):
        rate(state, "away", slot, defense=1)
    rate(state, "home", "LW", goal=0)
    taken = shot(state, "PS", 0)[0]
    assert taken.modifier == 3 and taken.goal


def test_20_forward_defense_example_plus_2_makes_11_a_13() -> None:
    state = shooting(["forward_defense"])
    rate(state, "away", "LW", defense=1)
    rate(state, "away", "C", defense=1)
    rate(state, "home", "LW", goal=12)
    taken = shot(state, "PS", 11)[0]
    assert taken.modifier == 2 and taken.raw + taken.modifier == 13 and not taken.goal


def test_20_forward_defense_is_off_by_default() -> None:
    state = shooting()
    rate(state, "away", "LW", defense=1)
    rate(state, "home", "LW", goal=12)
    assert shot(state, "PS", 12)[0].goal


def test_22_goons_add_one_to_shots_and_cancel_each_other() -> None:
    state = shooting()
    rate(state, "home", "LW", goal=12)
    rate(state, "away", "RD", penalty=75)  # a goon
    taken = shot(state, "GS", 4)[0]
    assert taken.modifier == 1 and not taken.goal  # Fleury 00-04: 4 + 1 = 5
    state = shooting()
    rate(state, "away", "RD", penalty=80)
    rate(state, "away", "LD", penalty=90)
    rate(state, "home", "RD", penalty=75)  # one goon cancels all of them
    assert shot(state, "GS", 4)[0].modifier == 0


def test_19_breakaway_adds_30_crosby_00_22_is_00_52() -> None:
    state = shooting()
    taken = shot(state, "breakaway", 52, slot="C", miss="LD")[0]
    assert taken.upto == 52 and taken.goal
    state = shooting()
    taken = shot(state, "breakaway", 53, slot="C", miss="LD")[0]
    assert not taken.goal and (taken.puck_side, taken.slot) == ("away", "LD")


def test_22_only_the_first_shot_of_a_possession_is_a_timing_space() -> None:
    state = shooting()
    spaces = []
    for value in (80, 80, 80):  # Malone's Saves 71-99: To O C, the offense keeps it
        events = shot(state, "PS", value)
        spaces += [e for e in events if isinstance(e, TimingSpaceCounted)]
    assert len(spaces) == 1 and state.possession_shots == 3 and state.space == 1


def test_9_12_a_goal_on_a_possessions_first_shot_is_at_the_space_that_shot_fills() -> None:
    """9: "A timing space is either a turnover or the offensive team's first shot during
    that possession." A goal on that first shot goes in at the space the shot fills: at
    space 4, the shot is space 5 and so is the goal (the scoresheet's time). A goal on a
    later shot of the possession is at the space already counted. Version 1 stored the
    space before the shot's (4): such a game keeps it (tests/data)."""
    state = shooting()
    state.space = 4
    events = shot(state, "PS", 3)  # Malone 00-28: the possession's first shot, a goal
    counted = next(e for e in events if isinstance(e, TimingSpaceCounted))
    goal = next(e for e in events if isinstance(e, GoalScored))
    assert (counted.space, goal.space) == (5, 5)
    state = shooting()
    state.space = 4
    shot(state, "PS", 80)  # saved, the offense keeps it (Malone's To O C): space 5
    events = shot(state, "PS", 3)  # a rebound goal: no space of its own
    assert not any(isinstance(e, TimingSpaceCounted) for e in events)
    assert next(e for e in events if isinstance(e, GoalScored)).space == 5
    state = shooting()
    state.version, state.space = 1, 4  # as a version-1 game played it
    goal = next(e for e in shot(state, "PS", 3) if isinstance(e, GoalScored))
    assert goal.space == 4


def test_9_18_a_goal_on_the_space_that_ends_a_fight_is_still_in_that_one_space() -> None:
    """18: a fight's box time is counted in timing spaces; the possession's first shot
    that ends it is still one space (9), and so the goal on it: at space 4, both 5."""
    from engine.dicehockey.state import Penalty

    state = shooting()
    state.space = 4
    for side in ("home", "away"):
        state.team(side).penalties.append(Penalty(
            id=len(state.team(side).penalties) + 1, player=pid(state, side, "RD"),
            kind="fight", clears_left=0, spaces_left=1, short=False))
    events = shot(state, "PS", 3)
    assert [e.space for e in events if isinstance(e, TimingSpaceCounted)] == [5]
    assert next(e for e in events if isinstance(e, GoalScored)).space == 5


def test_8_goal_stops_play_and_credits_the_goalie_against() -> None:
    state = shooting()
    events = shot(state, "PS", 3)
    goal = next(e for e in events if isinstance(e, GoalScored))
    assert goal.goalie == state.away.goalie and goal.strength == "EV"
    assert isinstance(events[-1], PlayStopped) and state.home.score == 1
    assert state.queue[0].kind == "faceoff"


def test_19_turnover_chart_steal_breakaway_and_face_off() -> None:
    state = shooting()
    events = decide(state, 15, Step("turnover", side="home", player=pid(state, "home", "C")))
    assert isinstance(events[0], TurnoverRolled) and events[0].kind == "steal"
    assert state.puck == ("away", pid(state, "away", "C"))
    state = shooting()
    decide(state, 57, Step("turnover", side="home", player=pid(state, "home", "C")))
    assert state.queue[0] == Step("shot", side="away", player=pid(state, "away", "C"),
                                  shot="breakaway", miss="RD")
    state = shooting()
    events = decide(state, 70, Step("turnover", side="home", player=pid(state, "home", "C")))
    assert events[0].kind == "icing" and isinstance(events[-1], PlayStopped)


def test_22_passing_it_around_against_an_empty_net_two_good_passes_then_the_roll() -> None:
    state = shooting()
    away = state.away
    away.pulled, away.extra_attacker = True, away.team.lines.forwards[3][0]
    events = decide(state, 65)  # To LW: a good pass
    assert events[0].result == "good_pass" and state.en_passes == 1
    put(state, "home", "LW", crosby())
    decide(state, 55)  # To C: the second
    assert state.queue[0].kind == "en_attempt"
    events = decide(state, 5)  # a PS: into the empty net
    assert isinstance(events[0], PuckDumped) and events[0].outcome == "goal"
    goal = next(e for e in events if isinstance(e, GoalScored))
    assert goal.strength == "EN" and goal.goalie is None


def test_22_against_an_empty_net_a_pass_to_the_carrier_is_a_steal() -> None:
    state = shooting()
    away = state.away
    away.pulled, away.extra_attacker = True, away.team.lines.forwards[3][0]
    events = decide(state, 55)  # Crosby, the C: To C
    assert events[0].result == "steal" and state.puck == ("away", away.extra_attacker)


def test_22_empty_net_dump_reads_the_column_unmodified() -> None:
    for value, outcome in ((12, "goal"), (30, "steal"), (65, "icing"), (92, "recovered")):
        state = shooting()
        away = state.away
        away.pulled, away.extra_attacker = True, away.team.lines.forwards[3][0]
        carrier = pid(state, "home", "C")
        events = decide(state, value, Step("dump", side="home", player=carrier, reason="choice"))
        assert events[0].outcome == outcome, value
