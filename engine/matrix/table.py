"""The referee's table (``[referee]`` in a week's picks file): draws made at a real table,
used instead of seeded dice (docs/matrix.md), checked when they are entered.

- ``bonus``: a division's bonus goal (2.1.4) for one of its teams that sent picks (an ONR
  team cannot get it, 3.1.3);
- ``onr``: an ONR team's random column and extra-time value (3.1.3), among those it has
  left;
- ``x``: what a championship X became (2.2); the cups' X, one per game (``x_kdh``,
  ``x_wg``), and the KDH shootout X (``shootout``).

A table names one game of a team by its competition: the championship's table entries
(``onr``, ``x``) are the team's championship game, or its one game when it plays no
championship game that week.
"""

from __future__ import annotations

from engine.matrix.extra_time import (
    SHOOTOUT_X_VALUES,
    X_VALUES,
    available_extra_time,
)
from engine.matrix.state import SeasonState
from events.errors import RinklogError
from events.matrix import RefereeCupDrawsEntered, RefereeDrawsEntered

__all__ = ["TableError", "check_table", "table_competition", "typed_shootout", "typed_x"]


class TableError(RinklogError):
    """A ``[referee]`` value the rules refuse (checked where it is entered)."""


def table_competition(plays: list[str]) -> str | None:
    """The game the championship's table entries stand for: the championship, or the
    team's one game (None: it plays no game that week)."""
    if "championship" in plays:
        return "championship"
    return plays[0] if len(plays) == 1 else None


def typed_x(state: SeasonState, week: int, competition: str, team: str, plays: list[str]
            ) -> int | None:
    """The X of ``team``'s game of ``competition`` typed at the table, if any."""
    cup = state.cup_table.get(week)
    if cup is not None and team in cup.x.get(competition, {}):
        return cup.x[competition][team]
    table = state.table.get(week)
    if table is not None and table_competition(plays) == competition:
        return table.x.get(team)
    return None


def typed_shootout(state: SeasonState, week: int, team: str) -> int | None:
    cup = state.cup_table.get(week)
    return cup.shootout.get(team) if cup is not None else None


def check_table(state: SeasonState, plays: dict[str, list[str]], table: RefereeDrawsEntered,
                cup: RefereeCupDrawsEntered | None) -> None:
    """Refuse a table the referee could not use: ``state`` holds the week's picks sent so
    far, ``plays`` each team's competitions that week (in order)."""
    where = f"[referee] week {table.week}"
    division_ids = {d.id for d in state.divisions}
    for division, team in table.bonus.items():
        if division not in division_ids:
            raise TableError(f"{where}: bonus: no division {division!r}")
        if team not in state.teams:
            raise TableError(f"{where}: bonus {division}: no team {team!r}")
        if state.teams[team].division != division:
            raise TableError(f"{where}: bonus {division}: {team} plays in "
                             f"{state.teams[team].division}, not {division} (2.1.4)")
        if "championship" not in plays.get(team, []):
            raise TableError(f"{where}: bonus {division}: {team} plays no championship game")
        if team in table.onr or not (state.teams[team].dummy or _sent(state, table.week,
                                                                       team)):
            raise TableError(f"{where}: bonus {division}: {team} sent no picks (ONR): it "
                             "cannot get the bonus goal (3.1.3)")
    for team, onr in table.onr.items():
        competition = _game(state, plays, team, f"{where}: onr")
        record = state.teams[team]
        if record.dummy or _sent(state, table.week, team, competition):
            raise TableError(f"{where}: onr {team}: "
                             + ("a dummy's picks are the seeded dice" if record.dummy
                                else f"it sent {competition} picks: not ONR (3.1.3)"))
        if onr.column and onr.column not in state.matrices[competition].columns:
            raise TableError(f"{where}: onr {team}: column {onr.column!r} is not one of "
                             f"{''.join(state.matrices[competition].columns)}")
        if onr.column in record.used_columns(competition):
            raise TableError(f"{where}: onr {team}: column {onr.column} is already used "
                             "(3.1.3: a column it has left)")
        left = available_extra_time(competition, record.used_extra_time(competition))
        if onr.extra_time and onr.extra_time not in left:
            raise TableError(f"{where}: onr {team}: extra_time {onr.extra_time!r} is not one "
                             f"it has left ({', '.join(left)})")
    for team, value in table.x.items():
        _game(state, plays, team, f"{where}: x")
        _value(f"{where}: x {team}", value, X_VALUES)
    if cup is None:
        return
    for competition, typed in cup.x.items():
        for team, value in typed.items():
            if competition not in plays.get(team, []):
                raise TableError(f"{where}: x_{competition} {team}: "
                                 + (f"no {competition} game that week" if team in state.teams
                                    else "no such team"))
            _value(f"{where}: x_{competition} {team}", value, X_VALUES)
    for team, value in cup.shootout.items():
        if "kdh" not in plays.get(team, []):
            raise TableError(f"{where}: shootout {team}: "
                             + ("no KDH game that week" if team in state.teams
                                else "no such team"))
        _value(f"{where}: shootout {team}", value, SHOOTOUT_X_VALUES)


def _sent(state: SeasonState, week: int, team: str, competition: str = "championship"
          ) -> bool:
    return any(p.competition == competition for p in state.picks.get((week, team), []))


def _game(state: SeasonState, plays: dict[str, list[str]], team: str, where: str) -> str:
    if team not in state.teams:
        raise TableError(f"{where}: no team {team!r}")
    competition = table_competition(plays.get(team, []))
    if competition is None:
        raise TableError(f"{where} {team}: no game that week to type a draw for "
                         "(a cup game's X is x_kdh or x_wg)")
    return competition


def _value(where: str, value: int, options: list[str]) -> None:
    if str(value) not in options:
        raise TableError(f"{where}: {value} is not one of {', '.join(options)}")
