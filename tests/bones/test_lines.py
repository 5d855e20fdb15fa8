"""The line check (engine/bones/lines.py, 6.41 and 15.00): what a change must name, where
its skaters stand, and no one twice. The check reads the slots one by one (issue 35); a
change it refused before it refuses now, with the same words."""

from __future__ import annotations

from bones_support import penalize

from engine.bones import lines
from events.bones import LinesChanged


def change(state, side="home", **slots):
    new = dict(state.team(side).slots)
    new.update(slots)
    return LinesChanged(side=side, slots=new, on_the_fly=False, rule="6.41")


def test_a_player_named_in_two_slots_is_refused(state):
    """A player stands in one place on the playing board (15.00 places each skater)."""
    centre = state.home.slots["C"]
    assert lines.check_lines(state, change(state, RW=centre)) == "a player stands in two slots"
    assert lines.check_lines(state, change(state, G=centre)) == "a player stands in two slots"


def test_a_change_that_leaves_out_a_slot_is_refused_for_that_first(state):
    """Every change names the six places of the playing board; one that misses a slot is
    refused for it before its 15.00 fault (here C empty with five skaters)."""
    slots = dict(state.home.slots)
    slots["C"] = None
    del slots["LD"]
    event = LinesChanged(side="home", slots=slots, on_the_fly=False, rule="6.41")
    assert lines.check_lines(state, event) == \
        "a line change names the six slots LW, C, RW, LD, RD, G"
    slots["LD"] = state.home.slots["LD"]
    slots["X"] = None
    del slots["G"]
    event = LinesChanged(side="home", slots=slots, on_the_fly=False, rule="6.41")
    assert lines.check_lines(state, event) == \
        "a line change names the six slots LW, C, RW, LD, RD, G"


def test_15_00_five_skaters_fill_every_skater_slot(state):
    """With five skaters no place on the board is left vacant (15.00 names the vacant
    places only for 4 and 3 skaters)."""
    assert lines.check_lines(state, change(state, LD=None)) == \
        "15.00: 5 skaters must stand in LW, C, RW, LD, RD"


def test_15_00_three_skaters_leave_both_wings_vacant(state):
    """15.00: "3 Skaters: Leave the RW and LW positions on the Playing Board vacant.\""""
    penalize(state, "home", slot="RW")
    penalize(state, "home", slot="LW")
    centre = state.home.slots["C"]
    assert lines.check_lines(state, change(state, LW=None, RW=None, C=centre)) is None
    assert lines.check_lines(state, change(state, LW=centre, RW=None, C=None)) == \
        "15.00: 3 skaters must stand in C, LD, RD"
    assert lines.check_lines(state, change(state, LW=None, RW=centre, C=None)) == \
        "15.00: 3 skaters must stand in C, LD, RD"


def test_a_change_naming_its_slots_in_another_order_is_checked_the_same(state):
    """The check reads a change's slots expecting slot order (as the coach makes them and
    the stream keeps them) and falls back to each name when a key is elsewhere (issue
    35): the same change in another order gets the same answer, and a name that is no
    slot is still refused."""
    slots = dict(state.home.slots)
    centre = slots["C"]
    backwards = dict(reversed(list(slots.items())))
    assert list(backwards) != list(slots)
    event = LinesChanged(side="home", slots=backwards, on_the_fly=False, rule="6.41")
    assert lines.check_lines(state, event) is None
    twice = dict(reversed(list({**slots, "RW": centre}.items())))
    event = LinesChanged(side="home", slots=twice, on_the_fly=False, rule="6.41")
    assert lines.check_lines(state, event) == "a player stands in two slots"
    empty = dict(reversed(list({**slots, "LD": None}.items())))
    event = LinesChanged(side="home", slots=empty, on_the_fly=False, rule="6.41")
    assert lines.check_lines(state, event) == "15.00: 5 skaters must stand in LW, C, RW, LD, RD"
    renamed = {("RW" if slot == "G" else "G" if slot == "RW" else slot): pid
               for slot, pid in slots.items()}  # the goalie named for RW, a skater for G
    event = LinesChanged(side="home", slots=renamed, on_the_fly=False, rule="6.41")
    assert lines.check_lines(state, event) == \
        f"6.41: goalie {slots['G']} cannot skate in RW"
    wrong = {("W" if slot == "RW" else slot): pid for slot, pid in backwards.items()}
    event = LinesChanged(side="home", slots=wrong, on_the_fly=False, rule="6.41")
    assert lines.check_lines(state, event) == \
        "a line change names the six slots LW, C, RW, LD, RD, G"
