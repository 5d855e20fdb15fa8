"""A playoff game's setup beyond its season's: the ``playoff`` game option (DICE Hockey 13;
R-post-OT) and its starting goalies (Hockey Bones draft league rule 27, as the default
coach applies it, engine.league.playoff_goalies, over a system kit's goalies and their
cards' pro games); the season's setup with it (:func:`season_setup`). Shared by ``rinklog
playoffs``, a playoff game at the table and the audit."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import msgspec

from engine.league.playoff_goalies import PlayoffGoalie, StarterPick, default_playoff_starter
from engine.league.playoffs import Bracket, ScheduledGame
from engine.systems import system_of
from events.common import GameCreated
from events.errors import RinklogError
from events.league import SeasonCreated
from events.store import EventStore
from replay.games.game_setup import GameOptions, GameSetup
from replay.games.registry import ruleset_of_season
from replay.leagues.ledger import SeasonLedger, ledger_of, season_game_setup
from replay.leagues.naming import PLAYOFF_OPTION
from replay.systems import Kit, kit_for_system

__all__ = ["playoff_goalies", "playoff_options", "playoff_pick", "playoff_starter",
           "season_setup", "series_starts"]


def playoff_pick(kit: Any, team: Any, starts: dict[str, int]) -> StarterPick | None:
    """Rule 27's default coach's pick (R-post-27c): the first goalie of the team's order
    who may still start in the series (his card's games give his limit), else the highest
    limit's, an overplay. None for a card set without pro games (DICE Hockey's cards carry
    none, R-post-27d): rule 27 does not apply."""
    shares = kit.goalie_shares(team)
    if not any(games for _, games in shares):
        return None
    return default_playoff_starter([PlayoffGoalie(g, games) for g, games in shares], starts)


def playoff_starter(kit: Any, team: Any, starts: dict[str, int]) -> str:
    """The starting goalie of a playoff game: rule 27's pick, or with no pro games on the
    cards the team's first goalie."""
    pick = playoff_pick(kit, team, starts)
    return kit.goalie_shares(team)[0][0] if pick is None else pick.goalie


def playoff_options(options: GameOptions, rules: Any, kit: Kit) -> GameOptions:
    """A season's game ``options`` with the ``playoff`` option of ruleset ``rules`` (by
    name, as a game's optional rule is given, recorded as its ``kit`` records them);
    RinklogError when the ruleset has no such option."""
    if PLAYOFF_OPTION not in rules.option_names:
        raise RinklogError(f"{rules.title} has no {PLAYOFF_OPTION!r} game option (a "
                           "playoff game's overtime, R-post-OT), so its postseason cannot be "
                           "played by this rinklog")
    merged = dict(options.system)
    for key, value in kit.game_options((PLAYOFF_OPTION,)).items():
        merged[key] = _merged(merged.get(key), value)
    return replace(options, system=merged)


def _merged(have: Any, add: Any) -> Any:
    """An option record with another's turned on: names joined, a record's set fields."""
    if have is None:
        return add
    if isinstance(add, tuple | list) and isinstance(have, tuple | list):
        return tuple(sorted({*have, *add}))
    if isinstance(add, msgspec.Struct) and type(add) is type(have):
        default = type(add)()
        changed = {f: getattr(add, f) for f in add.__struct_fields__
                   if getattr(add, f) != getattr(default, f)}
        return msgspec.structs.replace(have, **changed)
    return add


def season_setup(store: EventStore, created: SeasonCreated) -> tuple[GameSetup, SeasonLedger]:
    """The setup of a season's playoff games from its stream (cards, charts, options, the
    coach habits it recorded, and the ``playoff`` option) and its ledger; RinklogError for
    a season stored before season records or a ruleset without the option."""
    ruleset = ruleset_of_season(created)
    system = system_of(ruleset)
    kit = kit_for_system(system.name)
    teams = {tid: msgspec.json.decode(store.get_blob(digest), type=system.team_type)
             for tid, digest in created.team_hashes.items()}
    charts = msgspec.json.decode(store.get_blob(created.charts_hash), type=system.charts_type)
    ledger = ledger_of(store, created.season_id)
    if ledger.coach is None:
        raise RinklogError(f"season {created.season_id} was stored before seasons recorded "
                           "their games: it has no postseason")
    setup = season_game_setup(created, teams, charts, (ledger.coach.home, ledger.coach.away))
    setup = replace(setup, options=playoff_options(setup.options, setup.rules, kit))
    return setup, ledger


def series_starts(store: EventStore, bracket: Bracket, game: ScheduledGame) -> dict[str, int]:
    """Each goalie's starts in this series so far (rule 27 counts a start, R-post-27b)."""
    starts: dict[str, int] = {}
    for played in bracket.series(game.round, game.slot).games:
        created = store.read(played.game_id, 1, 1)[0].event
        assert isinstance(created, GameCreated)
        for goalie in (created.home_goalie, created.away_goalie):
            starts[goalie] = starts.get(goalie, 0) + 1
    return starts


def playoff_goalies(store: EventStore, setup: GameSetup, bracket: Bracket,
                    game: ScheduledGame) -> tuple[str, str]:
    """The home and away starters of a series game (rule 27's default coach)."""
    starts = series_starts(store, bracket, game)
    return (playoff_starter(setup.kit, setup.team(game.home), starts),
            playoff_starter(setup.kit, setup.team(game.away), starts))
