"""The Matrix Hockey kit: a season system (rinklog referees a league played by mail).
Its league, matrix, calendar and picks files (``files``). What it does above the kits
lives in those layers: the season commands over a store, the demo managers and the odds
in replay/leagues/matrix/, its season and odds pages in replay/reports/matrix/, its
``rinklog matrix`` sub-app in replay/cli/matrix.py."""

from __future__ import annotations

from replay.systems.kit import SeasonKit
from replay.systems.matrix.files import recognise

__all__ = ["KIT"]

KIT = SeasonKit(system="matrix", recognise=recognise)
