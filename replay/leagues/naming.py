"""How a season names its games and seeds their dice: the season's runner and the audit
both derive them from the season id, seed and schedule number, so neither is stored apart
from the chain."""

from __future__ import annotations

__all__ = ["game_seed", "season_game_id"]


def season_game_id(season_id: str, number: int) -> str:
    return f"{season_id}-{number:04d}"


def game_seed(seed: str, number: int) -> str:
    return f"{seed}/{number}"
