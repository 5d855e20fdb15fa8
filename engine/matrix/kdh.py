"""3.2: the Klaus-Dieter Hoffmann cup, a knock-out of every team on its own matrix.

3.2.1: forty teams, the D3 teams numbered 03-12, play a qualifying round and its twenty
winners go on (with the 44 others: 64). rinklog reads that as "enough of the lowest
teams play a qualifying round to leave a power of two" (ruling M-3.2.1a), which for the
text's 84 teams is exactly those forty. A draw makes every round's pairings; an ONR
team loses, and when both teams of a game are ONR a lucky loser goes on (3.2.3).
"""

from __future__ import annotations

from engine.matrix.context import Referee
from engine.matrix.state import SeasonState
from events.matrix import CupDrawn, GamePlayed, LuckyLoserChosen

__all__ = ["advancing", "draw_round", "entrants", "lucky_losers", "stage_name"]


def entrants(state: SeasonState) -> tuple[list[str], list[str]]:
    """``(qualifiers, exempt)``: who plays the qualifying round and who waits for round 2
    (no qualifying round when the number of teams is a power of two)."""
    teams = state.team_order()
    full = 1 << (len(teams).bit_length() - 1)
    if full == len(teams):
        return [], teams
    level = {d.id: d.level for d in state.divisions}
    lowest = sorted(teams, key=lambda t: (-level[state.teams[t].division],
                                          -state.teams[t].number))
    qualifiers = set(lowest[:2 * (len(teams) - full)])
    return ([t for t in teams if t in qualifiers], [t for t in teams if t not in qualifiers])


def stage_name(teams: int, qualifying: bool) -> str:
    if qualifying:
        return "qualifying"
    return {2: "final", 4: "semi-finals", 8: "quarter-finals"}.get(teams, f"round of {teams}")


def draw_round(ref: Referee, round_: int, week: int, teams: list[str]) -> None:
    """3.2.1: "in each round a draw will determine the pairings" (the first drawn at home);
    an odd team left over (after a game of two ONR teams without a lucky loser) is
    through without a game."""
    order, rolls = ref.dice.order(f"kdh round {round_} draw", teams)
    games = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
    byes = order[len(games) * 2:]
    ref.emit(CupDrawn("kdh", round_, week, games, byes, rolls, "3.2.1"))


def advancing(state: SeasonState, round_: int) -> list[str]:
    """The teams through a played round, in the order of its games: winners, then byes
    and lucky losers."""
    cup = state.cup_rounds[("kdh", round_)]
    winners = [g.winner for g in state.results
               if g.competition == "kdh" and g.round == round_ and g.winner]
    return winners + cup.byes + state.lucky_losers.get(("kdh", round_), [])


def _loser_key(game: GamePlayed) -> tuple[int, int, int] | None:
    """3.2.3's order of the losers (smaller is luckier); None for no candidate."""
    if game.decided == "FORFEIT" or not game.winner:
        return None
    loser, won = ((game.away, game.home) if game.winner == game.home.team
                  else (game.home, game.away))
    if game.decided in ("SO", "DIE"):  # the smallest shootout margin, then most scored
        return (0, won.shootout_value - loser.shootout_value, -loser.shootout_value)
    if game.decided == "AP":  # lost in extra time: the most goals
        return (1, 0, -loser.regular)
    return (2, won.regular - loser.regular, -loser.regular)  # regular time


def lucky_losers(ref: Referee, round_: int, week: int) -> None:
    """3.2.3: one lucky loser for each game both teams were ONR, best first; a die among
    the losers still level where the places run out."""
    games = [g for g in ref.state.results if g.competition == "kdh" and g.round == round_]
    wanted = sum(1 for g in games if g.decided == "FORFEIT" and not g.winner)
    if not wanted:
        return
    keyed = []
    for g in games:
        key = _loser_key(g)
        if key is not None:
            keyed.append((key, g.away.team if g.winner == g.home.team else g.home.team, g))
    keyed.sort(key=lambda k: k[0])
    doubles = [g for g in games if g.decided == "FORFEIT" and not g.winner]
    chosen: list[tuple[str, list[int]]] = []
    i = 0
    while len(chosen) < wanted and i < len(keyed):
        group = [k for k in keyed[i:] if k[0] == keyed[i][0]]
        i += len(group)
        names = [k[1] for k in group]
        if len(names) > wanted - len(chosen):
            names, rolls = ref.dice.order(f"kdh round {round_} lucky loser", names)
        else:
            rolls = []
        chosen += [(n, rolls) for n in names[:wanted - len(chosen)]]
    for (team, rolls), game in zip(chosen, doubles, strict=False):
        ref.emit(LuckyLoserChosen(week, round_, team, [game.home.team, game.away.team],
                                  rolls, "3.2.3"))
