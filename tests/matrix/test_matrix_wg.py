"""Matrix Hockey 3.3: the Wayne Gretzky cup."""

from __future__ import annotations

from collections import Counter

from engine.matrix.context import Referee
from engine.matrix.dice import SeededDie
from engine.matrix.games import Fixture, play_game
from engine.matrix.goals import Entry
from engine.matrix.seasons import season_records
from tests.matrix.matrix_helpers import new_season
from tests.matrix.matrix_season import closed_season


def test_3_3_1_twelve_teams_in_three_groups_of_four_home_and_away() -> None:
    state, _ = closed_season()
    assert sorted(t for g in state.wg_groups for t in g) == sorted(state.created.wg_teams)
    for group in state.wg_groups:
        games = [(g.home.team, g.away.team) for g in state.results
                 if g.competition == "wg" and g.round <= 6 and g.home.team in group]
        assert len(games) == 12 and len(set(games)) == 12  # each ordered pair once
        assert all(a in group and b in group for a, b in games)
        assert Counter(a for a, _ in games) == Counter({t: 3 for t in group})


def test_3_3_1_leaders_and_the_best_second_to_semis_that_keep_groups_apart() -> None:
    state, _ = closed_season()
    ranked = state.wg_ranked
    leaders = [g[0] for g in ranked.groups]
    assert ranked.best_second in [g[1] for g in ranked.groups]
    own = next(g[0] for g in ranked.groups if ranked.best_second in g)
    semis = state.cup_rounds[("wg", 7)].games
    assert sorted(t for g in semis for t in g) == sorted([*leaders, ranked.best_second])
    assert all({own, ranked.best_second} != set(g) for g in semis)
    final, third = state.cup_rounds[("wg", 8)].games
    semi_results = [g for g in state.results if g.competition == "wg" and g.round == 7]
    assert set(final) == {g.winner for g in semi_results}
    assert len(set(third) | set(final)) == 4
    assert state.closed.wg_order[:2] == [
        next(g.winner for g in state.results if g.competition == "wg"
             and g.stage == "final"),
        next(t for t in final if t != state.closed.wg_order[0])]


def test_3_3_2_a_knock_out_game_tied_after_extra_time_goes_to_the_group_goals() -> None:
    state = new_season("demo")
    ref = Referee(state, SeededDie("t", state.season_id))
    a, b = state.created.wg_teams[:2]
    home, away = Entry(a, "x", "A", "1"), Entry(b, "y", "A", "1")
    fx = Fixture("wg", 7, 7, "semi-final", a, b)
    play_game(ref, fx, home, away, [home, away], "", {a: 10, b: 12})
    game = ref.events[-1]
    assert (game.decided, game.winner, game.tiebreak) == ("GROUP", b, "group goals")
    play_game(ref, fx, home, away, [home, away], "", {a: 10, b: 10})
    assert (ref.events[-1].decided, ref.events[-1].tiebreak) == ("DIE", "die")


def test_3_3_3_an_onr_team_loses_a_knock_out_game_and_two_are_split_by_a_die() -> None:
    state = new_season("demo")
    ref = Referee(state, SeededDie("t", state.season_id))
    a, b = state.created.wg_teams[:2]
    fx = Fixture("wg", 8, 8, "final", a, b)
    play_game(ref, fx, None, Entry(b, "y", "A", "1"), [], "", {})
    assert (ref.events[-1].decided, ref.events[-1].winner) == ("FORFEIT", b)
    play_game(ref, fx, None, None, [], "", {})
    assert ref.events[-1].decided == "DIE" and ref.events[-1].winner in (a, b)


def test_3_3_1_next_season_s_twelve_teams() -> None:
    state, _ = closed_season()
    closed = state.closed
    wg = closed.next_wg
    assert len(wg) == len(set(wg)) == 12
    assert {state.final_order[d.id][0] for d in state.divisions} <= set(wg)
    kdh_final = next(g for g in state.results if g.competition == "kdh" and g.round == 7)
    assert {kdh_final.home.team, kdh_final.away.team, closed.wg_order[0]} <= set(wg)
    table = season_records(state)
    top = max(table.values(), key=lambda r: r.goals_for).goals_for
    assert any(table[t].goals_for == top for t in wg)


def test_3_3_1_a_first_season_s_wg_is_the_teams_numbered_01_then_02() -> None:
    state = new_season("demo")  # ruling M-3.3.1b
    numbers = [(state.teams[t].number, state.teams[t].division) for t in state.created.wg_teams]
    assert numbers == [(1, d.id) for d in state.divisions] + [
        (2, d.id) for d in state.divisions[:5]]
