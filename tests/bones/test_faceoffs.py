"""7.00-7.30: face-offs."""

from __future__ import annotations

import msgspec
from bones_support import R, apply, penalize, plain, rate

from engine.bones import faceoffs
from engine.bones.state import Step


def chart(state, cell):
    state.charts = msgspec.structs.replace(state.charts, faceoffs=[[cell] * 11 for _ in range(6)])


def draw(state, zone=None):
    state.queue = [Step("faceoff", zone=zone)]
    return faceoffs.decide_faceoff(state, state.queue[0], R(3, 3, 4, 1))[0]


def test_3_10_faceoff_chart_is_blue_column_white_row(state):
    """3.10 / 7.00 example: blue 3, white 7 on the chart."""
    grid = [[f"C-{'H' if b % 2 else 'V'}" for _ in range(11)] for b in range(6)]
    grid[2][5] = "LW-H"
    state.charts = msgspec.structs.replace(state.charts, faceoffs=grid)
    plain(state, "home"), plain(state, "away")
    state.queue = [Step("faceoff")]
    event = faceoffs.decide_faceoff(state, state.queue[0], R(3, 3, 4, 1))[0]
    assert (event.side, event.slot, event.player) == ("home", "LW", state.home.slots["LW"])


def test_7_00_winner_gets_the_puck(state):
    plain(state, "home"), plain(state, "away")
    chart(state, "RD-V")
    event = draw(state)
    apply(state, [event])
    assert state.puck == ("away", state.away.slots["RD"])
    assert state.queue[0].kind == "action"


def test_7_00_vacant_slot_rolls_again(state):
    plain(state, "home"), plain(state, "away")
    penalize(state, "away", slot="RW")
    chart(state, "RW-V")
    event = draw(state)
    assert event.player is None
    apply(state, [event])
    assert state.queue[0].kind == "faceoff" and state.puck is None


def test_7_10_pp_cell_goes_to_the_power_play_team(state):
    plain(state, "home"), plain(state, "away")
    penalize(state, "home", slot="RW")
    chart(state, "C-PP")
    event = draw(state)
    assert (event.side, event.rule) == ("away", "7.10")


def test_7_10_pp_cell_without_power_play_goes_home(state):
    """Ruling R-7.10: with no power play a PP cell is read as home."""
    plain(state, "home"), plain(state, "away")
    chart(state, "C-PP")
    assert draw(state).side == "home"


def aces(state, home, away):
    plain(state, "home"), plain(state, "away")
    if home:
        rate(state, "home", "LW", faceoff=home)
    if away:
        rate(state, "away", "RD", faceoff=away)


def test_7_20_none_vs_none_no_change(state):
    aces(state, "", "")
    chart(state, "C-V/AA")
    assert draw(state).side == "away"


def test_7_20_a_wins_a_cells_against_none(state):
    aces(state, "A", "")
    chart(state, "C-V/A")
    event = draw(state)
    # Ruling: the ace himself wins the draw, wherever he stands.
    assert (event.side, event.player, event.rule) == ("home", state.home.slots["LW"], "7.20")


def test_7_20_a_does_not_take_aa_cells_against_none(state):
    aces(state, "A", "")
    chart(state, "C-V/AA")
    assert draw(state).side == "away"


def test_7_20_aa_wins_a_and_aa_cells_against_none(state):
    aces(state, "AA", "")
    chart(state, "C-V/A")
    assert draw(state).side == "home"
    chart(state, "C-V/AA")
    assert draw(state).side == "home"


def test_7_20_a_vs_a_no_change(state):
    aces(state, "A", "A")
    chart(state, "C-V/A")
    assert draw(state).side == "away"


def test_7_20_aa_vs_a_wins_aa_cells_only(state):
    aces(state, "AA", "A")
    chart(state, "C-V/AA")
    assert draw(state).side == "home"
    chart(state, "C-V/A")
    assert draw(state).side == "away"


def test_7_20_aa_vs_aa_no_change(state):
    aces(state, "AA", "AA")
    chart(state, "C-V/AA")
    assert draw(state).side == "away"


def test_7_20_ace_of_the_cell_side_keeps_it(state):
    aces(state, "", "A")
    chart(state, "LW-V/A")
    event = draw(state)
    assert (event.side, event.slot) == ("away", "LW")


def test_7_30_attackers_winning_in_defenders_zone_get_the_bonus(state):
    plain(state, "home"), plain(state, "away")
    chart(state, "C-H")
    apply(state, [draw(state, zone="away")])
    assert state.dz_bonus == "home"


def test_7_30_defenders_winning_their_own_zone_get_no_bonus(state):
    plain(state, "home"), plain(state, "away")
    chart(state, "C-V")
    apply(state, [draw(state, zone="away")])
    assert state.dz_bonus == ""
