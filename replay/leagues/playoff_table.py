"""A playoff game played at the table (issue 22): ``rinklog play --season S --game ID`` for
a game of the wave the bracket has made ready (R-post-play). ``rinklog playoffs`` never
plays it: it records its series result in its slot once it has ended."""

from __future__ import annotations

from events.errors import RinklogError
from events.store import EventStore
from replay.games.coach_habits import game_notes
from replay.games.game_streams import create_game
from replay.leagues.naming import PLAYOFF_NUMBER
from replay.leagues.playoff_setup import playoff_goalies, season_setup
from replay.leagues.playoff_wave import (
    READY,
    bracket_of,
    playoff_availability,
    scheduled,
    wave_of,
    wave_status,
)
from replay.leagues.season_stream import SeasonStream
from replay.leagues.stored_seasons import load_season

__all__ = ["playoff_table_game"]


def playoff_table_game(store: EventStore, season_id: str, game_id: str) -> str:
    """Create playoff game ``game_id`` of a stored season as a game played at the table
    (``rinklog play --season S --game ID``): a game of the wave the bracket has made
    ready, with the teams, rinks, cards, charts and options ``rinklog playoffs`` would give
    it (the ``playoff`` option, R-post-OT), rule 27's starting goalies and who is out of
    it (R-post-absent), typed dice (``live``: it may stop and resume). Marked started in
    the season stream with its first events; once it ends the season records it (mode
    ``table``) and the next ``rinklog playoffs`` records its series result in its slot.
    Returns the game id."""
    season = SeasonStream.at(store, season_id)  # what this command decides from
    created = load_season(store, season_id).created
    bracket = bracket_of(store, season_id)
    if bracket is None:
        raise RinklogError(f"the playoffs of {season_id} are not open yet: `rinklog playoffs "
                           f"{season_id} --ready` opens them and lists the games to play")
    if bracket.champion is not None:
        raise RinklogError(f"the playoffs of {season_id} are over (champion "
                           f"{bracket.champion}): no playoff game left to play")
    wave = wave_status(store, season_id, wave_of(bracket))
    game = next((g for g in wave if g.game_id == game_id), None)
    if game is None:
        raise RinklogError(f"{game_id} is not a playoff game of {season_id} ready to play "
                           f"(ready: {', '.join(g.game_id for g in wave)})")
    if game.status != READY:
        raise RinklogError(f"playoff game {game_id} is already in the database; resume it "
                           f"with rinklog play --resume {game_id}")
    setup, ledger = season_setup(store, created)
    goalies = playoff_goalies(store, setup, bracket, scheduled(game))
    out = playoff_availability(store, created, bracket, setup.system)
    out.add(game_id, game.home, game.away)
    made = create_game(setup, setup.team(game.home), setup.team(game.away), game_id=game_id,
                       goalies=goalies, season=season_id, number=PLAYOFF_NUMBER, live=True,
                       absent=out.absent(game_id))  # R-post-absent: games missed carry on
    made.events.extend(game_notes(({}, {}), season_id, ledger.opening))
    season.start_table_game(game_id, PLAYOFF_NUMBER, made.events, system=setup.system.name,
                            meta=made.meta())
    return game_id
