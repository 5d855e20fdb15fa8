"""FaceOff Hockey 2008: each difference of its text against Hockey Bones, by FaceOff's own
section numbers (test_fo_<section>_...). The shared rules are tested in the other files."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import get_args

import msgspec
import pytest
from bones_support import R, action, apply, created, fill, new_state, penalize, plain, rate
from penalty_clock import Clock

from engine.bones import actions, arc, goalies, penalties, scoring, shots
from engine.bones.cards import ArcCard, ArcCards
from engine.bones.coach import DefaultCoach
from engine.bones.dice import DiceRange
from engine.bones.game import IllegalChoice, check_choice, cite_events, decide, initial_state
from engine.bones.passing import pp_rules
from engine.bones.rulesets import RULESETS, find_ruleset
from engine.bones.state import Retaliation, Scorer, Step
from engine.bones.team_defense import team_defense
from events.bones import (
    ActionResolved,
    ArcChecked,
    AssistsAwarded,
    BonesEvent,
    ClearingChecked,
    DiceRolled,
    FaceoffOptions,
    LinesChanged,
    PuckIntercepted,
    TacticDeclared,
)
from events.common import GameCreated, GameEnded
from replay.systems.bones.library import default_charts, find_team, with_arc_cards


@pytest.fixture
def fo():
    return new_state("faceoff2008")


def fo_with(*names: str):
    fields = FaceoffOptions(**dict.fromkeys(names, True)).created_fields()
    return new_state("faceoff2008", **fields)


def shoot(state, side, slot, roll):
    pid = state.team(side).slots[slot]
    state.puck = (side, pid)
    state.queue = [Step("shot", side=side, player=pid, shot="normal")]
    return shots.decide_shot(state, state.queue[0], roll)


def blue_line(state, side, ld: bool, rd: bool):
    """``side``'s LD and RD with or without a Blocked Shot rating; nobody else has one."""
    plain(state, side)
    rate(state, side, "LD", blocker=ld)
    rate(state, side, "RD", blocker=rd)


# --- 10.70 Blocked shots -----------------------------------------------------------------

def test_fo_10_70_two_b_block_on_white_3_or_11_with_red_3_to_6(fo):
    blue_line(fo, "away", True, True)
    assert shots.blockers(fo, "away") == 2
    for roll in (R(3, 1, 2, 3), R(3, 5, 6, 6)):
        shot, moved = shoot(fo, "home", "C", roll)[:2]
        assert shot.block == "blocked" and shot.rule == "10.70"
        assert isinstance(moved, PuckIntercepted) and moved.side == "away"  # 12.00


def test_fo_10_70_red_1_or_2_screens_blue_minus_one(fo):
    blue_line(fo, "away", True, True)
    rate(fo, "home", "C", n="3-2")  # blue 3 is out of range, blue 3-1 = 2 is in
    shot = shoot(fo, "home", "C", R(3, 5, 6, 2))[0]
    assert shot.block == "screened" and shot.in_range


def test_fo_10_70_one_b_white_11_has_no_effect(fo):
    blue_line(fo, "away", True, False)
    assert shots.blockers(fo, "away") == 1
    assert shoot(fo, "home", "C", R(3, 5, 6, 6))[0].block == ""
    assert shoot(fo, "home", "C", R(3, 1, 2, 6))[0].block == "blocked"


def test_fo_10_70_white_2_never_blocks(fo):
    blue_line(fo, "away", True, True)
    assert shoot(fo, "home", "C", R(3, 1, 1, 6))[0].block == ""


def test_fo_10_70_only_the_ld_rd_ratings_count(fo):
    """No B on the blue line: nothing is blocked, whatever the forwards' B and however
    many defensemen (Hockey Bones counts both)."""
    blue_line(fo, "away", False, False)
    for slot in ("LW", "C", "RW"):
        rate(fo, "away", slot, blocker=True)
    assert shots.blockers(fo, "away") == 0
    assert shoot(fo, "home", "C", R(3, 1, 2, 6))[0].block == ""
    rate(fo, "away", "LD", positions=["LW"], d="3-5", blocker=True)  # a B forward at LD
    assert shots.blockers(fo, "away") == 1


def test_fo_10_70_no_penalty_kill_or_checking_game_raise():
    state = fo_with("checking_game")
    blue_line(state, "away", True, True)
    for slot in ("LW", "C", "RW"):
        rate(state, "away", slot, blocker=True)
    state.home.tactic = "checking2"
    assert shots.blockers(state, "away") == 2
    penalize(state, "away", slot="LW")
    assert shots.blockers(state, "away") == 2


@pytest.mark.parametrize("count", [0, 1, 2])
def test_fo_10_70_block_chance_is_the_share_of_rolls_blocked(fo, count):
    blue_line(fo, "away", count >= 1, count >= 2)
    blocked = sum(shoot(fo, "home", "C", R(b, w1, w2, r))[0].block == "blocked"
                  for b, w1, w2, r in itertools.product(range(1, 7), repeat=4))
    expected = {0: Fraction(0), 1: Fraction(2, 36) * Fraction(4, 6),
                2: Fraction(4, 36) * Fraction(4, 6)}[count]
    assert Fraction(blocked, 6 ** 4) == expected
    assert shots.block_chance(fo.charts, count, fo.ruleset) == expected


# --- 5.00 No shootout: a tie stands ------------------------------------------------------

def end_of_overtime(state, home: int, away: int):
    state.period, state.sequence = 4, 12
    state.home.score, state.away.score = home, away
    state.queue = [Step("end_period")]
    apply(state, decide(state, None))
    return decide(state, None)


def test_fo_5_00_a_game_tied_after_overtime_stands_as_a_tie(fo):
    events = end_of_overtime(fo, 2, 2)
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert (ended.decided, ended.winner, ended.home_goals, ended.away_goals) == ("TIE", "none", 2, 2)


def test_fo_5_00_hockey_bones_still_goes_to_a_shootout():
    state = new_state()
    state.period, state.sequence = 4, 12
    state.home.score = state.away.score = 2
    state.queue = [Step("end_period")]
    apply(state, decide(state, None))
    assert state.queue[0].kind == "shootout_order"


def test_fo_5_00_no_shootout_order_is_accepted(fo):
    order = DefaultCoach().shootout(fo)
    with pytest.raises(IllegalChoice, match="no shootout"):
        check_choice(fo, order)


# --- Section numbers: FaceOff's own ------------------------------------------------------

def test_fo_6_00_bench_checks_cite_6_00_and_bones_5_00(fo):
    bones = new_state()
    for state, rule in ((fo, "6.00"), (bones, "5.00")):
        state.queue = [Step("bench", side="home")]
        assert decide(state, R(6, 6, 6, 6))[0].rule == rule


def test_fo_5_30_exact_time_cites_5_30(fo):
    fo.queue = [Step("time", incident="goal")]
    assert decide(fo, R(1, 1, 1, 1))[0].rule == "5.30"


def test_fo_5_41_line_changes_cite_5_41(fo):
    fo.puck = None
    change = LinesChanged(side="home", slots=dict(fo.home.slots), on_the_fly=False, rule="6.41")
    with pytest.raises(IllegalChoice, match="not 5.41"):
        check_choice(fo, change)  # the Hockey Bones number, 6.41, is refused
    check_choice(fo, msgspec.structs.replace(change, rule="5.41"))
    assert all(c.rule == "5.41" for c in DefaultCoach().lines(fo))


def test_fo_section_map_swaps_timing_and_bench_and_leaves_bones_alone():
    fo, bones = find_ruleset("faceoff2008"), find_ruleset("bones")
    assert fo.cite("6.41") == "5.41" and fo.cite("5.00") == "6.00" and fo.cite("6.00") == "5.00"
    assert fo.cite("-1 fatigue (17.00)") == "-1 fatigue (17.000)"
    assert fo.cite("10.70") == "10.70"
    assert all(bones.cite(s) == s for s in fo.sections)


def test_fo_cite_events_cites_what_changes_and_keeps_the_rest():
    # FaceOff's own numbers: timing is 5.xx ("5.41"), the optional rules 17.000-20.000;
    # 8.10 and 9.00 are the same in both texts.
    fo, bones = find_ruleset("faceoff2008"), find_ruleset("bones")
    def acted(rule, mods):
        return ActionResolved(side="home", player="p", slot="C", cell="5", result="shot",
                              value=None, target=None, modifiers=mods, time=True, roll=1,
                              rule=rule)
    same = acted("8.10", ["+1 power play (8.10)"])
    renamed = acted("6.41", ["-1 fatigue (17.00)", "+1 power play (8.10)"])
    mods_only = acted("9.00", ["-2 checking game (20.00)"])
    events = [same, renamed, mods_only]
    cited = cite_events(fo, events)
    assert cited[0] is same
    assert (cited[1].rule, cited[1].modifiers) == (
        "5.41", ["-1 fatigue (17.000)", "+1 power play (8.10)"])
    assert (cited[2].rule, cited[2].modifiers) == ("9.00", ["-2 checking game (20.000)"])
    assert events == [same, renamed, mods_only]  # the rules' own list is left as it was
    assert cite_events(fo, [same]) == [same] and cite_events(bones, events) is events


def test_no_event_defaults_its_rule_to_a_hockey_bones_section():
    """Every ``rule`` is passed where the event is made, so a FaceOff event cannot carry
    a Hockey Bones number by falling back on a default."""
    defaulted = [event.__name__ for event in get_args(BonesEvent)
                 for field in msgspec.structs.fields(event)
                 if field.name == "rule" and field.default is not msgspec.NODEFAULT]
    assert defaulted == []


# --- 6.00 Draft leagues: the NHL bench-penalty range ---------------------------------------

def test_fo_6_00_draft_league_uses_the_nhl_bench_range():
    state = new_state("faceoff2008", nhl_bench_range="6-12")  # always in range
    state.queue = [Step("bench", side="away")]
    checked = decide(state, R(6, 6, 5, 6))[0]
    assert checked.range == "6-12" and checked.in_range
    with pytest.raises(IllegalChoice, match="6.00"):
        new_state("bones", nhl_bench_range="6-12")


def test_fo_14_51_draft_league_uses_the_nhl_game_misconduct_range():
    state = new_state("faceoff2008", nhl_gm_range="1-2")  # out of range on 6 6 6 6
    state.queue = [Step("gm_check", side="away")]
    checked = decide(state, R(6, 6, 6, 6))[0]
    assert checked.range == "1-2" and not checked.in_range and checked.rule == "14.51"
    assert new_state("faceoff2008").away.team.game_misconduct != "1-2"


# --- 14.20 D, 10.20: worded as in Hockey Bones (tests/bones/test_penalties.py,
# test_shots.py); played here under the FaceOff ruleset ------------------------------------

def test_fo_14_20_d_a_goal_at_4_on_4_starts_no_second_minor(fo):
    """FaceOff 14.20 D: "The second minor penalty begins when either the first minor
    penalty ends or the opposing team scores a power-play goal"; G: coincidental double
    minors, both removed for 10 sequences (14.10). A goal at 4 on 4 is no power-play
    goal: both players sit their 10 sequences."""
    clock = Clock(fo)
    home, away = clock.assess(("home", "RW", "double_minor", 10),
                              ("away", "RW", "double_minor", 10))
    clock.play(4)
    clock.goal("away")
    assert clock.running(home) == (6, 6)
    clock.play(10)
    assert clock.box_time(home) == clock.box_time(away) == 10


def test_fo_14_20_f_a_power_play_goal_starts_the_second_minor(fo):
    """FaceOff 14.20 F: removed for 10 sequences, his team a man short for 2 minutes; a
    power-play goal in the first minor ends it and the second begins (14.20 D): 5 more
    sequences in the box, at full strength (ruling R-14.20b)."""
    clock = Clock(fo)
    double, _ = clock.assess(("away", "RW", "double_minor", 5), ("home", "LW", "minor", 0))
    clock.play(3)
    clock.goal("home")
    assert clock.running(double) == (5, 0) and fo.strength("home") == "es"
    clock.play(5)
    assert clock.box_time(double) == 3 + 5


def test_fo_10_20_a_power_play_with_the_goalie_pulled_shoots_p(fo):
    """FaceOff 10.20: a player on the POWER-PLAY, a forward at LW, RW or C, shoots P; with
    the goalie pulled for a sixth skater (15.00) the team is still on the power play."""
    penalize(fo, "away")
    fo.home.slots["G"] = fo.home.team.lines.forwards[1][0]
    fo.home.pulled = True
    plain(fo, "away")
    rate(fo, "home", "C", n="2-2", p="3-7")
    taken = shoot(fo, "home", "C", R(3, 3, 3, 6))[0]
    assert (taken.range_name, taken.in_range, taken.rule) == ("P", True, "10.20")


# --- 11.20 Clearing: all four dice ---------------------------------------------------------

def test_fo_11_20_clearing_reads_the_red_die(fo):
    plain(fo, "home")
    fo.charts = msgspec.structs.replace(fo.charts, clearing=["2-6(2)"] * 11)
    step = Step("clearing", side="home", player=fo.home.slots["LW"], shooter=fo.home.slots["C"])
    assert not decide_clearing(fo, step, R(2, 3, 3, 3)).cleared
    assert decide_clearing(fo, step, R(2, 3, 3, 2)).cleared


def decide_clearing(state, step, roll) -> ClearingChecked:
    return goalies.decide_clearing(state, step, roll)[0]


# --- 16.00 Assists: red then blue ----------------------------------------------------------

def test_fo_16_00_first_assist_to_the_red_rank_second_to_the_blue(fo):
    fo.scorer = Scorer("home", fo.home.slots["C"])
    grid = [["2/2-4"] * 11 for _ in range(6)]
    fo.charts = msgspec.structs.replace(fo.charts, assists=grid)
    ranked = scoring.ranked_teammates(fo)  # rank 4 first
    awarded = scoring.decide_assist_ranks(fo, Step("assist_ranks", number=2), R(1, 1, 1, 1))[0]
    assert awarded.players == [ranked[2], ranked[0]]  # rank 2 (red), then rank 4 (blue)


# --- 17.000-20.000 Optional rules ----------------------------------------------------------

def tired(state):
    pid = state.home.slots["C"]
    status = state.home.players[pid]
    status.shifts = status.card.shift + 4  # four excess shifts
    rate(state, "home", "C", action=fill("10"))
    return actions.numeric_value(state, "home", "C", state.home.card(pid), 10, pid)


def test_fo_17_000_fatigue_only_when_turned_on(fo):
    plain(fo, "away")
    assert tired(fo).value == 10
    on = fo_with("fatigue")
    plain(on, "away")
    modified = tired(on)
    value, mods = modified.value, modified.modifiers
    assert value == 6 and "-4 fatigue (17.000)" in [on.ruleset.cite(m) for m in mods]


def test_fo_18_000_a_question_mark_is_no_injury_without_the_option(fo):
    for state, hurt in ((fo, False), (fo_with("injuries"), True)):
        events = action(state, "home", "C", "#?")
        resolved = next(e for e in events if isinstance(e, ActionResolved))
        assert resolved.injury is hurt
        assert any(getattr(e, "reason", "") == "injury" for e in events) is False


@pytest.mark.parametrize(("tactic", "option", "rule"), [
    ("pressure", "pressure_offense", "19.000"),
    ("checking1", "checking_game", "20.000"),
    ("checking2", "checking_game", "20.000"),
])
def test_fo_19_000_20_000_tactics_only_when_turned_on(fo, tactic, option, rule):
    fo.queue = [Step("faceoff")]
    declared = TacticDeclared(side="home", tactic=tactic, rule=rule)
    with pytest.raises(IllegalChoice, match="optional rule"):
        check_choice(fo, declared)
    on = fo_with(option)
    on.queue = [Step("faceoff")]
    check_choice(on, declared)
    with pytest.raises(IllegalChoice, match=f"not {rule[:-1]}"):
        check_choice(on, msgspec.structs.replace(declared, rule=rule[:-1]))


def test_fo_optional_rules_are_not_options_of_hockey_bones():
    with pytest.raises(IllegalChoice, match="no optional rules"):
        new_state("bones", faceoff_fatigue=True)


def test_fo_options_off_add_nothing_to_game_created_bytes():
    plain_game = created("bones")
    assert b"faceoff" not in msgspec.json.encode(plain_game)
    assert b"nhl_bench" not in msgspec.json.encode(plain_game)
    on = created("faceoff2008", **FaceoffOptions(fatigue=True).created_fields())
    decoded = msgspec.json.decode(msgspec.json.encode(on), type=GameCreated)
    assert decoded.option("faceoff_fatigue") and not decoded.option("faceoff_injuries")


# --- The quick reference is not part of FaceOff -----------------------------------------------

def test_fo_no_quick_reference_forward_on_the_blue_line_minus_two(fo):
    for state, expected in ((fo, 11), (new_state(), 9)):
        penalize(state, "away", slot="LW")
        plain(state, "away")
        pid = rate(state, "home", "LD", positions=["LW"], d="3-5")
        value = actions.numeric_value(state, "home", "LD", state.home.card(pid), 10, pid).value
        assert value == expected  # +1 power play; Hockey Bones' quick reference -2


def test_fo_no_quick_reference_late_penalty_house_rule():
    with pytest.raises(IllegalChoice, match="quick reference"):
        new_state("faceoff2008", late_penalty_house_rule=True)


def test_fo_a_pulled_goalie_is_no_power_play(fo):
    bones = new_state()
    for state, expected in ((fo, False), (bones, True)):
        state.home.slots["G"] = next(p for p, s in state.home.players.items()
                                     if not s.is_goalie and p not in state.home.slots.values())
        state.home.pulled = True  # a sixth attacker: 6 skaters on 5
        assert pp_rules(state, "home") is expected


def test_fo_registry_has_both_rulesets():
    assert set(RULESETS) == {"bones", "faceoff2008"}
    assert not RULESETS["faceoff2008"].shootout and RULESETS["bones"].shootout



# --- 21.000 ARC cards ------------------------------------------------------------------------

MISS, HIT = "1-2", "6-12"  # against a roll of 6 6 6 6: out of range, in range
SIXES = R(6, 6, 6, 6)


def arc_pack(state, one=(HIT,) * 9, two=(HIT,) * 9):
    cards = [ArcCard(total=t, one=list(one), two=list(two)) for t in range(1, 41)]
    state.charts = msgspec.structs.replace(
        state.charts, arc=ArcCards(name="test", substitute=True, cards=cards))


def draw(state, step) -> list:
    """Play an ARC draw to its end: every event, in order."""
    state.queue = [step]
    events = []
    while state.queue:
        roll = None
        if state.queue[0].needs_roll:
            roll = SIXES
            apply(state, [DiceRolled(n=state.rolls + 1, roll=roll, purpose="arc")])
        batch = decide(state, roll)
        apply(state, batch)
        events += batch
    return events


def checks(events) -> list[tuple[str, int, bool, int]]:
    return [(e.player, e.column, e.awarded, e.roll) for e in events if isinstance(e, ArcChecked)]


@pytest.fixture
def arc_state():
    state = fo_with("arc_cards")
    for side in ("home", "away"):
        plain(state, side)
        for status in state.team(side).players.values():  # ice, bench and box
            if not status.is_goalie:
                status.card = msgspec.structs.replace(status.card, assist=0, mi=0, ma=0, gm=0)
    return state


def test_fo_21_10_two_assists_use_column_2_throughout(arc_state):
    s = arc_state
    s.scorer = Scorer("home", s.home.slots["C"])
    ids = [rate(s, "home", slot, assist=r) for slot, r in (("LW", 1), ("RW", 2), ("LD", 3),
                                                            ("RD", 4))]
    arc_pack(s, two=(MISS, HIT, MISS, HIT, HIT, HIT, HIT, HIT, HIT))  # column 1: all hits
    events = draw(s, arc.arc_step(s, "home", "assist", left=2))
    # lowest first; column 2 before and after the first assist; the last one left with
    # one assist to give gets it without a roll (21.10)
    got = [(p, c, a, r > 0) for p, c, a, r in checks(events)]
    assert got == [(ids[0], 2, False, True), (ids[1], 2, True, True),
                   (ids[2], 2, False, True), (ids[3], 2, True, False)]
    awarded = events[-1]
    assert isinstance(awarded, AssistsAwarded) and awarded.players == [ids[1], ids[3]]
    assert awarded.rule == "21.10"


def test_fo_21_10_one_assist_uses_column_1(arc_state):
    s = arc_state
    s.scorer = Scorer("home", s.home.slots["C"])
    for slot, r in (("LW", 1), ("RW", 2), ("LD", 3), ("RD", 4)):
        rate(s, "home", slot, assist=r)
    arc_pack(s, one=(HIT,) * 9, two=(MISS,) * 9)
    events = draw(s, arc.arc_step(s, "home", "assist", left=1, goalie=s.home.goalie))
    assert checks(events) == [(s.home.slots["LW"], 1, True, s.rolls)]
    assert events[-1].players == [s.home.goalie, s.home.slots["LW"]]  # 16.00: goalie first


def test_fo_21_10_as_many_players_left_as_assists_get_them_without_a_roll(arc_state):
    s = arc_state
    s.scorer = Scorer("home", s.home.slots["C"])
    for slot in ("LD", "RD"):  # two skaters left on the ice besides the scorer
        s.home.slots[slot] = None
    rate(s, "home", "LW", assist=2)
    rate(s, "home", "RW", assist=5)
    step = arc.arc_step(s, "home", "assist", left=2)
    assert step.kind == "arc_rest" and not step.needs_roll
    events = draw(s, step)
    assert [(p, a, r) for p, _, a, r in checks(events)] == [
        (s.home.slots["LW"], True, 0), (s.home.slots["RW"], True, 0)]


def test_fo_21_20_last_player_left_takes_the_retaliation_without_a_roll(arc_state):
    s = arc_state
    lw, c, rw = (rate(s, "home", slot, mi=r) for slot, r in (("LW", 1), ("C", 2), ("RW", 3)))
    arc_pack(s, one=(MISS,) * 9)
    events = draw(s, arc.arc_step(s, "home", "MI", retaliation=Retaliation("MI", "minor", 5)))
    assert [(p, a, r > 0) for p, _, a, r in checks(events)] == [
        (lw, False, True), (c, False, True), (rw, True, False)]
    assert events[0].total == 6 and all(e.rule == "21.20" for e in events)
    call = s.calls[-1]
    assert (call.player, call.kind, call.short, call.rule) == (rw, "minor", 5, "21.20")


def test_fo_21_20_zero_ratings_are_never_checked_and_nobody_means_no_retaliation(arc_state):
    s = arc_state
    assert arc.arc_step(s, "home", "MA", retaliation=Retaliation("MA", "major", 0)) is None
    rate(s, "home", "LD", ma=4)
    step = arc.arc_step(s, "home", "MA", retaliation=Retaliation("MA", "major", 0))
    events = draw(s, step)
    assert [p for p, *_ in checks(events)] == [s.home.slots["LD"]]


def test_fo_21_30_every_skater_with_gm_may_draw_it_not_only_five(arc_state):
    s = arc_state
    skaters = [p for p, st in s.away.players.items() if not st.is_goalie][:8]
    for rating, pid in enumerate(skaters, start=1):
        st = s.away.players[pid]
        st.card = msgspec.structs.replace(st.card, gm=rating)
    assert len(penalties._ranked(s, "away", "GM")) == 5  # 14.51: the top five only
    arc_pack(s, one=(MISS,) * 9)
    events = draw(s, arc.arc_step(s, "away", "GM"))
    assert [p for p, *_ in checks(events)] == skaters  # lowest first, all eight
    assert events[0].total == sum(range(1, 9)) and s.calls[-1].kind == "game_misconduct"


def test_fo_21_000_retaliation_steps_become_arc_draws(arc_state):
    s = arc_state
    minor = Retaliation("MI", "minor", 5)
    rate(s, "home", "LW", mi=2)
    s.queue = [Step("retaliation", side="home", retaliation=minor), Step("gm_pick", side="away")]
    arc.convert_queue(s)
    assert [(st.kind, st.draw, st.retaliation) for st in s.queue] == [("arc_rest", "MI", minor)]


def test_fo_21_000_substitute_cards_are_nearest_to_the_share_of_the_total():
    pack = with_arc_cards(default_charts()).arc
    ranges = {f"{b}-{w}": DiceRange.parse(f"{b}-{w}") for b in range(1, 7) for w in range(2, 13)}
    rolls = [R(b, w1, w2, 1) for b, w1, w2 in itertools.product(range(1, 7), repeat=3)]
    chance = {t: Fraction(sum(r.contains(x) for x in rolls), 216) for t, r in ranges.items()}
    assert pack.substitute and [c.total for c in pack.cards] == list(range(1, 163))
    for card in pack.cards:
        for column, cells in ((1, card.one), (2, card.two)):
            for rating, text in enumerate(cells, start=1):
                want = min(Fraction(1), Fraction(column * rating, card.total))
                best = min(abs(p - want) for p in chance.values())
                assert abs(chance[text] - want) == best, (card.total, column, rating, text)


def test_fo_21_000_arc_cards_need_their_pack():
    with pytest.raises(IllegalChoice, match="21.000"):
        initial_state(created("faceoff2008", faceoff_arc_cards=True), find_team("HFX"),
                      find_team("QUE"), default_charts())


# --- Rulings that fill FaceOff's silences ------------------------------------------------------

def test_fo_9_70_sixth_attacker_defended_as_the_centre_and_shooting_n(fo):
    """R-FO-6th: the FaceOff text is silent on the sixth attacker's defense and range; the
    Hockey Bones fill (R-QR-6th) is kept: LD + RD + C - 2 (+1 for the pulled goalie, 9.70)
    and the N range."""
    plain(fo, "away")
    for slot, rating in (("LD", 3), ("RD", 2), ("C", 4)):
        rate(fo, "away", slot, defense=rating)
    fo.home.slots["G"] = fo.home.team.lines.forwards[1][0]
    fo.home.pulled = True
    total = team_defense(fo, "away", "G")
    value, how = total.target, total.how
    assert value == 3 + 2 + 4 - 2 and how.startswith("9.20: LD 3 + RD 2 + C 4 - 2")
    extra = fo.home.card(fo.home.slots["G"])
    assert shots.range_name(fo, "home", "G", extra, "normal") == "N"


def test_fo_charts_the_text_does_not_print_are_the_bones_substitutes(fo):
    """R-FO-charts: FaceOff prints no chart; a game reads the Hockey Bones pack, whose
    made-up charts say so (``substitute``), and the Hockey Bones text's tables."""
    assert fo.charts == default_charts()
    assert {"faceoffs", "team_defense", "clearing", "assists", "retaliation", "exact_time",
            "special_occurrences"} <= set(fo.charts.substitute)


def test_fo_21_000a_a_total_past_the_last_card_reads_the_last_card():
    cards = [ArcCard(total=t, one=[HIT] * 9, two=[MISS] * 9) for t in (1, 2, 3)]
    pack = ArcCards(name="short", substitute=True, cards=cards)
    assert pack.cell(99, 2, 1) == pack.cell(3, 2, 1) == MISS
    with pytest.raises(msgspec.ValidationError, match="totals"):
        ArcCards(name="gap", substitute=True, cards=[cards[0], cards[2]])


def test_fo_21_000b_arc_ranges_are_three_dice_no_red():
    """21.10-21.30 roll three dice: a card cell never names the red die."""
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"total": 1, "one": ["3-6(3)"] * 9, "two": [HIT] * 9}, ArcCard)


def test_fo_21_10a_an_as_of_zero_is_passed_over(arc_state):
    """R-FO-21.10a: a card has no row for an AS of 0, so such a player is not rolled for;
    he still counts among the players left once they number the assists to give."""
    s = arc_state
    s.scorer = Scorer("home", s.home.slots["C"])
    rate(s, "home", "RW", assist=2)
    rate(s, "home", "LD", assist=3)
    arc_pack(s, one=(MISS,) * 9)
    events = draw(s, arc.arc_step(s, "home", "assist", left=1))
    # LW and RD (AS 0) are passed over; RW misses; LD, the last one left, gets it
    assert [(p, r > 0) for p, _, _, r in checks(events)] == [
        (s.home.slots["RW"], True), (s.home.slots["LD"], False)]
    assert events[0].total == 5


def test_fo_5_00_describe_a_tie(fo):
    from engine.bones.explain import describe

    line = describe(fo, GameEnded(home_goals=2, away_goals=2, decided="TIE", winner="none"))
    assert line is not None and line.endswith("a tie") and "(TIE)" in line


def test_fo_21_10b_equal_ratings_are_checked_in_roster_order(arc_state):
    """R-FO-21.10b: "starting with the LOWEST" leaves equal ratings open: roster order."""
    s = arc_state
    for slot in ("LW", "C", "RW"):
        rate(s, "away", slot, ma=2)
    arc_pack(s, one=(MISS,) * 9)
    roster = [p for p in s.away.players if p in {s.away.slots[x] for x in ("LW", "C", "RW")}]
    events = draw(s, arc.arc_step(s, "away", "MA", retaliation=Retaliation("MA", "major", 0)))
    assert [p for p, *_ in checks(events)] == roster


def test_fo_cards_need_no_shootout_grade():
    """FaceOff has no shootout: a goalie card without a grade plays FaceOff, while a
    Hockey Bones game refuses it (21.00 needs the grade)."""
    home = find_team("HFX")
    goalies = [msgspec.structs.replace(g, shootout="") for g in home.goalies]
    ungraded = msgspec.structs.replace(home, goalies=goalies)
    state = initial_state(created("faceoff2008"), ungraded, find_team("QUE"), default_charts())
    assert state.home.card(state.home.goalie).shootout == ""
    with pytest.raises(IllegalChoice, match="21.00"):
        initial_state(created("bones"), ungraded, find_team("QUE"), default_charts())


def test_the_texts_an_event_carries_told_by_its_class() -> None:
    """``game._texts_of`` tells the most frequent event classes by identity: the same
    answer as reading their fields (``_cited_fields``), and the same for any other."""
    from engine.bones import game
    from events import bones as ev

    for kind in (ev.ActionResolved, ev.SequencePlayed, ev.PlayStopped, ev.PuckIntercepted,
                 ev.ShotTaken, ev.FaceoffRolled, ev.GoalieResult, ev.PuckPassed,
                 ev.PenaltyCalled, ev.ExactTime, GameEnded):
        assert game._texts_of(kind) == game._cited_fields(kind), kind.__name__
    # decide's own events: the classes its deciders make cited carry nothing left to cite
    made_cited = (ev.ActionResolved, ev.PuckIntercepted, ev.ShotTaken, ev.FaceoffRolled,
                  ev.GoalieResult, ev.PuckPassed)
    for kind in (*made_cited, ev.SequencePlayed, ev.PlayStopped, ev.PenaltyCalled,
                 ev.ExactTime, GameEnded):
        expected = game.NOTHING_CITED if kind in made_cited else game._cited_fields(kind)
        assert game._texts_left(kind) == expected, kind.__name__
