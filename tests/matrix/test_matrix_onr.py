"""Matrix Hockey 3.1.3 (no picks received) and 4 (used picks sent again, overspent extra
goals and great saves)."""

from __future__ import annotations

import pytest

from engine.matrix import waiting
from engine.matrix.dice import SeededDie
from engine.matrix.referee import close_season, next_season
from engine.matrix.seasons import season_records
from engine.matrix.state import evolve
from engine.matrix.waiting import WaitingListError
from events.errors import RollError
from events.matrix import (
    BonusDrawn,
    NewTeamReplaced,
    PickReplaced,
    SanctionApplied,
    SlotHandedOn,
    StockCharged,
    TeamEntry,
    TeamReplaced,
)
from tests.matrix.matrix_helpers import everyone, new_season, pick, play, side

LETTERS = "ABCDEFGHIJK"
WEEK1 = {"sleigh-dogs": "F+(2)", "snowmen": "I(3)", "ice-crocodiles": "F(0)",
         "teddy-bears": "D(1)", "grizzlies": "F(2)", "freezing-ass": "D++(1)",
         "groggs": "B(X)", "igloos": "F#(3)", "icebergs": "I(3)", "puck-pukers": "J(1)",
         "ice-breakers": "K(3)"}


def _week1(**table):
    state = new_season()
    return state, play(state, 1, {t: pick(p) for t, p in WEEK1.items()}, **table)


def test_3_1_3_a_random_pick_does_not_change_the_column_for_the_others() -> None:
    state, events = _week1(onr={"cyberians": ("F", "X")}, bonus={"elite": "snowmen"})
    assert "cyberians" not in side(events, "grizzlies").shared_with
    assert side(events, "grizzlies").regular == 2  # 5 - 3, not 5 - 4
    cyberians = side(events, "cyberians")
    assert cyberians.onr and cyberians.shared_with == ["sleigh-dogs", "ice-crocodiles",
                                                       "grizzlies", "igloos"]
    assert cyberians.regular == 0  # 5 - 4 - the penalty goal


def test_3_1_3_the_referee_draws_the_column_and_value_among_those_left() -> None:
    state, events = _week1()
    replaced = next(e for e in events if isinstance(e, PickReplaced))
    assert (replaced.team, replaced.reason, replaced.rule) == ("cyberians", "onr", "3.1.3")
    assert len(replaced.rolls) == 2  # a die for the column, one for the value


def test_3_1_3_an_onr_team_cannot_get_the_bonus_goal() -> None:
    with pytest.raises(RollError, match="cyberians"):
        _week1(bonus={"elite": "cyberians"})
    for seed in "abcdefgh":  # the seeded draw never offers it
        state = new_season(seed=seed)
        events = play(state, 1, {t: pick(p) for t, p in WEEK1.items()}, seed=seed)
        bonus = next(e for e in events if isinstance(e, BonusDrawn))
        assert bonus.team != "cyberians"


def _sanctions(state, weeks, team: str) -> list:
    found = []
    for week in weeks:
        picks = everyone(state, week)
        picks.pop(team, None)
        found += [e for e in play(state, week, picks)
                  if isinstance(e, SanctionApplied | TeamReplaced) and e.team == team]
    return found


def test_3_1_3_growing_sanctions_and_a_dummy_in_the_elite() -> None:
    state = new_season()
    state.teams["snowmen"].extra_goals, state.teams["snowmen"].great_saves = 3, 2
    first, second, third, replaced = _sanctions(state, [1, 2, 3], "snowmen")
    assert (first.onr_count, first.extra_goals_lost, first.great_saves_lost) == (1, 1, 1)
    assert (second.onr_count, second.extra_goals_lost, second.great_saves_lost,
            second.no_promotion) == (2, 2, 1, True)
    assert third.onr_count == 3 and replaced.dummy and state.teams["snowmen"].dummy
    # a dummy plays random picks, without penalty, and is no longer ONR
    picks = everyone(state, 4)
    events = play(state, 4, picks)
    dummy = next(e for e in events if isinstance(e, PickReplaced) and e.team == "snowmen")
    assert dummy.reason == "dummy" and not side(events, "snowmen").onr
    assert not [e for e in events if isinstance(e, SanctionApplied) and e.team == "snowmen"]


def test_3_1_3_a_d3_team_is_replaced_from_the_waiting_list_keeping_its_record() -> None:
    state = new_season("demo", competitions=["championship"])
    team = state.divisions[3].teams[0]
    _sanctions(state, [1, 2], team)
    *_, replaced = _sanctions(state, [3], team)
    assert (replaced.new_id, replaced.new_name, replaced.dummy) == ("late-comers",
                                                                   "Late Comers", False)
    assert state.teams[team].name == "Late Comers" and state.teams[team].onr_count == 0
    assert season_records(state)[team].played == 3  # the three games of the slot count
    # it keeps "points, Extra Goals and Great Saves", not the second ONR's "no promotion"
    assert not state.teams[team].no_promotion


def test_4_a_used_column_sent_again_is_replaced_by_a_die_and_counts_for_the_others() -> None:
    state = new_season()
    teams = state.team_order()
    play(state, 1, {t: pick(f"{LETTERS[k % 11]}(1)") for k, t in enumerate(teams)},
         bonus={"elite": teams[1]})
    week2 = {t: pick(f"{LETTERS[(k + 1) % 11]}(1)") for k, t in enumerate(teams)}
    week2[teams[0]] = pick("A(1)")  # sent again: the Sleigh Dogs played A in week 1
    events = play(state, 2, week2, bonus={"elite": teams[1]})
    replaced = next(e for e in events if isinstance(e, PickReplaced))
    assert (replaced.team, replaced.reason) == (teams[0], "repeat")
    assert replaced.column != "A"
    others = [t for t in teams[1:] if side(events, t).column == replaced.column]
    assert others and all(teams[0] in side(events, t).shared_with for t in others)
    assert not side(events, teams[0]).onr  # no penalty


def test_4_overspent_extra_goals_go_to_the_championship_then_the_wg_then_the_kdh() -> None:
    state = new_season("demo")
    team = state.created.wg_teams[0]
    week1 = everyone(state, 1)
    week1[team] = [pick("A(1)", c) for c in ("championship", "wg")]
    play(state, 1, week1)
    assert state.teams[team].extra_goals == 3
    week2 = everyone(state, 2)
    assert {p.competition for p in week2[team]} == {"championship", "wg", "kdh"}
    week2[team] = [pick("B++(1)", "championship"), pick("B++(1)", "wg"),
                   pick("B++(1)", "kdh")]
    events = play(state, 2, week2)
    charged = next(e for e in events if isinstance(e, StockCharged) and e.team == team)
    assert charged.extra_goals == {"championship": 2, "wg": 1}
    assert charged.dropped_extra_goals == 3
    assert side(events, team, "kdh").extra_goals == 0


def test_3_3_3_onr_in_the_wg_and_the_championship_is_penalised_once() -> None:
    state = new_season("demo")
    team = state.created.wg_teams[0]
    picks = everyone(state, 1)
    picks.pop(team)
    events = play(state, 1, picks)
    assert side(events, team).onr and side(events, team, "wg").onr
    assert [e.onr_count for e in events if isinstance(e, SanctionApplied) and e.team == team] == [1]


# --- 3.1.3 and 2.1.2.1: the waiting list ------------------------------------------------------

def _join(state, team_id: str, name: str) -> None:
    for e in waiting.join(state, team_id, name):
        evolve(state, e)


def _closed_with_a_dummy(join: bool):
    """The text's twelve teams; the Snowmen ONR in weeks 1-3 (a dummy in the Elite), the
    season played to its end and closed."""
    state = new_season()
    if join:
        _join(state, "late-comers", "Late Comers")
    _sanctions(state, [1, 2, 3], "snowmen")
    assert state.teams["snowmen"].dummy
    for week in range(4, 12):
        play(state, week, everyone(state, week))
    events = close_season(state, SeededDie("t", state.season_id))
    for e in events:
        evolve(state, e)
    opened = next_season(state, "0" * 64)
    return state, events, {e.id: e for _, _, _, teams in opened.divisions for e in teams}


def test_3_1_3_a_dummy_plays_till_the_end_of_the_season_then_its_slot_is_a_waiting_team() -> None:
    state, events, teams = _closed_with_a_dummy(join=True)
    handed = [e for e in events if isinstance(e, SlotHandedOn)]
    # 2.1.2.1: 3 points for a team on the waiting list before the end of the season, / 3
    # = 1 extra goal; 2.1.3.1: 2 great saves
    assert [(e.team, e.new_id, e.new_name, e.extra_goals, e.great_saves) for e in handed] == [
        ("snowmen", "late-comers", "Late Comers", 1, 2)]
    number = dict(state.closed.next_divisions)["elite"].index("snowmen") + 1
    assert "snowmen" not in teams
    assert teams["late-comers"] == TeamEntry("late-comers", "Late Comers", number, 1, 2)
    assert not any(e.dummy for e in teams.values())


def test_3_1_3_with_nobody_waiting_the_slot_stays_a_dummy() -> None:
    _, events, teams = _closed_with_a_dummy(join=False)  # ruling M-3.1.3g
    assert not [e for e in events if isinstance(e, SlotHandedOn)]
    assert teams["snowmen"].dummy


def test_3_1_3_a_new_team_onr_on_the_first_week_is_replaced_at_once() -> None:
    state = new_season()
    with pytest.raises(WaitingListError, match="after week 1"):
        waiting.replace_new_team(state, "cyberians", None)
    play(state, 1, {t: pick(p) for t, p in WEEK1.items()})  # the Cybérians sent none
    with pytest.raises(WaitingListError, match="waiting list is empty"):
        waiting.replace_new_team(state, "cyberians", None)
    _join(state, "late-comers", "Late Comers")
    with pytest.raises(WaitingListError, match="snowmen: not ONR in week 1"):
        waiting.replace_new_team(state, "snowmen", None)
    replaced = waiting.replace_new_team(state, "cyberians", None)
    assert replaced == [NewTeamReplaced("cyberians", "Late Comers", "late-comers", "3.1.3")]
    evolve(state, replaced[0])
    team = state.teams["cyberians"]  # the slot's record (ruling M-3.1.3f); its own ONRs
    assert (team.name, team.onr_count, team.dummy) == ("Late Comers", 0, False)
    assert season_records(state)["cyberians"].played == 1
    with pytest.raises(WaitingListError, match="already replaced"):
        waiting.replace_new_team(state, "cyberians", None)
    # a team that played the season before is not new
    later = new_season(season=2)
    play(later, 1, {t: pick(p) for t, p in WEEK1.items()})
    _join(later, "late-comers", "Late Comers")
    with pytest.raises(WaitingListError, match="not a new team"):
        waiting.replace_new_team(later, "cyberians", set())
    # and not once week 2 is played
    play(later, 2, everyone(later, 2))
    with pytest.raises(WaitingListError, match="after week 1"):
        waiting.replace_new_team(later, "cyberians", {"cyberians"})


def test_3_1_3_the_waiting_list_refuses_a_team_already_in() -> None:
    state = new_season()
    _join(state, "late-comers", "Late Comers")
    for team_id in ("late-comers", "snowmen", "referee"):
        with pytest.raises(WaitingListError, match="already a team or on the waiting list"):
            waiting.join(state, team_id, "Someone")
    assert state.waiting() == [("late-comers", "Late Comers")]
