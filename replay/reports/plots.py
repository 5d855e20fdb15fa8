"""Plots where people would rather look than read, as geometry for the SVG macros of
``_plots.html.j2``: a histogram of counts (goals per game) and a line over a season
(a team's points). Pure functions of the numbers they draw."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

WIDTH, HEIGHT = 560, 240
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 26, 36


@dataclass(frozen=True)
class Column:
    x: float
    y: float
    width: float
    height: float
    value: int  # the bin (e.g. 5 goals)
    count: int  # how many fell in it


@dataclass(frozen=True)
class Tick:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class Histogram:
    title: str
    x_title: str
    width: int
    height: int
    axis_x: float
    axis_y: float
    axis_right: float
    columns: list[Column]
    x_ticks: list[Tick]
    y_ticks: list[Tick]


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class LinePlot:
    title: str
    x_title: str
    width: int
    height: int
    axis_x: float
    axis_y: float
    axis_right: float
    points: list[Point]
    x_ticks: list[Tick]
    y_ticks: list[Tick]

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)


def _step(top: int) -> int:
    """A round tick step giving about five ticks up to ``top``."""
    raw = max(1.0, top / 5)
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _y_ticks(top: int, scale: float) -> list[Tick]:
    step = _step(top)
    return [Tick(LEFT, HEIGHT - BOTTOM - v * scale, str(v)) for v in range(0, top + 1, step)]


def histogram(values: list[int], title: str, x_title: str) -> Histogram:
    """How many of ``values`` are 0, 1, 2, ... up to the largest: one column each."""
    counts = Counter(values)
    bins = list(range(0, max(values, default=0) + 1))
    top = max(counts.values(), default=1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    width = plot_w / len(bins)
    scale = plot_h / top
    columns = [Column(x=LEFT + i * width + 1, y=HEIGHT - BOTTOM - counts[b] * scale,
                      width=width - 2, height=counts[b] * scale, value=b, count=counts[b])
               for i, b in enumerate(bins)]
    x_ticks = [Tick(c.x + c.width / 2, HEIGHT - BOTTOM + 14, str(c.value)) for c in columns]
    return Histogram(title, x_title, WIDTH, HEIGHT, LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT,
                     columns, x_ticks, _y_ticks(top, scale))


def line_plot(values: list[int], title: str, x_title: str) -> LinePlot:
    """``values[i]`` after the (i + 1)-th step (a team's points after each game), from 0."""
    series = [0, *values]
    top = max(max(series), 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    dx = plot_w / max(len(series) - 1, 1)
    scale = plot_h / top
    points = [Point(LEFT + i * dx, HEIGHT - BOTTOM - v * scale, f"after game {i}: {v}")
              for i, v in enumerate(series)]
    step = _step(len(series) - 1)
    x_ticks = [Tick(LEFT + i * dx, HEIGHT - BOTTOM + 14, str(i))
               for i in range(0, len(series), step)]
    return LinePlot(title, x_title, WIDTH, HEIGHT, LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, points,
                    x_ticks, _y_ticks(top, scale))
