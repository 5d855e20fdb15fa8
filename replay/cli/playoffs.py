"""CLI command ``playoffs`` (issue 22): play a stored season's postseason.

A module-level command of :data:`app` (the root, replay/cli/app.py, takes it in); the
library call is :func:`replay.leagues.playoffs.play_postseason`.
"""

from __future__ import annotations

from typing import Annotated

import typer

from events.errors import RinklogError
from events.league import SeasonCreated
from replay.cli.common import CliError, DbOption, dump

app = typer.Typer(rich_markup_mode=None)
"""The postseason's play command; the root app takes it in."""


@app.command()
def playoffs(
    season_id: Annotated[str, typer.Argument(help="the season id (rinklog season prints it)")],
    workers: Annotated[int, typer.Option(
        "--workers", help="worker processes (the games of a round's wave in parallel)")] = 2,
    league: Annotated[str | None, typer.Option(
        "--league", help="the league folder or bundled name whose [playoffs] table the "
        "postseason plays (default: the season's league, by name)")] = None,
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="the run's summary as JSON")] = False,
) -> None:
    """Play a season's postseason once its regular season is complete: the league's
    [playoffs] format seeded from the final standings, every playoff game a game stream of
    the season; stop and rerun to resume. The same seed gives the same postseason with
    any number of workers.

    Example: rinklog playoffs dicedemo-2026 --db season.db
    """
    from replay.leagues.league import load_league
    from replay.leagues.playoffs import play_postseason
    from replay.tooling.game_streams import open_store
    if workers < 1:
        raise CliError(f"--workers must be at least 1, got {workers}")
    with open_store(db) as store:
        if not store.exists(season_id) or store.info(season_id).kind != "season":
            raise RinklogError(f"no season {season_id!r} in {store.path}")
        created = store.read(season_id, 1, 1)[0].event
        assert isinstance(created, SeasonCreated)
        fmt = load_league(league or created.league).playoffs
        try:
            run = play_postseason(store, season_id, fmt, workers=workers)
        except KeyboardInterrupt:
            typer.echo("rinklog: interrupted: the playoff games stored are kept; run the "
                       "same command again to play on", err=True)
            raise typer.Exit(130) from None
    summary = {"season": run.season_id, "champion": run.champion, "played": run.played,
               "games": run.stored, "seconds": round(run.seconds, 2),
               "overplays": list(run.overplays)}
    if as_json:
        dump(summary)
    else:
        typer.echo(f"season {run.season_id}: postseason {run.played} games played, "
                   f"{run.stored} playoff games stored; champion {run.champion}")
        if run.overplays:  # R-post-27c: every dressed goalie had used his series limit
            typer.echo(f"rule 27 overplays (no goalie left within his series limit): "
                       f"{', '.join(run.overplays)}")
