"""A league season's site: standings (with points percentage), leaders, a page per team
(its games, its points over the season, its players) and a page per game, plus the
goals-per-game distribution. :func:`build_season_site` is a pure function of the read
models (standings records, each game's scoresheet, the season's summed stats);
:func:`season_files` reads a store (writing nothing) and renders every page. A Matrix
Hockey season has its own, simpler site (its kit's ``site``: replay/reports/matrix/site.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from events.odds import OddsRecorded
from events.store import EventStore
from projections.models.times import Unit
from projections.models.toi import PlayerToi
from projections.postseason import BracketView, LotteryView, bracket_view, lottery_view
from projections.ranks import competition_ranks, leader_order
from projections.scoresheet import Scoresheet
from projections.standings import Record
from projections.stats import GameStats, combine
from replay.leagues.ledger import odds_runs
from replay.leagues.stored_seasons import load_season, standings_tables
from replay.reports.bracket import postseason_page
from replay.reports.games import GameData, load_game
from replay.reports.odds_page import ODDS, odds_page
from replay.reports.plots import Histogram, LinePlot, histogram, line_plot
from replay.reports.proofs import GameProof, game_proofs
from replay.reports.render import render
from replay.reports.strengths import Splits, by_goalie, split_total, with_split

TOP = 10
GOALIE_GAMES = 5  # as `rinklog leaders`: goalies with 5 games or more (fewer early on)
SKATER_BOARDS = (("Goals", "g"), ("Assists", "a"), ("Points", "p"), ("Plus/minus", "plus_minus"),
                 ("Penalty minutes", "pim"))


@dataclass(frozen=True)
class StandingRow:
    rank: int
    team: str
    name: str
    gp: int
    w: int
    l: int  # noqa: E741 - the standings column is called L
    otl: int
    t: int
    points: int
    pts_pct: str  # points / (2 x games played), as the NHL prints it: .625
    road_wins: int
    gf: int
    ga: int
    diff: int
    href: str
    last10: str = ""  # W-L-OTL of the last ten games (projections/standings.py)
    streak: str = ""  # W3, L1, OT2


@dataclass(frozen=True)
class StandingsTable:
    title: str
    rows: list[StandingRow]
    ties: bool  # FaceOff 2008 ties stand (5.00): a T column


@dataclass(frozen=True)
class LeaderRow:
    rank: int
    name: str
    team: str
    gp: int
    value: str
    href: str = ""  # the player's page, from the site's index


@dataclass(frozen=True)
class Board:
    title: str
    rows: list[LeaderRow]


@dataclass(frozen=True)
class GameLine:
    number: int
    game_id: str
    href: str
    away: str
    away_goals: int
    home: str
    home_goals: int
    decided: str
    head: str = ""  # the game's head hash, when it is in the season's tree
    proof: str = ""  # its inclusion proof in the tree (JSON), for a season receipt


@dataclass(frozen=True)
class TeamGame:
    number: int
    where: str  # "vs" at home, "at" on the road
    opponent: str
    score: str  # own goals first
    result: str  # W, L, OTL, T
    points: int  # the team's points after the game
    href: str
    record: str = ""  # the team's W-L-OTL (-T) after the game


@dataclass(frozen=True)
class IceTime:
    """A skater's time on ice in a game, in all and at even strength, on the power play and
    short-handed, as his system's unit shows it (the game's ``toi`` read model)."""

    toi: str
    ev: str
    pp: str
    sh: str


Ice = Mapping[tuple[str, str], PlayerToi]
"""A game's time on ice of each player, by (team, player)."""


@dataclass(frozen=True)
class SiteGame:
    """A game as the site reads it: its number in the schedule (0: a playoff game), its
    scoresheet and own stats, its goalies' saves and shots by strength
    (replay/reports/strengths.py) and its players' time on ice."""

    number: int
    sheet: Scoresheet
    stats: GameStats
    splits: Splits = field(default_factory=dict)
    ice: Ice = field(default_factory=dict)

    @classmethod
    def of(cls, number: int, game: GameData) -> SiteGame:
        return cls(number, game.sheet, game.stats, by_goalie(game.strengths),
                   {(p.team, p.player): p for p in game.toi.players})


@dataclass(frozen=True)
class PlayerGame:
    """A game of a player's log: the team's game and the player's line in it (the game's
    ``stats`` row: a skater's or a goalie's keys); a skater's time on ice in it."""

    game: TeamGame
    line: dict[str, Any]
    ice: IceTime | None = None


@dataclass(frozen=True)
class PlayerPage:
    team: str
    team_name: str
    player: str
    name: str
    position: str
    goalie: bool
    season: dict[str, Any]  # the season's summed ``stats`` row (the team page's)
    games: list[PlayerGame]
    playoffs: PlayerPage | None = None  # his postseason's line and log, when he played in it
    atoi: str = ""  # a skater's time on ice a game (hockey-reference's ATOI), his unit's
    toi_label: str = "TOI"  # the unit's column name ("TOI"; DICE Hockey: "Spaces")
    regular: bool = True  # False: he played in the playoffs only (this page is theirs)


@dataclass(frozen=True)
class TeamTotals:
    """A team's totals over a set of its games, as hockey-reference's team line: goals,
    assists and points of its players' lines; shots, penalty minutes and power plays of
    its scoresheets. An opportunity is a power play that began, whatever its length (the
    NHL's): a penalty that put the other team a man short, coincidental ones aside."""

    gp: int
    g: int
    a: int
    p: int
    pim: int  # the team's: players', goalies' and bench minors' minutes
    shots: int
    shots_against: int
    gf: int
    ga: int
    ppg: int
    ppo: int
    ppga: int
    pko: int  # times short-handed: the other team's power plays
    pp_pct: str  # PP goals / opportunities, "21.4"; "–" without one
    pk_pct: str  # 1 - PP goals against / times short-handed


@dataclass(frozen=True)
class TeamPage:
    team: str
    name: str
    record: StandingRow | None
    games: list[TeamGame]
    points_plot: LinePlot
    skaters: list[dict[str, Any]]
    goalies: list[dict[str, Any]]
    home: str = ""  # W-L-OTL (-T) at home
    road: str = ""  # and on the road
    playoffs: TeamPlayoffs | None = None  # its postseason, apart, when it played in it
    totals: TeamTotals | None = None  # its regular season's totals, PP% and PK%


@dataclass(frozen=True)
class TeamPlayoffs:
    """A team's postseason: its playoff games and its players' lines summed over them,
    never with the regular season's (issue 34)."""

    games: list[TeamGame]
    skaters: list[dict[str, Any]]
    goalies: list[dict[str, Any]]
    record: str  # W-L over its playoff games: a loss in overtime is a loss (no OTL point)
    totals: TeamTotals | None = None


@dataclass(frozen=True)
class SeasonSite:
    season_id: str
    league: str
    standings: list[StandingsTable]
    boards: list[Board]
    games: list[GameLine]
    goals_plot: Histogram
    teams: list[TeamPage] = field(default_factory=list)
    players: list[PlayerPage] = field(default_factory=list)
    postseason: str = ""  # the playoffs page (bracket, series, lottery), when there is one
    playoff_boards: list[Board] = field(default_factory=list)  # the postseason's leaders
    odds: str = ""  # the odds page (rinklog odds --record), when odds were recorded


def team_href(team: str) -> str:
    return f"teams/{team}.html"


PLAYOFFS = "playoffs.html"  # the season's postseason page (replay/reports/bracket.py)


def game_href(game_id: str) -> str:
    return f"games/{game_id}.html"


def player_href(team: str, player: str) -> str:
    return f"players/{team}-{player}.html"


def pts_pct(points: int, gp: int) -> str:
    return f"{points / (2 * gp):.3f}".lstrip("0") if gp else "–"


def _table(title: str, records: list[Record]) -> StandingsTable:
    rows = [StandingRow(rank=i, team=r.team, name=r.name, gp=r.gp, w=r.w, l=r.l, otl=r.otl,
                        t=r.t, points=r.points, pts_pct=pts_pct(r.points, r.gp),
                        road_wins=r.road_wins, gf=r.gf, ga=r.ga, diff=r.diff,
                        href=team_href(r.team), last10=r.last10, streak=r.streak)
            for i, r in enumerate(records, start=1)]
    return StandingsTable(title, rows, any(r.t for r in records))


def _ratio(value: float | None, digits: int, strip: bool = False) -> str:
    if value is None:
        return "–"
    text = f"{value:.{digits}f}"
    return text.lstrip("0") if strip else text


def _board(title: str, lines: list[dict[str, Any]], key: str, shown: Callable[[Any], str],
           top: int, lowest_first: bool = False) -> Board:
    """A board's first ``top`` lines, best first; equal figures share a rank (1, 2, 2, 4),
    fewer games first, then by name (projections/ranks.py, as ``rinklog leaders``)."""
    best = sorted(lines, key=lambda s: leader_order(s[key], s["gp"], s["name"], s["player"],
                                                    lowest_first=lowest_first))
    ranks = competition_ranks([s[key] for s in best])
    return Board(title, [LeaderRow(rank, s["name"], s["team"], s["gp"], shown(s[key]),
                                   player_href(s["team"], s["player"]))
                         for rank, s in zip(ranks, best, strict=True)][:top])


def leaders(stats: dict[str, Any], top: int = TOP) -> list[Board]:
    """The season's leaders from the summed stats (``stats --json``'s keys), ordered and
    ranked as ``rinklog leaders`` orders and ranks them."""
    boards = []
    for title, key in SKATER_BOARDS:
        # a goalie's goals, assists and minutes are on his goalie line (issue 34)
        lines = stats["skaters"] + [g for g in stats["goalies"] if key in g]
        boards.append(_board(title, lines, key, lambda v, key=key: f"{v:+d}"
                             if key == "plus_minus" else str(v), top))
    most = max((g["gp"] for g in stats["goalies"]), default=0)
    goalies = [g for g in stats["goalies"] if g["gp"] >= min(GOALIE_GAMES, most) and g["gp"]]
    boards.append(_board("Save percentage", [g for g in goalies if g["sv_pct"] is not None],
                         "sv_pct", lambda v: _ratio(v, 3, strip=True), top))
    boards.append(_board("Goals-against average", [g for g in goalies if g["gaa"] is not None],
                         "gaa", lambda v: _ratio(v, 2), top, lowest_first=True))
    return boards


def _result(sheet: Scoresheet, mine: Any, theirs: Any) -> tuple[str, int]:
    if mine.goals > theirs.goals:
        return "W", 2
    if sheet.decided == "TIE":
        return "T", 1
    return ("L", 0) if sheet.decided == "REG" else ("OTL", 1)


def _record(counts: Counter[str]) -> str:
    """W-L-OTL, and -T when a game ended tied (FaceOff 2008, 5.00)."""
    text = f"{counts['W']}-{counts['L']}-{counts['OTL']}"
    return text + (f"-{counts['T']}" if counts["T"] else "")


def _team_games(team: str, sheets: list[tuple[int, Scoresheet]], playoffs: bool = False
                ) -> list[tuple[TeamGame, Scoresheet]]:
    """The team's finished games in the season's order, each with the team's points and
    W-L-OTL after it (a win 2 points, an OTL or a tie 1, as the standings count them);
    ``playoffs``: numbered 1, 2... among the team's playoff games (they have no number in
    the schedule), a loss in overtime an L (the playoffs give no point for it: W-L)."""
    games, points, counts = [], 0, Counter[str]()
    for number, sheet in sheets:
        if sheet.decided is None or team not in (sheet.home.team, sheet.away.team):
            continue
        number = len(games) + 1 if playoffs else number
        home = sheet.home.team == team
        mine, theirs = (sheet.home, sheet.away) if home else (sheet.away, sheet.home)
        result, won = _result(sheet, mine, theirs)
        if playoffs and result == "OTL":  # no OTL in the playoffs: a loss (its score says OT)
            result = "L"
        points += won
        counts[result] += 1
        games.append((TeamGame(number, "vs" if home else "at", theirs.team,
                               f"{mine.goals}-{theirs.goals}"
                               + (f" {sheet.decided}" if sheet.decided in ("OT", "SO") else ""),
                               result, points, "../" + game_href(sheet.game_id),
                               f"{counts['W']}-{counts['L']}" if playoffs else _record(counts)),
                      sheet))
    return games


def _lines(team: str, stats: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The team's skaters (most points first) and goalies (most games first) who played."""
    skaters = sorted((s for s in stats["skaters"] if s["team"] == team and s["gp"]),
                     key=lambda s: (-s["p"], -s["g"], s["name"]))
    goalies = sorted((g for g in stats["goalies"] if g["team"] == team and g["gp"]),
                     key=lambda g: (-g["gp"], g["name"]))
    return skaters, goalies


def _percent(part: int, whole: int, short: bool = False) -> str:
    """PP% (``part`` goals of ``whole`` power plays) or, ``short``, PK% (1 - part/whole)."""
    if not whole:
        return "–"
    return f"{100 * ((whole - part) if short else part) / whole:.1f}"


def team_totals(team: str, games: list[tuple[TeamGame, Scoresheet]],
                lines: list[dict[str, Any]]) -> TeamTotals:
    """The team's totals over ``games`` (each with its scoresheet) and its players'
    ``lines`` (skaters' and goalies' summed rows over the same games)."""
    mine = [(s.home, s.away) if s.home.team == team else (s.away, s.home) for _, s in games]
    g, a = (sum(row[k] for row in lines) for k in ("g", "a"))
    ppg, ppo = sum(m.pp.goals for m, _ in mine), sum(m.pp.opportunities for m, _ in mine)
    ppga, pko = sum(o.pp.goals for _, o in mine), sum(o.pp.opportunities for _, o in mine)
    return TeamTotals(gp=len(games), g=g, a=a, p=g + a, pim=sum(m.pim for m, _ in mine),
                      shots=sum(sum(m.shots) for m, _ in mine),
                      shots_against=sum(sum(o.shots) for _, o in mine),
                      gf=sum(m.goals for m, _ in mine), ga=sum(o.goals for _, o in mine),
                      ppg=ppg, ppo=ppo, ppga=ppga, pko=pko, pp_pct=_percent(ppg, ppo),
                      pk_pct=_percent(ppga, pko, short=True))


def _team_playoffs(team: str, sheets: list[tuple[int, Scoresheet]],
                   stats: dict[str, Any]) -> TeamPlayoffs | None:
    played = _team_games(team, sheets, playoffs=True)
    games = [g for g, _ in played]
    if not games:
        return None
    skaters, goalies = _lines(team, stats)
    results = Counter(g.result for g in games)
    return TeamPlayoffs(games, skaters, goalies, f"{results['W']}-{results['L']}",
                        team_totals(team, played, skaters + goalies))


def _team_page(team: str, name: str, record: StandingRow | None,
               sheets: list[tuple[int, Scoresheet]], stats: dict[str, Any]) -> TeamPage:
    played = _team_games(team, sheets)
    games = [g for g, _ in played]
    plot = line_plot([g.points for g in games], f"{name}: points over the season",
                     "games played")
    skaters, goalies = _lines(team, stats)
    split = {where: _record(Counter(g.result for g in games if g.where == where))
             for where in ("vs", "at")}
    return TeamPage(team, name, record, games, plot, skaters, goalies, home=split["vs"],
                    road=split["at"], totals=team_totals(team, played, skaters + goalies))


def _ice_time(toi: PlayerToi, unit: Unit) -> IceTime:
    return IceTime(unit.show(toi.toi), unit.show(toi.toi_ev), unit.show(toi.toi_pp),
                   unit.show(toi.toi_sh))


def _sheets(games: Sequence[SiteGame]) -> list[tuple[int, Scoresheet]]:
    return [(g.number, g.sheet) for g in games]


def _player_pages(names: dict[str, str], site_games: Sequence[SiteGame],
                  stats: dict[str, Any], playoffs: bool = False,
                  unit: Unit | None = None) -> list[PlayerPage]:
    """A page per player who played: his season line (the summed stats row) and his log,
    a row per game he played (his row of that game's stats; a goalie's with his saves
    and shots by strength; a skater's time on ice, shown in ``unit``); ``playoffs``: of
    the postseason's games (an overtime loss an L)."""
    lines: dict[str, dict[tuple[str, str], dict[str, Any]]] = {}
    ice_of = {g.sheet.game_id: g.ice for g in site_games}
    for g in site_games:
        game = _playoff_lines(g.stats.to_json()) if playoffs else g.stats.to_json()
        lines[g.sheet.game_id] = {(r["team"], r["player"]): r for r in game["skaters"] if r["gp"]}
        lines[g.sheet.game_id].update(((r["team"], r["player"]),
                                       with_split(r, g.splits.get((r["team"], r["player"]))))
                                      for r in game["goalies"] if r["gp"])
    goalie_rows = {(g["team"], g["player"]): g for g in stats["goalies"] if g["gp"]}
    rows = [(g, True) for g in goalie_rows.values()]
    rows += [(s, False) for s in stats["skaters"]
             if s["gp"] and (s["team"], s["player"]) not in goalie_rows]
    logs = {team: _team_games(team, _sheets(site_games), playoffs) for team in names}
    pages = []
    for row, goalie in rows:
        key = (row["team"], row["player"])
        games, times = [], []
        for game, sheet in logs.get(row["team"], []):
            line = lines.get(sheet.game_id, {}).get(key)
            if line is not None and (goalie == ("w" in line)):
                toi = None if goalie or unit is None else ice_of.get(sheet.game_id, {}).get(key)
                times += [toi.toi] if toi is not None else []
                games.append(PlayerGame(game, line, _ice_time(toi, unit) if toi else None))
        if goalie:  # his saves/shots by strength: his games' added up
            row = {**row, **split_total(g.line for g in games)}
        skater = next((s for s in stats["skaters"] if (s["team"], s["player"]) == key), {})
        atoi = unit.show(round(sum(times) / len(times))) if times and unit else ""
        pages.append(PlayerPage(row["team"], names.get(row["team"], row["team"]), row["player"],
                                row["name"], "G" if goalie else skater.get("position", ""),
                                goalie, row, games, atoi=atoi,
                                toi_label=unit.toi_label if unit else "TOI"))
    return sorted(pages, key=lambda p: (p.team, p.name, p.player))


def build_season_site(season_id: str, league: str,
                      tables: list[tuple[str, list[Record]]], games: Sequence[SiteGame],
                      proofs: Sequence[GameProof] = (), playoffs: Sequence[SiteGame] = (),
                      unit: Unit | None = None) -> SeasonSite:
    """The site of a season from its standings tables (the league's first), its games (in
    the schedule's order: the players' game logs), each game's head and inclusion proof in
    the season's tree (the games in it) and its postseason's games (in the bracket's
    order), which give the team and player pages a playoff section and the site a playoff
    leaders' board, apart; times on ice are shown in ``unit`` (None: none shown)."""
    sheets = _sheets(games)
    summed = combine([g.stats for g in games]).to_json()
    standings = [_table(title, records) for title, records in tables]
    proved = {p.game: p for p in proofs}
    lines = [GameLine(number, s.game_id, game_href(s.game_id), s.away.team, s.away.goals,
                      s.home.team, s.home.goals, s.decided or "",
                      *((proved[s.game_id].head, proved[s.game_id].proof)
                        if s.game_id in proved else ()))
             for number, s in sheets]
    # Goals scored in the game: the shootout winner's credited goal is not one of them.
    totals = [len(s.goals) for _, s in sheets if s.decided is not None]
    plot = histogram(totals, "Goals per game", "goals in the game (both teams)")
    rows = {r.team: r for r in standings[0].rows} if standings else {}
    names = {r.team: r.name for r in rows.values()}
    teams = [_team_page(team, names[team], rows[team], sheets, summed) for team in sorted(names)]
    players = _player_pages(names, games, summed, unit=unit)
    site = SeasonSite(season_id, league, standings, leaders(summed), lines, plot, teams, players)
    return _with_playoffs(site, playoffs, unit) if playoffs else site


def _with_playoffs(site: SeasonSite, games: Sequence[SiteGame], unit: Unit | None) -> SeasonSite:
    """The site with the postseason's sections: each team's and player's, and its leaders;
    a player who played in the playoffs only (a goalie called up for them) gets a page of
    his playoff games alone."""
    summed = _playoff_lines(combine([g.stats for g in games]).to_json())
    names = {t.team: t.name for t in site.teams}
    teams = [replace(t, playoffs=_team_playoffs(t.team, _sheets(games), summed))
             for t in site.teams]
    theirs = {(p.team, p.player): p for p in _player_pages(names, games, summed, True, unit)}
    players = [replace(p, playoffs=theirs.pop((p.team, p.player), None)) for p in site.players]
    players += [replace(p, games=[], playoffs=p, regular=False) for p in theirs.values()]
    players.sort(key=lambda p: (p.team, p.name, p.player))
    return replace(site, teams=teams, players=players, playoff_boards=leaders(summed))


def _playoff_lines(stats: dict[str, Any]) -> dict[str, Any]:
    """The stats rows with each goalie's overtime losses counted in his L (``otl`` 0): a
    playoff game lost in overtime is a loss, the playoffs have no OTL (issue 34)."""
    goalies = [{**g, "l": g["l"] + g.get("otl", 0), "otl": 0} for g in stats["goalies"]]
    return {**stats, "goalies": goalies}


STYLE = "style.css"  # the site's one stylesheet, shared by its pages


def _game_page(game: Any, season_id: str) -> str:
    return render("game.html.j2", page=game.page(), css=f"../{STYLE}",
                  nav=[("../index.html", f"Season {season_id}"),
                       *[(f"../{team_href(t)}", t)
                         for t in (game.sheet.away.team, game.sheet.home.team)]])


def _score(sheet: Scoresheet) -> str:
    """A game's score as the series tables show it: away-home, OT or SO after it."""
    extra = f" {sheet.decided}" if sheet.decided in ("OT", "SO") else ""
    return f"{sheet.away.goals}-{sheet.home.goals}{extra}"


def _postseason_files(bracket: BracketView, lottery: LotteryView, names: dict[str, str],
                      scores: dict[str, str], written: dict[str, str],
                      loaded: Mapping[str, Any]) -> dict[str, str]:
    """The playoffs page (bracket, each series' games, the lottery) and the page of each
    playoff game the season's own games did not already give (a playoff game's stream
    may stand apart from the regular season's); ``loaded``: the stored playoff games."""
    files: dict[str, str] = {}
    for game_id in (g for r in bracket.rounds for s in r.series for g in s.games):
        if game_href(game_id) in written or game_id not in loaded:
            continue
        game = loaded[game_id]
        scores[game_id] = _score(game.sheet)
        files[game_href(game_id)] = _game_page(game, bracket.season)
    files[PLAYOFFS] = postseason_page(bracket, lottery, names, scores, css=STYLE,
                                      nav=[("index.html", f"Season {bracket.season}")])
    return files


Site = Callable[[EventStore, str], dict[str, str]]
"""A season system's own site (Matrix Hockey's): store, season id -> file name -> text."""


def season_files(store: EventStore, season_id: str,
                 progress: Callable[[int, int], None] | None = None, *,
                 sites: Mapping[str, Site] | None = None) -> dict[str, str]:
    """Every page of a season's site, by its path in the site's folder, and the style
    sheet its pages share (a game page alone, ``report GAME``, has it inline).
    ``progress(done, total)`` hears of each game's page as it is made, then of each
    player's (the total grows by the players once the games are read). ``sites``: each
    season system's own site by its name (the command line's registry hands them down,
    replay/cli/app.py), for a season stream of such a system."""
    own = (sites or {}).get(store.info(season_id).system) if store.exists(season_id) else None
    if own is not None:  # a season system's own site (Matrix)
        return own(store, season_id)
    season = load_season(store, season_id)
    # the whole league first, then each conference and each division (NHL.com's views)
    tables = [(t.title, t.records) for t in standings_tables(store, season, "all")]
    numbers = {f"{season_id}-{n:04d}": n for n, _, _ in season.created.schedule}
    files: dict[str, str] = {STYLE: render("_style.css.j2")}
    games: list[SiteGame] = []
    unit = None
    total = len(season.game_ids)
    for done, game_id in enumerate(season.game_ids, start=1):
        game = load_game(store, game_id)
        games.append(SiteGame.of(numbers.get(game_id, 0), game))
        unit = game.unit
        files[game_href(game_id)] = _game_page(game, season_id)
        if progress is not None:
            progress(done, total)
    events = [row.event for row in store.read(season_id)]
    bracket, lottery = bracket_view(season_id, events), lottery_view(events)
    # the postseason's games, in the bracket's order: its own sections of the pages
    loaded = {g: load_game(store, g) for r in bracket.rounds for s in r.series
              for g in s.games if store.exists(g)}
    site = build_season_site(season_id, season.created.league, tables, games,
                             game_proofs(store, season_id),
                             [SiteGame.of(0, g) for g in loaded.values()],
                             unit or next((g.unit for g in loaded.values()), None))
    if bracket.opened or lottery.opened:
        site = replace(site, postseason=PLAYOFFS)
        scores = {g.sheet.game_id: _score(g.sheet) for g in games}
        files.update(_postseason_files(bracket, lottery, season.names, scores, files, loaded))
    recorded = [e for e in events if isinstance(e, OddsRecorded)]
    if recorded:  # docs/odds.md
        site = replace(site, odds=ODDS)
        files[ODDS] = odds_page(season_id, recorded, season.names, STYLE,
                                [("index.html", f"Season {season_id}")])
    files["index.html"] = render("season.html.j2", site=site, nav=[], css=STYLE)
    for team in site.teams:
        files[team_href(team.team)] = render("team.html.j2", site=site, team=team, css=f"../{STYLE}",
                                             nav=[("../index.html", f"Season {season_id}")])
    pages = total + len(site.players)
    for done, player in enumerate(site.players, start=total + 1):
        files[player_href(player.team, player.player)] = render(
            "player.html.j2", site=site, player=player, css=f"../{STYLE}",
            nav=[("../index.html", f"Season {season_id}"),
                 (f"../{team_href(player.team)}", player.team_name)])
        if progress is not None:
            progress(done, pages)
    return _with_banner(files, odds_runs(store, season_id))


def _with_banner(files: dict[str, str], notes: list[str]) -> dict[str, str]:
    """Every page of a season written by ``rinklog odds --replay`` says what it is at its
    top (issue 32): the banner right after the ``<body>`` that base.html.j2 opens once."""
    if not notes:
        return files
    banner = render("_banner.html.j2", notes=notes)
    return {path: page.replace("<body>\n", f"<body>\n{banner}", 1) if path.endswith(".html")
            else page for path, page in files.items()}
