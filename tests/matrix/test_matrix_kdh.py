"""Matrix Hockey 3.2: the Klaus-Dieter Hoffmann cup."""

from __future__ import annotations

import pytest

from engine.matrix import kdh
from engine.matrix.context import Referee
from engine.matrix.dice import SeededDie
from engine.matrix.games import Fixture, play_game
from engine.matrix.goals import Entry
from engine.matrix.referee import MatrixRuleError, check_picks
from events.matrix import CupDrawn, GamePlayed, LuckyLoserChosen, PicksSent
from tests.matrix.matrix_helpers import everyone, new_season, pick, play
from tests.matrix.matrix_season import closed_season


def test_3_2_1_the_d3_teams_numbered_03_to_12_play_the_qualifying_round() -> None:
    state = new_season("demo")
    qualifiers, exempt = kdh.entrants(state)
    assert len(qualifiers) == 40 and len(exempt) == 44
    assert all(state.division(state.teams[t].division).level == 3
               and 3 <= state.teams[t].number <= 12 for t in qualifiers)
    first = state.cup_rounds[("kdh", 1)]
    assert len(first.games) == 20 and not first.byes
    assert sorted(t for g in first.games for t in g) == sorted(qualifiers)


def test_3_2_1_twenty_winners_join_the_others_and_every_round_is_drawn() -> None:
    state, events = closed_season()
    assert not [e for e in events if isinstance(e, CupDrawn)]  # closing draws no cup
    sizes = [len(state.cup_rounds[("kdh", r)].games) for r in range(1, 8)]
    assert sizes == [20, 32, 16, 8, 4, 2, 1]
    winners1 = {g.winner for g in state.results if g.competition == "kdh" and g.round == 1}
    second = {t for g in state.cup_rounds[("kdh", 2)].games for t in g}
    assert winners1 <= second and len(second) == 64
    assert state.closed.kdh_winner == next(g.winner for g in state.results
                                           if g.competition == "kdh" and g.round == 7)


def test_3_2_2_no_great_saves_and_no_bonus_goal_in_the_cup() -> None:
    state = new_season("demo")
    team = kdh.entrants(state)[0][0]
    with pytest.raises(MatrixRuleError, match="great saves are played in the championship"):
        check_picks(state, PicksSent(1, team, [pick("A#(1)", "kdh")]))
    with pytest.raises(MatrixRuleError, match="extra_time '3'"):
        check_picks(state, PicksSent(1, team, [pick("A(3)", "kdh")]))
    state, _ = closed_season()
    assert not any(g.home.bonus or g.away.bonus for g in state.results
                   if g.competition != "championship")


def _tied(shootout_home: str, shootout_away: str) -> GamePlayed:
    state = new_season("demo")
    ref = Referee(state, SeededDie("t", state.season_id))
    a, b = state.cup_rounds[("kdh", 1)].games[0]
    home = Entry(a, "x", "A", "1", shootout=shootout_home)
    away = Entry(b, "y", "A", "1", shootout=shootout_away)
    play_game(ref, Fixture("kdh", 1, 1, "qualifying", a, b), home, away, [home, away], "", {})
    return ref.events[-1]


def test_3_2_2_tied_after_extra_time_the_shootout_then_a_die() -> None:
    game = _tied("4", "2")
    assert (game.decided, game.winner, game.tiebreak) == ("SO", game.home.team, "shootout")
    assert game.home_goals == game.away_goals + 1  # ruling M-2.2c
    assert (game.home.shootout_value, game.away.shootout_value) == (4, 2)
    game = _tied("3", "3")
    assert (game.decided, game.tiebreak) == ("DIE", "die") and len(game.rolls) == 1


def test_3_2_3_an_onr_team_loses_and_two_onr_teams_make_room_for_a_lucky_loser() -> None:
    state = new_season("demo")
    picks = everyone(state, 1)
    (a, b), (c, d) = state.cup_rounds[("kdh", 1)].games[:2]
    for team in (a, b):  # both ONR in the KDH only (their championship picks are sent)
        picks[team] = [p for p in picks[team] if p.competition != "kdh"]
    picks[c] = [p for p in picks[c] if p.competition != "kdh"]
    events = play(state, 1, picks)
    games = {(g.home.team, g.away.team): g for g in events
             if isinstance(g, GamePlayed) and g.competition == "kdh"}
    assert (games[(a, b)].decided, games[(a, b)].winner) == ("FORFEIT", "")
    assert (games[(c, d)].decided, games[(c, d)].winner) == ("FORFEIT", d)
    assert (games[(c, d)].home_goals, games[(c, d)].away_goals) == (0, 1)  # ruling M-3.2.3a
    lucky = next(e for e in events if isinstance(e, LuckyLoserChosen))
    assert lucky.instead_of == [a, b] and lucky.rule == "3.2.3"
    best = min(kdh._loser_key(g) for g in games.values() if kdh._loser_key(g) is not None)
    assert any(kdh._loser_key(g) == best and lucky.team in (g.home.team, g.away.team)
               for g in games.values())
    second = {t for g in state.cup_rounds[("kdh", 2)].games for t in g}
    assert lucky.team in second and a not in second and b not in second and len(second) == 64


def test_2_1_1_in_the_cups_the_column_is_shared_with_the_division_s_teams_in_that_round() -> None:
    state, _ = closed_season()  # ruling M-2.1.1a
    division = {t: s.division for t, s in state.teams.items()}
    for g in state.results:
        if g.competition == "championship":
            continue
        same_round = {s.team: s for r in state.results
                      if (r.competition, r.round) == (g.competition, g.round)
                      for s in (r.home, r.away)}
        for s in (g.home, g.away):
            for other in s.shared_with:
                assert division[other] == division[s.team]
                assert same_round[other].column == s.column


def test_2_2_a_kdh_pick_without_a_shootout_value_is_an_x() -> None:
    game = _tied("", "")  # ruling M-2.2b
    assert game.tiebreak in ("shootout", "die") and len(game.rolls) >= 2
