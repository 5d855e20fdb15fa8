"""``rinklog report``: a game's printable page, its shift chart, or a season's site.

``rinklog serve``: Datasette over the database. Module-level commands of :data:`app`,
which the root (replay/cli/app.py) takes in. Thin: it opens the store read-only
(``read_store``: a report never writes to the database) and makes one library call
(replay/reports/pages.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from events.plurals import counted
from replay.cli.common import CliError, DbOption, out, progress_bar, read_store, system_parts

app = typer.Typer(rich_markup_mode=None)
"""The report commands; the root app takes them in (``add_typer`` without a name)."""


@app.command("report")
def report(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Argument(help="game id (see rinklog games --ids)")] = None,
    season: Annotated[str | None, typer.Option(
        "--season", help="a season id instead of a game: write its site into the folder -o "
        "(a league season of rinklog season, or a Matrix Hockey season)")] = None,
    output: Annotated[Path | None, typer.Option(
        "-o", "--output", help="the page to write (a folder for --season), in a folder "
        "that exists")] = None,
    shift_chart: Annotated[bool, typer.Option(
        "--shift-chart", help="write only the game's shift chart, as a page of its own")] = False,
    force: Annotated[bool, typer.Option(
        "--force", help="overwrite an existing file (or a folder that is not empty)")] = False,
    db: DbOption = "rinklog.db",
) -> None:
    """Write a printable HTML page: a game's summary (score by period, scoring and penalty
    summaries, shots, goalies, box score, shift chart, play-by-play), or with --season a
    season's site (standings, leaders, team, player and game pages, plots; its pages
    share one style sheet, and a progress bar shows on a terminal). Self-contained: no
    network needed to view it; prints cleanly.

    Example: rinklog report HFX-QUE-2026 -o game.html
    (a season: rinklog report --season demo-2026 -o site --db season.db)
    """
    from replay.reports import write_game_report, write_season_report
    if (game is None) == (season is None):
        raise CliError("give a GAME id or --season SEASON (one of them)")
    if output is None:
        raise CliError("-o PATH: where to write the " + ("page" if game else "site"))
    if season is not None and shift_chart:
        raise CliError("--shift-chart goes with a GAME, not --season")
    with read_store(db) as store:
        if game is not None:
            written = write_game_report(store, game, output, force=force, shift_chart=shift_chart)
            out(f"wrote {written}")
        else:
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

            columns = (TextColumn("pages"), BarColumn(), MofNCompleteColumn(),
                       TimeRemainingColumn())
            with progress_bar(*columns, transient=True) as bar:
                task = bar.add_task("pages", total=None)

                def tick(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                files = write_season_report(store, season or "", output, force=force,
                                            progress=tick, sites=system_parts(ctx).sites())
            pages = sum(1 for f in files if f.suffix == ".html")
            shared = " and the style sheet they share" if len(files) > pages else ""
            out(f"wrote {counted(pages, 'page')}{shared} into {output} (open {output / 'index.html'})")


@app.command("serve")
def serve_cmd(
    db: DbOption = "rinklog.db",
    host: Annotated[str, typer.Option("--host", help="the address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="the port to listen on")] = 8001,
) -> None:
    """Browse the database in Datasette (an optional extra: pip install 'rinklog[serve]'):
    read-only, with canned queries for box scores, standings and a player's game log.

    Run rinklog projections update first so the read models are current.

    Example: rinklog serve --db season.db --port 8001
    """
    from replay.data.integrity import database_breaks, warning
    from replay.datasette import serve
    if not 0 < port < 65536:
        raise CliError(f"--port must be 1-65535, got {port}")
    with read_store(db) as store:  # a break: one warning line here, a banner on every page
        found = database_breaks(store, read_models=False)
    raise typer.Exit(serve(db, host=host, port=port, warnings=[warning(found)] if found else []))
