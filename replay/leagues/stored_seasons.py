"""Season tooling over a database: which games belong to a season, its standings and
its leaders. Library functions; the CLI in replay/cli/season.py prints them."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import msgspec

from engine.systems import system_of
from events.common import GameCreated, GameEnded
from events.errors import RinklogError, UnknownGame
from events.league import SeasonCreated
from events.plurals import counted
from events.store import EventStore, StreamInfo
from projections import store as read_models
from projections.postseason import bracket_view, lottery_view
from projections.ranks import competition_ranks, leader_order
from projections.standings import Record, build_standings, grouped_standings
from projections.stats import GOALIE_COUNTS, goalie_figures
from replay.games.game_streams import season_kinds
from replay.games.registry import ruleset_of_season
from replay.leagues.ledger import RecordedGame as RecordedGame  # a season's recorded games
from replay.leagues.ledger import recorded_games as recorded_games  # ...in ledger order
from replay.leagues.naming import is_playoff_game


@dataclass(frozen=True)
class Season:
    created: SeasonCreated
    game_ids: list[str]  # the season's games stored so far, in schedule order

    @property
    def names(self) -> dict[str, str]:
        return self._names

    _names: dict[str, str]


def seasons(store: EventStore) -> list[str]:
    return [info.stream for info in store.streams(kind="season")]


@dataclass(frozen=True)
class SeasonSummary:
    """One row of ``rinklog seasons``: a season, its games played and left, and where its
    postseason stands. ``games_left`` is None for a refereed season (Matrix Hockey), whose
    games are drawn week by week."""

    season: str
    kind: str  # the stream kind: season, or a refereed season's (matrix_season)
    system: str
    league: str
    games_played: int
    games_left: int | None
    postseason: str

    def to_json(self) -> dict:
        return asdict(self)


def season_summaries(store: EventStore) -> list[SeasonSummary]:
    """Every season of the database: the league seasons, then the refereed ones."""
    games = store.streams(kind="game")
    rows = [_league_summary(store, info, games) for info in store.streams(kind="season")]
    return rows + [SeasonSummary(info.stream, info.kind, info.system,
                                 str(info.meta.get("league", "")), int(info.meta.get("games", 0)),
                                 None, _refereed_state(info.meta))
                   for kind in sorted(season_kinds()) for info in store.streams(kind=kind)]


def _league_summary(store: EventStore, info: StreamInfo,
                    games: list[StreamInfo]) -> SeasonSummary:
    events = [row.event for row in store.read(info.stream)]
    created = events[0]
    assert isinstance(created, SeasonCreated)
    played = sum(1 for g in games if g.meta.get("season") == info.stream
                 and g.meta.get("parent") is None and "decided" in g.meta
                 and g.stream.startswith(f"{info.stream}-")
                 and not is_playoff_game(info.stream, g.stream))
    return SeasonSummary(info.stream, info.kind, system_of(ruleset_of_season(created)).name,
                         created.league, played, len(created.schedule) - played,
                         postseason_state(info.stream, events))


def postseason_state(season_id: str, events: list) -> str:
    """``not started``, ``playoffs round N of M`` or ``champion X``, then ``lottery
    drawn`` once it is (from the season stream's events)."""
    bracket, lottery = bracket_view(season_id, events), lottery_view(events)
    state = "not started"
    if bracket.champion:
        state = f"champion {bracket.champion}"
    elif bracket.rounds:
        state = f"playoffs round {bracket.rounds[-1].round} of {bracket.round_count}"
    return state + ("; lottery drawn" if lottery.drawn else "")


def _refereed_state(meta: dict) -> str:
    """A refereed season has no playoffs: it is open (its weeks played) or closed."""
    if meta.get("closed"):
        return "closed"
    return f"open, {counted(int(meta.get('weeks_played', 0)), 'week')} played"


def load_season(store: EventStore, season_id: str | None = None,
                include_branches: bool = False, playoffs: bool = False) -> Season:
    """A season stream (the only or the newest one when ``season_id`` is None) and its
    games; branches of its games (what-ifs, meta ``parent``) only if ``include_branches``.
    Its regular season's games, or with ``playoffs`` its postseason's (never both: a
    playoff game counts in no regular-season standings, leaders or stats)."""
    known = seasons(store)
    if season_id is None:
        if not known:
            raise UnknownGame(f"{store.path}: no season in this database (run `rinklog season`)")
        season_id = known[-1]
    if season_id not in known:
        raise UnknownGame(f"no season {season_id!r} in {store.path} "
                          f"(seasons: {', '.join(known) or 'none'})")
    created = store.read(season_id, 1, 1)[0].event
    assert isinstance(created, SeasonCreated)
    prefix = f"{season_id}-"
    games = store.streams(kind="game")
    ids = [info.stream for info in games if info.stream.startswith(prefix)
           and info.meta.get("season") == season_id and info.meta.get("parent") is None
           and is_playoff_game(season_id, info.stream) == playoffs]
    if include_branches:
        ours = set(ids)
        for info in games:  # branches of branches follow their parents
            if info.meta.get("parent") in ours:
                ours.add(info.stream)
                ids.append(info.stream)
    names: dict[str, str] = {}
    system = system_of(ruleset_of_season(created))
    for team_id, digest in created.team_hashes.items():
        team = msgspec.json.decode(store.get_blob(digest), type=system.team_type)
        names[team_id] = team.name
        names.update({p.id: p.name for p in system.roster(team)})
    return Season(created, sorted(ids), names)


def in_postseason(games: dict[str, StreamInfo], stream: str) -> bool:
    """Whether game ``stream`` is a playoff game (``{season}-p...``, ruling R-post-play),
    or a branch of one (a branch follows the game it was made from); ``games``: every
    game stream's info by id."""
    info, seen = games[stream], {stream}
    while (parent := info.meta.get("parent")) in games and parent not in seen:
        seen.add(parent)
        info = games[parent]
    season = info.meta.get("season")
    return bool(season) and is_playoff_game(season, info.stream)


def stats_games(store: EventStore, games: list[str], *, all_games: bool = False,
                include_branches: bool = False, playoffs: bool = False) -> list[str]:
    """The games ``rinklog stats`` sums (issue 34: a regular season and a postseason are
    never summed together): ``games`` as given, or with ``all_games`` every game but
    branches (unless ``include_branches``); of those, the playoff games with ``playoffs``,
    else every other game (a season's regular games, and games of no season). A given
    game of the other part is refused, named in one line."""
    streams = {info.stream: info for info in store.streams(kind="game")}
    if all_games:
        return [g for g, info in streams.items()
                if (include_branches or info.meta.get("parent") is None)
                and in_postseason(streams, g) == playoffs]
    for game in games:
        if game in streams and in_postseason(streams, game) != playoffs:
            raise RinklogError(
                f"{game} is a playoff game: give --playoffs (a postseason's games are summed "
                "apart from the regular season's)" if not playoffs else
                f"{game} is no playoff game: --playoffs sums the postseason's games only")
    return list(games)


def standings(store: EventStore, season: Season) -> list[Record]:
    """Standings from each game's first and last event (no need to read the rest)."""
    return build_standings(_results(store, season))


def division_standings(store: EventStore, season: Season,
                       by: str = "division") -> list[tuple[str, list[Record]]]:
    """Standings per division or conference, from the league layout the season recorded."""
    return [(t.group, t.records) for t in standings_tables(store, season, by) if t.kind == by]


GROUPINGS = ("league", "conference", "division", "all")  # `standings --by`


@dataclass(frozen=True)
class StandingsTable:
    """One table of ``standings --by``: ``kind`` league, conference or division, its
    ``group`` (the league's conference or division name; "League") and its records, ranked
    within the table."""

    kind: str
    group: str
    records: list[Record]

    @property
    def title(self) -> str:
        """"League", "Boreal Conference", "Tamarack Division" (a name that already ends
        with the word keeps it once)."""
        if self.kind == "league":
            return self.group
        word = self.kind.capitalize()
        return self.group if self.group.endswith(word) else f"{self.group} {word}"


def standings_tables(store: EventStore, season: Season, by: str = "league"
                     ) -> list[StandingsTable]:
    """The season's standings as NHL.com's views show them: the whole ``league``, a table
    per ``conference`` or per ``division``, or ``all`` three (the league's first); a league
    with no conferences recorded has only its league table."""
    results = _results(store, season)
    tables = [StandingsTable("league", "League", build_standings(results))] \
        if by in ("league", "all") or not season.created.divisions else []
    for kind in ("conference", "division"):
        if by in (kind, "all") and season.created.divisions:
            groups: dict[str, list[str]] = {}
            for conference, division, teams in season.created.divisions:
                groups.setdefault(division if kind == "division" else conference,
                                  []).extend(teams)
            tables += [StandingsTable(kind, title, records)
                       for title, records in grouped_standings(results, groups.items())]
    return tables


def _results(store: EventStore, season: Season) -> list[tuple[GameCreated, GameEnded]]:
    pairs = []
    for game_id in season.game_ids:
        version = store.version(game_id)
        first = store.read(game_id, 1, 1)[0].event
        last = store.read(game_id, version, version)[0].event
        if isinstance(first, GameCreated) and isinstance(last, GameEnded):
            pairs.append((first, last))
    return pairs


SKATER_BOARDS = {"G": "g", "A": "a", "P": "p", "+/-": "plus_minus", "PIM": "pim"}


def _board(lines: list[dict], top: int, lowest_first: bool = False) -> list[dict]:
    """A board's first ``top`` lines, best first, each with its shared ``rank``
    (projections/ranks.py: 1, 2, 2, 4; in a tie fewer games first, then the name)."""
    lines = sorted(lines, key=lambda r: leader_order(r["value"], r["gp"], r["name"], r["player"],
                                                     lowest_first=lowest_first))
    ranks = competition_ranks([r["value"] for r in lines])
    return [{"rank": rank, **r} for rank, r in zip(ranks, lines, strict=True)][:top]


def leaders(store: EventStore, season: Season, top: int = 10,
            min_goalie_games: int = 5) -> dict[str, list[dict]]:
    """Leaders by G, A, P, +/-, PIM, SV% and GAA, from the stored ``stats`` read model
    (a season keeps it current as it is played; games stored otherwise are folded now).
    The goalie boards hold the goalies with ``min_goalie_games`` games or more (while none
    has that many yet: those with the most), their SV% and GAA those of
    :func:`projections.stats.goalie_figures`, as the season's pages show them. Each line
    has its ``rank``, shared by equal figures (projections/ranks.py)."""
    read_models.update(store, season.game_ids, projections=("stats",))
    db = store.connection
    marks = ",".join("?" * len(season.game_ids)) or "''"
    boards: dict[str, list[dict]] = {}
    # A goalie's goals, assists and penalty minutes (16.00, 11.10 X) are on his goalie line
    # (issue 34): the G, A, P and PIM boards read both lines, a goalie's gp his games in net.
    for title, column in SKATER_BOARDS.items():
        lines = "rm_player_stats" if column not in GOALIE_COUNTS else (
            f"(SELECT game_id, team, player, gp, {column} FROM rm_player_stats UNION ALL "
            f"SELECT game_id, team, player, gp, {column} FROM rm_goalie_stats)")
        rows = db.execute(
            f"SELECT team, player, SUM(gp), SUM({column}) AS v FROM {lines} "
            f"WHERE game_id IN ({marks}) GROUP BY team, player", season.game_ids).fetchall()
        boards[title] = _board([{"team": t, "player": p, "name": season.names.get(p, p),
                                 "gp": gp, "value": v} for t, p, gp, v in rows], top)
    goalies = db.execute(
        f"SELECT team, player, SUM(gp), SUM(sa), SUM(sv), SUM(ga), SUM(toi), "
        f"SUM(games_in_net) FROM rm_goalie_stats WHERE game_id IN ({marks}) "
        f"GROUP BY team, player HAVING SUM(gp) > 0", season.game_ids).fetchall()
    enough = min(min_goalie_games, max((row[2] for row in goalies), default=0))
    lines = [{"team": t, "player": p, "name": season.names.get(p, p), "gp": gp,
              **asdict(goalie_figures(sa, sv, ga, toi, games))}
             for t, p, gp, sa, sv, ga, toi, games in goalies if gp >= enough]
    boards["SV%"] = _board([{**g, "value": g["sv_pct"]} for g in lines
                            if g["sv_pct"] is not None], top)
    boards["GAA"] = _board([{**g, "value": g["gaa"]} for g in lines if g["gaa"] is not None],
                           top, lowest_first=True)
    return boards
