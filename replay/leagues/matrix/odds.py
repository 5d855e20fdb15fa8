"""Odds of a Matrix Hockey season (issue 23, docs/odds.md "Matrix Hockey seasons").

The season stream as stored is read once (:func:`matrix_odds_season`) and sent to each
worker, which folds it once (:func:`init_matrix_odds`); run ``r`` (:func:`matrix_odds_task`)
then plays the weeks not played yet and closes the season, in memory, with the referee of
engine/matrix/referee.py: its dice are ``SeededDie(odds_run_seed(season, seed, r),
season)`` (numbered on from the season's dice, as the season's own would be), and the
picks a manager has not sent for a week are the demo managers' (replay/systems/matrix/
demo.py, with no ONR: a run asks what the table does, not who forgets to mail), seeded
with the run seed too. Picks already sent for a week not played are kept. A run keeps
results only (points, final places, who goes up and down, the cups' rounds and winners);
its events are folded and dropped, never encoded, hashed or stored. The runs go through
:func:`replay.leagues.odds.run_crew` (``open_crew`` workers, counted in run order): the
same odds with any number of workers.

``--replay R --out DB`` writes run R as a database (:func:`replay_matrix_run`);
``--record`` appends the counts to the season stream as a MatrixOddsRecorded
(:func:`record_matrix_odds`), which the audit checks adds up (engine/matrix/odds_check.py)
and the season's page draws (replay/reports/matrix/site.py). ``rinklog odds`` (the shared
command, replay/cli/odds.py) reaches all of it through the Matrix kit (:data:`ODDS`,
``SeasonKit.odds``), never by importing this package.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.matrix.dice import SeededDie
from engine.matrix.odds_check import check_odds_record, odds_places
from engine.matrix.recheck import fold
from engine.matrix.referee import close_season, play_week
from engine.matrix.seasons import season_records
from engine.matrix.state import WEEKS, SeasonState, evolve
from engine.matrix.wg import GROUP_ROUNDS
from events.errors import RinklogError
from events.matrix import MatrixOddsRecorded, MatrixOddsTeam, OddsRunReplayed, PicksSent
from events.plurals import counted
from events.store import EventStore
from replay.leagues.matrix.demo import demo_picks
from replay.leagues.matrix.odds_leaves import audit_records, leaves_wrong, matrix_leaf
from replay.leagues.naming import odds_run_seed
from replay.leagues.odds import Progress, percentile, run_crew, write_audited
from replay.leagues.odds_leaves import leaves_root
from replay.leagues.season_odds import SeasonOdds
from replay.workers import Cluster

__all__ = ["ODDS", "MatrixOddsReport", "MatrixOddsSeason", "MatrixRunResult",
           "init_matrix_odds", "matrix_odds", "matrix_odds_season", "matrix_odds_task",
           "matrix_report", "record_matrix_odds", "replay_matrix_run", "run_matrix_odds"]


@dataclass(frozen=True)
class MatrixOddsSeason:
    """What a worker is sent: the season stream's events as stored (``--record`` appends
    only onto as many)."""

    season_id: str
    events: tuple[Any, ...]


def matrix_odds_season(store: EventStore, season_id: str) -> MatrixOddsSeason:
    return MatrixOddsSeason(season_id, tuple(row.event for row in store.read(season_id)))


@dataclass(frozen=True)
class MatrixRunResult:
    """What one run keeps."""

    run: int
    points: dict[str, int]  # championship points (3.1.4)
    places: dict[str, int]  # final place in its division, 1 first (3.1.5)
    promoted: tuple[str, ...]  # 3.1.6
    relegated: tuple[str, ...]
    kdh_rounds: tuple[tuple[str, ...], ...]  # per KDH round, the teams in it (game or bye)
    kdh_winner: str  # "" without a KDH
    wg_rounds: tuple[tuple[str, ...], ...]  # the WG's semi-finalists, then its finalists
    wg_winner: str  # "" without a WG
    run_seed: str = ""  # odds_run_seed(season, odds seed, run): its record's leaf keeps it


_base: SeasonState | None = None
_seed = ""


def init_matrix_odds(season: MatrixOddsSeason, seed: str) -> None:
    """A worker's start: the season folded once, and the odds seed."""
    global _base, _seed
    _base, _seed = fold(season.events), seed


def matrix_odds_task(run: int) -> MatrixRunResult:
    """A worker's job: run ``run``."""
    assert _base is not None
    return play_matrix_run(_base, _seed, run)


def _picks(state: SeasonState, week: int, run_seed: str) -> list[PicksSent]:
    """The week's picks as a run plays them: those sent, and the demo managers' for every
    game a team has sent none for (a dummy's the referee's, 3.1.3)."""
    out = []
    for sent in demo_picks(state, week, run_seed, onr_rate=0.0):
        have = state.picks.get((week, sent.team), [])
        known = {p.competition for p in have}
        more = [p for p in sent.picks if p.competition not in known]
        if more:
            out.append(PicksSent(week, sent.team, [*have, *more]))
    return out


def play_matrix_run(base: SeasonState, seed: str, run: int) -> MatrixRunResult:
    """Run ``run``: the weeks left and the close, from ``base`` (not changed)."""
    sid = base.season_id
    run_seed = odds_run_seed(sid, seed, run)
    state = base.copy()
    if state.closed is None:
        die = SeededDie(run_seed, sid)
        for week in range(1, WEEKS + 1):
            if week in state.weeks_played:
                continue
            for sent in _picks(state, week, run_seed):
                evolve(state, sent)
            for event in play_week(state, week, die):
                evolve(state, event)
        for event in close_season(state, die):
            evolve(state, event)
    closed = state.closed
    assert closed is not None
    table = season_records(state)
    places = {t: i for d in state.divisions
              for i, t in enumerate(state.final_order[d.id], start=1)}
    kdh = tuple(tuple(t for game in c.games for t in game) + tuple(c.byes)
                for (comp, _), c in sorted(state.cup_rounds.items()) if comp == "kdh")
    # the WG's knock-out rounds: the semi-finals' two games, then the final (the game for
    # third place, played beside it, is not a round of the winner's path)
    wg = tuple(tuple(t for game in (c.games if number == GROUP_ROUNDS + 1 else c.games[:1])
                     for t in game)
               for (comp, number), c in sorted(state.cup_rounds.items()) if comp == "wg")
    return MatrixRunResult(run, {t: table[t].points for t in state.teams}, places,
                           tuple(t for t, _, _ in closed.promoted),
                           tuple(t for t, _, _ in closed.relegated), kdh, closed.kdh_winner,
                           wg, closed.wg_order[0] if closed.wg_order else "", run_seed)


def run_matrix_odds(season: MatrixOddsSeason, seed: str, runs: int, workers: int = 1,
                    cluster: Cluster | None = None, progress: Progress | None = None
                    ) -> list[MatrixRunResult]:
    return run_crew(init_matrix_odds, matrix_odds_task, (season, seed), runs, workers,
                    cluster, progress, result=MatrixRunResult)


@dataclass(frozen=True)
class MatrixTeamOdds:
    """One team's counts over the runs."""

    team: str
    name: str
    division: str
    points_total: int
    points_p10: int
    points_p90: int
    places: list[int]  # runs it finished k+1th of its division
    promoted: int
    relegated: int
    kdh_rounds: list[int]  # runs it was in KDH round k+1
    kdh: int  # runs it won the KDH
    wg_rounds: list[int]  # runs it was in the WG semi-finals, the final
    wg: int  # runs it won the WG


@dataclass(frozen=True)
class MatrixOddsReport:
    season: str
    seed: str
    runs: int
    weeks_played: int
    weeks_remaining: int
    promotion_places: int
    relegation_places: int
    competitions: tuple[str, ...]
    teams: list[MatrixTeamOdds]
    results: list[MatrixRunResult]

    def team_json(self, t: MatrixTeamOdds) -> dict[str, Any]:
        n = self.runs
        kdh, wg = "kdh" in self.competitions, "wg" in self.competitions
        return {"team": t.team, "name": t.name, "division": t.division,
                "points_mean": round(t.points_total / n, 3), "points_p10": t.points_p10,
                "points_p90": t.points_p90, "places": [c / n for c in t.places],
                "promotion": t.promoted / n, "relegation": t.relegated / n,
                "kdh": t.kdh / n if kdh else None, "kdh_rounds": [c / n for c in t.kdh_rounds],
                "wg": t.wg / n if wg else None, "wg_rounds": [c / n for c in t.wg_rounds]}

    def to_json(self, per_run: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "season": self.season, "system": "matrix", "runs": self.runs, "seed": self.seed,
            "weeks_played": self.weeks_played, "weeks_remaining": self.weeks_remaining,
            "promotion_places": self.promotion_places,
            "relegation_places": self.relegation_places,
            "teams": [self.team_json(t) for t in self.teams]}
        if per_run:
            out["runs"] = [{"run": r.run, "points": r.points, "promoted": list(r.promoted),
                            "relegated": list(r.relegated), "kdh": r.kdh_winner or None,
                            "wg": r.wg_winner or None} for r in self.results]
        return out

    def csv_rows(self) -> list[dict[str, Any]]:
        """One row a team: its JSON with each list spread over numbered columns."""
        lists = ("places", "kdh_rounds", "wg_rounds")
        rows = []
        for t in self.teams:
            line = self.team_json(t)
            rows.append({**{k: v for k, v in line.items() if k not in lists},
                         **{f"{key[:-1]}_{k}": p for key in lists
                            for k, p in enumerate(line[key], 1)}})
        return rows

    def lines(self) -> list[str]:
        """The printed odds: a table a division, Elite first."""
        out = [f"Odds of Matrix Hockey season {self.season}: {counted(self.runs, 'run')} (seed "
               f"{self.seed!r}), {counted(self.weeks_played, 'week')} played, {self.weeks_remaining} "
               f"to play; {self.promotion_places} go up, {self.relegation_places} down"]
        kdh, wg = "kdh" in self.competitions, "wg" in self.competitions
        division = ""
        for t in self.teams:
            line = self.team_json(t)
            if t.division != division:
                division = t.division
                out.append(f"\n{division}\n{'Team':<22} {'PTS':>6} {'p10-p90':>8} "
                           f"{'1st%':>5} {'Up%':>5} {'Down%':>5}"
                           + (f" {'KDH%':>5}" if kdh else "") + (f" {'WG%':>5}" if wg else ""))
            out.append(f"{t.team:<22} {line['points_mean']:>6.1f} "
                       f"{t.points_p10:>3}-{t.points_p90:<4} {_percent(line['places'][0]):>5} "
                       f"{_percent(line['promotion']):>5} {_percent(line['relegation']):>5}"
                       + (f" {_percent(line['kdh']):>5}" if kdh else "")
                       + (f" {_percent(line['wg']):>5}" if wg else ""))
        return out


def _percent(p: float | None) -> str:
    return "-" if p is None else f"{100 * p:5.1f}"


def matrix_report(season: MatrixOddsSeason, seed: str, results: list[MatrixRunResult]
                  ) -> MatrixOddsReport:
    """The counts of the runs; teams by division (Elite first), then mean points."""
    state = fold(season.events)
    n_kdh = max((len(r.kdh_rounds) for r in results), default=0)
    n_wg = max((len(r.wg_rounds) for r in results), default=0)
    teams = []
    for d in state.divisions:
        rows = []
        for team in d.teams:
            points = [r.points[team] for r in results]
            rows.append(MatrixTeamOdds(
                team, state.teams[team].name, d.id, sum(points), percentile(points, 0.1),
                percentile(points, 0.9),
                [sum(r.places[team] == k for r in results) for k in range(1, len(d.teams) + 1)],
                sum(team in r.promoted for r in results),
                sum(team in r.relegated for r in results),
                [sum(k < len(r.kdh_rounds) and team in r.kdh_rounds[k] for r in results)
                 for k in range(n_kdh)],
                sum(r.kdh_winner == team for r in results),
                [sum(k < len(r.wg_rounds) and team in r.wg_rounds[k] for r in results)
                 for k in range(n_wg)],
                sum(r.wg_winner == team for r in results)))
        rows.sort(key=lambda t: (-t.points_total, -t.promoted, t.relegated, t.team))
        teams += rows
    places = odds_places(state)
    up, down = sum(places.up.values()), sum(places.down.values())
    return MatrixOddsReport(season.season_id, seed, len(results), len(state.weeks_played),
                            WEEKS - len(state.weeks_played), up, down,
                            tuple(state.created.competitions), teams, results)


def odds_record(report: MatrixOddsReport) -> MatrixOddsRecorded:
    """The report as the season stream records it (``--record``): the counts, and the
    runs as leaves under their root (issue 33)."""
    teams = sorted(t.team for t in report.teams)
    leaves = [matrix_leaf(r, teams) for r in report.results]
    return MatrixOddsRecorded(
        report.seed, report.runs, report.weeks_played, report.weeks_remaining,
        report.promotion_places, report.relegation_places, list(report.competitions),
        [MatrixOddsTeam(t.team, t.division, t.points_total, t.points_p10, t.points_p90,
                        list(t.places), t.promoted, t.relegated, t.kdh, t.wg)
         for t in report.teams], root=leaves_root(leaves), leaves=leaves)


def record_matrix_odds(store: EventStore, season: MatrixOddsSeason,
                       report: MatrixOddsReport) -> None:
    """``--record``: the odds appended to the season stream as a MatrixOddsRecorded, onto
    the events they were read from (a season that changed while the odds ran refuses
    them), checked as the audit will check them."""
    import replay.leagues.matrix.season as library  # noqa: PLC0415 - the writer only here

    event = odds_record(report)
    state = fold(season.events)
    if state.closed is not None:
        raise RinklogError(f"season {season.season_id} is closed: its odds are its close, "
                           "nothing to record")
    try:
        check_odds_record(state, event, runs_required=True)
        wrong = leaves_wrong(state, event)  # as the audit holds them (issue 33)
        if wrong is not None:
            raise RinklogError(f"its runs: expected {wrong}")
    except RinklogError as err:
        raise RinklogError(f"season {season.season_id}: odds not recorded: {err}") from None
    now = library.Season(season.season_id, state, list(season.events), len(season.events))
    library.record(store, now, season.season_id, [event])  # SeasonChanged if it moved on


def replay_matrix_run(db: str | Path, season_id: str, seed: str, run: int, out: Path) -> Path:
    """Write run ``run`` as a database at ``out`` (``write_audited``: a copy, audited whole,
    renamed once clean): an OddsRunReplayed in the season stream, then each week left as
    ``rinklog matrix picks`` and ``play`` store it (the run's picks, the referee's events
    with the run seed's dice), then the close (``rinklog matrix close``'s events; the next
    season is not opened). The audit holds the dice after the OddsRunReplayed to the run
    seed (engine/matrix/recheck.py)."""
    import replay.leagues.matrix.season as library  # noqa: PLC0415 - the writer only here

    def write(store: EventStore) -> None:
        season = library.load(store, season_id)
        if season.state.closed is not None:
            raise RinklogError(f"season {season_id} is closed: every run is its close, "
                               "nothing to replay")
        if season.state.week:
            raise RinklogError(f"season {season_id}: week {season.state.week} is being played")
        run_seed = odds_run_seed(season_id, seed, run)
        library.record(store, season, season_id, [OddsRunReplayed(seed, run, run_seed)])
        die = SeededDie(run_seed, season_id)
        for week in range(1, WEEKS + 1):
            if week in season.state.weeks_played:
                continue
            season = library.load(store, season_id)
            sent = _picks(season.state, week, run_seed)
            if sent:
                library.record(store, season, season_id, list(sent))
                season = library.load(store, season_id)
            library.record(store, season, season_id, play_week(season.state, week, die))
        season = library.load(store, season_id)
        library.record(store, season, season_id, close_season(season.state, die))

    return write_audited(db, out, run, write)


def matrix_odds(season: MatrixOddsSeason, seed: str, runs: int, workers: int = 1,
                cluster: Cluster | None = None, progress: Progress | None = None
                ) -> MatrixOddsReport:
    """Runs 1..``runs`` (:func:`run_matrix_odds`), counted (:func:`matrix_report`)."""
    return matrix_report(season, seed,
                         run_matrix_odds(season, seed, runs, workers, cluster, progress))


ODDS = SeasonOdds(read=matrix_odds_season, report=matrix_odds, replay=replay_matrix_run,
                  record=record_matrix_odds,
                  audit=functools.partial(audit_records, play=play_matrix_run))
"""What the Matrix kit gives ``rinklog odds`` (``SeasonKit.odds``)."""
