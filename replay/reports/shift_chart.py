"""The shift chart as a picture (the NHL's time-on-ice report, drawn): one row per
skater, a bar for every shift of the ``Toi`` read model across the periods, goals and
penalties of the scoresheet marked. A pure function of the read models; the template
``_shift_chart.html.j2`` draws it as inline SVG.

Geometry: the periods sit side by side, each as wide as its length (20:00, overtime 5:00;
a system that counts its own unit gets each period as long as the latest time it saw
there). A shift ``start``..``end`` of period ``p`` is the bar from
``origin[p] + start * scale`` to ``origin[p] + end * scale``, less ``GAP`` at each end.
"""

from __future__ import annotations

from dataclasses import dataclass

from projections.models.times import Unit
from projections.scoresheet import Scoresheet
from projections.toi import Toi
from replay.reports.units import period_label

LABEL_WIDTH = 200
PLOT_WIDTH = 970
TOP = 34  # period names and ticks above the rows
ROW = 13
TEAM_ROW = 18
BOTTOM = 8
LEGEND = 24  # the key under the rows (it prints with the chart)
GAP = 0.5  # px trimmed off each end of a bar, so back-to-back shifts read as two
COLORS = {"home": "#1f4e9c", "away": "#b3261e"}
POSITION_ORDER = {"C": 0, "LW": 1, "RW": 2, "F": 3, "D": 4, "LD": 4, "RD": 4}


@dataclass(frozen=True)
class Row:
    y: float
    height: float
    team: str
    side: str
    player: str
    label: str
    shaded: bool


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    color: str
    team: str
    player: str
    period: int
    start: int
    end: int
    title: str


@dataclass(frozen=True)
class Mark:
    """A goal (a line down the whole chart, a dot on the scorer's row) or a penalty (a
    square on the penalized player's row, else on his team's row)."""

    kind: str
    x: float
    y: float
    color: str
    title: str


@dataclass(frozen=True)
class Track:
    """A skater's shifts drawn as one SVG path (a segment a shift: the bars' geometry),
    his row's colour, and a title naming him and each shift (what hovering shows)."""

    team: str
    player: str
    color: str
    d: str
    height: float  # the stroke's width: a bar's height
    title: str


@dataclass(frozen=True)
class LegendItem:
    kind: str  # "shift", "goal", "penalty" or "text"
    x: float
    y: float
    color: str
    label: str


@dataclass(frozen=True)
class PeriodBand:
    x: float
    width: float
    label: str


@dataclass(frozen=True)
class Tick:
    x: float
    label: str


@dataclass(frozen=True)
class ShiftChart:
    game_id: str
    width: float
    height: float
    plot_x: float
    plot_y: float
    plot_width: float
    plot_height: float
    periods: list[PeriodBand]
    ticks: list[Tick]
    rows: list[Row]
    team_rows: list[Row]
    bars: list[Bar]
    goals: list[Mark]
    penalties: list[Mark]
    origin: dict[int, float]
    scale: float
    tracks: list[Track]
    legend: list[LegendItem]


def period_lengths(sheet: Scoresheet, toi: Toi, unit: Unit) -> dict[int, int]:
    """Each period played and its length in the read models' time unit."""
    played = max(len(sheet.home.goals_by_period), max((s.period for s in toi.shifts), default=1))
    lengths = {p: unit.nominal(p) for p in range(1, played + 1)}
    seen = [(s.period, s.end) for s in toi.shifts]
    seen += [(g.period, g.at.value) for g in sheet.goals if g.period in lengths]
    seen += [(p.period, p.at.value) for p in sheet.penalties if p.period in lengths]
    for period, end in seen:
        lengths[period] = max(lengths[period], end)
    return {p: max(n, 1) for p, n in lengths.items()}


def _ticks(lengths: dict[int, int], origin: dict[int, float], scale: float,
           unit: Unit) -> list[Tick]:
    if not unit.seconds:
        return []
    return [Tick(origin[p] + t * scale, f"{t // 60}")
            for p, n in lengths.items() for t in range(300, n, 300)]


def _tenths(value: float) -> int:
    return round(value * 10)


def _n(tenths: int) -> str:
    """A number of tenths as the path writes it: ``123`` -> ``12.3``, ``5`` -> ``.5``."""
    sign, n = ("-" if tenths < 0 else ""), abs(tenths)
    whole, frac = divmod(n, 10)
    tail = f"{frac}".rstrip("0")
    return f"{sign}{whole if whole or not tail else ''}{'.' + tail if tail else ''}"


def track_path(bars: list[Bar]) -> str:
    """One row's shifts as one path stroked as thick as a bar (butt ends: each segment
    draws exactly its bar's rectangle): the first bar from an absolute point at the row's
    middle, each next one a relative move from where the last one ended, to a tenth of
    a pixel (the ends of :class:`Bar` rounded, so no error adds up along the row)."""
    parts, at = [], None
    for b in bars:
        x, w = _tenths(b.x), _tenths(b.x + b.width) - _tenths(b.x)
        if at is None:
            parts.append(f"M{_n(x)} {_n(_tenths(b.y + b.height / 2))}")
        else:
            parts.append(f"m{_n(x - at)} 0")
        parts.append(f"h{_n(w)}")
        at = x + w
    return "".join(parts)


def _tracks(rows: list[Row], bars: list[Bar], unit: Unit) -> list[Track]:
    by_row: dict[tuple[str, str], list[Bar]] = {}
    for b in bars:
        by_row.setdefault((b.team, b.player), []).append(b)
    tracks = []
    for row in rows:
        mine = by_row.get((row.team, row.player), [])
        if not mine:
            continue
        toi = unit.show(sum(b.end - b.start for b in mine))
        tracks.append(Track(row.team, row.player, mine[0].color, track_path(mine),
                            mine[0].height,
                            f"{row.label}: {len(mine)} shift{'s' if len(mine) != 1 else ''}, "
                            f"{toi}"))
    return tracks


def _legend(sheet: Scoresheet, y: float, unit: Unit) -> list[LegendItem]:
    """The chart's key: each team's colour, a goal, a penalty and what the ticks count."""
    items, x = [], 8.0
    for line, side in ((sheet.away, "away"), (sheet.home, "home")):
        items.append(LegendItem("shift", x, y, COLORS[side], f"{line.name} ({line.team}) shift"))
        x += 40 + 6.2 * len(items[-1].label)
    items.append(LegendItem("goal", x, y, "#111111", "goal (dot on the scorer)"))
    x += 180
    items.append(LegendItem("penalty", x, y, "#111111", "penalty"))
    x += 110
    items.append(LegendItem("text", x, y, "#111111",
                            "ticks every 5 minutes; time runs left to right" if unit.seconds
                            else f"time in {unit.words}, left to right"))
    return items


def build_shift_chart(sheet: Scoresheet, toi: Toi, unit: Unit) -> ShiftChart:
    """The chart of a game from its scoresheet and time on ice."""
    lengths = period_lengths(sheet, toi, unit)
    scale = PLOT_WIDTH / sum(lengths.values())
    origin, x = {}, float(LABEL_WIDTH)
    for period, length in lengths.items():
        origin[period] = x
        x += length * scale
    side_of = {sheet.away.team: "away", sheet.home.team: "home"}
    played = len(sheet.home.goals_by_period)
    rows, team_rows, y = [], [], float(TOP)
    for team_line in (sheet.away, sheet.home):
        side = side_of[team_line.team]
        team_rows.append(Row(y, TEAM_ROW, team_line.team, side, "",
                             f"{team_line.name} ({team_line.team})", False))
        y += TEAM_ROW
        skaters = sorted((p for p in toi.players if p.team == team_line.team and p.position != "G"),
                         key=lambda p: (POSITION_ORDER.get(p.position, 9), p.name))
        for n, p in enumerate(skaters):
            rows.append(Row(y, ROW, p.team, side, p.player, f"{p.name} ({p.position})", n % 2 == 1))
            y += ROW
    row_of = {(r.team, r.player): r for r in rows}
    team_row = {r.team: r for r in team_rows}
    bars = []
    for s in toi.shifts:
        row = row_of.get((s.team, s.player))
        if row is None:
            continue
        bars.append(Bar(x=origin[s.period] + s.start * scale + GAP, y=row.y + 2,
                        width=max(1.0, (s.end - s.start) * scale - 2 * GAP), height=row.height - 4,
                        color=COLORS[row.side], team=s.team, player=s.player, period=s.period,
                        start=s.start, end=s.end,
                        title=f"{row.label} shift {s.shift}: {period_label(s.period, played)} "
                              f"{unit.show(s.start)}-{unit.show(s.end)}"))
    goals = []
    for g in sheet.goals:
        if g.period not in origin:
            continue
        row = row_of.get((g.team, g.scorer)) or team_row[g.team]
        helpers = f" ({', '.join(g.assist_names)})" if g.assist_names else ""
        goals.append(Mark("goal", origin[g.period] + g.at.value * scale,
                          row.y + row.height / 2, COLORS[side_of[g.team]],
                          f"Goal {g.team} {period_label(g.period, played)} {unit.show(g.at.value)}: "
                          f"{g.scorer_name}{helpers} {g.strength}"))
    penalties = []
    for p in sheet.penalties:
        if p.period not in origin:
            continue
        row = row_of.get((p.team, p.player)) or team_row[p.team]
        penalties.append(Mark("penalty", origin[p.period] + p.at.value * scale,
                              row.y + row.height / 2, COLORS[side_of[p.team]],
                              f"Penalty {p.team} {period_label(p.period, played)} "
                              f"{unit.show(p.at.value)}: {p.player_name}, {p.type.replace('_', ' ')}"
                              f" {p.minutes} min"))
    periods = [PeriodBand(origin[p], n * scale, period_label(p, played)) for p, n in lengths.items()]
    return ShiftChart(game_id=sheet.game_id, width=LABEL_WIDTH + PLOT_WIDTH + 4,
                      height=y + BOTTOM + LEGEND, plot_x=LABEL_WIDTH, plot_y=TOP, plot_width=PLOT_WIDTH,
                      plot_height=y - TOP, periods=periods,
                      ticks=_ticks(lengths, origin, scale, unit), rows=rows, team_rows=team_rows,
                      bars=bars, goals=goals, penalties=penalties, origin=origin, scale=scale,
                      tracks=_tracks(rows, bars, unit),
                      legend=_legend(sheet, y + BOTTOM + LEGEND / 2, unit))
