"""A Matrix Hockey season's page: the results week by week and the championship
standings of each division, from the referee's read models (replay/leagues/matrix/season.py
``results`` and ``standings``), plus the goals-per-game distribution. Matrix Hockey
records results, not games played shot by shot: there are no game pages. Odds recorded in
the season (``rinklog odds --record``) get a page of their own (odds_page.py), linked from
the season's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import replay.leagues.matrix.season as matrix
from engine.matrix.seasons import parent_and_children
from events.matrix import MatrixOddsRecorded
from events.store import EventStore
from replay.reports.matrix.odds_page import ODDS, matrix_odds_page
from replay.reports.plots import Histogram, histogram
from replay.reports.proofs import GameProof, game_proofs
from replay.reports.render import render

COMPETITIONS = {"championship": "Championship", "kdh": "KDH cup", "wg": "WG cup"}


@dataclass(frozen=True)
class MatrixResult:
    competition: str
    home: str
    home_goals: int
    away: str
    away_goals: int
    decided: str
    head: str = ""  # the season stream's hash at the game (its head in the season's tree)
    proof: str = ""  # its inclusion proof in the tree (JSON), for a season receipt


@dataclass(frozen=True)
class MatrixWeek:
    week: int
    results: list[MatrixResult]


@dataclass(frozen=True)
class MatrixDivision:
    division: str
    rows: list[dict[str, Any]]  # ``matrix standings --json`` rows, in rank order


@dataclass(frozen=True)
class MatrixSite:
    season_id: str
    weeks: list[MatrixWeek]
    divisions: list[MatrixDivision]
    goals_plot: Histogram
    odds: str = ""  # the odds page (rinklog odds --record), when odds were recorded


def build_matrix_site(season_id: str, results: list[dict[str, Any]],
                      standings: list[dict[str, Any]],
                      proofs: Sequence[GameProof] = ()) -> MatrixSite:
    """The page of a season from its results and standings rows (their JSON keys), and
    each game's head and inclusion proof in the season's tree (in the results' order,
    the order the season played them)."""
    names = {r["team"]: r["name"] for r in standings}
    weeks: dict[int, list[MatrixResult]] = {}
    proved = list(proofs) or [None] * len(results)
    if len(proved) != len(results):
        raise ValueError(f"{len(proved)} proofs for {len(results)} results")
    for r, p in zip(results, proved, strict=True):
        where = COMPETITIONS.get(r["competition"], r["competition"])
        weeks.setdefault(r["week"], []).append(MatrixResult(
            competition=f"{where} {r['stage']}".strip(),
            home=names.get(r["home"], r["home"]), home_goals=r["score"]["home"],
            away=names.get(r["away"], r["away"]), away_goals=r["score"]["away"],
            decided=r["decided"], head=p.head if p else "", proof=p.proof if p else ""))
    divisions: dict[str, list[dict[str, Any]]] = {}
    for row in standings:
        divisions.setdefault(row["division"], []).append(row)
    plot = histogram([r["score"]["home"] + r["score"]["away"] for r in results],
                     "Goals per game", "goals in the game (both teams)")
    return MatrixSite(season_id, [MatrixWeek(w, rs) for w, rs in sorted(weeks.items())],
                      [MatrixDivision(d, rows) for d, rows in divisions.items()], plot)


def matrix_files(store: EventStore, season_id: str) -> dict[str, str]:
    standings = matrix.standings(store, season_id)
    site = build_matrix_site(season_id, matrix.results(store, season_id), standings,
                             game_proofs(store, season_id))
    files: dict[str, str] = {}
    season = matrix.load(store, season_id)
    recorded = [e for e in season.events if isinstance(e, MatrixOddsRecorded)]
    if recorded:  # docs/odds.md
        site = replace(site, odds=ODDS)
        top = {d.id for d in season.state.divisions
               if parent_and_children(season.state, d.id)[0] is None}
        files[ODDS] = matrix_odds_page(season_id, recorded,
                                       {r["team"]: r["name"] for r in standings}, top,
                                       [("index.html", f"Matrix Hockey season {season_id}")])
    files["index.html"] = render("matrix_season.html.j2", site=site, nav=[])
    return files
