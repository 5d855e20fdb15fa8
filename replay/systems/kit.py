"""What a game system's tooling kit holds (see replay/systems/__init__.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from events.common import FaceoffOptions

Root = str | Path | None  # a fixtures root (a league folder); None: the shipped fixtures


@dataclass(frozen=True)
class Prompter:
    """How a prompt coach talks to the person at the table: ``ask`` returns an answer
    (and raises to stop the game), ``out`` prints one line."""

    ask: Callable[[str], str]
    out: Callable[[str], None]


@dataclass(frozen=True)
class Kit:
    system: str
    find_team: Callable[[str, Root], Any]  # a team by id (UnknownTeam when missing)
    list_teams: Callable[[Root], list[Any]]
    default_charts: Callable[[Root], Any]  # the chart pack of a fixtures root
    game_charts: Callable[[Any, FaceoffOptions], Any]  # the pack a game's options call for
    prompt_coach: Callable[[Prompter], Any]  # dice and coach typed at the table
    coach_file: Callable[[Path], Any]  # a default coach set up by a coach file (docs/coach.md)
    roll_prompt: str  # how a roll is typed, e.g. "blue white white red"
