"""FaceOff Hockey 2008: each difference of its text against Hockey Bones, by FaceOff's own
section numbers (test_fo_<section>_...). The shared rules are tested in the other files."""

from __future__ import annotations

import itertools
from fractions import Fraction

import msgspec
import pytest
from conftest import R, action, apply, created, fill, new_state, penalize, plain, rate

from engine.bones import actions, goalies, scoring, shots
from engine.bones.coach import DefaultCoach
from engine.bones.game import IllegalChoice, check_choice, decide
from engine.bones.passing import pp_rules
from engine.bones.rulesets import RULESETS, find_ruleset
from engine.bones.state import Step
from events.bones import ActionResolved, ClearingChecked, PuckIntercepted
from events.common import FaceoffOptions, GameCreated, GameEnded, LinesChanged, TacticDeclared


@pytest.fixture
def fo():
    return new_state("faceoff2008")


def fo_with(*names: str):
    fields = FaceoffOptions(**dict.fromkeys(names, True)).created_fields()
    return new_state("faceoff2008", **fields)


def shoot(state, side, slot, roll):
    pid = state.team(side).slots[slot]
    state.puck = (side, pid)
    state.queue = [Step("shot", side=side, player=pid, detail="normal")]
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
    fo.queue = [Step("time", detail="goal")]
    assert decide(fo, R(1, 1, 1, 1))[0].rule == "5.30"


def test_fo_5_41_line_changes_cite_5_41(fo):
    fo.puck = None
    change = LinesChanged(side="home", slots=dict(fo.home.slots), on_the_fly=False)
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


# --- 6.00 Draft leagues: the NHL bench-penalty range ---------------------------------------

def test_fo_6_00_draft_league_uses_the_nhl_bench_range():
    state = new_state("faceoff2008", nhl_bench_range="6-12")  # always in range
    state.queue = [Step("bench", side="away")]
    checked = decide(state, R(6, 6, 5, 6))[0]
    assert checked.range == "6-12" and checked.in_range
    with pytest.raises(IllegalChoice, match="6.00"):
        new_state("bones", nhl_bench_range="6-12")


# --- 11.20 Clearing: all four dice ---------------------------------------------------------

def test_fo_11_20_clearing_reads_the_red_die(fo):
    plain(fo, "home")
    fo.charts = msgspec.structs.replace(fo.charts, clearing=["2-6(2)"] * 11)
    step = Step("clearing", side="home", player=fo.home.slots["LW"], detail=fo.home.slots["C"])
    assert not decide_clearing(fo, step, R(2, 3, 3, 3)).cleared
    assert decide_clearing(fo, step, R(2, 3, 3, 2)).cleared


def decide_clearing(state, step, roll) -> ClearingChecked:
    return goalies.decide_clearing(state, step, roll)[0]


# --- 16.00 Assists: red then blue ----------------------------------------------------------

def test_fo_16_00_first_assist_to_the_red_rank_second_to_the_blue(fo):
    fo.scorer = ("home", fo.home.slots["C"])
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
    assert tired(fo)[0] == 10
    on = fo_with("fatigue")
    plain(on, "away")
    value, mods = tired(on)
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
        value, _ = actions.numeric_value(state, "home", "LD", state.home.card(pid), 10, pid)
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

