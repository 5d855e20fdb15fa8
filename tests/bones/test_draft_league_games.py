"""The Hockey Bones draft league in play (the rules text's "Draft League Setup"): a game of
a league with ``draft_rules = true`` records the option ``draft_league`` and the league's
NHL game-misconduct range in its GameCreated, and plays by 14.51's draft-league sentence,
draft rule 16 (sitting out after special teams, no three consecutive shifts) and draft rule
28 (FaceOff rules not used). Line-up rules checked at league load are in
test_draft_rules.py."""

from __future__ import annotations

import msgspec
import pytest
from bones_support import R, action, apply, new_state

from engine.bones.coach import CoachPolicy, DefaultCoach
from engine.bones.game import IllegalChoice, check_choice, decide
from engine.bones.state import Step
from events.bones import ActionResolved, PenaltyCalled, TacticDeclared
from replay.systems.bones.prompt import PromptCoach
from replay.systems.kit import Prompter

DRAFT = {"options": ["draft_league"], "nhl_gm_range": "1-2"}


# --- 14.51: draft leagues use the NHL Game Misconduct range -----------------------------

def test_14_51_draft_league_uses_the_nhl_game_misconduct_range():
    """14.51: "For each Major Penalty, refer to that team's Game Misconduct Penalty range.
    (Draft leagues use the NHL Game Misconduct Penalty range.)" """
    state = new_state("bones", **DRAFT)
    assert state.away.team.game_misconduct != "1-2"
    state.queue = [Step("gm_check", side="away")]
    checked = decide(state, R(1, 6, 6, 6))[0]
    assert (checked.range, checked.rule) == ("1-2", "14.51")
    # 3.20 for 1-2: blue 1 with whites 2 is in range; whites 3 is not
    assert decide(state, R(1, 1, 1, 6))[0].in_range
    assert not decide(state, R(1, 1, 2, 1))[0].in_range
    plain = new_state("bones")
    plain.queue = [Step("gm_check", side="away")]
    assert decide(plain, R(1, 1, 1, 6))[0].range == plain.away.team.game_misconduct


def test_14_51_a_draft_league_game_cannot_start_without_the_nhl_range():
    with pytest.raises(IllegalChoice, match=r"^Hockey Bones 14\.51: .*nhl_gm_range"):
        new_state("bones", options=["draft_league"])
    with pytest.raises(IllegalChoice, match="nhl_gm_range"):
        new_state("bones", nhl_gm_range="1-2")  # only a draft league game has one
    with pytest.raises(IllegalChoice, match="5.00"):
        new_state("bones", **DRAFT, nhl_bench_range="1-5")  # no such sentence in 5.00
    with pytest.raises(IllegalChoice, match="draft_league"):
        new_state("faceoff2008", options=["draft_league"])  # FaceOff has no draft section


# --- draft rule 28: FaceOff rules a draft league does not use ----------------------------

RULE_28 = ("28. We do not use the following Faceoff rules: Predetermining game misconducts "
           "or bench penalties. Checking game. Injuries. Pressure Offense.")


def test_rule_28_no_bench_penalties_are_predetermined_before_a_period():
    """5.00: "Before play begins, and before the start of every period, a check is done to
    see if any team will be assessed a bench minor penalty in that period of play ... This
    is the time of the bench minor penalty in the coming period" (predetermined); rule 28:
    a draft league does not use it."""
    for state, queued in ((new_state("bones"), ["bench", "bench", "faceoff"]),
                          (new_state("bones", **DRAFT), ["faceoff"])):
        state.period, state.queue = 0, [Step("start_period")]
        apply(state, decide(state, None))
        assert [s.kind for s in state.queue] == queued, RULE_28


def test_rule_28_no_injuries_a_question_mark_plays_its_code():
    """18.00: "Whenever a player rolls an action code result that is marked with an ?
    ..., a possible injury to that player has occurred"; rule 28: no injuries."""
    for state, hurt in ((new_state("bones"), True), (new_state("bones", **DRAFT), False)):
        events = action(state, "home", "C", "#?")
        resolved = next(e for e in events if isinstance(e, ActionResolved))
        assert resolved.injury is hurt, RULE_28
        assert any(getattr(e, "reason", "") == "injury" for e in events) is False
    assert new_state("bones", **DRAFT).uses("fatigue")  # 17.00 is not in rule 28


@pytest.mark.parametrize(("tactic", "rule"), [("pressure", "19.00"), ("checking1", "20.00"),
                                               ("checking2", "20.00")])
def test_rule_28_no_checking_game_or_pressure_offense(tactic, rule):
    """19.00, 20.00: "A team must announce when it wants to use" them; rule 28: a draft
    league uses neither, so an announcement is refused (the audit refuses it too)."""
    declared = TacticDeclared(side="home", tactic=tactic, rule=rule)
    plain = new_state("bones")
    plain.queue = [Step("faceoff")]
    check_choice(plain, declared)
    state = new_state("bones", **DRAFT)
    state.queue = [Step("faceoff")]
    with pytest.raises(IllegalChoice, match=f"draft rule 28: .*{rule}"):
        check_choice(state, declared)


def test_rule_28_the_coaches_announce_no_tactic():
    behind = CoachPolicy(tactic_when_behind="pressure", tactic_when_ahead="checking2")
    for state, declares in ((new_state("bones"), True), (new_state("bones", **DRAFT), False)):
        state.period, state.sequence = 3, 40
        state.away.score = 1
        state.queue = [Step("faceoff")]
        assert bool(DefaultCoach(behind, behind).tactics(state)) is declares
    asked: list[str] = []
    prompt = PromptCoach(Prompter(ask=lambda q: asked.append(q) or "pressure",
                                  out=lambda line: None))
    assert prompt.tactics(new_state("bones", **DRAFT)) == [] and asked == []


def test_rule_28_ruling_game_misconducts_are_still_checked_after_majors():
    """14.51 (with its draft-league sentence) checks game misconducts when a B, C or #
    penalty is assessed, not before play: ruling R-draft-28 keeps it, with the NHL range."""
    state = new_state("bones", **DRAFT)
    pid = state.home.slots["C"]
    state.queue = [Step("penalty", side="home", player=pid, source="action")]
    apply(state, [PenaltyCalled(side="home", player=pid, code="B", source="action",
                                delayed=False, red=3, roll=1, rule="14.20")])
    assert [s.kind for s in state.queue].count("gm_check") == 2
    state.queue = [s for s in state.queue if s.kind == "gm_check"]
    checked = decide(state, R(1, 1, 1, 1))[0]
    assert (checked.range, checked.in_range) == ("1-2", True)
    assert msgspec.structs.asdict(checked)["rule"] == "14.51"
