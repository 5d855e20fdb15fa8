"""The Matrix Hockey kit: a season system (rinklog referees a league played by mail).
Its league, matrix, calendar and picks files (``files``), the season commands over a
store (``season``), the demo managers (``demo``), its ``rinklog matrix`` sub-app
(``cli``) and its season page (``site``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from events.store import EventStore
from replay.systems.kit import SeasonKit
from replay.systems.matrix import files

if TYPE_CHECKING:
    import typer

__all__ = ["KIT"]


def _cli() -> typer.Typer:
    # Imported when the root app is built: the sub-app imports replay/cli, which imports
    # the kits' registry (replay/systems/__init__.py) and so this package.
    from replay.systems.matrix.cli import app

    return app


def _site(store: EventStore, season_id: str) -> dict[str, str]:
    # The page imports replay/reports, which reaches the registry through the receipts.
    from replay.systems.matrix.site import matrix_files

    return matrix_files(store, season_id)


KIT = SeasonKit(system="matrix", recognise=files.recognise, cli=_cli, site=_site)
