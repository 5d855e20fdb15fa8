"""A Matrix Hockey season as the referee knows it, and ``evolve`` (one event at a time).

The state is folded from the season's events only: the set-up of ``SeasonOpened``, the
picks sent, the draws and every result. Rules read it and never change it; ``evolve``
changes it in place and returns it.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field

from events.matrix import (
    CupDrawn,
    DieRolled,
    DivisionRanked,
    GamePlayed,
    LuckyLoserChosen,
    MatrixTable,
    NewTeamReplaced,
    Pick,
    PicksSent,
    RefereeCupDrawsEntered,
    RefereeDrawsEntered,
    SanctionApplied,
    ScheduleDrawn,
    SeasonClosed,
    SeasonOpened,
    SlotHandedOn,
    StockCharged,
    TeamReplaced,
    WaitingListJoined,
    WeekEnded,
    WeekStarted,
    WgGroupsDrawn,
    WgRanked,
)

__all__ = ["COMPETITIONS", "CupRound", "Division", "SeasonState", "TeamState", "evolve",
           "initial_state"]

COMPETITIONS = ("championship", "wg", "kdh")
"""4: overspent extra goals and great saves go first to the championship, then the WG,
last the KDH; the referee works every week's games out in this order too."""

WEEKS = 11  # 2.1.1: the printed matrix has a row for each of the 11 championship weeks


@dataclass
class TeamState:
    id: str
    name: str
    number: int
    division: str
    extra_goals: int
    great_saves: int
    dummy: bool = False
    onr_count: int = 0
    no_promotion: bool = False
    joined: str = ""  # the waiting-list team that took the slot (3.1.3)
    columns_used: dict[str, set[str]] = field(default_factory=dict)
    extra_time_used: dict[str, Counter[str]] = field(default_factory=dict)

    def used_columns(self, competition: str) -> set[str]:
        return self.columns_used.get(competition, set())

    def used_extra_time(self, competition: str) -> Counter[str]:
        return self.extra_time_used.get(competition, Counter())

    def copy(self) -> TeamState:
        """A copy whose record can change apart from this one's: its own sets of columns
        and counts of extra times (every other field is a str, an int or a bool). What a
        deep copy gives, without ``copy.deepcopy``'s walk through every field: a referee
        command copies every team (``SeasonState.copy``), and that walk was a quarter of
        a season's play (docs/benchmarks.md, "Where a game's time goes")."""
        clone = copy.copy(self)
        clone.columns_used = {c: set(used) for c, used in self.columns_used.items()}
        clone.extra_time_used = {c: Counter(used) for c, used in self.extra_time_used.items()}
        return clone


@dataclass
class Division:
    id: str
    name: str
    level: int  # 1 = Elite (3.1.1)
    teams: list[str]  # by number


@dataclass
class CupRound:
    """A drawn cup round: its games (home, away) and the teams through without one."""

    competition: str
    round: int
    week: int
    games: list[tuple[str, str]]
    byes: list[str]


@dataclass
class SeasonState:
    created: SeasonOpened
    teams: dict[str, TeamState]
    divisions: list[Division]
    matrices: dict[str, MatrixTable]
    dice: int = 0  # dice rolled so far
    schedule: dict[int, list[tuple[str, str]]] = field(default_factory=dict)  # week -> games
    picks: dict[tuple[int, str], list[Pick]] = field(default_factory=dict)
    table: dict[int, RefereeDrawsEntered] = field(default_factory=dict)
    cup_table: dict[int, RefereeCupDrawsEntered] = field(default_factory=dict)
    weeks_played: set[int] = field(default_factory=set)
    week: int = 0  # the week being played (between WeekStarted and WeekEnded)
    results: list[GamePlayed] = field(default_factory=list)
    cup_rounds: dict[tuple[str, int], CupRound] = field(default_factory=dict)
    lucky_losers: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    wg_groups: list[list[str]] = field(default_factory=list)
    wg_ranked: WgRanked | None = None
    final_order: dict[str, list[str]] = field(default_factory=dict)
    closed: SeasonClosed | None = None
    waiting_list: list[tuple[str, str]] = field(default_factory=list)  # (id, name), in order
    waiting_used: int = 0  # the first ``waiting_used`` of them have taken a slot
    handed_on: dict[str, SlotHandedOn] = field(default_factory=dict)  # dummy slot -> team

    @property
    def season_id(self) -> str:
        return self.created.season_id

    def division(self, division_id: str) -> Division:
        return next(d for d in self.divisions if d.id == division_id)

    def waiting(self) -> list[tuple[str, str]]:
        """The waiting list's teams that have not taken a slot (3.1.3)."""
        return self.waiting_list[self.waiting_used:]

    def team_order(self) -> list[str]:
        """Every team, division by division, by number: the referee's order of work."""
        return [t for d in self.divisions for t in d.teams]

    def copy(self) -> SeasonState:
        """A copy the rules may evolve while they decide (events are immutable)."""
        clone = copy.copy(self)
        clone.teams = {k: t.copy() for k, t in self.teams.items()}
        clone.divisions = [copy.copy(d) for d in self.divisions]
        for attr in ("schedule", "picks", "table", "cup_table", "cup_rounds", "lucky_losers",
                     "final_order", "handed_on"):
            setattr(clone, attr, dict(getattr(self, attr)))
        clone.weeks_played = set(self.weeks_played)
        clone.results = list(self.results)
        clone.wg_groups = list(self.wg_groups)
        clone.waiting_list = list(self.waiting_list)
        return clone


def initial_state(created: SeasonOpened) -> SeasonState:
    teams: dict[str, TeamState] = {}
    divisions = []
    for division_id, name, level, entries in created.divisions:
        divisions.append(Division(division_id, name, level, [e.id for e in entries]))
        for e in entries:
            teams[e.id] = TeamState(e.id, e.name, e.number, division_id, e.extra_goals,
                                    e.great_saves, dummy=e.dummy)
    state = SeasonState(created, teams, divisions, dict(created.matrices),
                        waiting_list=[tuple(w) for w in created.waiting_list])
    for week, home, away in created.schedule:
        state.schedule.setdefault(week, []).append((home, away))
    return state


def _use(team: TeamState, competition: str, column: str, extra_time: str) -> None:
    if column:
        team.columns_used.setdefault(competition, set()).add(column)
    if extra_time:
        team.extra_time_used.setdefault(competition, Counter())[extra_time] += 1


def evolve(state: SeasonState, event: object) -> SeasonState:
    """Apply one event to the season (in place) and return it."""
    if isinstance(event, DieRolled):
        state.dice = event.n
    elif isinstance(event, ScheduleDrawn):
        for week, home, away in event.games:
            state.schedule.setdefault(week, []).append((home, away))
    elif isinstance(event, WgGroupsDrawn):
        state.wg_groups = [list(g) for g in event.groups]
    elif isinstance(event, CupDrawn):
        state.cup_rounds[(event.competition, event.round)] = CupRound(
            event.competition, event.round, event.week, [tuple(g) for g in event.games],
            list(event.byes))
    elif isinstance(event, PicksSent):
        state.picks[(event.week, event.team)] = list(event.picks)
    elif isinstance(event, RefereeDrawsEntered):  # a table sent again replaces the week's
        state.table[event.week] = event
        state.cup_table.pop(event.week, None)
    elif isinstance(event, RefereeCupDrawsEntered):
        state.cup_table[event.week] = event
    elif isinstance(event, WaitingListJoined):
        state.waiting_list.append((event.id, event.name))
    elif isinstance(event, WeekStarted):
        state.week = event.week
    elif isinstance(event, StockCharged):
        team = state.teams[event.team]
        team.extra_goals -= sum(event.extra_goals.values())
        team.great_saves -= sum(event.great_saves.values())
    elif isinstance(event, GamePlayed):
        state.results.append(event)
        for side in (event.home, event.away):
            _use(state.teams[side.team], event.competition, side.column, side.extra_time)
    elif isinstance(event, LuckyLoserChosen):
        state.lucky_losers.setdefault(("kdh", event.round), []).append(event.team)
    elif isinstance(event, SanctionApplied):
        team = state.teams[event.team]
        team.onr_count = event.onr_count
        team.extra_goals -= event.extra_goals_lost
        team.great_saves -= event.great_saves_lost
        team.no_promotion = team.no_promotion or event.no_promotion
    elif isinstance(event, TeamReplaced):
        team = state.teams[event.team]
        team.name, team.dummy, team.onr_count = event.new_name, event.dummy, 0
        if event.new_id:
            # 3.1.3: the waiting-list team keeps the record in "points, Extra Goals and
            # Great Saves gained", not the kicked-out team's "no promotion" (a dummy keeps
            # it, ruling M-3.1.3e)
            team.no_promotion, team.joined = False, event.new_id
            state.waiting_used += 1
    elif isinstance(event, NewTeamReplaced):  # the slot's record, its own ONRs and promotion
        team = state.teams[event.team]
        team.name, team.onr_count, team.no_promotion = event.new_name, 0, False
        team.joined = event.new_id
        state.waiting_used += 1
    elif isinstance(event, SlotHandedOn):
        state.handed_on[event.team] = event
        state.waiting_used += 1
    elif isinstance(event, WgRanked):
        state.wg_ranked = event
    elif isinstance(event, WeekEnded):
        state.weeks_played.add(event.week)
        state.week = 0
    elif isinstance(event, DivisionRanked):
        state.final_order[event.division] = list(event.order)
    elif isinstance(event, SeasonClosed):
        state.closed = event
    return state
