"""CLI command ``odds`` (issue 23, docs/odds.md): a stored season's odds by Monte Carlo,
a run replayed into a database of its own, odds recorded in the season.

A module-level command of :data:`app` (the root, replay/cli/app.py, takes it in); the
library is replay/leagues/odds.py. A plain ``rinklog odds`` only reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from events.plurals import counted
from replay.cli.common import (
    CliError,
    ClusterOption,
    CsvOption,
    DbOption,
    InsecureClusterOption,
    TlsCaOption,
    TlsCertOption,
    TlsKeyOption,
    dump,
    dump_csv,
    one_format,
    out,
    progress_bar,
    read_store,
    system_parts,
    workers_or_cluster,
)
from replay.cluster_access import Cluster

app = typer.Typer(rich_markup_mode=None)
"""The odds command; the root app takes it in."""


def _percent(p: float | None) -> str:
    return "-" if p is None else f"{100 * p:5.1f}"


@app.command()
def odds(
    ctx: typer.Context,
    season_id: Annotated[str, typer.Argument(help="the season id (rinklog season prints it)")],
    runs: Annotated[int, typer.Option(
        "--runs", help="how many times to play the rest of the season and its "
        "postseason")] = 1000,
    seed: Annotated[str, typer.Option(
        "--seed", help="odds seed: run r's dice derive from (season, seed, r)")] = "1",
    workers: Annotated[int | None, typer.Option(
        "--workers", help="local worker processes (default 2)")] = None,
    cluster: ClusterOption = None, tls_ca_file: TlsCaOption = None,
    tls_cert: TlsCertOption = None, tls_key: TlsKeyOption = None,
    insecure_cluster: InsecureClusterOption = False,
    league: Annotated[str | None, typer.Option(
        "--league", help="optional: the league folder or bundled name whose [playoffs] "
        "table the postseason plays (default: the league the season stored; a season "
        "stored before seasons kept it: its bundled league, by name); refused if it "
        "differs from the stored one")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="the odds as JSON")] = False,
    as_csv: CsvOption = False,
    per_run: Annotated[bool, typer.Option(
        "--per-run", help="with --json: every run's points and champion too")] = False,
    record: Annotated[bool, typer.Option(
        "--record", help="append the odds to the season's stream (OddsRecorded; a Matrix "
        "season's: matrix.OddsRecorded), for its pages' odds over the season; without it "
        "odds only reads")] = False,
    replay: Annotated[int | None, typer.Option(
        "--replay", help="write run R as a database of its own (with --out): the season as "
        "stored plus that run's games, every event, audited")] = None,
    out_db: Annotated[Path | None, typer.Option(
        "--out", help="with --replay: the new database (never overwritten)")] = None,
    db: DbOption = "rinklog.db",
) -> None:
    """Season odds by Monte Carlo: play the rest of the stored season and its postseason
    (the league's [playoffs], the draft lottery of rule 31) many times and report each
    team's points (mean, 10th and 90th percentile) and its chances to make the playoffs,
    go through each round, win the title and draw each lottery pick. The same season,
    seed and runs give the same odds with any number of workers. A Matrix Hockey season:
    the weeks left and the close, each team's final place, promotion, relegation and cups.

    Example: rinklog odds dicedemo-2026 --runs 1000 --seed 7 --db season.db
    """
    _check_options(as_json, as_csv, replay, out_db, runs, record)
    workers, cluster = workers_or_cluster(workers, cluster, tls=(tls_ca_file, tls_cert, tls_key),
                                          insecure=insecure_cluster)
    from replay.leagues.odds import record_odds, report_of, run_odds

    with read_store(db) as store:
        # a season system's own season stream (Matrix Hockey): its own odds
        system_odds = system_parts(ctx).season_odds().get(store.info(season_id).system) \
            if store.exists(season_id) else None
        if system_odds is not None:
            season = system_odds.read(store, season_id)
        else:
            stored = _league_odds(store, season_id, league)
    if system_odds is not None:
        _system_odds(db, system_odds, season_id, season,
                     _Asked(seed, runs, workers, cluster, replay, out_db, record),
                     (as_json, as_csv, per_run))
        return
    if replay is not None:
        assert out_db is not None
        _replay_run(db, season_id, stored, seed, replay, out_db)
        return
    with _bar(runs) as progress:
        results = run_odds(stored.odds, seed, runs, workers, cluster, progress)
    report = report_of(stored, seed, results)
    if record:
        from replay.games.game_streams import open_store  # noqa: PLC0415

        with open_store(db) as store:
            record_odds(store, stored, report)
    if as_json:
        dump(report.to_json(per_run))
        return
    if as_csv:
        _dump_csv(report)
        return
    _print(report, record)


def _league_odds(store: Any, season_id: str, league: str | None) -> Any:
    """A league season read for odds, its ``[playoffs]`` the league it stored (``--league``
    refused if it changes that league; replay/leagues/season_league.py)."""
    from replay.leagues.odds import odds_season
    from replay.leagues.season_league import check_given, season_playoffs
    from replay.leagues.stored_seasons import load_season

    if league is not None and store.exists(season_id):
        check_given(store, load_season(store, season_id).created, league)
    return odds_season(store, season_id, lambda created: season_playoffs(store, created, league))


MOST_RUNS = 1_000_000


def _replay_run(db: str, season_id: str, stored: Any, seed: str, run: int,
                out_db: Path) -> None:
    """``--replay R --out DB``: a league season's odds run R written as a database."""
    from replay.leagues.odds import replay_run

    fmt = None if stored.odds.postseason else stored.odds.playoff_format
    written = replay_run(db, stored, seed, run, out_db, fmt)
    out(f"season {season_id}: odds run {run} (seed {seed!r}) written to {written}, "
        "audited clean")


def _check_options(as_json: bool, as_csv: bool, replay: int | None, out_db: Path | None,
                   runs: int, record: bool) -> None:
    one_format(as_json, as_csv)
    if replay is not None and out_db is None:
        raise CliError("--replay needs --out DB (the database to write the run to)")
    if out_db is not None and replay is None:
        raise CliError("--out goes with --replay R (the run to write)")
    if replay is None and runs < 1:
        raise CliError(f"--runs must be at least 1, got {runs}")
    if runs > MOST_RUNS:  # past it a run never ends (and past 2**63 no count is stored)
        raise CliError(f"--runs must be at most {MOST_RUNS:,}, got {runs}")
    if replay is not None and not 1 <= replay <= MOST_RUNS:  # runs are 1..--runs
        raise CliError(f"--replay must be a run 1 to {MOST_RUNS:,}, got {replay}")
    if out_db is not None and out_db.exists():
        raise CliError(f"--out {out_db}: the file exists; rinklog odds --replay writes a new "
                       "database only")
    if record and replay is not None:
        raise CliError("give --record or --replay, not both")


def _dump_csv(report: Any) -> None:
    """One row a team: its figures, a column for each round and each pick."""
    rows = []
    for t in report.teams:
        line = report.team_json(t)
        rows.append({**{k: v for k, v in line.items() if k not in ("rounds", "picks")},
                     **{f"round_{k}": p for k, p in enumerate(line["rounds"], 1)},
                     **{f"pick_{k}": p for k, p in enumerate(line["picks"], 1)}})
    dump_csv(rows)


@dataclass(frozen=True)
class _Asked:
    """What ``rinklog odds`` was asked to do with a season system's season."""

    seed: str
    runs: int
    workers: int
    cluster: Cluster | None
    replay: int | None
    out_db: Path | None
    record: bool


def _system_odds(db: str, system_odds: Any, season_id: str, season: Any, asked: _Asked,
                 formats: tuple[bool, bool, bool]) -> None:
    """A season system's odds (Matrix Hockey), through its kit: a run replayed as a
    database, or the odds of many runs (recorded, if asked) printed."""
    if asked.replay is not None:
        assert asked.out_db is not None
        written = system_odds.replay(db, season_id, asked.seed, asked.replay, asked.out_db)
        out(f"season {season_id}: odds run {asked.replay} (seed {asked.seed!r}) "
            f"written to {written}, audited clean")
        return
    with _bar(asked.runs) as progress:
        report = system_odds.report(season, asked.seed, asked.runs, asked.workers,
                                    asked.cluster, progress)
    if asked.record:
        _record_system(db, system_odds, season, report)
    _print_system(report, *formats, asked.record)


def _record_system(db: str, system_odds, season, report) -> None:  # noqa: ANN001 - the kit's
    """``--record`` of a season system's odds: its odds append them (SeasonOdds.record)."""
    from replay.games.game_streams import open_store  # noqa: PLC0415

    with open_store(db) as store:
        system_odds.record(store, season, report)


def _print_system(report, as_json: bool, as_csv: bool, per_run: bool,  # noqa: ANN001
                  recorded: bool) -> None:
    """A season system's odds report as JSON, CSV or its own lines."""
    if as_json:
        dump(report.to_json(per_run))
    elif as_csv:
        dump_csv(report.csv_rows())
    else:
        for line in report.lines():
            out(line)
        if recorded:
            out(f"recorded in season {report.season}")


@contextmanager
def _bar(runs: int) -> Iterator[Callable[[int, int], None]]:
    """Progress on stderr (a bar, on a terminal only), as ``rinklog season``'s."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    columns = (TextColumn("odds"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with progress_bar(*columns, transient=True) as bar:
        task = bar.add_task("runs", total=runs)
        yield lambda done, _total: bar.update(task, completed=done)


def _print(report, recorded: bool) -> None:  # noqa: ANN001 - an OddsReport
    out(f"Odds of season {report.season}: {counted(report.runs, 'run')} (seed {report.seed!r}), "
        f"{counted(report.games_played, 'game')} played, {report.games_remaining} to play")
    rounds = max((len(t.rounds) for t in report.teams), default=0)
    picks = max((len(t.picks) for t in report.teams), default=0)
    head = (f"{'Team':<6} {'PTS':>6} {'p10-p90':>8} {'PO%':>5} "
            + "".join(f"{'R' + str(k) + '%':>6}" for k in range(1, rounds + 1))
            + f" {'Cup%':>5}" + "".join(f"{'#' + str(k) + '%':>6}" for k in range(1, picks + 1)))
    out(head)
    for t in report.teams:
        line = report.team_json(t)
        out(f"{t.team:<6} {line['points_mean']:>6.1f} {t.points_p10:>3}-{t.points_p90:<4} "
            f"{_percent(line['playoffs']):>5} "
            + "".join(f"{_percent(p):>6}" for p in line["rounds"])
            + f" {_percent(line['champion']):>5}"
            + "".join(f"{_percent(p):>6}" for p in line["picks"]))
    if recorded:
        out(f"recorded in season {report.season} (OddsRecorded)")
