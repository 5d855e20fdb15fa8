"""One game worked out: regular time (goals.py), then extra time, the KDH shootout, the
WG knock-out tiebreak and the last die (2.2, 3.1.2, 3.2.2, 3.3.2), or a forfeit (3.2.3,
3.3.3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec
from mypy_extensions import mypyc_attr

from engine.matrix.context import Referee
from engine.matrix.extra_time import SHOOTOUT_X_VALUES, X_VALUES, golden_goal
from engine.matrix.goals import Entry, column_value, regular_goals, shared_with
from engine.matrix.table import typed_shootout, typed_x
from events.matrix import GamePlayed, GameSide

__all__ = ["Fixture", "play_game"]

_RULES = {"championship": "3.1.2", "kdh": "3.2.2", "wg": "3.3.2"}


# compiled (setup.py), a plain Python class: a native one cannot be copied or pickled
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Fixture:
    competition: str
    week: int
    round: int  # the matrix row: the week in the championship, the cup round in a cup
    stage: str
    home: str
    away: str

    @property
    def knockout(self) -> bool:
        return self.competition == "kdh" or (self.competition == "wg" and self.round > 6)


def _x(ref: Referee, team: str, value: str, purpose: str, options: Sequence[str],
       typed: int | None, rolls: list[int]) -> int:
    if value != "X":
        return int(value)
    drawn, n = ref.dice.pick(purpose, options, None if typed is None else str(typed))
    rolls.append(n)
    return int(drawn)


def _side(entry: Entry | None, team: str, row: int, shared: list[str], against: int,
          bonus: bool, goals: int) -> GameSide:
    if entry is None:  # ONR in a knock-out game: no pick is played
        return GameSide(team, "", 0, [], 0, 0, False, True, "onr", "", -1, -1, goals)
    return GameSide(team, entry.column, row, shared, entry.extra_goals, against, bonus,
                    entry.onr, entry.replaced, entry.extra_time, -1, -1, goals)


def _forfeit(ref: Referee, fx: Fixture, home: Entry | None, away: Entry | None) -> None:
    """3.2.3, 3.3.3: an ONR team loses (ruling M-3.2.3a: 1-0); both ONR: in the KDH
    nobody goes through (a lucky loser will), in the WG a die (ruling M-3.3.3a)."""
    rolls: list[int] = []
    if home is None and away is None and fx.competition == "wg":
        winner, n = ref.dice.pick(f"wg {fx.stage}: both ONR", [fx.home, fx.away])
        rolls.append(n)
        decided = "DIE"
    elif home is None and away is None:
        winner, decided = "", "FORFEIT"
    else:
        winner, decided = (fx.away if home is None else fx.home), "FORFEIT"
    score = {fx.home: 0, fx.away: 0}
    if winner:
        score[winner] = 1
    ref.emit(GamePlayed(
        fx.competition, fx.week, fx.round, fx.stage,
        _side(home, fx.home, 0, [], 0, False, score[fx.home]),
        _side(away, fx.away, 0, [], 0, False, score[fx.away]),
        score[fx.home], score[fx.away], decided, winner, "", rolls,
        "3.2.3" if fx.competition == "kdh" else "3.3.3"))


def play_game(ref: Referee, fx: Fixture, home: Entry | None, away: Entry | None,
              field: Sequence[Entry], bonus: str, group_goals: dict[str, int],
              plays: dict[str, list[str]] | None = None) -> None:
    """Work out ``fx`` and emit its :class:`GamePlayed`. ``field``: every entry of the
    competition this week (for the shared columns); ``bonus``: the team with the week's
    bonus goal; ``group_goals``: WG group-game goals (the knock-out tiebreak); ``plays``:
    each team's competitions that week (which game a table's X stands for, table.py)."""
    if home is None or away is None:
        _forfeit(ref, fx, home, away)
        return
    matrix = ref.state.matrices[fx.competition]
    plays = plays or {}
    x_typed = {t: typed_x(ref.state, fx.week, fx.competition, t, plays.get(t, [fx.competition]))
               for t in (fx.home, fx.away)}
    rows = {e.team: column_value(matrix, fx.round, e.column) for e in (home, away)}
    shared = {e.team: shared_with(e, field) for e in (home, away)}
    goals = {
        e.team: regular_goals(rows[e.team], len(shared[e.team]), e.extra_goals,
                              other.great_saves, bonus == e.team, e.onr)
        for e, other in ((home, away), (away, home))
    }
    regular = dict(goals)
    rolls: list[int] = []
    decided, winner, tiebreak = "REG", "", ""
    et_values = {home.team: -1, away.team: -1}
    so_values = {home.team: -1, away.team: -1}
    if goals[home.team] != goals[away.team]:
        winner = max(goals, key=lambda t: goals[t])
    else:
        for e in (home, away):
            et_values[e.team] = _x(ref, e.team, e.extra_time, f"X for {e.team}", X_VALUES,
                                   x_typed.get(e.team), rolls)
        side = golden_goal(et_values[home.team], et_values[away.team])
        if side:
            winner, decided = (home.team if side == "home" else away.team), "AP"
        elif fx.competition == "kdh":
            for e in (home, away):  # 3.2.2: the penalty shootout (ruling M-2.2c: no pick, X)
                so_values[e.team] = _x(ref, e.team, e.shootout or "X",
                                       f"shootout X for {e.team}", SHOOTOUT_X_VALUES,
                                       typed_shootout(ref.state, fx.week, e.team), rolls)
            side = golden_goal(so_values[home.team], so_values[away.team])
            tiebreak = "shootout"
            if side:
                winner, decided = (home.team if side == "home" else away.team), "SO"
        elif fx.knockout:  # 3.3.2: the goals of the group games
            tiebreak = "group goals"
            if group_goals.get(home.team, 0) != group_goals.get(away.team, 0):
                winner, decided = max((home.team, away.team),
                                      key=lambda t: group_goals.get(t, 0)), "GROUP"
        else:
            decided = "DRAW"
        if not winner and decided != "DRAW":  # 3.2.2, 3.3.2: finally a die
            winner, n = ref.dice.pick(f"{fx.competition} {fx.stage or 'game'} tiebreak",
                                      [home.team, away.team])
            rolls.append(n)
            decided, tiebreak = "DIE", "die"
        if winner:
            goals[winner] += 1  # the golden goal; a shootout or die win counts one too
    sides = []
    for e, other in ((home, away), (away, home)):
        # its own name: ``side`` above is a str, and compiled (mypyc) a name keeps one type
        played = _side(e, e.team, rows[e.team], shared[e.team], other.great_saves,
                       bonus == e.team, regular[e.team])
        sides.append(msgspec.structs.replace(played, extra_time_value=et_values[e.team],
                                             shootout_value=so_values[e.team]))
    ref.emit(GamePlayed(fx.competition, fx.week, fx.round, fx.stage, sides[0], sides[1],
                        goals[home.team], goals[away.team], decided, winner, tiebreak, rolls,
                        _RULES[fx.competition]))
