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
