"""3.1.3 and 4: the referee's picks and the ONR sanctions.

- No picks received (ONR): a die picks a column and an extra-time value the team still
  has (3.1.3); its random pick does not change the column for the others and costs a
  penalty goal (goals.py). In the KDH and the WG knock-out games an ONR team loses.
- A pick already used and sent again: a die picks among the ones left, no penalty, and
  it counts on the column like any pick (4).
- A dummy team plays random picks till the end of the season (3.1.3), counted like a
  pick and without penalty (ruling M-3.1.3d).
- Sanctions: the first ONR costs an extra goal and a great save, the second all of them
  and promotion, the third the team (a dummy in the Elite and D2, a team of the waiting
  list in D3, which keeps the record).
"""

from __future__ import annotations

from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from engine.matrix.context import Referee
from engine.matrix.extra_time import available_extra_time
from engine.matrix.goals import Entry
from engine.matrix.state import SeasonState
from engine.matrix.table import table_competition
from events.matrix import Pick, PickReplaced, PicksSent, SanctionApplied, TeamReplaced

__all__ = ["RepeatedPick", "entry_for", "repeated_picks", "sanction"]


# compiled (setup.py), a plain Python class: a native one cannot be copied or pickled
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class RepeatedPick:
    """A column sent that the team has already played, or also sent for another week not
    played yet (``other_week``; 0: already played). Legal when sent: at play the later
    one is "a pick already played", replaced by a die among the columns left (4)."""

    week: int
    team: str
    competition: str
    column: str
    other_week: int


def repeated_picks(state: SeasonState, sent: PicksSent) -> list[RepeatedPick]:
    """4: "If an already played pick has been sent, a roll of a die will determine which
    remaining one will be used." The picks of ``sent`` that will meet that rule at play,
    unless an earlier week's pick is sent again differently."""
    record = state.teams[sent.team]
    found = []
    for p in sent.picks:
        if p.column in record.used_columns(p.competition):
            found.append(RepeatedPick(sent.week, sent.team, p.competition, p.column, 0))
            continue
        for (week, team), picks in sorted(state.picks.items()):
            if (team == sent.team and week != sent.week and week not in state.weeks_played
                    and any(o.competition == p.competition and o.column == p.column
                            for o in picks)):
                found.append(RepeatedPick(sent.week, sent.team, p.competition, p.column, week))
                break
    return found


def _typed_onr(ref: Referee, week: int, team: str, competition: str, plays: list[str]
               ) -> tuple[str | None, str | None]:
    table = ref.state.table.get(week)
    typed = table.onr.get(team) if table else None
    # A typed ONR draw is the championship's (or the team's one game when it plays none).
    if typed is None or table_competition(plays) != competition:
        return None, None
    return typed.column or None, typed.extra_time or None


def _available_columns(ref: Referee, team: str, competition: str) -> list[str]:
    used = ref.state.teams[team].used_columns(competition)
    return [c for c in ref.state.matrices[competition].columns if c not in used]


def entry_for(ref: Referee, week: int, team: str, competition: str, pick: Pick | None,
              knockout: bool, plays: list[str] | None = None) -> Entry | None:
    """The pick the referee plays for ``team``; None: an ONR team that loses (KDH, WG
    knock-out games, 3.2.3 and 3.3.3)."""
    state = ref.state
    record = state.teams[team]
    division = record.division
    used_et = record.used_extra_time(competition)
    columns = _available_columns(ref, team, competition)
    extra_times = available_extra_time(competition, used_et)
    if pick is None and not record.dummy:
        if knockout:
            return None
        column, extra_time = _typed_onr(ref, week, team, competition, plays or [competition])
        return _random(ref, week, team, division, competition, columns, extra_times, "onr",
                       column, extra_time)
    if record.dummy:
        return _random(ref, week, team, division, competition, columns, extra_times, "dummy")
    assert pick is not None
    rolls: list[int] = []
    column, extra_time = pick.column, pick.extra_time
    if column not in columns:  # 4: a pick already played: a die picks one left
        column, n = ref.dice.pick(f"{competition} column for {team} ({pick.column} used)",
                                  columns)
        rolls.append(n)
    if extra_time not in extra_times:
        extra_time, n = ref.dice.pick(
            f"{competition} extra time for {team} ({pick.extra_time} used up)", extra_times)
        rolls.append(n)
    if rolls:
        ref.emit(PickReplaced(week, team, competition, column, extra_time, "repeat", rolls, "4"))
    return Entry(team, division, column, extra_time, pick.extra_goals,
                 pick.great_saves if competition == "championship" else 0,
                 pick.shootout if competition == "kdh" else "", replaced="repeat" if rolls else "")


def _random(ref: Referee, week: int, team: str, division: str, competition: str,
            columns: list[str], extra_times: list[str], reason: str,
            typed_column: str | None = None, typed_extra_time: str | None = None) -> Entry:
    column, n1 = ref.dice.pick(f"{competition} column for {team} ({reason})", columns,
                               typed_column)
    extra_time, n2 = ref.dice.pick(f"{competition} extra time for {team} ({reason})",
                                   extra_times, typed_extra_time)
    ref.emit(PickReplaced(week, team, competition, column, extra_time, reason, [n1, n2],
                          "3.1.3"))
    shootout = "X" if competition == "kdh" else ""
    return Entry(team, division, column, extra_time, shootout=shootout, onr=reason == "onr",
                 replaced=reason)


def sanction(ref: Referee, week: int, team: str) -> None:
    """3.1.3: the growing sanctions of a team's first, second and third ONR."""
    state = ref.state
    record = state.teams[team]
    count = record.onr_count + 1
    if count == 1:
        ref.emit(SanctionApplied(week, team, 1, min(1, record.extra_goals),
                                 min(1, record.great_saves), False, "3.1.3"))
        return
    if count == 2:
        ref.emit(SanctionApplied(week, team, 2, record.extra_goals, record.great_saves, True,
                                 "3.1.3"))
        return
    ref.emit(SanctionApplied(week, team, count, 0, 0, False, "3.1.3"))
    level = state.division(record.division).level
    waiting = state.waiting()
    if level >= 3 and waiting:
        new_id, new_name = waiting[0]
        ref.emit(TeamReplaced(week, team, new_name, new_id, False, "3.1.3"))
    else:  # Elite and D2, or no team waiting (ruling M-3.1.3e): a dummy team
        ref.emit(TeamReplaced(week, team, f"{record.name} (dummy)", "", True, "3.1.3"))
