"""DICE Hockey 5, 6 (face-offs), 7 (passing, defense, assists), 8 (rebounds), 20, 21C."""

from __future__ import annotations

import pytest
from dicehockey_support import (
    R,
    carry,
    crosby,
    decide,
    fleury,
    malone,
    new_state,
    pid,
    plain,
    put,
    put_goalie,
    rate,
)

from engine.dicehockey import faceoffs, passing
from engine.dicehockey.state import Step
from events.dicehockey import FaceoffWon, GoalScored, PassRolled, PlayStopped, ShotTaken


def test_5_red_4_white_3_reads_43() -> None:
    assert R(43).red == 4 and R(43).white == 3 and R(43).value == 43


# --- 6 face-offs --------------------------------------------------------------------------

def test_6_home_wins_00_49_before_modification() -> None:
    assert faceoffs.home_upto(0, 0) == 49


@pytest.mark.parametrize(("home", "away", "upto"), [
    (4, -9, 62),  # 6: "the home center has an advantage of +13 ... 00-62"
    (-3, -6, 52),  # 6: "the player with a -3 would have a range of 00-52"
    (5, 2, 52),  # 6: "The +5 against the +2 would also have an advantage of +3"
])
def test_6_the_ratings_difference_moves_the_range(home: int, away: int, upto: int) -> None:
    assert faceoffs.home_upto(home, away) == upto


def test_6_face_off_example_63_goes_away_and_parity_picks_the_defenseman() -> None:
    state = new_state()
    rate(state, "home", "C", faceoff=4)
    rate(state, "away", "C", faceoff=-9)
    state.puck = None
    won = decide(state, 62, Step("faceoff"))[0]
    assert isinstance(won, FaceoffWon) and won.side == "home" and won.home_upto == 62
    assert won.slot == "RD" and state.puck == ("home", pid(state, "home", "RD"))  # even
    won = decide(state, 63, Step("faceoff"))[0]
    assert won.side == "away" and won.slot == "LD"  # odd
    assert state.puck == ("away", pid(state, "away", "LD"))


# --- 7 passing ----------------------------------------------------------------------------

def example(defense: bool = False):
    """Crosby at C for the home team, Malone at LW; Fleury in the away net (7)."""
    state = new_state(options=None if defense else ["learning_game"])
    plain(state)
    put(state, "home", "C", crosby())
    put(state, "home", "LW", malone())
    put_goalie(state, "away", fleury())
    carry(state, "home", "C")
    return state


def test_7_crosby_12_is_to_lw_ps_and_malone_24_scores_with_crosbys_assist() -> None:
    state = example()
    events = decide(state, 12)
    assert events[0].result == "shot" and events[0].shot == "PS"
    assert events[0].to_player == pid(state, "home", "LW")
    shot = decide(state, 24)
    goal = next(e for e in shot if isinstance(e, GoalScored))
    assert shot[0].upto == 28 and goal.scorer == pid(state, "home", "LW")
    assert goal.assists == [pid(state, "home", "C")]


def test_7_malone_65_is_saved_to_the_defensive_ld() -> None:
    state = example()
    decide(state, 12)
    shot = decide(state, 65)[0]
    assert isinstance(shot, ShotTaken) and not shot.goal
    assert (shot.puck_side, shot.slot) == ("away", "LD")
    assert state.puck == ("away", pid(state, "away", "LD"))


def test_7_crosby_36_is_to_lw_gs_on_fleurys_00_04_and_42_goes_to_the_defensive_c() -> None:
    state = example()
    events = decide(state, 36)
    assert (events[0].shot, events[0].slot) == ("GS", "LW")
    shot = decide(state, 4)[0]
    assert shot.kind == "GS" and shot.upto == 4 and shot.goal
    state = example()
    decide(state, 36)
    shot = decide(state, 42)[0]
    assert not shot.goal and (shot.puck_side, shot.slot) == ("away", "C")


def test_7_crosby_65_is_a_plain_pass_and_malone_rolls_next() -> None:
    state = example()
    events = decide(state, 65)
    assert events[0].result == "pass" and events[0].slot == "LW"
    assert state.queue[0] == Step("pass", side="home", player=pid(state, "home", "LW"))


def test_7_defense_example_19_plus_8_is_27_to_c_gs_so_crosby_shoots_himself() -> None:
    state = example(defense=True)
    rate(state, "home", "C", passer=0)  # the example leaves the passer out
    rate(state, "away", "LD", defense=5)
    rate(state, "away", "RD", defense=3)
    event = decide(state, 19)[0]
    assert event.modifier == 8 and event.value == 27
    assert event.shot == "GS" and event.to_player == pid(state, "home", "C")
    assert state.queue[0].kind == "shot" and state.queue[0].player == pid(state, "home", "C")


def test_7_passer_rating_is_added_with_the_defense() -> None:
    state = example(defense=True)
    rate(state, "away", "LD", defense=5)
    rate(state, "away", "RD", defense=3)
    event = decide(state, 30)[0]
    assert event.modifier == -9 + 8 and event.value == 29


def test_7_learning_game_ignores_defense_and_passer() -> None:
    state = example()
    rate(state, "away", "LD", defense=9)
    assert decide(state, 19)[0].value == 19


def test_7_assists_go_to_the_last_two_handlers_before_the_goal() -> None:
    state = example()
    rate(state, "home", "RD", passing=crosby().passing)
    carry(state, "home", "RD")
    decide(state, 65)  # RD to LW
    put(state, "home", "LW", malone())
    decide(state, 55)  # LW (Crosby's column) to C
    decide(state, 12)  # C to LW PS
    goal = next(e for e in decide(state, 3) if isinstance(e, GoalScored))
    assert goal.scorer == pid(state, "home", "LW")
    assert goal.assists == [pid(state, "home", "C"), pid(state, "home", "RD")]


# --- 8 rebounds ---------------------------------------------------------------------------

def test_8_a_rebound_uses_only_the_passer_rating_hossa_00_18_becomes_00_23() -> None:
    state = example(defense=True)
    rate(state, "home", "C", passer=-5)
    rate(state, "away", "LD", defense=5)
    rate(state, "away", "RD", defense=4)
    assert decide(state, 70)[0].modifier == 4  # "had to add +4 to all of his passes"
    carry(state, "home", "C")
    state.rebound = True
    event = decide(state, 23)[0]
    assert event.modifier == -5 and event.value == 18


def test_8_a_save_kept_by_the_offense_is_a_rebound_until_the_defense_has_it() -> None:
    state = example()
    decide(state, 12)
    decide(state, 80)  # Malone's Saves: 71-99 To O C
    assert state.rebound and state.puck == ("home", pid(state, "home", "C"))
    assert state.possession_shots == 1


# --- 20, 21C: caps and the column's end -------------------------------------------------

@pytest.mark.parametrize(("value", "slot"), [(90, "LW"), (91, "C"), (92, "RW"), (93, "LD"),
                                             (94, "RD")])
def test_21c_trv_a_90_94_the_defensive_slot_steals_it(value: int, slot: str) -> None:
    state = example()
    events = decide(state, value)
    assert events[0].result == "trv_a" and events[0].slot == slot
    assert state.puck == ("away", pid(state, "away", slot))
    assert events[1].reason == "turnover"  # 19: turnovers are timing spaces


def test_21c_a_modified_number_above_94_is_a_face_off_87_plus_10() -> None:
    state = example(defense=True)
    rate(state, "home", "C", passer=0)
    rate(state, "away", "LD", defense=5)
    rate(state, "away", "RD", defense=5)
    events = decide(state, 87)
    assert events[0].result == "faceoff" and events[0].value == 97
    assert isinstance(events[-1], PlayStopped) and state.queue[0].kind == "faceoff"


def test_20_21c_ruling_90_plus_9_is_not_capped_at_94_but_a_face_off() -> None:
    state = example(defense=True)
    rate(state, "home", "C", passer=0)
    rate(state, "away", "LD", defense=5)
    rate(state, "away", "RD", defense=4)
    assert decide(state, 90)[0].result == "faceoff"


@pytest.mark.parametrize(("value", "result"), [(95, "trv_b"), (96, "trv_b"), (97, "penalty"),
                                               (98, "penalty"), (99, "special")])
def test_20_21d_95_99_are_never_modified(value: int, result: str) -> None:
    state = example(defense=True)
    rate(state, "away", "LD", defense=10)
    event = decide(state, value)[0]
    assert event.modifier != 0 and event.value == value and event.result == result


def test_20_no_modified_pass_reads_below_00() -> None:
    assert passing.read_roll(3, -9) == (0, False)
    assert passing.read_roll(94, 0) == (94, False)
    assert passing.read_roll(94, 1) == (95, True)


def test_21c_gs_star_goes_to_the_lowest_tag_and_gs_double_star_to_the_highest() -> None:
    state = example()
    ovechkin = rate(state, "home", "RW", shooter=1)  # Ovechkin*[1], Crosby*[2]
    crosby_id = pid(state, "home", "C")
    carry(state, "home", "LW")
    rate(state, "home", "LW", passing=crosby().passing, shooter=0)
    assert decide(state, 42)[0].to_player == ovechkin  # To LD GS*
    carry(state, "home", "LW")
    assert decide(state, 46)[0].to_player == crosby_id  # To RD GS**


def test_21c_without_a_tagged_shooter_gs_star_is_the_ld() -> None:
    state = example()
    rate(state, "home", "C", shooter=0)
    event = decide(state, 42)[0]
    assert (event.slot, event.shot) == ("LD", "GS")


def test_22_a_pass_to_himself_goes_to_the_extra_attacker() -> None:
    state = example()
    state.team("home").pulled = True
    extra = next(c.id for c in state.home.team.skaters
                 if c.id not in state.home.team.lines.forwards[0])
    state.team("home").extra_attacker = extra
    event = decide(state, 28)[0]  # 22: "it says To C GS ... he passes to the extra attacker"
    assert (event.slot, event.to_player, event.shot) == ("EA", extra, "GS")
    assert state.queue[0] == Step("shot", side="home", player=extra, shot="GS")


def test_pass_rolled_names_its_section() -> None:
    state = example()
    assert decide(state, 12)[0].rule == "7"
    carry(state, "home", "C")
    event = decide(state, 91)[0]
    assert isinstance(event, PassRolled) and event.rule == "21C"
