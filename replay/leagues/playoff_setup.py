"""A playoff game's setup beyond its season's: the ``playoff`` game option (DICE Hockey 13;
R-post-OT) and its starting goalies (Hockey Bones draft league rule 27, as the default
coach applies it, engine.league.playoff_goalies, over a system kit's goalies and their
cards' pro games). Shared by ``rinklog playoffs`` and the audit."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import msgspec

from engine.league.playoff_goalies import PlayoffGoalie, StarterPick, default_playoff_starter
from events.errors import RinklogError
from replay.leagues.naming import PLAYOFF_OPTION
from replay.systems import Kit
from replay.tooling.game_setup import GameOptions

__all__ = ["playoff_options", "playoff_pick", "playoff_starter"]


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
