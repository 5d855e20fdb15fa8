"""How a season names its games and seeds their dice: the season's runner and the audit
both derive them from the season id, seed and schedule number, so neither is stored apart
from the chain."""

from __future__ import annotations

from engine.dice import odds_run_seed

__all__ = ["PLAYOFF_NUMBER", "PLAYOFF_OPTION", "game_seed", "is_playoff_game", "odds_run_seed",
           "playoff_game_id", "playoff_seed", "season_game_id"]


def season_game_id(season_id: str, number: int) -> str:
    return f"{season_id}-{number:04d}"


def game_seed(seed: str, number: int) -> str:
    return f"{seed}/{number}"


# A playoff game (issue 22) has no number in the schedule (GameCreated.number 0): its id
# and its dice seed name it by round, series slot and game of the series instead.
PLAYOFF_NUMBER = 0
PLAYOFF_OPTION = "playoff"
"""The game option of a playoff game (DICE Hockey 13; Hockey Bones and FaceOff: ruling
R-post-OT): overtime until a goal, no shootout, no tie."""


def playoff_game_id(season_id: str, round: int, slot: int, game: int) -> str:
    return f"{season_id}-p{round}-{slot}-{game}"


def playoff_seed(seed: str, round: int, slot: int, game: int) -> str:
    return f"{seed}/p{round}-{slot}-{game}"


def is_playoff_game(season_id: str, game_id: str) -> bool:
    """Whether ``game_id`` names a playoff game of the season (``{season}-p...``)."""
    return game_id.startswith(f"{season_id}-p")

