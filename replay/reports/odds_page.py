"""The season site's odds page (issue 23, docs/odds.md): the odds ``rinklog odds --record``
stored in the season stream (OddsRecorded), the latest as a table, and each team's chance
to make the playoffs over the season as a line, one point per record (its games played).
Pure functions of the records; the site builder (season_site.py) reads them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from events.odds import OddsRecorded
from replay.reports.plots import BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH, LinePlot, Point, Tick
from replay.reports.render import render

__all__ = ["ODDS", "OddsRow", "chance_plot", "odds_page"]

ODDS = "odds.html"


@dataclass(frozen=True)
class OddsRow:
    team: str
    name: str
    points_mean: str
    points_range: str  # 10th to 90th percentile
    playoffs: str
    rounds: list[str]
    champion: str
    picks: list[str]


def _percent(count: int, runs: int) -> str:
    return f"{100 * count / runs:.1f}"


def _rows(record: OddsRecorded, names: dict[str, str]) -> list[OddsRow]:
    n = record.runs
    return [OddsRow(t.team, names.get(t.team, t.team), f"{t.points_total / n:.1f}",
                    f"{t.points_p10}-{t.points_p90}",
                    _percent(t.playoffs, n) if record.playoff_spots else "-",
                    [_percent(c, n) for c in t.rounds],
                    _percent(t.champion, n) if record.playoff_spots else "-",
                    [_percent(c, n) for c in t.picks]) for t in record.teams]


def chance_plot(points: Sequence[tuple[int, float]], games: int, title: str,
                unit: str = "games") -> LinePlot:
    """A chance (0 to 1) after so many games played, for each record, on an axis of the
    season's ``games``; the y axis in percent. ``unit``: what the x axis counts (a Matrix
    Hockey season's odds page counts weeks)."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    dx = plot_w / max(games, 1)
    placed = [Point(LEFT + g * dx, HEIGHT - BOTTOM - p * plot_h,
                    f"after {g} {unit}: {100 * p:.1f}%") for g, p in points]
    step = max(1, games // 8)
    x_ticks = [Tick(LEFT + g * dx, HEIGHT - BOTTOM + 14, str(g)) for g in range(0, games + 1, step)]
    y_ticks = [Tick(LEFT, HEIGHT - BOTTOM - v / 100 * plot_h, str(v)) for v in range(0, 101, 25)]
    return LinePlot(title, f"{unit} played in the season", WIDTH, HEIGHT, LEFT, HEIGHT - BOTTOM,
                    WIDTH - RIGHT, placed, x_ticks, y_ticks)


def odds_page(season_id: str, records: Sequence[OddsRecorded], names: dict[str, str],
              css: str, nav: list[tuple[str, str]]) -> str:
    """The odds page of a season with at least one record (the newest is the table)."""
    latest = records[-1]
    games = latest.games_played + latest.games_remaining
    plots = []
    if len(records) > 1:
        for t in latest.teams:
            seen = [(r.games_played, next(x.playoffs for x in r.teams if x.team == t.team)
                     / r.runs) for r in records if any(x.team == t.team for x in r.teams)]
            plots.append((t.team, chance_plot(
                seen, games, f"{names.get(t.team, t.team)}: chance to make the playoffs")))
    return render("odds.html.j2", season=season_id, latest=latest, rows=_rows(latest, names),
                  records=len(records), plots=plots, css=css, nav=nav)
