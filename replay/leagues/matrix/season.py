"""The ``rinklog matrix`` commands as library calls over an event store.

Each writing command reads the season stream, asks the referee (engine/matrix/referee.py)
for the events with the season's seeded dice, and appends them in one transaction at the
version it read (so two referees at once cannot both play a week). Read commands fold
the stream and write nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from engine.matrix import referee, waiting
from engine.matrix.dice import SeededDie
from engine.matrix.extra_time import EXTRA_TIME_LIMITS
from engine.matrix.onr import RepeatedPick, repeated_picks
from engine.matrix.recheck import fold
from engine.matrix.seasons import standings_rows
from engine.matrix.state import COMPETITIONS, SeasonState, evolve
from engine.matrix.table import check_table
from events.errors import RinklogError, UnknownGame
from events.matrix import MATRIX_SEASON_VERSION, GamePlayed, Pick, PickReplaced, SeasonOpened
from events.store import EventStore
from projections.index import stream_index
from projections.standings import STREAK_CODES, last_games, streak
from replay.leagues.season_stream import SeasonStream
from replay.systems.matrix.files import read_picks, season_opened

__all__ = ["KIND", "SYSTEM", "PicksRecorded", "ReplacedPick", "Season", "WeekPlayed", "close",
           "cups", "join_waiting_list", "load", "open_league", "play", "record",
           "replace_new_team", "results", "send_picks", "standings", "teams"]

KIND, SYSTEM = "matrix_season", "matrix"


@dataclass
class Season:
    id: str
    state: SeasonState
    events: list[Any]
    version: int


def load(store: EventStore, season_id: str) -> Season:
    if not store.exists(season_id):
        seasons = [s.stream for s in store.streams(kind=KIND)]
        raise UnknownGame(f"no Matrix season {season_id!r} in {store.path}"
                          + (f" (seasons: {', '.join(seasons)})" if seasons else ""))
    info = store.info(season_id)
    if info.system != SYSTEM:
        raise RinklogError(f"{season_id} is a {info.kind} stream, not a Matrix season")
    events = [row.event for row in store.read(season_id)]
    return Season(season_id, fold(events), events, len(events))


def record(store: EventStore, season: Season | None, stream: str, events: list[Any]) -> int:
    """Append ``events`` to a season read as ``season`` (None: a new stream), with the
    index folded from all its events; a conflict if the season changed since it was read."""
    before = season.events if season else []
    index = stream_index([*before, *events])
    written = SeasonStream(store, stream, season.version if season else 0)
    return written.append_with_index(events, index.meta, kind=KIND, system=SYSTEM)


def _open(store: EventStore, created: SeasonOpened) -> str:
    if store.exists(created.season_id):
        raise RinklogError(f"season {created.season_id} is already in {store.path} (open it "
                           "with another --seed)")
    events = referee.open_season(created, SeededDie(created.seed, created.season_id))
    record(store, None, created.season_id, events)
    return created.season_id


def open_league(store: EventStore, league: str | Path, seed: str) -> str:
    """A league's first season; returns its id."""
    # every odds record of a season opened now carries its runs (issue 33, docs/trust.md)
    return _open(store, msgspec.structs.replace(season_opened(league, seed),
                                                season_version=MATRIX_SEASON_VERSION))


def _plays(state: SeasonState, week: int) -> dict[str, list[str]]:
    plays: dict[str, list[str]] = {t: [] for t in state.teams}
    for fx in referee.fixtures(state, week):
        for team in (fx.home, fx.away):
            plays[team].append(fx.competition)
    return plays


@dataclass(frozen=True)
class PicksRecorded:
    """What ``picks`` recorded: how many teams' picks, and, when the file covers only the
    championship while the cups are on, who still owes picks (competition -> teams), and
    the columns sent that a die will replace at play (4)."""

    teams: int
    owing: dict[str, list[str]]
    repeated: list[RepeatedPick]


def send_picks(store: EventStore, season_id: str, week: int, path: Path) -> PicksRecorded:
    """Record a week's picks file: the picks, then the ``[referee]`` table, each checked
    as the referee will use it (a table's draws against the picks sent so far)."""
    season = load(store, season_id)
    if week in season.state.weeks_played:
        raise RinklogError(f"{path}: week {week} of {season_id} is already played")
    plays = _plays(season.state, week)
    read = read_picks(path, week, plays)
    after = season.state.copy()
    repeated: list[RepeatedPick] = []
    for s in read.sent:
        try:
            referee.check_picks(after, s)
        except RinklogError as err:
            raise RinklogError(f"{path}: {err}") from None
        repeated += repeated_picks(after, s)
        evolve(after, s)
    tables = [t for t in (read.table, read.cup) if t is not None]
    if read.table is not None:
        try:
            check_table(after, {t: c for t, c in plays.items() if c}, read.table, read.cup)
        except RinklogError as err:
            raise RinklogError(f"{path}: {err}") from None
    record(store, season, season_id, [*read.sent, *tables])
    owing: dict[str, list[str]] = {}
    cups_on = any(c != "championship" for cs in plays.values() for c in cs)
    if cups_on and read.sent and all(p.competition == "championship"
                                     for s in read.sent for p in s.picks):
        for competition in COMPETITIONS:
            late = [t for t, cs in plays.items() if competition in cs
                    and not any(p.competition == competition
                                for p in after.picks.get((week, t), []))]
            if late:
                owing[competition] = late
    return PicksRecorded(len(read.sent), owing, repeated)


@dataclass(frozen=True)
class ReplacedPick:
    """A pick already played, sent, and the die's pick that replaced it (4), read back
    from the week's PickReplaced event."""

    team: str
    competition: str
    sent: Pick
    played: PickReplaced


@dataclass(frozen=True)
class WeekPlayed:
    """A week worked out: its games, the teams that sent no picks (competition -> teams,
    ONR, 3.1.3; a dummy is not ONR) and the picks already played that a die replaced (4)."""

    games: list[GamePlayed]
    onr: dict[str, list[str]]
    replaced: list[ReplacedPick]


def play(store: EventStore, season_id: str, week: int) -> WeekPlayed:
    """Resolve a week once."""
    season = load(store, season_id)
    events = referee.play_week(season.state, week, SeededDie(season.state.created.seed, season_id))
    record(store, season, season_id, events)
    games = [e for e in events if isinstance(e, GamePlayed)]
    onr: dict[str, list[str]] = {}
    for g in games:
        for side in (g.home, g.away):
            if side.replaced == "onr":
                onr.setdefault(g.competition, []).append(side.team)
    replaced = [ReplacedPick(e.team, e.competition, sent, e) for e in events
                if isinstance(e, PickReplaced) and e.reason == "repeat"
                for sent in season.state.picks.get((week, e.team), [])
                if sent.competition == e.competition]
    return WeekPlayed(games, onr, replaced)


def join_waiting_list(store: EventStore, season_id: str, team_id: str, name: str) -> int:
    """Name a team on the season's waiting list (3.1.3, 2.1.2.1); returns its place."""
    season = load(store, season_id)
    record(store, season, season_id, waiting.join(season.state, team_id, name))
    return len(season.state.waiting()) + 1


def _new_teams(store: EventStore, state: SeasonState) -> set[str]:
    """The teams new to the league this season: every team of a first season; later, the
    teams the closed season before did not have."""
    previous = state.created.previous
    if state.created.season == 1 or not previous:
        return set(state.teams)
    if not store.exists(previous):
        raise RinklogError(f"{state.season_id}: the season before ({previous}) is not in "
                           f"{store.path}: which teams are new cannot be told (3.1.3)")
    return set(state.teams) - set(load(store, previous).state.teams)


def replace_new_team(store: EventStore, season_id: str, team: str) -> str:
    """3.1.3: a new team ONR in week 1 replaced by the next team of the waiting list;
    returns the new team's name."""
    season = load(store, season_id)
    events = waiting.replace_new_team(season.state, team, _new_teams(store, season.state))
    record(store, season, season_id, events)
    return events[0].new_name


def close(store: EventStore, season_id: str) -> str:
    """Close the season and open the next one; returns the next season's id."""
    season = load(store, season_id)
    events = referee.close_season(season.state, SeededDie(season.state.created.seed, season_id))
    record(store, season, season_id, events)
    season = load(store, season_id)
    return _open(store, referee.next_season(season.state, store.head_hash(season_id)))


# --- read models ---------------------------------------------------------------------------

def result_row(g: GamePlayed) -> dict[str, Any]:
    return {"competition": g.competition, "week": g.week, "round": g.round, "stage": g.stage,
            "home": g.home.team, "away": g.away.team,
            "score": {"home": g.home_goals, "away": g.away_goals}, "decided": g.decided,
            "winner": g.winner or None}


def results(store: EventStore, season_id: str, week: int | None = None) -> list[dict[str, Any]]:
    state = load(store, season_id).state
    return [result_row(g) for g in state.results if week is None or g.week == week]


def standings(store: EventStore, season_id: str, division: str | None = None
              ) -> list[dict[str, Any]]:
    """3.1.5 order (the final order once closed; before that full ties by number)."""
    state = load(store, season_id).state
    divisions = [d for d in state.divisions if division is None or d.id == division]
    if not divisions:
        raise RinklogError(f"--division: no {division!r} in {season_id} (divisions: "
                           f"{', '.join(d.id for d in state.divisions)})")
    form = recent_form(state)
    return [{**row, **form[row["team"]]} for row in standings_rows(state, [d.id for d in divisions])]


DRAW_STREAK = {**STREAK_CODES, "T": "D"}  # the table's D: a draw is a tie of 3.1.5


def recent_form(state: SeasonState) -> dict[str, dict[str, str]]:
    """Each team's ``last10`` (W-L-OTL of its last ten championship games, -D after them
    when one was a draw, as the league standings' L10 with its ties) and ``streak`` ("W3",
    "OT1", "D2"), oldest game first. Shown only: a season receipt digests the 3.1.5 rows
    without them (engine/matrix/seasons.py ``receipt_standings_rows``)."""
    results: dict[str, list[str]] = {team: [] for team in state.teams}
    for g in state.results:
        if g.competition != "championship":
            continue
        for team in (g.home.team, g.away.team):
            lost = "OTL" if g.decided == "AP" else "L"
            results.setdefault(team, []).append(
                "T" if not g.winner else "W" if g.winner == team else lost)
    return {team: {"last10": last_games(r), "streak": streak(r, DRAW_STREAK)}
            for team, r in results.items()}


def teams(store: EventStore, season_id: str) -> list[dict[str, Any]]:
    """Each team's columns and extra-time values left ("infos équipes"), stock, ONRs."""
    state = load(store, season_id).state
    rows = []
    for team_id in state.team_order():
        t = state.teams[team_id]
        left: dict[str, Any] = {}
        for c in COMPETITIONS:
            if c not in state.matrices:
                continue
            used = t.used_extra_time(c)
            left[c] = {"columns": [x for x in state.matrices[c].columns
                                   if x not in t.used_columns(c)],
                       "extra_time": {v: n - used[v] for v, n in EXTRA_TIME_LIMITS[c].items()}}
        rows.append({"team": team_id, "name": t.name, "division": t.division,
                     "number": t.number, "extra_goals": t.extra_goals,
                     "great_saves": t.great_saves, "onr": t.onr_count,
                     "no_promotion": t.no_promotion, "dummy": t.dummy, "left": left})
    return rows


def cups(store: EventStore, season_id: str) -> dict[str, Any]:
    """The KDH rounds and the WG groups, ranking, semi-finals and final."""
    state = load(store, season_id).state
    rounds = []
    for (competition, number), cup in sorted(state.cup_rounds.items()):
        played = [result_row(g) for g in state.results
                  if g.competition == competition and g.round == number]
        rounds.append({"competition": competition, "round": number, "week": cup.week,
                       "games": [list(g) for g in cup.games], "byes": cup.byes,
                       "lucky_losers": state.lucky_losers.get((competition, number), []),
                       "results": played})
    ranked = state.wg_ranked
    return {"kdh": [r for r in rounds if r["competition"] == "kdh"],
            "wg": {"groups": state.wg_groups,
                   "ranking": ranked.groups if ranked else None,
                   "best_second": ranked.best_second if ranked else None,
                   "knockout": [r for r in rounds if r["competition"] == "wg"],
                   "group_results": [result_row(g) for g in state.results
                                     if g.competition == "wg" and g.round <= 6]},
            "closed": None if state.closed is None else {
                "kdh_winner": state.closed.kdh_winner, "wg_order": state.closed.wg_order}}
