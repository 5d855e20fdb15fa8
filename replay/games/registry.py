"""What the tooling takes from the game-system registry when nothing names a system: one
place for the default, so no shared module spells a system's name."""

from __future__ import annotations

from typing import Any

from engine.systems import SYSTEMS

__all__ = ["DEFAULT_RULESET", "ruleset_of_season"]

DEFAULT_RULESET: str = next(iter(next(iter(SYSTEMS.values())).rulesets))
"""The ruleset a game or a league is played under when none is named (the registry's
first system's first ruleset: Hockey Bones), and what a stored season or game that names
none was played under (their events leave it UNSET, so their bytes are unchanged)."""


def ruleset_of_season(season: Any) -> str:
    """The ruleset a stored season (its SeasonCreated) was played under: the one it names,
    else the default (a season of the default ruleset leaves it UNSET)."""
    return season.ruleset if isinstance(season.ruleset, str) else DEFAULT_RULESET
