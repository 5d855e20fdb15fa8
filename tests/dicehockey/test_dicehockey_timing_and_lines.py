"""DICE Hockey 9 (line changes, dumps, tired lines), 10 (lineup cards), 11 and 21A
(stamina), 12 (timing, time outs), 13 (overtime), 14 (shootouts), 21B (the must-dump)."""

from __future__ import annotations

import msgspec
import pytest
from dicehockey_support import carry, created, crosby, decide, new_state, pid, plain, put, rate

from engine.dicehockey import game, periods
from engine.dicehockey.game import IllegalChoice, check_choice, evolve
from engine.dicehockey.lines import may_change, slots_for
from engine.dicehockey.puck import count_space, give_puck
from engine.dicehockey.rulesets import VERSION_2
from engine.dicehockey.state import Penalty, Step
from events.common import GameEnded, PeriodEnded, PeriodStarted
from events.dicehockey import (
    DiceRolled,
    DumpDeclared,
    LinesChanged,
    PeriodLengthSet,
    PuckDumped,
    Roll,
    ShootoutShootersChosen,
    ShotTaken,
    TimeOutCalled,
    TimingSpaceCounted,
)
from replay.systems.dicehockey.library import dicehockey_charts, find_dicehockey_team


def change(state, side: str, forwards: int, defense: int) -> LinesChanged:
    team = state.team(side)
    return LinesChanged(side=side, forwards=forwards, defense=defense,
                        slots=slots_for(team, forwards, defense), rule="9")


# --- 12 timing ----------------------------------------------------------------------------

def test_12_period_length_is_the_two_timing_ratings_10_plus_11_is_21() -> None:
    home, away = find_dicehockey_team("ALD"), find_dicehockey_team("BRK")
    home = msgspec.structs.replace(home, timing=10)
    away = msgspec.structs.replace(away, timing=11)
    state = game.initial_state(created(), home, away, dicehockey_charts())
    events = decide(state, 0, Step("start_period"))
    assert events == [PeriodStarted(period=1), PeriodLengthSet(period=1, length=21, roll=0, rule="12")]
    assert state.queue[0].kind == "faceoff"


def test_12_the_period_ends_when_the_count_reaches_its_length() -> None:
    state = new_state(options=["learning_game"])
    carry(state, "home", "C")
    state.space = 20
    decide(state, 91)  # TRV A: the 21st timing space
    assert state.space == 21 and state.queue[0].kind == "end_period"
    assert isinstance(decide(state, 0)[0], PeriodEnded) and not state.period_live


def test_12_the_space_that_fills_the_period_is_played_out() -> None:
    state = new_state(options=["learning_game"])
    plain(state)
    put(state, "home", "C", crosby())
    carry(state, "home", "C")
    state.space = 20
    decide(state, 12)  # To LW PS: the shot is the 21st space
    assert state.queue[0].kind == "shot"
    decide(state, 0)
    assert state.home.score == 1 and state.queue[0].kind == "end_period"


def test_12_a_breakaway_after_the_turnover_that_fills_the_period_counts_no_22nd_space() -> None:
    """12: 10 + 11 = 21 shots/turnovers; "Once you have moved your pawn to the number 21,
    the period has ended". A TRV B that is the 21st space and turns into a breakaway (19)
    is played out (ruling R-DH-12a), and the count stays at 21."""
    state = new_state()
    carry(state, "home", "C")
    state.space = 20
    events = decide(state, 95)  # TRV B (21C): a turnover, the 21st timing space
    assert [e.space for e in events if isinstance(e, TimingSpaceCounted)] == [21]
    decide(state, 50)  # Turnover chart 50-54: the LW steals it and breaks away
    assert state.queue[0].kind == "shot" and state.queue[0].shot == "breakaway"
    events = decide(state, 99)  # the breakaway is missed
    assert isinstance(events[0], ShotTaken) and events[0].kind == "breakaway"
    assert not any(isinstance(e, TimingSpaceCounted) for e in events)
    assert state.space == 21 and state.queue[0].kind == "end_period"


def test_12_time_out_needs_the_puck_at_a_whistle_adds_a_space_and_rests_every_line() -> None:
    state = new_state()
    state.puck, state.whistle_side, state.coach_window = None, "home", True
    state.home.f_spaces = 3
    state.home.f_waiting = {2: {3}}
    with pytest.raises(IllegalChoice, match="12"):
        check_choice(state, TimeOutCalled(side="away", add_space=True, period_length=22,
                                          rule="12"))
    event = TimeOutCalled(side="home", add_space=True, period_length=22, rule="12")
    check_choice(state, event)
    evolve(state, event)
    assert state.length == 22 and state.home.f_spaces == 0 and not state.home.f_waiting
    with pytest.raises(IllegalChoice, match="one time out"):
        check_choice(state, event)


def test_13_regular_season_overtime_is_a_quarter_period_rounded_up_21_gives_6() -> None:
    state = new_state()
    state.regular_length = 21
    assert periods.period_length(state, 4) == 6
    state = new_state(options=["playoff"])
    state.regular_length = 21
    assert periods.period_length(state, 4) == 21


def test_13_tied_after_three_plays_overtime_and_its_first_goal_wins() -> None:
    state = new_state()
    state.space = state.length
    decide(state, 0)  # end of the first period
    state.period = 3
    decide(state, 0, Step("end_period"))
    assert state.queue[0].kind == "start_period"
    decide(state, 0)
    assert state.period == 4 and state.length == periods.period_length(state, 4)
    carry(state, "home", "C")
    decide(state, 0, Step("shot", side="home", player=pid(state, "home", "C"), shot="PS"))
    assert state.decided == "OT" and state.queue[0].kind == "end_period"
    events = decide(state, 0)
    assert isinstance(events[-1], GameEnded) and events[-1].decided == "OT"
    assert events[-1].winner == "home" and state.finished


def test_13_14_tied_after_overtime_goes_to_a_shootout() -> None:
    state = new_state()
    state.period = 4
    decide(state, 0, Step("end_period"))
    decide(state, 0)  # start_period: the shootout
    assert state.shootout is not None and state.queue[0].kind == "shootout_choice"


def test_13_playoff_overtime_periods_go_on_until_a_goal() -> None:
    state = new_state(options=["playoff"])
    for period in (4, 5, 6):
        state.period = period
        decide(state, 0, Step("end_period"))
        assert not state.finished and state.queue[0].kind == "start_period"


# --- 14 shootouts -----------------------------------------------------------------------

def shootout_state():
    state = new_state()
    state.period = 4
    decide(state, 0, Step("end_period"))
    decide(state, 0)
    chosen = ShootoutShootersChosen(
        home_shooters=[c.id for c in state.home.team.skaters[:3]],
        away_shooters=[c.id for c in state.away.team.skaters[:3]], rule="14")
    check_choice(state, chosen)
    evolve(state, chosen)
    return state


def test_14_00_49_shoots_on_the_players_card_50_99_on_the_goalies() -> None:
    state = shootout_state()
    step = state.queue[0]
    assert step.kind == "so_card" and step.side == "away"  # ruling R-14b: away first
    card = decide(state, 49)[0]
    assert card.card == "shooter" and card.upto == state.away.cards[step.player].so
    state = shootout_state()
    card = decide(state, 50)[0]
    assert card.card == "goalie" and card.upto == state.home.goalie_card().so


def test_14_shooters_must_be_three_of_the_teams_skaters() -> None:
    state = new_state()
    state.period = 4
    decide(state, 0, Step("end_period"))
    decide(state, 0)
    with pytest.raises(IllegalChoice, match="14"):
        check_choice(state, ShootoutShootersChosen(
            home_shooters=[state.home.team.skaters[0].id],
            away_shooters=[c.id for c in state.away.team.skaters[:3]], rule="14"))


@pytest.mark.parametrize(("taken", "winner"), [
    ([("away", True), ("home", False), ("away", True), ("home", False)], "away"),
    ([("away", True), ("home", False), ("away", False), ("home", True)], None),
    ([("away", False), ("home", False)] * 3, None),
    ([("away", False), ("home", False)] * 3 + [("away", True), ("home", False)], "away"),
    ([("away", True), ("home", True)] * 3 + [("away", False), ("home", True)], "home"),
])
def test_14_the_team_that_makes_more_goals_wins_ruling_sudden_death_after_three(
        taken, winner) -> None:
    assert periods.shootout_winner(taken) == winner


def test_14_the_shootout_winner_gets_one_goal() -> None:
    state = shootout_state()
    state.shootout.taken = [("away", True), ("home", False)] * 2
    state.decided = "SO"
    events = decide(state, 0)
    assert events[-1] == GameEnded(home_goals=0, away_goals=1, decided="SO", winner="away")


# --- 9 line changes -------------------------------------------------------------------

def test_9_windows_follow_who_has_the_puck() -> None:
    state = new_state()
    carry(state, "home", "LD")
    state.coach_window = True
    assert may_change(state, "home") == (True, False)  # your D has it: your forwards
    assert may_change(state, "away") == (True, True)  # the opponent: both
    carry(state, "home", "C")
    state.coach_window = True
    assert may_change(state, "home") == (False, True)  # your forward has it: your pair
    assert may_change(state, "away") == (True, False)  # the opponent: his forwards


def test_9_a_change_outside_the_window_is_illegal() -> None:
    state = new_state()
    carry(state, "home", "C")
    state.coach_window = True
    with pytest.raises(IllegalChoice, match="forward line may not change"):
        check_choice(state, change(state, "home", 2, 1))
    check_choice(state, change(state, "home", 1, 2))


def spaces(state, n: int) -> None:
    """``n`` timing spaces go by (9, 12: each a turnover or a possession's first shot)."""
    for _ in range(n):
        for event in count_space(state, "turnover", "19"):
            evolve(state, event)


def whistle_window(state) -> None:
    state.puck, state.window, state.coach_window = None, "stoppage", True


def changed(state, side: str, forwards: int, defense: int = 1) -> None:
    event = change(state, side, forwards, defense)
    check_choice(state, event)
    evolve(state, event)


@pytest.mark.parametrize("version", [1, VERSION_2])
def test_9_line_1_waits_until_lines_2_and_3_have_taken_a_full_shift(version: int) -> None:
    """9: "Line 1 cannot come back onto the ice until Lines 2 and 3 have taken a full
    shift": 1 -> 2 -> 3 -> 1 at one whistle is refused."""
    state = new_state()
    state.version = version  # both versions hold this (ruling R-DH-9b)
    whistle_window(state)
    changed(state, "home", 2)
    changed(state, "home", 3)  # 2 -> 3 at the same whistle: 3 is rested
    with pytest.raises(IllegalChoice, match=r"line 1 waits for lines \[2, 3\] to take a full"):
        check_choice(state, change(state, "home", 1, 1))


@pytest.mark.parametrize("version", [1, VERSION_2])
def test_9_a_full_shift_is_two_timing_spaces_one_is_not_enough(version: int) -> None:
    """9: "A line change must be made after two timing spaces": a full shift is two."""
    state = new_state()
    state.version = version  # both versions hold this (ruling R-DH-9b)
    whistle_window(state)
    changed(state, "home", 2)
    spaces(state, 2)
    whistle_window(state)
    changed(state, "home", 3)
    spaces(state, 1)
    whistle_window(state)
    with pytest.raises(IllegalChoice, match=r"line 1 waits for lines \[3\]"):
        check_choice(state, change(state, "home", 1, 1))
    spaces(state, 1)
    whistle_window(state)
    changed(state, "home", 1)


@pytest.mark.parametrize("version", [1, VERSION_2])
def test_r_9b_two_possessions_are_a_full_shift(version: int) -> None:
    """Ruling R-DH-9b: "If a line stays on the ice for more than two possessions, you
    MUST dump": two possessions are all a line may play, a full shift though fewer than
    two spaces went by."""
    state = new_state()
    state.version = version  # both versions hold this (ruling R-DH-9b)
    whistle_window(state)
    changed(state, "home", 2)
    give_puck(state, "home", pid(state, "home", "C"))
    assert state.home.f_waiting[1] == {2, 3}  # one possession: not yet
    give_puck(state, "away", pid(state, "away", "C"))
    assert state.home.f_possessions == 2 and state.home.f_spaces == 0
    assert state.home.f_waiting[1] == {3}


@pytest.mark.parametrize("version", [1, VERSION_2])
def test_r_9b_the_team_on_the_power_play_keeps_to_the_rotation(version: int) -> None:
    """9 exempts nobody: the power play's lines rotate; the team killing the penalty sends
    lines 1 and 2 only (15), so it cannot."""
    state = new_state()
    state.version = version  # both versions hold this (ruling R-DH-9b)
    state.away.penalties.append(Penalty(1, pid(state, "away", "RW"), "minor", 2, 0, True))
    whistle_window(state)
    changed(state, "home", 2)
    with pytest.raises(IllegalChoice, match=r"line 1 waits for lines \[2, 3\]"):
        check_choice(state, change(state, "home", 1, 1))
    changed(state, "away", 2)
    changed(state, "away", 1)  # short-handed: back to line 1 at once


def test_r_9b_when_every_line_waits_the_one_that_left_first_comes_on() -> None:
    """Ruling R-DH-9b as version 1 played it (kept for its stored games): shifts cut
    short can leave each line waiting for another; the one that has waited longest may
    then come on. Version 2 sends the line owed a shift (test_dicehockey_rotation.py)."""
    state = new_state()
    whistle_window(state)
    changed(state, "home", 2)
    changed(state, "home", 3)  # line 1 waits for 2 and 3; line 2 for 3 and 1
    spaces(state, 2)  # 3's full shift: 1 waits for 2, 2 for 1
    whistle_window(state)
    assert state.home.f_waiting == {1: {2}, 2: {1}}
    with pytest.raises(IllegalChoice, match=r"line 2 waits for lines \[1\]"):
        check_choice(state, change(state, "home", 2, 1))
    changed(state, "home", 1)


@pytest.mark.parametrize("version", [1, VERSION_2])
def test_9_11_a_b_stamina_line_waits_for_the_other_three(version: int) -> None:
    """11: "his line cannot come back onto the ice until lines 3, 4, and 1 have had a
    shift" (here line 1 has the B: it waits for 2, 3 and 4)."""
    state = new_state()
    state.version = version  # both versions hold this (ruling R-DH-9b)
    whistle_window(state)
    rate(state, "home", "C", stamina="B")
    for line in (2, 3):
        changed(state, "home", line)
        spaces(state, 2)
        whistle_window(state)
    with pytest.raises(IllegalChoice, match=r"waits for lines \[4\]"):
        check_choice(state, change(state, "home", 1, 1))


def test_10_a_fourth_line_missing_a_player_through_injury_is_excused() -> None:
    state = new_state()
    state.home.out[state.home.team.lines.forwards[3][1]] = "injured"
    decide(state, 0, Step("end_period"))
    assert not state.home.fourth_in_rotation and state.away.fourth_in_rotation


def test_9_a_fourth_line_that_sat_a_period_starts_the_next() -> None:
    state = new_state()
    decide(state, 0, Step("end_period"))
    assert state.home.fourth_in_rotation
    decide(state, 0, Step("start_period"))
    state.coach_window = True
    with pytest.raises(IllegalChoice, match="fourth line"):
        check_choice(state, change(state, "home", 2, 1))
    check_choice(state, change(state, "home", 4, 1))


def test_9_a_dump_gives_the_opposing_rd_on_even_ld_on_odd_and_opens_both_lines() -> None:
    state = new_state()
    carrier = carry(state, "home", "C")
    state.coach_window = True
    dump = DumpDeclared(side="home", player=carrier, rule="9")
    check_choice(state, dump)
    evolve(state, dump)
    assert state.queue[0] == Step("dump", side="home", player=carrier, reason="choice")
    events = decide(state, 44)
    assert isinstance(events[0], PuckDumped) and events[0].to_player == pid(state, "away", "RD")
    assert state.window == "dump" and may_change(state, "home") == (True, True)
    assert may_change(state, "away") == (True, True)
    carry(state, "home", "C")
    decide(state, 45, Step("dump", side="home", player=carrier, reason="choice"))
    assert state.puck == ("away", pid(state, "away", "LD"))


def test_9_a_tired_line_has_no_player_shots_and_its_defense_gives_minus_10() -> None:
    state = new_state(options=["learning_game"])
    plain(state)
    put(state, "home", "C", crosby())
    carry(state, "home", "C")
    spaces(state, 1)
    assert decide(state, 12)[0].shot == "PS"  # 12 is To LW PS (7): one space, not tired
    carry(state, "home", "C")
    spaces(state, 1)  # 9: "A line change must be made after two timing spaces": still on
    event = decide(state, 12)[0]
    assert event.shot == "GS" and "9: tired line, PS is GS" in event.modifiers
    state = new_state()
    plain(state)
    put(state, "home", "C", crosby())
    carry(state, "home", "C")
    rate(state, "away", "LD", defense=9)
    state.away.d_spaces = 2
    assert decide(state, 40)[0].modifier == -9 - 10


def test_9_a_line_on_for_more_than_two_possessions_must_dump() -> None:
    state = new_state()
    carry(state, "home", "C")
    state.fresh_possession = True
    state.home.f_possessions = 3
    assert state.queue[0].kind == "dump" and state.queue[0].reason == "line_overstayed"


def test_9_the_forced_dump_roll_is_played_as_a_dump() -> None:
    """9: "you MUST dump the puck as soon as possession is taken": the roll made for it is
    the dump (even: the other team's RD has it), not the carrier's pass."""
    state = new_state()
    carry(state, "home", "C")
    state.fresh_possession = True
    state.home.f_possessions = 3
    rolled = DiceRolled(n=1, roll=Roll(4, 4), purpose=state.queue[0].kind)
    evolve(state, rolled)
    events = game.decide(state, rolled.roll)
    assert [type(e) for e in events] == [PuckDumped]
    assert events[0].reason == "line_overstayed" and events[0].rule == "9"
    assert events[0].to_player == pid(state, "away", "RD")


def test_21b_more_than_one_shot_then_a_forward_of_the_new_team_must_dump() -> None:
    state = new_state()
    carry(state, "home", "C")
    state.possession_shots = 2
    state.coach_window = False
    give_puck(state, "away", pid(state, "away", "C"))
    assert state.queue[0].kind == "dump" and state.queue[0].reason == "21B"
    state = new_state()
    carry(state, "home", "C")
    state.possession_shots = 2
    give_puck(state, "away", pid(state, "away", "LD"))  # a defenseman: changes as normal
    assert state.queue[0].kind == "pass"


def test_15_only_the_first_two_lines_kill_penalties() -> None:
    state = new_state()
    state.home.out[pid(state, "home", "RW")] = "box"
    state.home.penalties.append(Penalty(1, pid(state, "home", "RW"), "minor", 2, 0, True))
    state.puck, state.window, state.coach_window = None, "stoppage", True
    with pytest.raises(IllegalChoice, match="first two lines"):
        check_choice(state, change(state, "home", 3, 1))
    check_choice(state, change(state, "home", 2, 1))


def test_10_a_centre_needs_a_face_off_rating() -> None:
    team = find_dicehockey_team("ALD")
    centre = team.skater(team.lines.forwards[0][1])
    assert centre.faceoff is not None
    swapped = [msgspec.structs.replace(c, faceoff=None, position="LW") if c.id == centre.id
               else c for c in team.skaters]
    with pytest.raises(msgspec.ValidationError, match="cannot play C"):
        msgspec.convert(msgspec.to_builtins(msgspec.structs.replace(team, skaters=swapped)),
                        type(team))


def test_14_fleurys_shootout_range_00_only_a_00_scores_on_his_card() -> None:
    state = shootout_state()
    state.home.goalies[state.home.goalie] = msgspec.structs.replace(
        state.home.goalie_card(), so=0)
    card = decide(state, 77)[0]
    assert card.card == "goalie" and card.upto == 0
    assert not decide(state, 1)[0].scored
    state = shootout_state()
    state.home.goalies[state.home.goalie] = msgspec.structs.replace(
        state.home.goalie_card(), so=0)
    decide(state, 77)
    assert decide(state, 0)[0].scored


def test_9_15_the_face_off_waits_for_a_line_change_the_coach_owes() -> None:
    state = new_state()
    state.home.penalties.append(Penalty(1, pid(state, "home", "RW"), "minor", 2, 0, True))
    state.home.forwards = 3
    state.puck = None
    with pytest.raises(IllegalChoice, match="15: home kills its penalty with line 1 or 2"):
        decide(state, 10, Step("faceoff"))
    state.home.forwards = 2
    assert decide(state, 10, Step("faceoff"))[0].side == "home"


def test_r_9b_a_line_back_on_counts_its_next_full_shift_again() -> None:
    """9: "Line 1 cannot come back onto the ice until Lines 2 and 3 have taken a full
    shift or the period has ended or a team has taken a time out": a line's full shift
    counts for the lines waiting for it at each of its shifts, not only its first
    (engine: its count is skipped only while it stays on), and after a time out the waits
    start again from nothing."""
    state = new_state()
    whistle_window(state)
    changed(state, "home", 2)  # line 1 waits for 2 and 3
    spaces(state, 2)  # 2's full shift
    whistle_window(state)
    changed(state, "home", 3)  # line 2 waits for 3 and 1
    spaces(state, 2)  # 3's full shift: line 1 may come back
    whistle_window(state)
    changed(state, "home", 1)  # line 3 waits for 1 and 2
    spaces(state, 2)  # 1's full shift: line 2 waits for nobody, line 3 still for 2
    assert not state.home.f_waiting[2] and state.home.f_waiting[3] == {2}
    whistle_window(state)
    changed(state, "home", 2)  # line 1 waits for 2 and 3 again
    spaces(state, 1)
    assert state.home.f_waiting[1] == {2, 3}  # one space: no full shift yet
    spaces(state, 1)  # 2's second full shift counts as its first did
    assert state.home.f_waiting[1] == {3} and state.home.f_waiting[3] == set()
    state.whistle_side = "home"
    whistle_window(state)
    evolve(state, TimeOutCalled(side="home", add_space=True, period_length=22, rule="12"))
    assert not state.home.f_waiting and not state.home.f_shifts  # 12: every line rested
    spaces(state, 2)  # line 2, still on, has a full shift after the time out
    assert state.home.f_shifts == [2]  # ruling R-DH-9b: the latest full shift is line 2's
    whistle_window(state)
    changed(state, "home", 3)  # line 2 waits for 3 and 1
    spaces(state, 2)  # 3's full shift counts
    assert state.home.f_waiting[2] == {1} and state.home.f_shifts == [2, 3]
