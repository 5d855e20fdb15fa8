"""The season layer's registry: each season system's odds (what ``rinklog odds`` runs on
a season system's own season stream), one line a system."""

from __future__ import annotations

from replay.leagues.matrix.odds import ODDS as MATRIX_ODDS
from replay.leagues.season_odds import SeasonOdds

SEASON_ODDS: dict[str, SeasonOdds] = {
    "matrix": MATRIX_ODDS,
}
