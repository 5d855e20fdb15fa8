"""A game's coach as its events record it (docs/coach.md): the *habits* of the system's
default coach (per side, only the settings that differ from the default; a coach file's
settings), the coach they give back, and the notes a new game carries after its
GameCreated (its season's opening, its coach's habits)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.base import Event
from events.league import GameCoachSet, SeasonGameOpened
from replay.systems import kit_for

Habits = tuple[dict[str, Any], dict[str, Any]]  # (home, away): settings that differ


def _changed(policy: Any) -> dict[str, Any]:
    default = type(policy)()
    return {name: msgspec.to_builtins(getattr(policy, name))
            for name in policy.__struct_fields__
            if getattr(policy, name) != getattr(default, name)}


def coach_habits(setup: Any) -> Habits:
    """The habits a system's coach setup (``Kit.coach_setup_file``'s value; None or ``()``:
    the default coach) gives, as recorded: per side, only what differs from the default."""
    if not setup:
        return {}, {}
    home, away = setup
    return _changed(home), _changed(away)


def habits_of_coach(coach: Any) -> Habits:
    """The habits of a coach object a simulated game is played with (a Hockey Bones
    DefaultCoach keeps its per-side policies; a coach without any is the default)."""
    policies = getattr(coach, "policies", None)
    if not isinstance(policies, dict):
        return {}, {}
    return coach_habits((policies["home"], policies["away"]))


def coach_setup(ruleset: str, habits: Habits) -> Any:
    """The coach setup recorded habits give (the inverse of :func:`coach_habits`);
    ValueError when they are not settings of the ruleset's coach."""
    default = kit_for(ruleset).default_coach_setup
    if not default:
        if any(habits):
            raise ValueError(f"the {ruleset} default coach has no coach-file settings")
        return default
    try:
        return tuple(msgspec.convert({**msgspec.to_builtins(d), **h}, type(d))
                     for d, h in zip(default, habits, strict=True))
    except msgspec.ValidationError as err:
        raise ValueError(f"coach settings: {err}") from None


def coach_for(ruleset: str, habits: Habits) -> Any:
    """The default coach that plays with ``habits`` (ValueError as :func:`coach_setup`)."""
    return kit_for(ruleset).season_coach(coach_setup(ruleset, habits))


def game_notes(habits: Habits, season: str = "", opening: str = "") -> list[Event]:
    """The events a new game carries right after its GameCreated: the season opening it
    is played under (a season game of a season that keeps records) and its coach's
    habits (only when some differ from the default coach's)."""
    notes: list[Event] = []
    if season and opening:
        notes.append(SeasonGameOpened(season=season, opening=opening))
    if any(habits):
        notes.append(GameCoachSet(home=habits[0], away=habits[1]))
    return notes
