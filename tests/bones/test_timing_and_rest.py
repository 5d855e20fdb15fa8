"""6.00-6.41 timing and changes, 15.00 positioning, 16.00 assists, 17.00 fatigue,
18.00 injuries, 21.00 shootout."""

from __future__ import annotations

import msgspec
import pytest
from bones_support import R, apply, new_state, penalize, rate

from engine.bones import injuries, lines, periods, scoring, timing
from engine.bones.state import PlayerStatus, Scorer, Step
from events.bones import AssistsAwarded, GoalScored, InjuryChecked, LinesChanged, ShootoutAttempt
from events.common import GameEnded

# --- 6.00 / 6.30 / 6.40 / 6.41 --------------------------------------------------------

def test_6_00_periods_are_50_sequences_overtime_12(state):
    assert state.period_length == 50
    state.period = 4
    assert state.period_length == 12


def test_6_30_exact_time_example_12_24_plus_9_is_12_33():
    sequence = (12 * 60 + 24) // 24 + 1  # the 12:24-12:48 sequence is the 32nd
    assert sequence == 32
    assert timing.period_seconds(sequence, 9) == 12 * 60 + 33


def test_6_30_goal_time_read_from_the_exact_time_table(state):
    state.charts = msgspec.structs.replace(state.charts, exact_time=[[9] * 11] * 6)
    state.sequence = 32
    event = scoring.decide_exact_time(state, Step("time", incident="goal"), R(1, 1, 1, 1))[0]
    assert event.time == 753 and event.kind == "goal"


def status(shift=10.0, stint=0, shifts=0.0):
    base = new_state()
    card = base.home.card(base.home.slots["C"])
    return PlayerStatus(card=msgspec.structs.replace(card, shift=shift), stint=stint,
                        shifts=shifts)


def test_6_40_three_to_five_sequences_is_a_full_shift():
    s = status(stint=3)
    timing.end_stint(s)
    assert (s.shifts, s.stint, s.rest) == (1.0, 0, 0)


def test_6_40_one_or_two_sequences_is_a_half_shift():
    s = status(stint=2)
    timing.end_stint(s)
    assert s.shifts == 0.5


def test_6_40a_period_end_ends_every_shift(state):
    pid = state.home.slots["C"]
    state.home.players[pid].stint = 2
    state.queue = [Step("end_period")]
    state.home.score = 1
    apply(state, periods.decide_end_period(state, state.queue[0], None))
    assert state.home.players[pid].shifts == 0.5
    assert state.home.players[pid].stint == 0


def test_6_10_sequence_played_counts_stints_and_rest(state):
    on = state.home.slots["C"]
    off = state.home.team.lines.forwards[1][1]
    before = state.home.players[off].rest
    apply(state, timing.play_sequence(state))
    assert state.sequence == 11
    assert state.home.players[on].stint == 1
    assert state.home.players[off].rest == before + 1


def change(state, side="home", **slots):
    new = dict(state.team(side).slots)
    new.update(slots)
    return LinesChanged(side=side, slots=new, on_the_fly=False, rule="6.41")


def test_6_41_skater_must_rest_three_sequences(state):
    fresh = state.home.team.lines.forwards[1][1]
    state.home.players[fresh].rest = 2
    assert "6.41" in lines.check_lines(state, change(state, C=fresh))
    state.home.players[fresh].rest = 3
    assert lines.check_lines(state, change(state, C=fresh)) is None


def test_6_41_carrier_cannot_change_on_the_fly(state):
    fresh = state.home.team.lines.forwards[1][1]
    state.puck = ("home", state.home.slots["C"])
    event = msgspec.structs.replace(change(state, C=fresh), on_the_fly=True)
    assert "has the puck" in lines.check_lines(state, event)


def test_6_41_goalie_pulled_on_the_fly_waits_for_a_stoppage(state):
    from events.bones import PlayStopped

    extra = state.home.team.lines.forwards[1][1]
    goalie = state.home.goalie
    state.puck = ("away", state.away.slots["C"])
    pull = msgspec.structs.replace(change(state, G=extra), on_the_fly=True)
    assert lines.check_lines(state, pull) is None
    apply(state, [pull])
    assert state.home.pulled and state.home.pulled_on_the_fly
    back = msgspec.structs.replace(change(state, G=goalie), on_the_fly=True)
    assert "stoppage" in lines.check_lines(state, back)
    state.queue = [Step("action")]
    apply(state, [PlayStopped(reason="icing", zone="home")])
    back = msgspec.structs.replace(back, on_the_fly=False)
    assert lines.check_lines(state, back) is None


def test_6_41_goalie_cannot_skate(state):
    backup = state.home.team.lines.goalies[1]
    assert "goalie" in lines.check_lines(state, change(state, C=backup))


# --- 15.00 ----------------------------------------------------------------------------

def test_15_00_slots_for_four_and_three_skaters():
    assert lines.SLOTS_FOR[4] == ("LW", "RW", "LD", "RD")
    assert lines.SLOTS_FOR[3] == ("C", "LD", "RD")


def test_15_00_four_skaters_must_leave_c_empty(state):
    penalize(state, "home", slot="RW")
    bad = change(state, RW=None)  # C still filled, RW empty
    assert "15.00" in lines.check_lines(state, bad)
    good = change(state, RW=state.home.slots["C"], C=None)
    assert lines.check_lines(state, good) is None


def test_15_00_three_skaters_stand_c_ld_rd(state):
    penalize(state, "home", slot="RW")
    penalize(state, "home", slot="LW")
    assert lines.skater_slots(state, "home") == ("C", "LD", "RD")


# --- 16.00 ----------------------------------------------------------------------------

def goal_scored(state):
    scorer = state.home.slots["C"]
    state.scorer = Scorer("home", scorer)
    return scorer


def test_16_00_assists_ranked_4_is_the_best_assist_rating(state):
    scorer = goal_scored(state)
    best = rate(state, "home", "LD", assist=9)
    second = rate(state, "home", "LW", assist=8)
    for slot in ("RW", "RD"):
        rate(state, "home", slot, assist=1)
    state.charts = msgspec.structs.replace(state.charts, assists=[["2/4-3"] * 11] * 6)
    event = scoring.decide_assist_ranks(state, Step("assist_ranks", number=2), R(1, 1, 1, 1))[0]
    assert isinstance(event, AssistsAwarded)
    assert event.players == [best, second] and scorer not in event.players


def test_16_00_first_assist_to_the_highest_rank_after_the_slash(state):
    """16.00: with "2/2-4" the first assist goes to rank 4 (the best assist rating), so a
    single remaining assist (the goalie took one) is rank 4's, not rank 2's."""
    goal_scored(state)
    state.charts = msgspec.structs.replace(state.charts, assists=[["2/2-4"] * 11] * 6)
    ranked = scoring.ranked_teammates(state)
    both = scoring.decide_assist_ranks(state, Step("assist_ranks", number=2), R(1, 1, 1, 1))[0]
    assert both.players == [ranked[0], ranked[2]]
    one = scoring.decide_assist_ranks(state, Step("assist_ranks", number=1), R(1, 1, 1, 1))[0]
    assert one.players == [ranked[0]]


def test_16_00_goalie_assist_in_range_takes_one(state):
    goal_scored(state)
    rate(state, "home", "goalie", assist_range="6-12")
    step = Step("goalie_assist", number=1)
    events = scoring.decide_goalie_assist(state, step, R(1, 1, 1, 1))
    assert events[0].in_range and events[1].players == [state.home.goalie]


def test_16_00a_assist_the_cell_leaves_unnamed_goes_to_the_best(state):
    goal_scored(state)
    best = rate(state, "home", "RD", assist=9)
    state.charts = msgspec.structs.replace(state.charts, assists=[["1/1"] * 11] * 6)
    state.home.slots["LW"] = state.home.slots["RW"] = state.home.slots["LD"] = None
    event = scoring.decide_assist_ranks(state, Step("assist_ranks", number=1), R(1, 1, 1, 1))[0]
    assert event.players == [best]  # rank 1 is vacant with one teammate on the ice


def test_16_00_goal_counts_and_opens_assists(state):
    state.queue = [Step("goalie")]
    events = scoring.goal_events(state, "home", state.home.slots["C"], "normal", "11.10")
    assert isinstance(events[0], GoalScored) and events[0].strength == "EV"
    apply(state, events)
    assert state.home.score == 1
    assert [s.kind for s in state.queue] == ["time", "assists", "stop"]


# --- 17.00 ----------------------------------------------------------------------------

def test_17_00_minus_one_numeric_per_excess_shift():
    assert timing.fatigue_numeric(status(shift=10, shifts=10)) == 0
    assert timing.fatigue_numeric(status(shift=10, shifts=11)) == 1
    assert timing.fatigue_numeric(status(shift=10, shifts=12.5)) == 2


def test_17_00_defense_minus_one_per_two_excess_from_the_third():
    assert [timing.fatigue_defense(status(shift=10, shifts=10 + n)) for n in range(7)] == \
        [0, 0, 0, 1, 1, 2, 2]


# --- 18.00 / 18.10 --------------------------------------------------------------------

def hurt(state, roll):
    pid = state.home.slots["C"]
    step = Step("injury", side="home", player=pid)
    state.queue = [step]
    return pid, injuries.decide_injury(state, step, roll)[0]


def test_18_00_no_injury_when_oip_below_blue_minus_one(state):
    for slot in ("LW", "C", "RW", "LD", "RD"):
        rate(state, "away", slot, intimidation=0)
    rate(state, "away", "LD", intimidation=2)
    _, event = hurt(state, R(4, 1, 1, 1))  # adjusted blue 3 > OIP 2
    assert (event.oip, event.adjusted_blue, event.result) == (2, 3, "")


def test_18_10_injury_table_result(state):
    for slot in ("LW", "C", "RW", "LD", "RD"):
        rate(state, "away", slot, intimidation=0)
    rate(state, "away", "LD", intimidation=2)
    pid, event = hurt(state, R(3, 1, 1, 1))  # adjusted 2 <= 2: OIP 2 row, white 2
    assert event.result == state.charts.injuries[2][0]
    apply(state, [msgspec.structs.replace(event, result="-2")])
    assert state.home.players[pid].modifier == -2


def test_18_10_p_out_for_the_period_g_for_the_game(state):
    pid, event = hurt(state, R(1, 1, 1, 1))
    apply(state, [InjuryChecked(player=pid, oip=0, adjusted_blue=0, result="P", roll=1,
                                 rule="18.00")])
    assert state.home.players[pid].out == "period" and state.home.slots["C"] is None


def test_18_10_injury_modifier_makes_p_a_p6(state):
    from bones_support import action
    pid = state.home.slots["C"]
    state.home.players[pid].modifier = -2
    for slot in ("LW", "C", "RW", "LD", "RD"):
        rate(state, "away", slot, intimidation=0)
    rate(state, "away", "LD", intimidation=4)
    res = action(state, "home", "C", "P")[1]
    assert (res.result, res.value, res.target) == ("interception", 4, 4)


# --- 21.00 ----------------------------------------------------------------------------

def shootout(state, first="home"):
    from events.bones import ShootoutOrderChosen
    state.period = 4
    home = [p for p in state.home.players if not state.home.players[p].is_goalie][:5]
    away = [p for p in state.away.players if not state.away.players[p].is_goalie][:5]
    state.queue = [Step("shootout_order")]
    periods.apply_shootout_order(state, ShootoutOrderChosen(first=first, home_shooters=home,
                                                            away_shooters=away, rule="21.00"))
    return home, away


def test_21_00_table_reads_shooter_rating_by_goalie_grade(state):
    home, _ = shootout(state)
    rate_id = home[0]
    state.home.players[rate_id].card = msgspec.structs.replace(state.home.card(rate_id), so=7)
    goalie = rate(state, "away", "goalie", shootout="C")
    event = periods.decide_shootout(state, state.queue[0], R(1, 1, 1, 1))[0]
    assert isinstance(event, ShootoutAttempt) and event.goalie == goalie
    assert (event.rating, event.range) == (7, state.charts.shootout[7][2])


def attempt(state, scored):
    step = state.queue[0]
    shooters = state.shootout_order.shooters(step.side)
    apply(state, [ShootoutAttempt(side=step.side, shooter=shooters[0], goalie="g", rating=5,
                                  range="1-2", scored=scored, roll=1, rule="21.00")])


def test_21_00_chart_is_the_text_table_after_goalie_adjustment(state):
    text = ["1-6(1)", "1-8(1)", "2-5(2)", "2-9(5)", "3-6(6)", "3-12(6)", "4-8(1)", "5-5(2)",
            "5-9(5)", "6-6(6)", "6-8(5)"]
    adjust = {"A": -2, "B": -1, "C": 0, "D": 1, "F": 2}
    for rating in range(11):
        for g, grade in enumerate("ABCDF"):
            want = text[min(10, max(0, rating + adjust[grade]))]
            assert state.charts.shootout[rating][g] == want, (rating, grade)


def test_21_00_sudden_death_round_gives_the_second_shooter_a_reply(state):
    shootout(state)
    for scored in (False,) * 6:
        attempt(state, scored)
    attempt(state, True)  # home scores first in round four
    assert state.queue[0].kind == "shootout" and state.queue[0].side == "away"


def test_21_00_insurmountable_lead_ends_early(state):
    shootout(state)
    for scored in (True, False, True, False):  # home 2-0 after two rounds
        attempt(state, scored)
    assert state.queue[0] == Step("end_game", decided="SO")


def test_21_00_tied_after_three_rounds_goes_on(state):
    shootout(state)
    for scored in (True, True, False, False, False, False):
        attempt(state, scored)
    assert state.queue[0].kind == "shootout"
    attempt(state, True)
    attempt(state, False)
    assert state.queue[0] == Step("end_game", decided="SO")


def test_21_00_winner_credited_one_goal(state):
    state.home.score = state.away.score = 2
    state.home.shootout_goals, state.away.shootout_goals = 2, 1
    end = periods.end_game(state, "SO")[-1]
    assert isinstance(end, GameEnded)
    assert (end.home_goals, end.away_goals, end.winner) == (3, 2, "home")


def test_6_00_tied_after_regulation_plays_overtime_then_shootout(state):
    state.period = 3
    state.queue = [Step("end_period")]
    apply(state, periods.decide_end_period(state, state.queue[0], None))
    assert state.queue == [Step("start_period")]
    state.period = 4
    state.queue = [Step("end_period")]
    apply(state, periods.decide_end_period(state, state.queue[0], None))
    assert state.queue == [Step("shootout_order")]


def test_6_00_overtime_ends_at_the_first_goal(state):
    """Ruling R-6.00a: the text gives overtime 12 sequences and no more; its first goal
    ends it (sudden death), where a goal in regulation is followed by a face-off."""
    from engine.bones import stoppages

    for period, kinds in ((3, ["faceoff"]), (4, ["end_period"])):
        state.period, state.sequence = period, 3
        state.home.score, state.away.score = 1, 0
        state.queue = [Step("stop", reason="goal")]
        apply(state, stoppages.decide_stop(state, state.queue[0], None))
        assert [s.kind for s in state.queue] == kinds


def test_6_00_overtime_is_five_on_five(state):
    """Ruling: overtime is played 5 on 5 as the text says (no 3-on-3)."""
    state.period = 3
    state.queue = [Step("end_period")]
    apply(state, periods.decide_end_period(state, state.queue[0], None))
    apply(state, periods.decide_start_period(state, state.queue[0], None))
    assert state.period == 4 and lines.skater_slots(state, "home") == lines.SLOTS_FOR[5]


def _forward_not_rated_for(state, slot):
    team = state.home
    on_ice = set(team.skaters_on_ice())
    return next(pid for pid, s in team.players.items()
                if not s.is_goalie and not s.card.is_defenseman and slot not in s.card.positions
                and pid not in on_ice)


def test_15_10_forward_out_of_position_refused_while_a_rated_one_rests(state):
    wing = _forward_not_rated_for(state, "C")
    assert "15.10" in lines.check_lines(state, change(state, C=wing))


def test_15_10_forward_out_of_position_allowed_when_no_rated_one_is_free(state):
    wing = _forward_not_rated_for(state, "C")
    for pid, s in state.home.players.items():
        if not s.is_goalie and "C" in s.card.positions and pid != state.home.slots["C"]:
            s.out = "box"
    assert lines.check_lines(state, change(state, C=wing)) is None


def test_15_10_reads_the_card_he_holds_now_not_the_one_first_checked(state):
    """15.10: "a FORWARD may NOT play in a position on the Playing Board he is not rated
    to play": a card's positions are read once a player, and again when his card is
    another (a rated card makes the same change legal)."""
    wing = _forward_not_rated_for(state, "C")
    assert "15.10" in lines.check_lines(state, change(state, C=wing))
    status = state.home.players[wing]
    status.card = msgspec.structs.replace(status.card, positions=[*status.card.positions, "C"])
    assert lines.check_lines(state, change(state, C=wing)) is None


def test_6_41_every_dressed_player_rests_at_every_sequence_but_those_on_the_ice(state):
    """6.41: "Once a skater has been removed from the ice, he must 'rest' at least 3 time
    sequences before returning to play": each sequence off the ice counts, for every
    dressed player, at every sequence (the statuses walked as a list)."""
    on_ice = set(state.home.skaters_on_ice()) | {state.home.goalie}
    before = {pid: s.rest for pid, s in state.home.players.items()}
    for _ in range(2):
        apply(state, timing.play_sequence(state))
    assert len(before) > 6
    for pid, s in state.home.players.items():
        assert s.rest == (before[pid] if pid in on_ice else before[pid] + 2), pid


def test_15_10_applies_only_at_5_on_5(state):
    penalize(state, "away", slot="RW")
    wing = _forward_not_rated_for(state, "C")
    event = change(state, C=wing)
    assert "15.10" not in (lines.check_lines(state, event) or "")


@pytest.mark.parametrize("pulled", ["home", "away"])
def test_15_10_does_not_bind_with_a_goalie_pulled(state, pulled):
    """15.10 speaks of 5 skaters on 5; a sixth attacker makes it 6 on 5."""
    wing = _forward_not_rated_for(state, "C")
    on_ice = set(state.home.skaters_on_ice())
    extra = next(pid for pid, s in state.home.players.items()
                 if not s.is_goalie and pid not in on_ice and pid != wing)
    if pulled == "home":
        event = change(state, C=wing, G=extra)
        assert lines.check_lines(state, event) is None
    else:
        state.away.slots["G"] = state.away.team.lines.forwards[1][0]
        state.away.pulled = True
        event = change(state, C=wing)
    assert "15.10" not in (lines.check_lines(state, event) or "")
    assert "15.10" in lines.check_lines(new_state(), change(new_state(), C=wing))


def test_6_41_with_nobody_rested_the_freshest_may_return_early(state):
    """R-6.41a: the rest rule gives way only when no rested skater is free on the bench."""
    fresh = state.home.team.lines.forwards[1][1]
    on_ice = set(state.home.skaters_on_ice())
    for pid, status in state.home.players.items():
        if pid not in on_ice and not status.is_goalie:
            status.rest = 1
    assert lines.check_lines(state, change(state, C=fresh)) is None
    other = state.home.team.lines.forwards[2][1]
    state.home.players[other].rest = 3  # now someone rested is free
    assert "6.41" in lines.check_lines(state, change(state, C=fresh))


def test_6_40_a_player_named_twice_in_a_sequence_plays_one_sequence(state):
    """6.40: "If a player plays 3-5 consecutive time sequences, they are charged with one
    full shift": a sequence is one more of his stint, once, even in a line-up the rules
    refuse that names him twice (his mark is the team's count of sequences); the next
    sequence counts him again."""
    centre = state.home.slots["C"]
    status = state.home.players[centre]
    stint, rest = status.stint, status.rest
    event = timing.play_sequence(state)[0]
    twice = msgspec.structs.replace(event, home=[*event.home, centre],
                                    home_goalie=centre)
    apply(state, [twice])
    assert (status.stint, status.rest) == (stint + 1, rest)
    apply(state, timing.play_sequence(state))
    assert (status.stint, status.rest) == (stint + 2, rest)
