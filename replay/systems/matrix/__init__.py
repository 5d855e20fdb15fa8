"""The Matrix Hockey kit: a season system (rinklog referees a league played by mail).
Its league, matrix, calendar and picks files (``files``), the season commands over a
store (``season``), the demo managers (``demo``), its ``rinklog matrix`` sub-app
(``cli``), its season page (``site``) and its odds (``odds``, ``rinklog odds``)."""

from __future__ import annotations

import importlib

import typer

from events.store import EventStore
from replay.systems.kit import SeasonKit, SeasonOdds
from replay.systems.matrix.files import recognise

__all__ = ["KIT"]


def _cli() -> typer.Typer:
    # By name, when the root asks: cli.py imports the command line's helpers.
    return importlib.import_module("replay.systems.matrix.cli").app


def _site(store: EventStore, season_id: str) -> dict[str, str]:
    # By name, when ``report`` asks: the page imports replay/reports, which reaches this
    # registry through the receipts.
    site = importlib.import_module("replay.systems.matrix.site")
    return site.matrix_files(store, season_id)


def _odds() -> SeasonOdds:
    # By name, when ``rinklog odds`` asks: the odds import the shared odds runner
    # (replay/leagues/odds.py), which reaches this registry.
    return importlib.import_module("replay.systems.matrix.odds").ODDS


KIT = SeasonKit(system="matrix", recognise=recognise, cli=_cli, site=_site, odds=_odds)
