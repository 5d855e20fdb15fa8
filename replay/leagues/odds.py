"""Season odds by Monte Carlo (issue 23, docs/odds.md): ``rinklog odds``.

The season as stored (its regular-season games stored and ended, its playoffs if begun,
its lottery if drawn) is read once (:func:`odds_season`); the rest of it and its
postseason are then played ``runs`` times (replay/leagues/odds_run.py), run ``r`` with the
dice of ``odds_run_seed(season, seed, r)``, by local worker processes or a Dask cluster
(``replay.workers.open_crew``); the runs' results are counted in run order
(:func:`count_runs`), so the odds are the same with any number of workers.

Nothing here writes, except :func:`record_odds` (``--record``: one OddsRecorded appended
to the season stream, guarded by the version the odds were read at) and
:func:`replay_run` (``--replay R --out DB``: a new database, written under a temporary
name and renamed only once whole and audited clean).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from engine.league.formats import PlayoffFormat
from engine.league.playoffs import fold
from engine.systems import system_of
from events.common import GameCreated, GameEnded, GamesOut
from events.errors import RinklogError
from events.league import SeasonCreated, SeasonGameRecorded
from events.odds import OddsLeaf, OddsRecorded, OddsRunReplayed, TeamOdds
from events.postseason import (
    LotteryDraw,
    LotteryOpened,
    LotteryOrderSet,
    PlayoffsOpened,
    PostseasonEvent,
    SeriesGameRecorded,
)
from events.store import EventStore
from projections.postseason import lottery_view
from replay.games.coach_habits import coach_setup
from replay.games.registry import ruleset_of_season
from replay.leagues.ledger import ledger_of, season_game_setup
from replay.leagues.naming import PLAYOFF_NUMBER, odds_run_seed, season_game_id
from replay.leagues.odds_leaves import leaves_root, odds_table, percentile, season_teams
from replay.leagues.odds_run import OddsSeason, RunResult, init_odds, odds_task
from replay.leagues.playoff_wave import (
    AT_THE_TABLE,
    ENDED_AT_THE_TABLE,
    ended,
    recorded_games,
    wave_of,
    wave_status,
)
from replay.leagues.postseason import previous_first_pick
from replay.leagues.season_stream import SeasonStream
from replay.leagues.stored_seasons import load_season
from replay.workers import Cluster, open_crew

__all__ = ["MATRIX_REFUSED", "OddsReport", "count_runs", "leaf_of", "odds_season",
           "percentile", "record_odds", "replay_run", "report_of", "run_crew", "run_odds",
           "write_audited"]

MATRIX_REFUSED = ("is a Matrix Hockey season: its odds are its system's (rinklog odds "
                  "reaches them through the Matrix kit, replay/leagues/matrix/odds.py)")

Progress = Callable[[int, int], None]  # (runs done, runs)

_AHEAD = 4  # runs per worker sent ahead of the results read back


@dataclass(frozen=True)
class StoredSeason:
    """A season as odds read it: what a run needs, what is left to play, and the season
    stream's version it was read at (``--record`` appends only onto that)."""

    odds: OddsSeason
    names: dict[str, str]
    version: int
    in_progress: tuple[int | str, ...]  # games begun at the table, not ended (played anew)


def odds_season(store: EventStore, season_id: str,
                playoffs: Callable[[SeasonCreated], PlayoffFormat | None],
                at: int | None = None) -> StoredSeason:
    """Read a stored season for odds; ``playoffs(its SeasonCreated)`` gives its league's
    ``[playoffs]`` format (None: no postseason) when the season has not opened them.
    ``at``: the season as its stream stood at that version (the audit's replay of an
    odds record): the games and postseason it had recorded then, nothing else."""
    if store.exists(season_id) and store.info(season_id).kind == "matrix_season":
        raise RinklogError(f"season {season_id} {MATRIX_REFUSED}")
    # read first: what the odds are decided from
    version = store.version(season_id) if at is None else at
    found = load_season(store, season_id)
    created = found.created
    ledger = ledger_of(store, season_id)
    ruleset = ruleset_of_season(created)
    system = system_of(ruleset)
    teams = {tid: msgspec.json.decode(store.get_blob(digest), type=system.team_type)
             for tid, digest in created.team_hashes.items()}
    charts = msgspec.json.decode(store.get_blob(created.charts_hash), type=system.charts_type)
    habits = (ledger.coach.home, ledger.coach.away) if ledger.coach else ({}, {})
    coach_setup(ruleset, habits)  # habits the ruleset's coach takes (the audit's check)
    played: list[tuple[GameCreated, GameEnded]] = []
    outs: dict[int, tuple[GamesOut, ...]] = {}
    in_progress: list[int | str] = []
    season_events = [row.event for row in store.read(season_id, 1, version)]
    stored = _stored_games(store, season_id, created.schedule, season_events, at is not None)
    for number, _, _ in created.schedule:
        game_id = season_game_id(season_id, number)
        if game_id not in stored:
            continue
        events = [row.event for row in store.read(game_id)]
        first, last = events[0], events[-1]
        if not isinstance(first, GameCreated) or not isinstance(last, GameEnded):
            in_progress.append(number)
            continue
        played.append((first, last))
        outs[number] = tuple(system.games_out(events)) if system.games_out is not None else ()
    remaining = tuple(n for n, _, _ in created.schedule if n not in outs)
    events = season_events
    post = tuple(e for e in events if isinstance(e, PostseasonEvent)
                 and not isinstance(e, LotteryOpened | LotteryDraw | LotteryOrderSet))
    starts: dict[tuple[int, int], dict[str, int]] = {}
    for e in post:
        if isinstance(e, SeriesGameRecorded):
            game = store.read(e.game_id, 1, 1)[0].event
            assert isinstance(game, GameCreated)
            mine = starts.setdefault((e.round, e.slot), {})
            for goalie in (game.home_goalie, game.away_goalie):
                mine[goalie] = mine.get(goalie, 0) + 1
    opened = any(isinstance(e, PlayoffsOpened) for e in post)
    table = _playoff_table(store, season_id, post, system, at is None) if opened else _Table()
    in_progress += table.in_progress
    lottery = lottery_view(events)
    drawn = (tuple(d.team for d in sorted(lottery.draws, key=lambda d: d.pick))
             if lottery.drawn else None)
    odds = OddsSeason(created, teams, charts, habits, ledger.opening, tuple(played),
                      remaining, outs, post, starts,
                      None if opened else playoffs(created), drawn,
                      previous_first_pick(store, season_id), table.outs, table.winners)
    return StoredSeason(odds, {t: found.names.get(t, t) for t in teams}, version,
                        tuple(in_progress))


def _stored_games(store: EventStore, season_id: str, schedule: list, events: list,
                  recorded_only: bool) -> set[str]:
    """The regular-season games odds go on from: every one stored, or (``recorded_only``,
    the season at a version) those its stream recorded by then (a record waits for the
    games begun at the table to end, and each is recorded as it ends)."""
    if recorded_only:
        return {e.game for e in events
                if isinstance(e, SeasonGameRecorded) and e.number != PLAYOFF_NUMBER}
    return {g for g in (season_game_id(season_id, n) for n, _, _ in schedule) if store.exists(g)}


@dataclass
class _Table:
    """The stored playoff games as an odds run goes on from them: what each rules for
    later games (R-post-absent), the winners of the wave's games ended at the table and
    not recorded yet, and the wave's games being played at the table."""

    outs: dict[str, tuple[GamesOut, ...]] = field(default_factory=dict)
    winners: dict[str, str] = field(default_factory=dict)
    in_progress: list[str] = field(default_factory=list)


def _playoff_table(store: EventStore, season_id: str, post: tuple[Any, ...],
                   system: Any, wave: bool = True) -> _Table:
    """The stored playoff games of an open bracket (replay/leagues/playoff_wave.py reads
    the wave as ``rinklog playoffs`` does; ``wave`` False: the bracket's recorded games
    only, as at an odds record, which waits for the wave's games to be recorded)."""
    found = _Table()
    bracket = fold(post)
    games = [gid for gid, _, _ in recorded_games(bracket)]
    if bracket.champion is None and wave:
        for g in wave_status(store, season_id, wave_of(bracket)):
            if g.status == AT_THE_TABLE:
                found.in_progress.append(g.game_id)
            elif g.status == ENDED_AT_THE_TABLE:
                last = ended(store, g.game_id)
                assert last is not None
                found.winners[g.game_id] = g.home if last.winner == "home" else g.away
                games.append(g.game_id)
    if system.games_out is not None:
        for game_id in games:
            found.outs[game_id] = tuple(system.games_out(
                [row.event for row in store.read(game_id)]))
    return found


def run_odds(season: OddsSeason, seed: str, runs: int, workers: int = 1,
             cluster: Cluster | None = None, progress: Progress | None = None) -> list[RunResult]:
    """Runs 1..``runs`` of a league season in run order (:func:`run_crew`)."""
    return run_crew(init_odds, odds_task, (season, seed), runs, workers, cluster, progress,
                    result=RunResult)


def run_crew(init: Callable[..., None], task: Callable[[int], Any], initargs: tuple,
             runs: int, workers: int = 1, cluster: Cluster | None = None,
             progress: Progress | None = None, *, result: Any = Any) -> list[Any]:
    """Runs 1..``runs`` in run order: ``init(*initargs)`` once a worker, then ``task(run)``
    a run; here (one worker, no cluster), or by ``workers`` local processes or a Dask
    cluster's workers (``cluster``), a window of them ahead. ``result``: the type of what
    ``task`` returns, which a cluster's results are decoded as (``open_crew``)."""
    if runs < 1:
        raise RinklogError(f"--runs must be at least 1, got {runs}")
    if workers < 1:
        raise RinklogError(f"--workers must be at least 1, got {workers}")
    done: dict[int, Any] = {}
    if cluster is None and (workers == 1 or runs == 1):
        init(*initargs)  # this process is the one worker
        for run in range(1, runs + 1):
            done[run] = task(run)
            if progress:
                progress(run, runs)
        return [done[r] for r in range(1, runs + 1)]
    crew = open_crew(workers, init, task, initargs, "odds run", cluster=cluster, result=result)
    try:
        sent = 0
        window = _AHEAD * (workers if cluster is None else max(workers, 8))
        while len(done) < runs:
            while sent < runs and sent - len(done) < window:
                sent += 1
                crew.submit(sent, sent)
            run, result = crew.result()
            done[run] = result
            if progress:
                progress(len(done), runs)
    finally:
        crew.stop()
    return [done[r] for r in range(1, runs + 1)]


def leaf_of(result: RunResult, teams: list[str]) -> OddsLeaf:
    """A run as its record's leaf (``teams``: the season's, sorted, which it indexes)."""
    index = {team: i for i, team in enumerate(teams)}
    return OddsLeaf(run=result.run, run_seed=result.run_seed,
                    points=[result.points.get(t, 0) for t in teams],
                    playoffs=[index[t] for t in result.playoff_teams],
                    advanced=[[index[t] for t in r] for r in result.advanced],
                    rounds=result.rounds,
                    champion=-1 if result.champion is None else index[result.champion],
                    picks=[index[t] for t in result.picks])


def count_runs(results: list[RunResult], teams: list[str]) -> list[TeamOdds]:
    """Each team's counts over the runs (OddsRecorded's), best mean points first: the
    counts of the runs' leaves (``teams``: the season's, sorted), as the audit counts
    them (replay/leagues/odds_leaves.py)."""
    return odds_table([leaf_of(r, teams) for r in results], teams)[0]


@dataclass(frozen=True)
class OddsReport:
    """The odds of a season: counts per team over ``runs`` runs, and the runs."""

    season: str
    seed: str
    runs: int
    games_played: int
    games_remaining: int
    playoff_spots: int
    teams: list[TeamOdds]
    names: dict[str, str]
    results: list[RunResult]
    leaves: list[OddsLeaf] = field(default_factory=list)  # the runs, as recorded
    playoffs: PlayoffFormat | None = None  # the [playoffs] the runs opened

    def team_json(self, t: TeamOdds) -> dict[str, Any]:
        n = self.runs
        spots = self.playoff_spots > 0
        return {"team": t.team, "name": self.names.get(t.team, t.team),
                "points_mean": round(t.points_total / n, 3),
                "points_p10": t.points_p10, "points_p90": t.points_p90,
                "playoffs": t.playoffs / n if spots else None,
                "champion": t.champion / n if spots else None,
                "rounds": [c / n for c in t.rounds],
                "picks": [c / n for c in t.picks]}

    def to_json(self, per_run: bool = False) -> dict[str, Any]:
        """docs/odds.md's JSON; ``per_run``: ``runs`` lists every run (its length is the
        number of runs) instead of counting them."""
        out: dict[str, Any] = {
            "season": self.season, "runs": self.runs, "seed": self.seed,
            "games_played": self.games_played, "games_remaining": self.games_remaining,
            "playoff_spots": self.playoff_spots,
            "teams": [self.team_json(t) for t in self.teams]}
        if per_run:
            out["runs"] = [{"run": r.run, "points": r.points, "champion": r.champion}
                           for r in self.results]
        return out

    def event(self) -> OddsRecorded:
        """The record ``--record`` appends: the figures, the runs as leaves, their root
        and the ``[playoffs]`` the runs opened (issue 33)."""
        return OddsRecorded(seed=self.seed, runs=self.runs, games_played=self.games_played,
                            games_remaining=self.games_remaining,
                            playoff_spots=self.playoff_spots, teams=self.teams,
                            root=leaves_root(self.leaves), leaves=self.leaves,
                            playoffs=msgspec.UNSET if self.playoffs is None
                            else self.playoffs)


def report_of(stored: StoredSeason, seed: str, results: list[RunResult]) -> OddsReport:
    """The report of the runs: teams by mean points, then title and playoff chances,
    counted from the runs' leaves."""
    season = stored.odds
    teams = season_teams(season.created)
    leaves = [leaf_of(r, teams) for r in results]
    counts, spots = odds_table(leaves, teams)
    return OddsReport(season.created.season_id, seed, len(results), len(season.played),
                      len(season.remaining), spots, counts, stored.names, results, leaves,
                      season.playoff_format)


def record_odds(store: EventStore, stored: StoredSeason, report: OddsReport) -> None:
    """Append the odds to the season stream (``--record``), onto the version they were
    read at: a season that changed meanwhile refuses them (run odds again)."""
    season_id = report.season
    if not ledger_of(store, season_id).recorded:
        raise RinklogError(f"season {season_id} was stored before seasons recorded their "
                           "games: its stream takes no odds")
    if stored.in_progress:
        raise RinklogError(f"season {season_id} has games begun at the table and not ended "
                           f"({', '.join(map(str, stored.in_progress))}): record odds once "
                           "they end")
    if stored.odds.table_winners:  # the audit replays a record from the stream alone
        raise RinklogError(f"season {season_id} has playoff games ended at the table and not "
                           f"recorded in their series ({', '.join(stored.odds.table_winners)})"
                           ": run rinklog playoffs to record them, then record odds")
    SeasonStream(store, season_id, stored.version).append([report.event()])


def write_audited(db: str | Path, out: Path, run: int,
                  write: Callable[[EventStore], None]) -> Path:
    """A copy of ``db`` at ``out``, ``write`` applied to it, the whole database audited:
    written as ``.{name}.partial`` beside ``out`` and renamed once audited clean (a killed
    replay leaves no ``out``; an existing ``out`` is never overwritten)."""
    from replay.games.game_streams import open_store  # noqa: PLC0415
    from replay.leagues.audit import audit_all  # noqa: PLC0415 - writers only here

    if out.exists():
        raise RinklogError(f"--out {out}: the file exists; rinklog odds --replay writes a new "
                           "database only")
    if run < 1:
        raise RinklogError(f"--replay must be a run 1 or more, got {run}")
    partial = out.with_name(f".{out.name}.partial")
    partial.unlink(missing_ok=True)  # a killed replay's leftover
    try:
        with sqlite3.connect(db) as source, sqlite3.connect(partial) as copy:
            source.backup(copy)
        source.close()
        copy.close()
        with open_store(partial) as store:
            write(store)
            bad = [r for r in audit_all(store, odds_run=True) if not r.ok]
            if bad:
                f = bad[0]
                why = (f"{f.failure.check} check at event {f.failure.seq}: expected "
                       f"{f.failure.expected}" if f.failure else "?")
                raise RinklogError(f"the replayed run fails its audit at {f.game_id} "
                                   f"({why}): please report it as a rinklog bug")
        if out.exists():
            raise RinklogError(f"--out {out}: the file appeared meanwhile; nothing written")
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    return out


def replay_run(db: str | Path, stored: StoredSeason, seed: str, run: int, out: Path,
               league_format: PlayoffFormat | None) -> Path:
    """Write run ``run`` as a database at ``out`` (:func:`write_audited`): a copy of ``db``
    with an OddsRunReplayed in the season stream, then the rest of the regular season
    (``rinklog season``'s writer), the postseason (``rinklog playoffs``') and the lottery
    (``rinklog lottery --draw``'s), each game audited before it is stored, the whole
    database audited at the end."""
    from replay.leagues.playoffs import play_postseason  # noqa: PLC0415 - writers only here
    from replay.leagues.postseason import draw_lottery  # noqa: PLC0415
    from replay.leagues.runner import run_season  # noqa: PLC0415

    season = stored.odds
    created = season.created
    season_id = created.season_id
    if stored.in_progress:
        raise RinklogError(f"season {season_id} has games begun at the table and not ended "
                           f"({', '.join(map(str, stored.in_progress))}): finish them before "
                           "replaying an odds run")

    def write(store: EventStore) -> None:
        SeasonStream(store, season_id, stored.version).append([OddsRunReplayed(
            seed=seed, run=run, run_seed=odds_run_seed(season_id, seed, run))])
        setup = season_game_setup(created, season.teams, season.charts, season.habits)
        if season.remaining:
            run_season(store, setup, league=created.league,
                       schedule=[tuple(f) for f in created.schedule], seed=created.seed,
                       divisions=[tuple(d) for d in created.divisions],
                       league_file=None if created.league_hash is msgspec.UNSET
                       else store.get_blob(created.league_hash))  # the league it keeps
        if season.postseason or league_format is not None:
            play_postseason(store, season_id, league_format)
        view = lottery_view(row.event for row in store.read(season_id))
        if not view.opened and _lottery_teams(store, season_id):
            draw_lottery(store, season_id)

    return write_audited(db, out, run, write)


def _lottery_teams(store: EventStore, season_id: str) -> bool:
    """Whether the season's lottery has teams (not every team in its playoffs)."""
    from engine.league.lottery import lottery_entries  # noqa: PLC0415
    from replay.leagues.postseason import final_standings, playoff_teams  # noqa: PLC0415

    table = final_standings(store, season_id)
    events = [row.event for row in store.read(season_id)]
    return bool(lottery_entries(table, playoff_teams(events, table)))
