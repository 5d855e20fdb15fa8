"""What a season's bracket has made ready to play (issue 22, R-post-play): the *wave*
(game n of every open series of the round, n the lowest such, in slot order), where each
of its games stands (not started, being played at the table, ended at the table) and who
is out of it (R-post-absent). Read from the season stream and the games stored; shared
by ``rinklog playoffs`` (replay/leagues/playoffs.py), a playoff game at the table
(replay/leagues/playoff_table.py) and ``rinklog bracket``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.league.playoffs import Bracket, ScheduledGame, fold, next_games
from events.common import GameEnded
from events.errors import RinklogError
from events.league import SeasonCreated
from events.postseason import (
    LotteryDraw,
    LotteryOpened,
    LotteryOrderSet,
    PlayoffsOpened,
    PostseasonEvent,
)
from events.store import EventStore
from replay.leagues.availability import PlayoffAvailability, stored_playoff_availability
from replay.leagues.ledger import ledger_of
from replay.leagues.naming import playoff_game_id
from replay.leagues.stored_seasons import load_season

__all__ = ["AT_THE_TABLE", "ENDED_AT_THE_TABLE", "READY", "WaveGame", "bracket_events",
           "bracket_of", "ended", "events_if_ended", "playoff_availability", "postseason_events",
           "ready_games", "recorded_games", "scheduled", "wave_of", "wave_status"]

READY, AT_THE_TABLE, ENDED_AT_THE_TABLE = "ready", "at the table", "ended at the table"


@dataclass(frozen=True)
class WaveGame:
    """A game of the wave the bracket has made ready (game n of every open series of the
    round, n the lowest such): its id, rinks and where it stands."""

    game_id: str
    round: int
    slot: int
    game: int
    home: str
    away: str
    status: str  # "ready" (not started), "at the table" (being played), "ended at the table"


def postseason_events(store: EventStore, season_id: str) -> list[Any]:
    """The postseason events a season stream holds, in order."""
    return [r.event for r in store.read(season_id) if isinstance(r.event, PostseasonEvent)]


def bracket_events(events: list[Any]) -> list[Any]:
    """The bracket's events among a season's postseason events (the lottery's left out)."""
    return [e for e in events if not isinstance(e, LotteryOpened | LotteryDraw | LotteryOrderSet)]


def bracket_of(store: EventStore, season_id: str) -> Bracket | None:
    """The season's bracket as its stream records it; None before the playoffs open."""
    events = bracket_events(postseason_events(store, season_id))
    return fold(events) if any(isinstance(e, PlayoffsOpened) for e in events) else None


def wave_of(bracket: Bracket) -> list[ScheduledGame]:
    """The next wave: game n of every open series of the round still to play its game n,
    n the lowest such, in slot order. So the games are stored in (round, game, slot)
    order whatever run stored the ones before (a run stopped inside a wave goes on with
    the rest of that wave, not the next games of the series it had finished)."""
    games = next_games(bracket)
    first = min(g.game for g in games)
    return [g for g in games if g.game == first]


def ended(store: EventStore, game_id: str) -> GameEnded | None:
    """A stored game's GameEnded, None while it is not over."""
    version = store.version(game_id)
    last = store.read(game_id, version, version)[0].event
    return last if isinstance(last, GameEnded) else None


def wave_status(store: EventStore, season_id: str, wave: list[ScheduledGame]) -> list[WaveGame]:
    """Where each game of the wave stands. A game of the wave already in the database has
    no series record yet: a game played at the table (its season marked it started) is
    being played or waits for its record; any other one is another run writing it, or was
    written some other way, and the bracket cannot go past it."""
    started = ledger_of(store, season_id).started
    out = []
    for game in wave:
        game_id = playoff_game_id(season_id, game.round, game.slot, game.game)
        status = READY
        if game_id in started:
            status = ENDED_AT_THE_TABLE if ended(store, game_id) else AT_THE_TABLE
        elif store.exists(game_id):
            raise RinklogError(f"playoff game {game_id} is stored but its series has no "
                               "record of it yet: another command is storing it (run this "
                               "again once it ends), or it was written some other way "
                               "(rinklog audit --all names it)")
        out.append(WaveGame(game_id, game.round, game.slot, game.game, game.home, game.away,
                            status))
    return out


def ready_games(store: EventStore, season_id: str) -> list[WaveGame]:
    """The games the bracket has made ready (the wave: game n of every open series of the
    round, n the lowest such, in slot order) and where each stands; empty before the
    playoffs open and once a champion is crowned."""
    load_season(store, season_id)
    bracket = bracket_of(store, season_id)
    if bracket is None or bracket.champion is not None:
        return []
    return wave_status(store, season_id, wave_of(bracket))


def scheduled(game: WaveGame) -> ScheduledGame:
    return ScheduledGame(game.round, game.slot, game.game, game.home, game.away)


def events_if_ended(store: EventStore, game: WaveGame) -> list[Any] | None:
    """A table game's events once it has ended (what it rules for later games)."""
    if game.status != ENDED_AT_THE_TABLE:
        return None
    return [row.event for row in store.read(game.game_id)]


def playoff_availability(store: EventStore, created: SeasonCreated, bracket: Bracket,
                         system: Any) -> PlayoffAvailability:
    """Who is out of the playoff games to come: the regular season's stored games, then
    the playoff games the bracket has recorded, each team's in order (R-post-absent)."""
    return stored_playoff_availability(store, created.season_id, created.schedule,
                                       system, recorded_games(bracket))


def recorded_games(bracket: Bracket) -> list[tuple[str, str, str]]:
    """The playoff games the bracket has recorded (game id, home, away), in the order
    their teams played them: (round, game, slot), the waves' order (R-post-absent)."""
    played = sorted((s.round, g.game, s.slot, g.game_id, g.home, g.away)
                    for r in bracket.rounds for s in r.series for g in s.games)
    return [(gid, home, away) for *_, gid, home, away in played]
