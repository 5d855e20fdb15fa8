"""DICE Hockey 9: the rotation of lines 1-3 (and 4 once it joined) and of the pairs, when
shifts are cut short (ruling R-DH-9b, issue 31 item 1).

9: "You must use all 3 lines regularly and your fourth line must make a full shift
appearance at least once every period." "Once you make the line change, Line 1 cannot
come back onto the ice until Lines 2 and 3 have taken a full shift or the period has
ended or a team has taken a time out." A version-2 game holds every line to that: no
sequence of changes skips a rotation line while the others keep playing. A version-1
game keeps the rotation it was played under (it let the line that left first back).
"""

from __future__ import annotations

import copy

import pytest
from dicehockey_support import new_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dicehockey.coach import DefaultCoach
from engine.dicehockey.game import IllegalChoice, check_choice, evolve
from engine.dicehockey.lines import rotation, slots_for
from engine.dicehockey.puck import count_space
from engine.dicehockey.rulesets import VERSION_2
from engine.dicehockey.state import Penalty
from events.dicehockey import LinesChanged

# The issue's sequence: line 1 starts; at each whistle line 3 comes on and goes off for
# line 4 at once, then lines 4, 1 and 2 each play a full shift ("A line change must be
# made after two timing spaces"). (line, timing spaces it then plays), three times over.
EXPLOIT = [(3, 0), (4, 2), (1, 2), (2, 2)] * 3


def state_of(version: int):
    state = new_state()
    state.version = version
    return state


def change(state, side: str, forwards: int, defense: int) -> LinesChanged:
    team = state.team(side)
    return LinesChanged(side=side, forwards=forwards, defense=defense,
                        slots=slots_for(team, forwards, defense), rule="9")


def whistle_window(state) -> None:
    state.puck, state.window, state.coach_window = None, "stoppage", True


def spaces(state, n: int) -> None:
    """``n`` timing spaces go by (9, 12: each a turnover or a possession's first shot)."""
    for _ in range(n):
        for event in count_space(state, "turnover", "19"):
            evolve(state, event)


def try_change(state, side: str, forwards: int, defense: int) -> str | None:
    """The change made at a whistle, or why the rules refuse it."""
    whistle_window(state)
    event = change(state, side, forwards, defense)
    try:
        check_choice(state, event)
    except IllegalChoice as err:
        return str(err)
    evolve(state, event)
    return None


def play_exploit(state) -> tuple[list[str], dict[int, int]]:
    """The refusals met and the timing spaces each forward line played."""
    refused, played = [], {1: 0, 2: 0, 3: 0, 4: 0}
    for line, n in EXPLOIT:
        problem = try_change(state, "home", line, 1)
        if problem is not None:
            refused.append(problem)
            continue
        spaces(state, n)
        played[line] += n
    return refused, played


def test_9_the_issue_sequence_keeps_line_3_off_in_version_1_only() -> None:
    """9: "You must use all 3 lines regularly". Version 1 (as stored games were played)
    accepts all twelve changes and line 3 never plays; version 2 refuses line 1 coming
    back while line 2 has not had its turn and line 3 is owed its shift."""
    refused, played = play_exploit(state_of(1))
    assert refused == [] and played == {1: 6, 2: 6, 3: 0, 4: 6}
    refused, played = play_exploit(state_of(VERSION_2))
    assert refused, "the twelve changes must not all be accepted"
    assert "9: line 1 waits for lines [2, 3] to take a full shift" in refused[0]


def cut_short_state(version: int):
    """Lines 1 and 2 have had their full shifts; line 3 came on and went off for line 4
    at the same whistle; line 4 has had its full shift. Every rotation line now waits:
    1 for 3, 2 for 3 and 1, 3 for 1 and 2 (9: "Line 1 cannot come back onto the ice
    until Lines 2 and 3 have taken a full shift")."""
    state = state_of(version)
    spaces(state, 2)
    for line, n in [(2, 2), (3, 0), (4, 2)]:
        assert try_change(state, "home", line, 1) is None
        spaces(state, n)
    whistle_window(state)
    assert state.home.f_waiting == {1: {3}, 2: {3, 1}, 3: {1, 2}}
    return state


def test_r_9b_a_line_cut_short_comes_back_to_finish_its_shift() -> None:
    """9: "You must use all 3 lines regularly": with every line waiting, the one owed a
    shift (line 3, which has had none) comes on; line 1, whose full shift is the latest
    but line 2's, may not skip it (ruling R-DH-9b)."""
    state = cut_short_state(VERSION_2)
    for line in (1, 2):
        with pytest.raises(IllegalChoice, match=rf"line {line} waits for lines"):
            check_choice(state, change(state, "home", line, 1))
    check_choice(state, change(state, "home", 3, 1))
    (home,) = [c for c in DefaultCoach().lines(state) if c.side == "home"]
    assert home.forwards == 3


def test_r_9b_version_1_let_the_line_that_left_first_back() -> None:
    """Version 1's ruling R-DH-9b, kept for its stored games: line 1 (left first) came
    back and line 3 was refused."""
    state = cut_short_state(1)
    check_choice(state, change(state, "home", 1, 1))
    with pytest.raises(IllegalChoice, match=r"line 3 waits for lines \[1, 2\]"):
        check_choice(state, change(state, "home", 3, 1))


def test_r_9b_a_free_line_goes_before_any_line_stuck_waiting() -> None:
    """9: line 1 waits for lines 2 and 3 "to take a full shift". Line 1 played, line 3
    came on and went off for line 4 at once: line 2, which waits for nobody, comes on
    before line 1 or line 3 (ruling R-DH-9b's escape is only for when no line can)."""
    state = state_of(VERSION_2)
    spaces(state, 2)
    for line, n in [(3, 0), (4, 2)]:
        assert try_change(state, "home", line, 1) is None
        spaces(state, n)
    whistle_window(state)
    for line in (1, 3):
        with pytest.raises(IllegalChoice, match=rf"line {line} waits for lines"):
            check_choice(state, change(state, "home", line, 1))
    check_choice(state, change(state, "home", 2, 1))


# --- the property: nobody skipped -------------------------------------------------------

ACTIONS = st.lists(st.one_of(
    st.tuples(st.just("change"), st.integers(1, 4), st.integers(1, 3)),
    st.tuples(st.just("spaces"), st.integers(1, 2), st.just(0))), max_size=80)


def skipped(shifts: list[int], regular: tuple[int, ...]) -> str | None:
    """The first line that had two full shifts with another rotation line having none
    between them, or None."""
    last: dict[int, int] = {}
    for i, line in enumerate(shifts):
        if line in last:
            between = set(shifts[last[line] + 1:i])
            missing = set(regular) - {line} - between
            if missing:
                return f"{line} played twice ({shifts}) before {sorted(missing)}"
        last[line] = i
    return None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=ACTIONS, fourth_joined=st.booleans())
def test_r_9b_property_no_rotation_line_is_skipped(actions, fourth_joined) -> None:
    """9: "You must use all 3 lines regularly" (4 too, once it "must now become part of
    your regular rotation"); pairs rotate the same way. Over any changes the rules
    accept: between two full shifts of a rotation line every other rotation line has had
    one, and once the unit on the ice has had its full shift some other rotation line
    may come on."""
    state = state_of(VERSION_2)
    team = state.home
    team.fourth_in_rotation = fourth_joined
    lines: list[int] = []
    pairs: list[int] = []
    counted = [False, False]  # this stint's full shift recorded (forwards, pair)
    for kind, first, second in actions:
        if kind == "change":
            before = (team.forwards, team.defense)
            if try_change(state, "home", first, second) is None:
                counted = [counted[0] and before[0] == team.forwards,
                           counted[1] and before[1] == team.defense]
            continue
        spaces(state, first)
        for i, (full, unit, shifts) in enumerate([(team.f_full(), team.forwards, lines),
                                                  (team.d_full(), team.defense, pairs)]):
            if full and not counted[i]:
                shifts.append(unit)
                counted[i] = True
    assert skipped([line for line in lines if line in rotation(team)], rotation(team)) is None
    assert skipped(pairs, (1, 2, 3)) is None
    whistle_window(state)
    if team.f_full():
        assert any(try_legal(state, line, team.defense) for line in rotation(team)
                   if line != team.forwards)
    if team.d_full():
        assert any(try_legal(state, team.forwards, pair) for pair in (1, 2, 3)
                   if pair != team.defense)


def try_legal(state, forwards: int, defense: int) -> bool:
    try:
        check_choice(state, change(state, "home", forwards, defense))
    except IllegalChoice:
        return False
    return True


# --- one check: the table and the audit ---------------------------------------------------

def test_r_9b_the_table_prompt_refuses_what_the_rules_refuse() -> None:
    """``rinklog play`` judges a typed change by the rules' own check: at the cut-short
    position line 1 is refused with the rules' words and line 3 is taken."""
    from replay.systems import Prompter, kit_for

    state = cut_short_state(VERSION_2)
    answers = ["lines home 1 1", "lines home 3 1", ""]
    shown: list[str] = []

    def ask(text: str) -> str:
        shown.append(text)
        return answers.pop(0)

    coach = kit_for("dicehockey").prompt_coach(Prompter(ask, shown.append))
    with pytest.raises(IllegalChoice) as refused:
        check_choice(state, change(state, "home", 1, 1))
    (chosen,) = coach.lines(state)
    assert f"  not allowed: {refused.value}" in shown
    assert (chosen.side, chosen.forwards, chosen.defense) == ("home", 3, 1)


def test_r_9b_the_audit_refuses_a_stored_change_the_rotation_refuses(tmp_path) -> None:
    """A game played at the table audits clean; the same game with line 1 sent back at
    the whistle it left ("Line 1 cannot come back onto the ice until Lines 2 and 3 have
    taken a full shift") fails its audit at that event, by the same check."""
    import msgspec
    from forge import audit_forged
    from setups import setup_for

    from events import dicehockey as ev
    from replay.games.game_streams import open_store, read_game
    from replay.games.session import (
        continue_game,
        new_live_game,
        resume_point,
        store_committer,
    )

    class Typed:
        def roll(self, n: int):
            from engine.dicehockey.dice import derive_roll
            return derive_roll("rot", "rotation", n)

    with open_store(tmp_path / "game.db") as store:
        new_live_game(store, setup_for("ALD", "BRK", ruleset="dicehockey"), game_id="rotation")
        continue_game(resume_point(store, "rotation"), Typed(), DefaultCoach(),
                      store_committer(store, "rotation"))
        events = read_game(store, "rotation")
        assert events[0].ruleset_version == VERSION_2
        assert audit_forged(store, "rotation", events).ok
        k = next(i for i, e in enumerate(events) if isinstance(e, ev.LinesChanged)
                 and e.side == "home" and e.forwards == 2)
        back = msgspec.structs.replace(events[k], forwards=1)
        report = audit_forged(store, "rotation", [*events[:k + 1], back, *events[k + 1:]])
    # found in the window's batch of choices, which ends with the forged change (seq k + 2)
    assert not report.ok and report.failure.rule == "9" and report.failure.seq <= k + 2
    assert "9: line 1 waits for lines [2, 3] to take a full shift" in report.failure.recorded


def test_9_10_the_coachs_change_is_the_same_asked_twice_fresh_or_on_a_copy() -> None:
    """9: "A line change must be made after two timing spaces"; 10: the slots are the
    lineup cards' boxes for the pawns. What the rules keep between asks (the slots of
    each line and pair) never makes a proposal depend on what was asked before: asked
    again, by a fresh coach, on a copy of the state, the proposal is the same, and the
    event's slots are its own (changing them changes no later proposal)."""
    state = new_state()
    whistle_window(state)
    spaces(state, 2)
    whistle_window(state)
    first = DefaultCoach().lines(state)
    changes = [c for c in first if isinstance(c, LinesChanged)]
    assert [(c.side, c.forwards, c.defense) for c in changes] == [("away", 2, 2),
                                                                   ("home", 2, 2)]
    assert changes[1].slots == slots_for(state.home, 2, 2)
    changes[1].slots["C"] = "nobody"  # an event's slots are a copy of its own
    assert DefaultCoach().lines(state) == DefaultCoach().lines(copy.deepcopy(state))
    again = DefaultCoach().lines(state)
    assert again[1].slots == slots_for(state.home, 2, 2) and again[1].slots["C"] != "nobody"


def test_15_a_team_back_from_the_box_has_the_slots_of_a_team_never_short() -> None:
    """15: "Take the player off of his line and place him in the penalty box"; a team
    short-handed leaves its LW box empty. Once the penalty ends (and once an injured
    player is back in the lineup), a line's slots are those of a team never penalized:
    the slots kept from the earlier standing are those the cards give."""
    state, fresh = new_state(), new_state()
    team = state.home
    before = slots_for(team, 2, 1)
    boxed = team.lines.forwards[2][1]  # line 3's C, on the bench
    team.penalties.append(Penalty(id=1, player=boxed, kind="minor", clears_left=2,
                                  spaces_left=0, short=True))
    assert slots_for(team, 2, 1)["LW"] is None
    team.penalties.clear()
    assert slots_for(team, 2, 1) == slots_for(fresh.home, 2, 1) == before
    team.out[before["C"]] = "injured"
    assert slots_for(team, 2, 1)["C"] != before["C"]
    del team.out[before["C"]]
    assert slots_for(team, 2, 1) == slots_for(fresh.home, 2, 1) == before
