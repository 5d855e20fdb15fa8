"""Matrix Hockey 3.1.6 promotion and relegation; 2.1.2.1 and 2.1.3.1, next season's extra
goals and great saves."""

from __future__ import annotations

from engine.matrix.dice import SeededDie
from engine.matrix.referee import close_season, next_season
from engine.matrix.seasons import season_records
from engine.matrix.state import evolve
from events.matrix import SeasonClosed
from tests.matrix.matrix_season import closed_season, played_season


def test_3_1_6_four_down_from_the_elite_two_up_and_four_down_from_each_d2_two_up_from_each_d3() -> None:
    state, _ = closed_season()
    closed = state.closed
    order = state.final_order
    assert [t for t, frm, _ in closed.relegated if frm == "elite"] == order["elite"][-4:]
    for d2 in ("d2a", "d2b"):
        assert [t for t, frm, to in closed.promoted if frm == d2] == order[d2][:2]
        assert {to for _, frm, to in closed.promoted if frm == d2} == {"elite"}
        assert [t for t, frm, _ in closed.relegated if frm == d2] == order[d2][-4:]
    for d3, parent in (("d3a", "d2a"), ("d3b", "d2a"), ("d3c", "d2b"), ("d3d", "d2b")):
        assert [(t, to) for t, frm, to in closed.promoted if frm == d3] == \
            [(t, parent) for t in order[d3][:2]]
    # the Elite's last four alternate between the two D2 groups (ruling M-3.1.6a)
    assert [to for _, frm, to in closed.relegated if frm == "elite"] == ["d2a", "d2b"] * 2
    assert all(len(teams) == 12 for _, teams in closed.next_divisions)


def test_3_1_3_a_team_that_can_no_longer_be_promoted_leaves_its_place_to_the_next() -> None:
    state = played_season()
    probe = state.copy()
    for e in close_season(probe, SeededDie("m", state.season_id)):
        evolve(probe, e)
    winner = probe.final_order["d3a"][0]
    state.teams[winner].no_promotion = True
    for e in close_season(state, SeededDie("m", state.season_id)):
        evolve(state, e)
    up = [t for t, frm, _ in state.closed.promoted if frm == "d3a"]
    assert winner not in up and up == state.final_order["d3a"][1:3]


def test_2_1_2_1_extra_goals_are_the_season_points_divided_by_three_rounded_down() -> None:
    state, _ = closed_season()
    closed = state.closed
    table = season_records(state)
    kdh_wins = {}
    for g in state.results:
        if g.competition == "kdh" and g.winner:
            kdh_wins[g.winner] = kdh_wins.get(g.winner, 0) + 1
    up = {t for t, _, _ in closed.promoted}
    down = {t for t, _, _ in closed.relegated}
    for a in closed.allowances:
        place = next(order.index(a.team) + 1 for order in state.final_order.values()
                     if a.team in order)
        wg = closed.wg_order.index(a.team) + 1 if a.team in closed.wg_order else 0
        points = (table[a.team].wins + kdh_wins.get(a.team, 0)
                  + (a.team == closed.kdh_winner) + {1: 4, 2: 3, 3: 2, 4: 1}.get(place, 0)
                  + 6 * (a.team in down) - 6 * (a.team in up) + 3
                  + {1: 4, 2: 3, 3: 2, 4: 1}.get(wg, 0))
        assert a.points == points and a.extra_goals == points // 3


def test_2_1_3_1_great_saves_are_two_and_one_for_each_shutout() -> None:
    state, _ = closed_season()
    table = season_records(state)
    for a in state.closed.allowances:
        shutouts = sum(1 for g in state.results if g.competition == "championship" and (
            (g.home.team == a.team and g.away_goals == 0)
            or (g.away.team == a.team and g.home_goals == 0)))
        assert a.great_saves == 2 + shutouts == 2 + table[a.team].shutouts


def test_the_next_season_opens_with_the_allowances_and_the_new_divisions() -> None:
    state, events = closed_season()
    closed = next(e for e in events if isinstance(e, SeasonClosed))
    nxt = next_season(state, "h" * 64)
    assert nxt.season_id == closed.next_season == state.season_id.replace("-s1", "-s2")
    assert (nxt.previous, nxt.previous_head, nxt.season) == (state.season_id, "h" * 64, 2)
    allowance = {a.team: a for a in closed.allowances}
    for (division, _, _, entries), (same, teams) in zip(nxt.divisions, closed.next_divisions,
                                                        strict=True):
        assert division == same and [e.id for e in entries] == teams
        assert [e.number for e in entries] == list(range(1, 13))
        for e in entries:
            assert (e.extra_goals, e.great_saves) == (allowance[e.id].extra_goals,
                                                      allowance[e.id].great_saves)
    # the relegated come first in their new division (ruling M-3.1.6c)
    d2a = dict(closed.next_divisions)["d2a"]
    assert d2a[:2] == [t for t, frm, to in closed.relegated if frm == "elite" and to == "d2a"]
    assert nxt.wg_teams == closed.next_wg and len(set(nxt.wg_teams)) == 12


def test_2_1_2_a_first_season_gives_three_extra_goals_and_two_great_saves() -> None:
    from tests.matrix.matrix_helpers import new_season

    state = new_season("demo")  # ruling M-2.1.2a (a league file may say otherwise)
    assert {(t.extra_goals, t.great_saves) for t in state.teams.values()} == {(3, 2)}
