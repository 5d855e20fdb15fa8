"""5.00 bench minors; 14.10-14.60 penalties."""

from __future__ import annotations

import msgspec
import pytest
from bones_support import R, apply, new_state, penalize, rate
from penalty_clock import Clock

from engine.bones import penalties, scoring, stoppages
from engine.bones.coach import DefaultCoach
from engine.bones.game import IllegalChoice, check_choice, decide, evolve
from engine.bones.state import Retaliation, Step
from engine.bones.timing import ticking_penalties
from events.bones import (
    LinesChanged,
    PenaltyCalled,
    PenaltyEnded,
    PlayStopped,
    PuckIntercepted,
    SpecialOccurrenceRolled,
)


@pytest.mark.parametrize(("kind", "box", "short", "releasable"), [
    ("minor", 5, 5, True), ("double_minor", 10, 10, True), ("major", 12, 12, False),
    ("minor_major", 17, 0, False), ("misconduct", 25, 0, False), ("bench_minor", 5, 5, True),
])
def test_14_10_time_sequences_per_penalty(kind, box, short, releasable):
    call = penalties.make_call("home", "x", kind, "14.10")
    assert (call.box, call.short, call.releasable) == (box, short, releasable)


def called(state, code, red=3, source="action", delayed=False, side="home"):
    pid = state.team(side).slots["C"]
    state.queue = [Step("penalty", side=side, player=pid, source=source)]
    state.calls = []
    event = PenaltyCalled(side=side, player=pid, code=code, source=source, delayed=delayed,
                          red=red, roll=1, rule="14.20")
    penalties.apply_called(state, event)
    return [(c.side, c.kind, c.box, c.short) for c in state.calls], [s.kind for s in state.queue]


def rated_mi_ma(state):
    for slot in ("LW", "C", "RW", "LD", "RD"):
        rate(state, "away", slot, mi=2, ma=2)


def test_14_20_minor(state):
    calls, steps = called(state, "-")
    assert calls == [("home", "minor", 5, 5)]
    assert steps == ["misconduct", "time", "stop"]


def test_14_20_double_minor(state):
    assert called(state, "D")[0] == [("home", "double_minor", 10, 10)]


def test_14_20_major_brings_game_misconduct_unless_red_6(state):
    calls, _ = called(state, "M", red=5)
    assert [c[1] for c in calls] == ["major", "game_misconduct"]
    calls, _ = called(state, "M", red=6)
    assert calls == [("home", "major", 12, 12)]


def test_14_20_a_coincidental_minors_both_short(state):
    rated_mi_ma(state)
    calls, steps = called(state, "A")
    assert calls == [("home", "minor", 5, 5)]
    assert steps[0] == "retaliation" and state.queue[0].retaliation == Retaliation("MI", "minor", 5)


def test_14_20_b_coincidental_majors_nobody_short(state):
    rated_mi_ma(state)
    calls, steps = called(state, "B")
    assert calls == [("home", "major", 12, 0)]
    assert state.queue[0].retaliation == Retaliation("MA", "major", 0)
    assert steps.count("gm_check") == 2  # 14.51: one check per major, each team


def test_14_20_c_red_1_to_4_major_answer_and_five_short(state):
    rated_mi_ma(state)
    calls, _ = called(state, "C", red=4)
    assert calls == [("home", "minor_major", 17, 5)]
    assert state.queue[0].retaliation == Retaliation("MA", "major", 0)


def test_14_20_c_red_5_6_minor_major_answer_nobody_short(state):
    rated_mi_ma(state)
    calls, _ = called(state, "C", red=5)
    assert calls == [("home", "minor_major", 17, 0)]
    assert state.queue[0].retaliation == Retaliation("MA", "minor_major", 0)


def test_14_20_f_double_minor_with_minor_answer_two_minutes_short(state):
    rated_mi_ma(state)
    calls, _ = called(state, "F")
    assert calls == [("home", "double_minor", 10, 5)]
    assert state.queue[0].retaliation == Retaliation("MI", "minor", 0)


def test_14_20_g_coincidental_double_minors(state):
    rated_mi_ma(state)
    calls, _ = called(state, "G")
    assert calls == [("home", "double_minor", 10, 10)]
    assert state.queue[0].retaliation == Retaliation("MI", "double_minor", 10)


def test_14_20_special_adds_a_special_occurrence_roll(state):
    rated_mi_ma(state)
    _, steps = called(state, "#")
    assert steps[:2] == ["retaliation", "special"]


def test_14_20a_special_occurrence_extra_majors_to_highest_ma_not_yet_penalized(state):
    rated_mi_ma(state)
    top = rate(state, "away", "RD", ma=5)
    state.calls = []
    state.queue = [Step("special", side="home")]
    brawl = next(i for i, o in enumerate(state.charts.occurrences) if o.own and o.other)
    event = SpecialOccurrenceRolled(index=brawl, text="", roll=1, rule="14.20")
    penalties.apply_special(state, event)
    away = [c for c in state.calls if c.side == "away"]
    assert away and away[0].player == top and away[0].short == 0


def test_14_30_retaliation_rank_5_is_the_highest_rating(state):
    rated_mi_ma(state)
    top = rate(state, "away", "LW", mi=6)
    state.charts = msgspec.structs.replace(state.charts, retaliation=[[5] * 11] * 6)
    step = Step("retaliation", side="away", retaliation=Retaliation("MI", "minor", 5))
    event = penalties.decide_retaliation(state, step, R(1, 1, 1, 1))[0]
    assert event.player == top
    state.queue, state.calls = [step], []
    penalties.apply_retaliation(state, event)
    assert [(c.player, c.kind, c.short) for c in state.calls] == [(top, "minor", 5)]


def test_14_30_zero_rated_players_cannot_retaliate_roll_again(state):
    for slot in ("LW", "C", "RW", "LD", "RD"):
        rate(state, "away", slot, mi=0)
    only = rate(state, "away", "C", mi=1)
    state.charts = msgspec.structs.replace(state.charts, retaliation=[[4] * 11] * 6)
    step = Step("retaliation", side="away", retaliation=Retaliation("MI", "minor", 5))
    event = penalties.decide_retaliation(state, step, R(1, 1, 1, 1))[0]
    assert event.player is None
    state.queue = [step]
    penalties.apply_retaliation(state, event)
    assert state.queue == [step]  # still to roll
    assert penalties._ranked(state, "away", "MI") == [only]


def test_14_30_no_retaliation_when_all_ratings_zero(state):
    for slot in ("LW", "C", "RW", "LD", "RD"):
        rate(state, "away", slot, mi=0)
    _, steps = called(state, "A")
    assert "retaliation" not in steps


def test_14_40_misconduct_in_range(state):
    pid = rate(state, "home", "C", mc="6-12")
    step = Step("misconduct", side="home", player=pid)
    event = penalties.decide_misconduct(state, step, R(1, 1, 1, 1))
    assert event[0].in_range
    state.queue, state.calls = [step], []
    penalties.apply_misconduct(state, event[0])
    assert [(c.kind, c.box, c.short) for c in state.calls] == [("misconduct", 25, 0)]


def test_14_51_game_misconduct_check_uses_team_range_and_picks_by_gm(state):
    state.home.team = msgspec.structs.replace(state.home.team, game_misconduct="6-12")
    rate(state, "home", "LD", gm=3)
    step = Step("gm_check", side="home")
    event = penalties.decide_game_misconduct(state, step, R(2, 2, 2, 2))[0]
    assert event.in_range and event.rule == "14.51"
    state.queue = [step]
    penalties.apply_game_misconduct(state, event)
    assert state.queue[0].kind == "gm_pick"


def test_14_52_goalie_major_brings_a_goalie_gm_check(state):
    goalie = state.home.goalie
    state.queue = [Step("penalty", side="home", player=goalie, source="goalie")]
    state.calls = []
    rated_mi_ma(state)
    penalties.apply_called(state, PenaltyCalled(side="home", player=goalie, code="B",
                                                source="goalie", delayed=False, red=3, roll=1,
                                                rule="14.20"))
    assert "goalie_gm" in [s.kind for s in state.queue]
    assert state.queue[-1] == Step("stop", side="home", reason="penalty")  # frozen: 7.30


def test_14_60_minor_on_blue_1_2_is_delayed(state):
    pid = rate(state, "home", "C", penalty=msgspec.structs.replace(
        state.home.card(state.home.slots["C"]).penalty, odd=["-"] * 11, even=["-"] * 11))
    step = Step("penalty", side="home", player=pid, source="action")
    assert penalties.decide_penalty(state, step, R(2, 3, 3, 3))[0].delayed
    assert not penalties.decide_penalty(state, step, R(3, 3, 3, 3))[0].delayed


def test_14_60_no_delayed_penalty_once_the_period_is_over(state):
    """6.00, 14.60: the delayed roll would need a 51st sequence, so play stops."""
    pid = rate(state, "home", "C", penalty=msgspec.structs.replace(
        state.home.card(state.home.slots["C"]).penalty, odd=["-"] * 11, even=["-"] * 11))
    step = Step("penalty", side="home", player=pid, source="action")
    state.period, state.sequence = 3, 49
    assert penalties.decide_penalty(state, step, R(2, 3, 3, 3))[0].delayed
    state.sequence = 50
    assert not penalties.decide_penalty(state, step, R(2, 3, 3, 3))[0].delayed


def test_14_60_delayed_call_puts_an_extra_skater_on_then_one_roll(state):
    """14.60: the opposing team replaces its goalie with an extra skater (its coach's
    choice of skater), then the red die resolves the interception."""
    _, steps = called(state, "-", delayed=True)
    assert steps[-2:] == ["extra_skater", "delayed"] and state.delayed
    assert state.queue[-2] == Step("extra_skater", side="away")


def test_14_60_no_extra_skater_step_when_the_goalie_is_already_pulled(state):
    state.away.slots["G"] = state.away.team.lines.forwards[1][0]
    state.away.pulled = True
    _, steps = called(state, "-", delayed=True)
    assert steps[-1] == "delayed" and "extra_skater" not in steps


def test_14_60_the_extra_skater_is_a_checked_coach_choice(state):
    called(state, "-", delayed=True)
    state.queue = state.queue[-2:]
    state.puck = ("home", state.home.slots["C"])
    keeps_goalie = LinesChanged(side="away", slots=dict(state.away.slots), on_the_fly=True,
                                rule="14.60")
    with pytest.raises(IllegalChoice, match="14.60"):
        check_choice(state, keeps_goalie)
    (choice,) = DefaultCoach().lines(state)
    assert (choice.side, choice.rule, choice.on_the_fly) == ("away", "14.60", True)
    extra = choice.slots["G"]
    assert extra is not None and not state.away.players[extra].is_goalie
    check_choice(state, choice)
    evolve(state, choice)
    assert state.away.pulled and state.away.skaters_on_ice()[-1] == extra
    assert [s.kind for s in state.queue] == ["delayed"]
    state.queue.insert(0, Step("extra_skater", side="away"))
    with pytest.raises(IllegalChoice, match="14.60"):
        decide(state, None)  # a missing choice is no rules decision


def test_14_60_the_goalie_returns_at_the_stoppage(state):
    called(state, "-", delayed=True)
    state.queue = state.queue[-2:]
    state.puck = ("home", state.home.slots["C"])
    apply(state, DefaultCoach().lines(state))
    apply(state, [PlayStopped(reason="penalty", zone=None)])
    state.calls = []
    state.queue = [Step("faceoff")]
    apply(state, DefaultCoach().lines(state))
    assert not state.away.pulled and state.away.slots["G"] == state.away.goalie


def test_14_60_interception_to_other_team(state):
    pid = state.home.slots["C"]
    card = state.home.card(pid)
    event = penalties.decide_delayed(state, Step("delayed", side="home", player=pid),
                                     R(1, 1, 1, 2))[0]
    assert isinstance(event, PuckIntercepted) and event.slot == card.passes[1]


def test_14_60_red_6_goes_to_the_extra_skater(state):
    """12.00: with a sixth skater on the opposing team, red 6 goes to him."""
    pid = state.home.slots["C"]
    extra = state.away.team.lines.forwards[1][0]
    state.away.slots["G"], state.away.pulled = extra, True
    event = penalties.decide_delayed(state, Step("delayed", side="home", player=pid),
                                     R(1, 1, 1, 6))[0]
    assert isinstance(event, PuckIntercepted)
    assert (event.slot, event.to_player, event.side) == ("G", extra, "away")


def test_14_60_red_6_without_an_extra_skater_reads_es_or_pk_and_vacant_slot_stops_play(state):
    """Ruling R-14.60a: a team that could put no extra skater on (nobody free to play)
    takes red 6 at the pass chart's even-strength entry, or pk for a short-handed
    penalized player."""
    pid = state.home.slots["C"]
    card = state.home.card(pid)
    step = Step("delayed", side="home", player=pid)
    assert penalties.decide_delayed(state, step, R(1, 1, 1, 6))[0].slot == card.pass_six.es
    state.away.slots[card.pass_six.es] = None
    assert penalties.decide_delayed(state, step, R(1, 1, 1, 6))[0] == PlayStopped(
        reason="penalty", zone=None)
    short = new_state()
    penalize(short, "home", slot="RW")
    pid = short.home.slots["C"]
    card = short.home.card(pid)
    event = penalties.decide_delayed(short, Step("delayed", side="home", player=pid),
                                     R(1, 1, 1, 6))[0]
    assert event.slot == card.pass_six.pk


def test_14_60_goal_during_delayed_penalty_keeps_the_penalty(state):
    """Ruling: the delayed penalty is still assessed after a goal."""
    state.calls = [penalties.make_call("home", state.home.slots["C"], "minor", "14.20")]
    state.delayed = True
    state.queue = [Step("goalie", side="away")]
    apply(state, scoring.goal_events(state, "away", state.away.slots["C"], "normal", "11.10"))
    assert [s.kind for s in state.queue] == ["time", "assists", "stop"]
    state.queue = state.queue[-1:]
    apply(state, stoppages.decide_stop(state, state.queue[0], None))
    assert state.queue[0].kind == "assess"


def test_14_10a_at_most_two_penalties_make_a_team_short(state):
    penalize(state, "home", slot="RW")
    penalize(state, "home", slot="LW")
    penalize(state, "home", slot="LD")
    assert state.home.man_short() == 2
    assert ticking_penalties(state.home) == [0, 1]


def test_14_20_power_play_goal_ends_a_minor(state):
    penalize(state, "away", slot="RW")
    events = scoring.goal_events(state, "home", state.home.slots["C"], "normal", "11.10")
    assert any(isinstance(e, PenaltyEnded) and e.reason == "power_play_goal" for e in events)


def test_14_20_d_power_play_goal_starts_the_second_minor(state):
    penalize(state, "away", kind="double_minor", slot="RW")
    events = scoring.goal_events(state, "home", state.home.slots["C"], "normal", "11.10")
    assert not any(isinstance(e, PenaltyEnded) for e in events)
    state.queue = [Step("goalie")]
    apply(state, events)
    assert state.away.penalties[0].short_left == 5


# --- 14.20 D: "The player is assessed two consecutive 2 minute minor penalties and his
# team plays a man short. The second minor penalty begins when either the first minor
# penalty ends or the opposing team scores a power-play goal." 14.10: a double minor is 10
# time sequences, a minor 5. The state starts at sequence 10 of the first period.

DOUBLE_MINOR, MINOR = 10, 5  # 14.10


@pytest.mark.parametrize("whose", ["the scorers'", "the other team's"])
def test_14_20_d_a_short_handed_goal_leaves_a_double_minor_running(state, whose):
    """A goal by the short-handed team is no power-play goal of the opposing team: the
    double minor runs its 10 sequences, wherever it is."""
    clock = Clock(state)
    if whose == "the scorers'":
        [double] = clock.assess(("home", "RW", "double_minor", None))
    else:  # the power-play team has a double minor too: 4 skaters against 3
        [double] = clock.assess(("away", "RW", "double_minor", None))
        clock.assess(("home", "RW", "minor", None), ("home", "LW", "minor", None))
    clock.play(2)
    assert state.strength("home") == "sh"
    clock.goal("home")
    assert clock.running(double) == (DOUBLE_MINOR - 2, DOUBLE_MINOR - 2)  # the read model
    clock.play(DOUBLE_MINOR)
    assert clock.box_time(double) == DOUBLE_MINOR


@pytest.mark.parametrize("scorer", ["home", "away"])
def test_14_20_d_an_even_strength_goal_leaves_coincidental_double_minors_running(state, scorer):
    """14.20 G: coincidental double minors, 10 sequences each, both teams a man short: a
    goal at 4 on 4 is no power-play goal, so neither second minor starts early."""
    clock = Clock(state)
    home, away = clock.assess(("home", "RW", "double_minor", 10), ("away", "RW", "double_minor", 10))
    clock.play(3)
    assert state.strength(scorer) == "es"
    clock.goal(scorer)
    assert clock.running(home) == clock.running(away) == (DOUBLE_MINOR - 3, DOUBLE_MINOR - 3)
    clock.play(DOUBLE_MINOR)
    assert clock.box_time(home) == clock.box_time(away) == DOUBLE_MINOR
    lines = {p.id: p for p in clock.report().penalties}
    assert {lines[home].why, lines[away].why} == {"served"}
    assert lines[home].end == lines[away].end == (10 + DOUBLE_MINOR) * 24


def test_14_20_d_a_power_play_goal_in_the_first_minor_starts_the_second(state):
    """The opposing team's power-play goal in the first minor ends it; the second minor
    begins then: 5 more sequences in the box, the team still a man short."""
    clock = Clock(state)
    [double] = clock.assess(("away", "RW", "double_minor", None))
    clock.play(2)
    assert not any(isinstance(e, PenaltyEnded) for e in clock.goal("home"))
    assert state.away.man_short() == 1
    assert clock.running(double) == (MINOR, MINOR)
    clock.play(MINOR)
    assert clock.box_time(double) == 2 + MINOR
    line = clock.report().penalties[0]
    assert (line.why, line.end) == ("served", (12 + MINOR) * 24)


def test_14_20_d_a_power_play_goal_in_the_second_minor_ends_it(state):
    """The second minor is a minor: the power-play goal ends it (and the penalty)."""
    clock = Clock(state)
    [double] = clock.assess(("away", "RW", "double_minor", None))
    clock.play(7)
    ended = [e for e in clock.goal("home") if isinstance(e, PenaltyEnded)]
    assert [(e.id, e.reason) for e in ended] == [(double, "power_play_goal")]
    assert clock.box_time(double) == 7
    line = clock.report().penalties[0]
    assert (line.why, line.end) == ("power_play_goal", 17 * 24)


def test_14_20_f_a_power_play_goal_ends_the_first_minor_not_the_double_minor(state):
    """14.20 F: the player is removed for 10 sequences (a double minor, two consecutive
    minors, 14.20 D) and his team plays a man short for 2 minutes; a minor in retaliation
    on the other side. A power-play goal in the first minor ends that minor only: the
    second begins, 5 more sequences in the box, at full strength (ruling R-14.20b: the
    man-short two minutes are the first minor)."""
    clock = Clock(state)
    double, _ = clock.assess(("away", "RW", "double_minor", 5), ("home", "LW", "minor", 0))
    clock.play(2)
    assert state.strength("home") == "pp"
    assert not any(isinstance(e, PenaltyEnded) for e in clock.goal("home"))
    assert state.away.man_short() == 0
    assert clock.running(double) == (MINOR, 0)
    clock.play(MINOR)
    assert clock.box_time(double) == 2 + MINOR
    line = clock.report().penalties[0]
    assert (line.why, line.end) == ("served", (12 + MINOR) * 24)


def test_14_20_major_is_not_ended_by_a_power_play_goal(state):
    penalize(state, "away", kind="major", slot="RW")
    events = scoring.goal_events(state, "home", state.home.slots["C"], "normal", "11.10")
    assert not any(isinstance(e, PenaltyEnded) for e in events)


def test_14_00a_goalie_penalty_served_by_lowest_shift_forward(state):
    goalie = state.home.goalie
    state.calls = [penalties.make_call("home", goalie, "minor", "14.20")]
    event = penalties.decide_assess(state, Step("assess"), None)[0]
    forwards = [p for p, s in state.home.players.items()
                if not s.is_goalie and not s.card.is_defenseman]
    lowest = min(forwards, key=lambda p: (state.home.card(p).shift, p))
    assert event.served_by == lowest


# --- 5.00 bench minors --------------------------------------------------------------

def test_5_00_bench_check_uses_team_range(state):
    state.home.team = msgspec.structs.replace(state.home.team, bench_minor="1-6(5)")
    step = Step("bench", side="home")
    assert penalties.decide_bench_check(state, step, R(1, 3, 3, 5))[0].in_range
    assert not penalties.decide_bench_check(state, step, R(1, 3, 3, 6))[0].in_range


def test_5_00_bench_table_odd_and_even_columns_elapsed_time(state):
    state.charts = msgspec.structs.replace(state.charts, bench_penalty=[
        ["18:00"] * 11, ["2:00"] * 11])
    step = Step("bench_time", side="home")
    odd = penalties.decide_bench_time(state, step, R(1, 3, 3, 1))[0]
    even = penalties.decide_bench_time(state, step, R(2, 3, 3, 1))[0]
    assert (odd.time, even.time) == (1080, 120)
    state.queue = [step]
    penalties.apply_bench_time(state, odd)
    assert state.home.bench_minor_at == 45  # ruling: elapsed time, sequence 45 of 50


def test_5_00_bench_minor_falls_at_the_next_stoppage_after_its_time(state):
    state.home.bench_minor_at = 12
    state.sequence = 12
    state.queue = [Step("stop")]
    stoppages.apply_stop(state, PlayStopped(reason="infraction", zone=None))
    assert state.calls and state.calls[0].kind == "bench_minor"
    assert state.calls[0].time == 12 * 24
    assert not state.home.players[state.calls[0].player].is_goalie


def test_14_51_game_misconduct_pick_goes_by_gm_rank(state):
    for slot in ("LW", "C", "RW", "LD", "RD"):
        rate(state, "home", slot, gm=0)
    pid = rate(state, "home", "LD", gm=3)
    for other_id, status in state.home.players.items():
        if other_id != pid and not status.is_goalie:
            state.home.players[other_id].card = msgspec.structs.replace(status.card, gm=0)
    step = Step("gm_pick", side="home")
    state.queue = [step]
    chart = state.charts.retaliation
    blue, white = next((b, w) for b in range(1, 7) for w in range(2, 13)
                       if chart[b - 1][w - 2] == 5)  # rank 5: the highest GM rating
    event = penalties.decide_retaliation(state, step, roll_for(blue, white))[0]
    assert (event.scale, event.rank, event.player, event.rule) == ("GM", 5, pid, "14.51")
    state.calls = []
    apply(state, [event])
    assert [(c.player, c.kind, c.minutes) for c in state.calls] == [(pid, "game_misconduct", 10)]


def test_14_51_game_misconduct_pick_rerolls_an_empty_rank(state):
    for pid, status in state.home.players.items():
        if not status.is_goalie:
            state.home.players[pid].card = msgspec.structs.replace(status.card, gm=0)
    rate(state, "home", "LD", gm=3)  # only one player ranked: rank 5
    step = Step("gm_pick", side="home")
    state.queue = [step]
    chart = state.charts.retaliation
    blue, white = next((b, w) for b in range(1, 7) for w in range(2, 13)
                       if chart[b - 1][w - 2] == 1)
    event = penalties.decide_retaliation(state, step, roll_for(blue, white))[0]
    assert event.player is None
    state.calls = []
    apply(state, [event])
    assert state.queue == [step] and state.calls == []  # roll again


def roll_for(blue: int, white: int):
    """A roll with this blue die and white total."""
    first = max(1, white - 6)
    return R(blue, first, white - first, 1)


def test_14_52_ejected_goalie_stays_when_no_other_goalie_can_play(state):
    goalie = state.home.goalie
    backup = next(p for p in state.home.team.lines.goalies if p != goalie)
    state.home.players[backup].out = "game"  # hurt earlier (11.10 F?1)
    state.calls = [penalties.make_call("home", goalie, "game_misconduct", "14.52")]
    state.queue = [Step("assess")]
    apply(state, penalties.decide_assess(state, state.queue[0], None))
    assert state.home.goalie == goalie and state.home.slots["G"] == goalie
    assert state.home.players[goalie].out == ""


def test_14_52_ejected_goalie_gives_way_to_the_backup(state):
    goalie = state.home.goalie
    backup = next(p for p in state.home.team.lines.goalies if p != goalie)
    state.calls = [penalties.make_call("home", goalie, "game_misconduct", "14.52")]
    state.queue = [Step("assess")]
    apply(state, penalties.decide_assess(state, state.queue[0], None))
    assert state.home.goalie == backup and state.home.slots["G"] == backup
    assert state.home.players[goalie].out == "game"
