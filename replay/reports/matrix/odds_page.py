"""A Matrix Hockey season's odds page (issue 23, docs/odds.md): the odds ``rinklog odds
--record`` stored in the season stream (matrix.OddsRecorded), the newest as a table
(points, places, promotion, relegation, cups) and each team's chance to go up over the
season (a division with no parent: to finish first, its title), one point per record
(its weeks played), drawn by the league odds page's plot (replay/reports/odds_page.py).
Pure functions of the records; the season page (site.py) reads them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.matrix.state import WEEKS
from events.matrix import MatrixOddsRecorded, MatrixOddsTeam
from replay.reports.odds_page import ODDS, chance_plot
from replay.reports.render import render

__all__ = ["ODDS", "MatrixOddsRow", "matrix_odds_page"]


@dataclass(frozen=True)
class MatrixOddsRow:
    team: str
    name: str
    division: str
    points_mean: str
    points_range: str  # 10th to 90th percentile
    first: str
    promoted: str
    relegated: str
    kdh: str
    wg: str


def _percent(count: int, runs: int) -> str:
    return f"{100 * count / runs:.1f}"


def _rows(record: MatrixOddsRecorded, names: dict[str, str]) -> list[MatrixOddsRow]:
    n = record.runs
    return [MatrixOddsRow(
        t.team, names.get(t.team, t.team), t.division, f"{t.points_total / n:.1f}",
        f"{t.points_p10}-{t.points_p90}", _percent(t.places[0], n) if t.places else "-",
        _percent(t.promoted, n), _percent(t.relegated, n),
        _percent(t.kdh, n) if "kdh" in record.competitions else "-",
        _percent(t.wg, n) if "wg" in record.competitions else "-") for t in record.teams]


def _chance(t: MatrixOddsTeam, top: bool) -> int:
    """The runs a team went up (3.1.6), or finished first of a division with none above."""
    return (t.places[0] if t.places else 0) if top else t.promoted


def matrix_odds_page(season_id: str, records: Sequence[MatrixOddsRecorded],
                     names: dict[str, str], top: set[str], nav: list[tuple[str, str]]) -> str:
    """The odds page of a season with at least one record (the newest is the table);
    ``top``: the divisions with no division above (their teams' plot is the title's)."""
    latest = records[-1]
    plots = []
    if len(records) > 1:
        for t in latest.teams:
            what = "finish first" if t.division in top else "go up"
            seen = [(r.weeks_played, _chance(x, t.division in top) / r.runs)
                    for r in records for x in r.teams if x.team == t.team]
            plots.append((t.team, chance_plot(
                seen, WEEKS, f"{names.get(t.team, t.team)}: chance to {what}", "weeks")))
    return render("matrix_odds.html.j2", season=season_id, latest=latest,
                  rows=_rows(latest, names), plots=plots, nav=nav)
