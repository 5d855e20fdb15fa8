"""The Matrix Hockey kit: a season system (rinklog referees a league played by mail).
Its league, matrix, calendar and picks files (``files``), the season commands over a
store (``season``), the demo managers (``demo``), its ``rinklog matrix`` sub-app
(``cli``) and its season page (``site``)."""

from __future__ import annotations

import typer

from events.store import EventStore
from replay.systems.kit import SeasonKit
from replay.systems.matrix import files

__all__ = ["CLI", "KIT"]

CLI = typer.Typer(
    help="Matrix Hockey: picks by mail, rinklog the referee (one stream a season).\n\n"
    "Example: rinklog matrix open --league demo --seed 2026 --db league.db",
    rich_markup_mode=None,
    no_args_is_help=True,
)
"""``rinklog matrix``: its commands are cli.py's, added to it as cli.py is imported."""


def _cli() -> typer.Typer:
    # cli.py imports replay/cli, whose package builds the root app, which asks this kit
    # for its sub-app: made here, before cli.py, the sub-app is the same whole one
    # whichever of the two modules is imported first.
    import replay.systems.matrix.cli  # noqa: F401

    return CLI


def _site(store: EventStore, season_id: str) -> dict[str, str]:
    # The page imports replay/reports, which reaches the registry through the receipts.
    from replay.systems.matrix.site import matrix_files

    return matrix_files(store, season_id)


KIT = SeasonKit(system="matrix", recognise=files.recognise, cli=_cli, site=_site)
