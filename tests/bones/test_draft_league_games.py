"""The Hockey Bones draft league in play (the rules text's "Draft League Setup"): a game of
a league with ``draft_rules = true`` records the option ``draft_league`` and the league's
NHL game-misconduct range in its GameCreated, and plays by 14.51's draft-league sentence,
draft rule 16 (sitting out after special teams, no three consecutive shifts) and draft rule
28 (FaceOff rules not used). Line-up rules checked at league load are in
test_draft_rules.py."""

from __future__ import annotations

import pytest
from bones_support import R, new_state

from engine.bones.game import IllegalChoice, decide
from engine.bones.state import Step

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
