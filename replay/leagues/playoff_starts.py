"""A playoff game's starting goalies: Hockey Bones draft league rule 27, as the default
coach applies it (engine.league.playoff_goalies), over a system kit's goalies and their
cards' pro games. Shared by ``rinklog playoffs`` and the audit's re-check."""

from __future__ import annotations

from typing import Any

from engine.league.playoff_goalies import PlayoffGoalie, StarterPick, default_playoff_starter

__all__ = ["playoff_pick", "playoff_starter"]


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
