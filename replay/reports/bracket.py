"""The postseason on the season site (issue 22): the bracket drawn as inline SVG, each
series' games, and the draft lottery.

Geometry here, markup in ``templates/_postseason.html.j2`` (as plots.py and
``_plots.html.j2``). Pure functions of the read models of ``projections.postseason``.

The drawing: a column per round (rule 9's three: round 1, round 2, the final), a box per
series with each team's seed, name and wins, the winner in bold; a team with a bye (rule
9: 1st and 2nd in round 1) has a box of its own in that round's column; connector lines
run from a series (or a bye) to the series of the next round its winner plays in, and
from the final to the champion at the right. A box's vertical place is the middle of the
boxes that feed it, so a reseeded bracket (rule 9: "1st place team will play the lowest
seeded survivor") is drawn as it was played, and a fixed one keeps its positions. Where
the playoffs are seeded by conference (or division), each first bracket's name heads its
boxes (issue 34: two seed-1 teams, each a conference's). Nothing needs a script: the page
prints as it shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.league.formats import LEAGUE_POOL  # the whole league's bracket: not named
from projections.postseason import BracketView, LotteryView, RoundView, SeriesView
from replay.reports.render import environment, render

__all__ = ["BOX_HEIGHT", "BOX_WIDTH", "BracketDrawing", "DrawRow", "GameRow", "Header",
           "LotteryTables", "PoolLabel", "SeriesGames", "TeamLine", "bracket_drawing",
           "bracket_svg", "game_page_href", "lottery_html", "lottery_tables", "pool_title",
           "postseason_page", "series_games", "series_games_html"]

BOX_WIDTH, BOX_HEIGHT = 200, 40
LINE = 16  # a team's line in a box
GAP = 48  # between columns: room for the connectors
PITCH = 54  # between the rows of the first column
LEFT, TOP = 8, 30  # margins; the round titles sit in the top one
LABEL_CHARS = 22  # a longer name is cut with an ellipsis (its whole name in the tooltip)
LABEL_ROWS = 0.5  # room above a conference's (division's) first box for its name
TEMPLATE = "_postseason.html.j2"


def game_page_href(game_id: str, prefix: str = "") -> str:
    """A game's page as the season site names it (season_site.game_href)."""
    return f"{prefix}games/{game_id}.html"


@dataclass(frozen=True)
class TeamLine:
    """One team in a box: text baseline ``y``; ``wins`` "" in a bye or champion box."""

    seed: str
    team: str
    label: str
    name: str
    wins: str
    winner: bool
    y: float
    loser: bool = False  # out: drawn grey


@dataclass(frozen=True)
class Box:
    kind: str  # "series", "bye", "champion"
    id: str
    x: float
    y: float
    lines: list[TeamLine]
    title: str
    href: str = ""  # the series' games on the page
    round: int = 0
    slot: int = 0


@dataclass(frozen=True)
class Connector:
    source: str
    target: str
    path: str  # an SVG path: right, down or up, right


@dataclass(frozen=True)
class Header:
    x: float
    text: str


@dataclass(frozen=True)
class PoolLabel:
    """The name over a half (a quarter...) of the bracket: the conference (or division) its
    seeds are from, so that two seed-1 teams say whose they are (issue 34)."""

    pool: str
    text: str
    x: float
    y: float


@dataclass(frozen=True)
class BracketDrawing:
    title: str
    width: int
    height: int
    box_width: int
    box_height: int
    headers: list[Header]
    boxes: list[Box]
    connectors: list[Connector]
    champion: str | None  # the champion's name as shown (None: not decided yet)
    pools: list[PoolLabel] = field(default_factory=list)


@dataclass(frozen=True)
class _Node:
    key: str
    round: int
    winner: str | None
    series: SeriesView | None = None
    bye: str = ""


def _label(team: str, names: Mapping[str, str]) -> tuple[str, str]:
    name = names.get(team, team)
    return (name if len(name) <= LABEL_CHARS else name[:LABEL_CHARS - 1] + "…"), name


def _round_title(number: int, count: int) -> str:
    if count and number == count:
        return "Final"
    return f"Round {number}"


def _column_nodes(r: RoundView) -> list[_Node]:
    """A round's boxes in the order of a round still being played: byes and series
    alternate (rule 9: 1st's bye, 3 v 6, 2nd's bye, 4 v 5), the rest after."""
    byes = [_Node(f"bye-r{r.round}-{t}", r.round, t, bye=t) for t in r.byes]
    series = [_Node(f"box-r{r.round}s{s.slot}", r.round, s.winner, series=s)
              for s in r.series]
    out: list[_Node] = []
    for i in range(max(len(byes), len(series))):
        out += byes[i:i + 1] + series[i:i + 1]
    return out


def _children(node: _Node, previous: list[_Node]) -> list[_Node]:
    """The boxes of the round before whose winner plays in ``node``, in that round's
    order (so a fixed bracket keeps its positions: 1v8 above 4v5, 2v7 above 3v6)."""
    teams = [node.bye] if node.series is None else [node.series.high, node.series.low]
    return [c for c in previous if c.winner is not None and c.winner in teams]


def pool_title(pool: str) -> str:
    """A first bracket's name as the drawing shows it: "Boreal Conference", or "Tamarack
    Division (Boreal Conference)" for ``conference/division`` (engine/league/formats.py)."""
    conference, _, division = pool.partition("/")
    return f"{division} Division ({conference} Conference)" if division \
        else f"{conference} Conference"


def _leaf_pool(node: _Node, view: BracketView) -> str:
    """The first bracket a box's teams were seeded in (a bye's team's; a series')."""
    if node.series is not None:
        return node.series.pool
    return view.pools.get(node.bye, LEAGUE_POOL)


def _rows(view: BracketView) -> tuple[dict[str, float], list[list[_Node]]]:
    """Each box's row (first-column rows are 0, 1, 2...; a later box sits in the middle
    of the boxes that feed it) and the boxes of each column. Where the playoffs are seeded
    by conference (or division), half a row is left above each first bracket's boxes for
    its name (:class:`PoolLabel`)."""
    columns = [_column_nodes(r) for r in view.rounds]
    rows: dict[str, float] = {}
    leaves = 0.0
    named = set(view.pools.values()) - {LEAGUE_POOL}
    last = ""

    def place(node: _Node, column: int) -> float:
        nonlocal leaves, last
        feed = _children(node, columns[column - 1]) if column else []
        if not feed:
            pool = _leaf_pool(node, view)
            if pool in named and pool != last:
                leaves += LABEL_ROWS
            last = pool
            rows[node.key] = leaves
            leaves += 1
        else:
            rows[node.key] = sum(place(c, column - 1) for c in feed) / len(feed)
        return rows[node.key]

    for node in columns[-1] if columns else []:
        place(node, len(columns) - 1)
    for column, nodes in enumerate(columns):  # a box nobody's winner reached (a gap)
        for node in nodes:
            if node.key not in rows:
                place(node, column)
    return rows, columns


def _series_box(s: SeriesView, key: str, x: float, y: float, view: BracketView,
                names: Mapping[str, str]) -> Box:
    lines = []
    for i, (team, seed) in enumerate(((s.high, s.high_seed), (s.low, s.low_seed))):
        label, name = _label(team, names)
        lines.append(TeamLine(str(seed), team, label, name, str(s.wins.get(team, 0)),
                              s.winner == team, y + 4 + LINE * i + 12, s.loser == team))
    state = (f"{s.winner} won {s.wins[s.winner]}-{s.wins[s.loser or '']}" if s.winner
             else f"{s.wins[s.high]}-{s.wins[s.low]}, best of {s.length}")
    pool = f" ({s.pool})" if s.pool != LEAGUE_POOL else ""
    title = f"{_round_title(s.round, view.round_count)}{pool}: {s.high} v {s.low}, {state}"
    return Box("series", key, x, y, lines, title, f"#games-r{s.round}s{s.slot}",
               s.round, s.slot)


def _single_box(kind: str, key: str, team: str, x: float, y: float, view: BracketView,
                names: Mapping[str, str], title: str) -> Box:
    label, name = _label(team, names)
    seed = view.seeds.get(team)
    line = TeamLine("" if seed is None else str(seed), team, label, name, "",
                    kind == "champion", y + 4 + 12)
    return Box(kind, key, x, y, [line], title)


def _connector(source: Box, target: Box, target_y: float, width: int) -> Connector:
    x1, y1 = source.x + width, source.y + BOX_HEIGHT / 2
    x2 = target.x
    middle = (x1 + x2) / 2
    return Connector(source.id, target.id,
                     f"M{x1:g} {y1:g} H{middle:g} V{target_y:g} H{x2:g}")


def bracket_drawing(view: BracketView, names: Mapping[str, str] | None = None
                    ) -> BracketDrawing:
    """The bracket's boxes, connectors and round titles (``names``: team id -> the name
    to show; the id when absent)."""
    names = names or {}
    rows, columns = _rows(view)
    count = max(view.round_count, len(view.rounds))
    step = BOX_WIDTH + GAP
    boxes: dict[str, Box] = {}
    connectors: list[Connector] = []
    for column, nodes in enumerate(columns):
        x = LEFT + column * step
        for node in nodes:
            y = TOP + rows[node.key] * PITCH
            if node.series is not None:
                box = _series_box(node.series, node.key, x, y, view, names)
            else:
                box = _single_box("bye", node.key, node.bye, x, y, view, names,
                                  f"{node.bye}: a bye in round {node.round}")
            boxes[node.key] = box
            for child in _children(node, columns[column - 1]) if column else []:
                line = next((t for t in box.lines if t.team == child.winner), box.lines[0])
                connectors.append(_connector(boxes[child.key], box, line.y - 4, BOX_WIDTH))
    headers = [Header(LEFT + i * step, _round_title(i + 1, count)) for i in range(count)]
    leaves = max(rows.values(), default=-1) + 1
    if view.champion is not None and columns:
        final = next(b for b in boxes.values()
                     if b.kind == "series" and b.round == len(columns))
        champ = _single_box("champion", "champion", view.champion, LEFT + count * step,
                            final.y, view, names, f"{view.champion}: champion")
        connectors.append(_connector(final, champ, final.y + BOX_HEIGHT / 2, BOX_WIDTH))
        boxes[champ.id] = champ
        headers.append(Header(champ.x, "Champion"))
    width = LEFT * 2 + max(1, count + (view.champion is not None)) * step - GAP
    height = int(TOP + max(leaves, 1) * PITCH)
    return BracketDrawing(f"Season {view.season}: the playoffs", int(width), height,
                          BOX_WIDTH, BOX_HEIGHT, headers, list(boxes.values()), connectors,
                          names.get(view.champion, view.champion) if view.champion else None,
                          _pool_labels(view, columns, boxes))


def _pool_labels(view: BracketView, columns: list[list[_Node]],
                 boxes: Mapping[str, Box]) -> list[PoolLabel]:
    """Each first bracket's name above its topmost first-round box (none for a league
    seeded as one)."""
    top: dict[str, float] = {}
    for node in columns[0] if columns else []:
        pool = _leaf_pool(node, view)
        if pool != LEAGUE_POOL:
            top[pool] = min(top.get(pool, boxes[node.key].y), boxes[node.key].y)
    return [PoolLabel(pool, pool_title(pool), LEFT, y - 8) for pool, y in top.items()]


def _macro(name: str) -> Any:
    return getattr(environment().get_template(TEMPLATE).module, name)


def bracket_svg(view: BracketView, names: Mapping[str, str] | None = None) -> str:
    """The bracket as an inline ``<svg>`` in a ``<figure class="chart">``."""
    return str(_macro("bracket_svg")(bracket_drawing(view, names)))


@dataclass(frozen=True)
class GameRow:
    number: int
    game_id: str
    href: str
    away: str
    home: str
    winner: str
    score: str  # "" when the page was not given the game's score


@dataclass(frozen=True)
class SeriesGames:
    id: str
    round: str
    title: str
    rows: list[GameRow]


def series_games(view: BracketView, names: Mapping[str, str] | None = None,
                 scores: Mapping[str, str] | None = None,
                 prefix: str = "") -> list[SeriesGames]:
    """Each series' games, round by round, each linked to its game page (``prefix``: the
    way from the page to the site's root); ``scores``: game id -> a score to show."""
    names, scores = names or {}, scores or {}
    out = []
    for r in view.rounds:
        for s in r.series:
            high, low = names.get(s.high, s.high), names.get(s.low, s.low)
            state = (f"{names.get(s.winner, s.winner)} won {s.wins[s.winner]}-"
                     f"{s.wins[s.loser or '']}" if s.winner
                     else f"{s.wins[s.high]}-{s.wins[s.low]}")
            rows = [GameRow(g.game, g.game_id, game_page_href(g.game_id, prefix),
                            names.get(g.away, g.away), names.get(g.home, g.home),
                            names.get(g.winner, g.winner), scores.get(g.game_id, ""))
                    for g in s.results]
            out.append(SeriesGames(f"games-r{s.round}s{s.slot}",
                                   _round_title(r.round, view.round_count),
                                   f"({s.high_seed}) {high} v ({s.low_seed}) {low}: {state}, "
                                   f"best of {s.length}"
                                   + (f" ({s.pool})" if s.pool != LEAGUE_POOL else ""), rows))
    return out


def series_games_html(view: BracketView, names: Mapping[str, str] | None = None,
                      scores: Mapping[str, str] | None = None, prefix: str = "") -> str:
    """Each series' games as HTML tables, linked to the game pages."""
    return str(_macro("series_games")(series_games(view, names, scores, prefix)))


@dataclass(frozen=True)
class DrawRow:
    pick: int
    roll: str  # "7 of 28", or "" for a pick placed without a roll
    place: int
    team: str
    how: str


@dataclass(frozen=True)
class LotteryTables:
    entries: list[tuple[int, str, int, int]]  # place, team, opportunities, natural pick
    draws: list[DrawRow]
    order: list[str]
    previous_first: str


def lottery_tables(view: LotteryView, names: Mapping[str, str] | None = None) -> LotteryTables:
    """The lottery's teams, its draws and the first round's order, names shown."""
    names = names or {}
    draws = [DrawRow(d.pick, "" if d.roll is None else f"{d.roll} of {d.sides}", d.place,
                     names.get(d.team, d.team), d.how) for d in view.draws]
    entries = [(e.place, names.get(e.team, e.team), e.opportunities, e.natural_pick)
               for e in view.entries]
    return LotteryTables(entries, draws, [names.get(t, t) for t in view.order],
                         names.get(view.previous_first, view.previous_first))


def lottery_html(view: LotteryView, names: Mapping[str, str] | None = None) -> str:
    """The lottery as HTML: its teams and balls, the draws (roll, place, team), the
    order."""
    return str(_macro("lottery_tables")(lottery_tables(view, names)))


def postseason_page(bracket: BracketView, lottery: LotteryView | None = None,
                    names: Mapping[str, str] | None = None,
                    scores: Mapping[str, str] | None = None, css: str | None = None,
                    nav: Sequence[tuple[str, str]] = ()) -> str:
    """A whole page at the site's root (``playoffs.html``): the bracket, each series'
    games, the lottery. ``css`` the site's style sheet (None: inline)."""
    context: dict[str, Any] = {
        "season": bracket.season, "drawing": bracket_drawing(bracket, names),
        "series": series_games(bracket, names, scores),
        "lottery": lottery_tables(lottery, names) if lottery and lottery.opened else None,
        "nav": list(nav)}
    if css is not None:
        context["css"] = css
    return render("postseason.html.j2", **context)
