"""The audit's re-check of a season's postseason (issue 22, docs/postseason.md).

The bracket is re-derived from what it stands on and compared, event by event, with the
postseason events the season stream records: the opening from the regular season's final
standings (rule 29's order, ``rinklog standings``) and the format the stream records
(engine.league.playoffs.open_playoffs); then each recorded series game from its own
stream (its id, home and away teams as the home-ice pattern gives them, its winner from
its GameEnded, its starting goalies as rule 27's default coach picks them), and what that
game brings (the series won at the right wins, the next round's pairings, the champion).
The first difference is the finding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from engine.league.formats import divisions_of
from engine.league.playoffs import Bracket, PlayoffError, fold, open_playoffs
from engine.league.playoffs import record_game as bracket_game
from engine.systems import system_of
from events.common import GameCreated, GameEnded
from events.formats import same_event
from events.league import SeasonCreated
from events.postseason import (
    LotteryDraw,
    LotteryOpened,
    LotteryOrderSet,
    PlayoffsOpened,
    PostseasonEvent,
    SeriesGameRecorded,
)
from events.store import EventStore
from replay.games.registry import ruleset_of_season
from replay.leagues.naming import playoff_game_id
from replay.leagues.playoff_setup import playoff_starter
from replay.leagues.stored_seasons import load_season, standings
from replay.systems import kit_for_system

__all__ = ["PostseasonFinding", "check_postseason"]

RULE = "9"


@dataclass(frozen=True)
class PostseasonFinding:
    seq: int  # the season stream's event where it differs
    expected: str
    recorded: str
    rule: str = RULE


def _describe(event: Any) -> str:
    return f"{type(event).__name__} {msgspec.json.encode(event).decode()}"


class _Differs(Exception):
    def __init__(self, finding: PostseasonFinding) -> None:
        self.finding = finding


def check_postseason(store: EventStore, season_id: str) -> PostseasonFinding | None:
    """The first difference between a stored season's postseason and the one its regular
    season and its playoff games give; None when they agree (or it has none)."""
    rows = store.read(season_id)
    created = rows[0].event
    assert isinstance(created, SeasonCreated)
    post = [(r.seq, r.event) for r in rows if isinstance(r.event, PostseasonEvent)
            and not isinstance(r.event, LotteryOpened | LotteryDraw | LotteryOrderSet)]
    if not post:
        return None
    try:
        _check(store, created, post)
    except _Differs as differs:
        return differs.finding
    return None


def _compare(post: list[tuple[int, Any]], at: int, expected: list[Any]) -> int:
    for i, want in enumerate(expected):
        if at + i >= len(post):
            raise _Differs(PostseasonFinding(post[-1][0] + 1, _describe(want),
                                             "end of the season stream"))
        seq, got = post[at + i]
        if not same_event(got, want):
            raise _Differs(PostseasonFinding(seq, _describe(want), _describe(got)))
    return at + len(expected)


def _check(store: EventStore, created: SeasonCreated, post: list[tuple[int, Any]]) -> None:
    seq, opened = post[0]
    if not isinstance(opened, PlayoffsOpened):
        raise _Differs(PostseasonFinding(seq, "PlayoffsOpened first", type(opened).__name__))
    order = [r.team for r in standings(store, load_season(store, created.season_id))]
    try:
        opening = open_playoffs(opened.format, order, divisions_of(created.divisions))
    except PlayoffError as err:
        raise _Differs(PostseasonFinding(seq, "a format and standings that make a bracket",
                                         str(err))) from None
    at = _compare(post, 0, opening)
    bracket: Bracket = fold(opening)
    system = system_of(ruleset_of_season(created))
    kit = kit_for_system(system.name)
    teams = {tid: msgspec.json.decode(store.get_blob(digest), type=system.team_type)
             for tid, digest in created.team_hashes.items()}
    while at < len(post):
        seq, record = post[at]
        if not isinstance(record, SeriesGameRecorded) or bracket.champion is not None:
            raise _Differs(PostseasonFinding(seq, "a SeriesGameRecorded of a series being "
                                             "played", _describe(record)))
        game_id = playoff_game_id(created.season_id, record.round, record.slot, record.game)
        winner = _game(store, bracket, record, game_id, seq, kit, teams)
        try:
            expected = bracket_game(bracket, record.round, record.slot, game_id, winner)
        except PlayoffError as err:
            raise _Differs(PostseasonFinding(seq, "a game of a series being played",
                                             str(err))) from None
        at = _compare(post, at, expected)
        bracket = fold(expected, bracket)


def _stored(store: EventStore, game_id: str, at: int, seq: int) -> Any:
    """Event ``at`` of a playoff game; its streams row (an index, never evidence) may
    count events that are not stored, which the record at ``seq`` then fails on."""
    rows = store.read(game_id, at, at)
    if not rows:
        raise _Differs(PostseasonFinding(seq, f"{game_id}: event {at} (its streams row has "
                                         f"{store.version(game_id)})", "not stored"))
    return rows[0].event


def _game(store: EventStore, bracket: Bracket, record: SeriesGameRecorded, game_id: str,
          seq: int, kit: Any, teams: dict[str, Any]) -> str:
    """The winner of a recorded series game from its own stream, once its id, rinks and
    starting goalies (rule 27) are the bracket's."""
    if not store.exists(game_id):
        raise _Differs(PostseasonFinding(seq, f"the game stream {game_id}", "none stored"))
    first = _stored(store, game_id, 1, seq)
    last = _stored(store, game_id, store.version(game_id), seq)
    if not isinstance(first, GameCreated) or not isinstance(last, GameEnded) \
            or last.winner == "none":
        raise _Differs(PostseasonFinding(seq, f"{game_id} a finished game with a winner",
                                         "unfinished, or no winner"))
    series = bracket.series(record.round, record.slot)
    starts: dict[str, int] = {}
    for played in series.games:
        prior = _stored(store, played.game_id, 1, seq)
        for goalie in (prior.home_goalie, prior.away_goalie):
            starts[goalie] = starts.get(goalie, 0) + 1
    home = series.home_of(len(series.games) + 1)
    away = series.low if home == series.high else series.high
    if (first.home.team_id, first.away.team_id) != (home, away):
        raise _Differs(PostseasonFinding(seq, f"{game_id}: {away} at {home} (home ice "
                                         f"{series.home_ice})", f"{first.away.team_id} at "
                                         f"{first.home.team_id}"))
    goalies = (playoff_starter(kit, teams[home], starts),
               playoff_starter(kit, teams[away], starts))
    if (first.home_goalie, first.away_goalie) != goalies:
        raise _Differs(PostseasonFinding(seq, f"{game_id}: starting goalies {goalies} "
                                         "(rule 27's default coach)",
                                         f"{(first.home_goalie, first.away_goalie)}", "27"))
    return first.home.team_id if last.winner == "home" else first.away.team_id
