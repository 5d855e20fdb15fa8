"""Matrix Hockey 3.1.3 (no picks received) and 4 (used picks sent again, overspent extra
goals and great saves)."""

from __future__ import annotations

import pytest

from engine.matrix.seasons import season_records
from events.errors import RollError
from events.matrix import BonusDrawn, PickReplaced, SanctionApplied, StockCharged, TeamReplaced
from tests.rules.matrix_helpers import everyone, new_season, pick, play, side

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
