"""Standings (Draft League Setup, rule 29): points, then wins, road wins, head to head,
goal difference."""

from __future__ import annotations

from events.common import GameCreated, GameEnded, TeamSheet
from projections.standings import build_standings


def game(home: str, away: str, hg: int, ag: int, decided: str = "REG"):
    def sheet(t: str) -> TeamSheet:
        return TeamSheet(team_id=t, name=t.title(), card_hash="", roster=[])

    created = GameCreated(game_id=f"{home}-{away}", ruleset="bones", ruleset_version=1,
                          home=sheet(home), away=sheet(away), charts_hash="", dice="seeded")
    winner = "home" if hg > ag else "away" if ag > hg else "none"
    return created, GameEnded(home_goals=hg, away_goals=ag, decided=decided, winner=winner)


def test_points_two_for_a_win_one_for_an_overtime_loss():
    table = build_standings([game("A", "B", 3, 2, "OT"), game("B", "C", 4, 1)])
    by = {r.team: r for r in table}
    assert (by["A"].points, by["B"].points, by["C"].points) == (2, 3, 0)
    assert (by["B"].w, by["B"].otl, by["C"].l) == (1, 1, 1)
    assert [r.team for r in table] == ["B", "A", "C"]


def test_road_wins_break_a_tie_in_points_and_wins():
    # A and B: one win each, 2 points; B's win came on the road.
    table = build_standings([game("A", "C", 2, 1), game("C", "B", 1, 2)])
    assert [r.team for r in table][:2] == ["B", "A"]
    assert table[0].road_wins == 1


def test_head_to_head_before_goal_difference():
    games = [
        game("A", "B", 1, 0),  # A beats B at home
        game("B", "C", 9, 0),  # B's big home win
        game("C", "A", 1, 0),  # C beats A at home; ... A and B: 1 win, 0 road wins each
        game("D", "A", 0, 0 + 0 + 1),  # A wins on the road
        game("D", "B", 0, 1),  # B wins on the road
    ]
    table = build_standings(games)
    top = [r.team for r in table if r.team in ("A", "B")]
    by = {r.team: r for r in table}
    assert (by["A"].points, by["A"].w, by["A"].road_wins) == (by["B"].points, by["B"].w,
                                                               by["B"].road_wins)
    assert by["B"].diff > by["A"].diff  # goal difference favours B ...
    assert top == ["A", "B"]  # ... but A won their meeting


def test_goal_difference_when_head_to_head_is_level():
    table = build_standings([game("A", "C", 5, 0), game("B", "D", 1, 0)])
    assert [r.team for r in table][:2] == ["A", "B"]


def test_faceoff_5_00_a_tie_is_a_point_each_and_no_loss():
    """FaceOff 2008 has no shootout: a tied game stands (ruling R-FO-5.00a) and each team
    takes a point; the tie-breakers are the Hockey Bones ones (ruling R-FO-5.00b)."""
    table = build_standings([game("A", "B", 2, 2, "TIE"), game("C", "A", 1, 3)])
    by = {r.team: r for r in table}
    assert (by["A"].points, by["B"].points, by["C"].points) == (3, 1, 0)
    assert (by["B"].t, by["B"].l, by["B"].otl, by["B"].w) == (1, 0, 0, 0)
    assert by["A"].to_json()["t"] == 1
    assert [r.team for r in table] == ["A", "B", "C"]
