"""CLI command ``playoffs`` (issue 22): play a stored season's postseason.

A module-level command of :data:`app` (the root, replay/cli/app.py, takes it in); the
library call is :func:`replay.leagues.playoffs.run_playoffs`, with ``--ready``
:func:`replay.leagues.playoffs.open_postseason`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from events.plurals import counted
from replay.cli.common import (
    ClusterOption,
    DbOption,
    InsecureClusterOption,
    TlsCaOption,
    TlsCertOption,
    TlsKeyOption,
    dump,
    workers_or_cluster,
)

if TYPE_CHECKING:
    from replay.leagues.playoffs import PostseasonRun, WaveGame

app = typer.Typer(rich_markup_mode=None)
"""The postseason's play command; the root app takes it in."""


@app.command()
def playoffs(
    season_id: Annotated[str, typer.Argument(help="the season id (rinklog season prints it)")],
    workers: Annotated[int | None, typer.Option(
        "--workers", help="worker processes (the games of a round's wave in parallel; "
        "default 2)")] = None,
    cluster: ClusterOption = None, tls_ca_file: TlsCaOption = None,
    tls_cert: TlsCertOption = None, tls_key: TlsKeyOption = None,
    insecure_cluster: InsecureClusterOption = False,
    league: Annotated[str | None, typer.Option(
        "--league", help="optional: the league folder or bundled name whose [playoffs] "
        "table the postseason plays (default: the league the season stored; a season "
        "stored before seasons kept it: its bundled league, by name); refused if it "
        "differs from the stored one")] = None,
    ready: Annotated[bool, typer.Option(
        "--ready", help="play no game: open the playoffs if they are not open yet and list "
        "the games ready to play (rinklog play --season S --game ID plays one at the "
        "table)")] = False,
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="the run's summary as JSON")] = False,
) -> None:
    """Play a season's postseason once its regular season is complete: the league's
    [playoffs] format seeded from the final standings, every playoff game a game stream of
    the season; stop and rerun to resume. The same seed gives the same postseason with
    any number of workers. A game played at the table is never played here: its result is
    recorded in its turn once it has ended, and the run stops at it until then.

    Example: rinklog playoffs dicedemo-2026 --db season.db
    Example: rinklog playoffs dicedemo-2026 --ready --db season.db
    """
    from replay.games.game_streams import open_store
    from replay.leagues.playoffs import open_postseason, run_playoffs
    workers, cluster = workers_or_cluster(workers, cluster, tls=(tls_ca_file, tls_cert, tls_key),
                                          insecure=insecure_cluster)
    with open_store(db) as store:
        if ready:
            _print_ready(season_id, open_postseason(store, season_id, league), as_json)
            return
        try:
            run = run_playoffs(store, season_id, league, workers=workers, cluster=cluster)
        except KeyboardInterrupt:
            typer.echo("rinklog: interrupted: the playoff games stored are kept; run the "
                       "same command again to play on", err=True)
            raise typer.Exit(130) from None
    _print_run(run, db, as_json)


def _print_ready(season_id: str, games: list[WaveGame], as_json: bool) -> None:
    if as_json:
        dump({"season": season_id, "ready": [
            {"game": g.game_id, "round": g.round, "series": g.slot, "number": g.game,
             "home": g.home, "away": g.away, "status": g.status} for g in games]})
        return
    if not games:
        typer.echo(f"season {season_id}: no playoff game left to play")
        return
    typer.echo(f"season {season_id}: playoff games ready to play (rinklog play --season "
               f"{season_id} --game ID)")
    for g in games:
        typer.echo(f"  {g.game_id}  round {g.round}, series {g.slot}, game {g.game}: "
                   f"{g.away} at {g.home}" + ("" if g.status == "ready" else f" ({g.status})"))


def _print_run(run: PostseasonRun, db: str, as_json: bool) -> None:
    summary = {"season": run.season_id, "champion": run.champion, "played": run.played,
               "games": run.stored, "seconds": round(run.seconds, 2),
               "overplays": list(run.overplays), "waiting": run.waiting or None}
    if as_json:
        dump(summary)
        return
    typer.echo(f"season {run.season_id}: postseason {counted(run.played, 'game')} played, "
               f"{counted(run.stored, 'playoff game')} stored; champion "
               f"{run.champion or 'not decided yet'}")
    if run.waiting:
        typer.echo(f"waiting for {run.waiting}, being played at the table (rinklog play "
                   f"--resume {run.waiting} --db {db}); run again once it has ended")
    if run.overplays:  # R-post-27c: every dressed goalie had used his series limit
        typer.echo(f"rule 27 overplays (no goalie left within his series limit): "
                   f"{', '.join(run.overplays)}")
