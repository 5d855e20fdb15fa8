"""CLI commands for seasons (issue #5): ``calibrate``.

``register(app)`` adds them to the main ``rinklog`` app (replay/cli.py). Errors are
:class:`RinklogError` subclasses, printed on one line by ``replay.cli.main``.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from events.errors import RinklogError
from replay.calibrate import calibrate as run_calibration

LeagueOption = Annotated[str, typer.Option(
    "--league", help="a league folder (with league.toml) or a bundled league's name (demo)")]


class BadGameCount(RinklogError):
    """``--games`` below 1."""


def calibrate(
    league: LeagueOption = "demo",
    games: Annotated[int, typer.Option("--games", help="games of the schedule to play")] = 400,
    seed: Annotated[str, typer.Option("--seed", help="schedule and dice seed")] = "1",
    as_json: Annotated[bool, typer.Option("--json", help="the table as JSON")] = False,
) -> None:
    """Simulate N games of a league and compare per team-game averages with the NHL's.

    Nothing is written to a database. Example: rinklog calibrate --league demo --games 400
    """
    if games < 1:
        raise BadGameCount(f"--games must be at least 1, got {games}")
    table = run_calibration(league, games, seed)
    if as_json:
        typer.echo(json.dumps(table.to_json(), indent=2, ensure_ascii=False))
    else:
        typer.echo(table.render())


def register(app: typer.Typer) -> None:
    app.command("calibrate")(calibrate)
