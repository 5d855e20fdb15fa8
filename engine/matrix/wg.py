"""3.3: the Wayne Gretzky cup: twelve teams in three groups of four (home and away), the
three leaders and the best runner-up to the semi-finals (a draw in which two teams of one
group cannot meet), then the final and the game for third place."""

from __future__ import annotations

from engine.matrix.context import Referee
from engine.matrix.schedule import double_round_robin
from engine.matrix.standings import records, tie_groups
from events.matrix import CupDrawn, WgGroupsDrawn, WgRanked

__all__ = ["GROUP_ROUNDS", "draw_final", "draw_groups", "group_games", "group_goals",
           "rank_groups"]

GROUP_ROUNDS = 6
GROUP_NAMES = "ABC"


def draw_groups(ref: Referee, teams: list[str]) -> None:
    """3.3.1: the twelve teams drawn into three groups of four."""
    order, rolls = ref.dice.order("wg groups draw", teams)
    ref.emit(WgGroupsDrawn([order[i:i + 4] for i in range(0, 12, 4)], rolls, "3.3.1"))


def group_games(groups: list[list[str]], round_: int) -> list[tuple[str, str, str]]:
    """``(group, home, away)`` of group round ``round_`` (1-6)."""
    return [(f"group {GROUP_NAMES[i]}", home, away)
            for i, group in enumerate(groups)
            for home, away in double_round_robin(group)[round_ - 1]]


def group_goals(ref: Referee) -> dict[str, int]:
    """Goals each team scored in the group games (3.3.2: the knock-out tiebreak)."""
    goals: dict[str, int] = {}
    for g in ref.state.results:
        if g.competition == "wg" and g.round <= GROUP_ROUNDS:
            goals[g.home.team] = goals.get(g.home.team, 0) + g.home_goals
            goals[g.away.team] = goals.get(g.away.team, 0) + g.away_goals
    return goals


def _ordered(ref: Referee, table: dict, teams: list[str], purpose: str,
             rolls: list[int]) -> list[str]:
    order: list[str] = []
    for group in tie_groups(table, teams):
        if len(group) > 1:  # 3.1.5: still identical, a die
            group, used = ref.dice.order(purpose, group)
            rolls += used
        order += group
    return order


def rank_groups(ref: Referee, week: int) -> None:
    """3.3.1: each group's order (3.3.2: points and tiebreakers as the championship's),
    the best runner-up, and the semi-final draw."""
    games = [g for g in ref.state.results if g.competition == "wg" and g.round <= GROUP_ROUNDS]
    rolls: list[int] = []
    ordered = []
    for i, group in enumerate(ref.state.wg_groups):
        ordered.append(_ordered(ref, records(group, games), group,
                                f"wg group {GROUP_NAMES[i]} tie", rolls))
    seconds = [g[1] for g in ordered]
    table = {}
    for group in ref.state.wg_groups:
        table.update(records(group, games))
    best_second = _ordered(ref, table, seconds, "wg best runner-up tie", rolls)[0]
    ref.emit(WgRanked(ordered, best_second, rolls, "3.3.1"))
    own = seconds.index(best_second)
    leaders = [g[0] for g in ordered]
    others = [leaders[i] for i in range(3) if i != own]
    opponent, n = ref.dice.pick("wg semi-final draw", others)
    rest = [t for t in others if t != opponent][0]
    # the leader is at home against the runner-up; of two leaders, the earlier group's
    games = [(opponent, best_second), tuple(sorted((leaders[own], rest), key=leaders.index))]
    ref.emit(CupDrawn("wg", GROUP_ROUNDS + 1, week, games, [], [n], "3.3.1"))


def draw_final(ref: Referee, week: int) -> None:
    """3.3.1: the semi-final winners meet in the final, the losers for third place (the
    first semi-final's team at home)."""
    semis = [g for g in ref.state.results if g.competition == "wg" and g.round == GROUP_ROUNDS + 1]
    winners = [g.winner for g in semis]
    losers = [g.away.team if g.winner == g.home.team else g.home.team for g in semis]
    ref.emit(CupDrawn("wg", GROUP_ROUNDS + 2, week, [tuple(winners), tuple(losers)], [], [],
                      "3.3.1"))
