"""What a system's tooling kit holds (see replay/systems/__init__.py): what every kit
declares (:class:`SystemKit`), a game system's (:class:`Kit`) and a season system's
(:class:`SeasonKit`, Matrix Hockey)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec

from events.base import Event
from events.errors import CardError, RollError

Root = str | Path | None  # a fixtures root (a league folder); None: the shipped fixtures

class League(Protocol):
    """What a kit reads of a league.toml (replay/leagues/league.py ``League``, described
    here rather than imported: that module asks this registry for the kits)."""

    @property
    def ruleset(self) -> str: ...
    @property
    def faceoff(self) -> Mapping[str, bool | str]: ...  # Hockey Bones' [faceoff] table
    @property
    def options(self) -> list[str]: ...  # optional rules by name
    @property
    def late_penalty_house_rule(self) -> bool: ...
    @property
    def draft_rules(self) -> bool: ...
    def system_settings(self) -> list[str]: ...  # the fields set beyond the shared ones


SystemOptions = Any
"""A system's own options value: what its kit records for optional rules and a league's
options (``Kit.game_options``, ``Kit.league_options``), what its ``GameSystem`` writes into
and reads back from the events (``options_fields``, ``options_of``, ``league_options``).
Shared tooling passes it whole and never looks inside; only the system's kit and system do."""


@dataclass(frozen=True)
class Prompter:
    """How a prompt coach talks to the person at the table: ``ask`` returns an answer
    (and raises to stop the game), ``out`` prints one line; ``status`` is the game
    system's words for where a game stands (engine/systems.py ``status``: period, clock,
    score, strength), shown at each prompt and by ``score``/``clock`` typed at one."""

    ask: Callable[[str], str]
    out: Callable[[str], None]
    status: Callable[[Any], str] | None = None


class Violation(Protocol):
    """One broken draft league rule: ``str(v)`` is its one line."""

    team: str
    rule: int
    message: str


class DraftRuleError(CardError):
    """A league that turns its draft league rules on, with teams that break them."""


@dataclass(frozen=True)
class DraftRules:
    """A system's draft league rules: which rules are checked, and the check."""

    title: str
    checked: tuple[int, ...]
    check: Callable[[Mapping[str, Any], int], list[Violation]]  # (teams by id, season games)


class TeamCards(Protocol):
    """A system's team file as loaded (its own msgspec Struct): what tooling reads of it."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...


Faults = Callable[[], list[str]]
"""Check one file: its faults, one line each (a loader may raise ``CardError`` on its
first fault instead: ``cards validate`` lists that line)."""

Recognise = Callable[[Path, Mapping[str, Any]], Faults | None]
"""``cards validate``'s question to a kit: given a file and its TOML, the check of the
file if it is one of the system's files, else None."""


def first_fault(load: Callable[[Path], object], path: Path) -> Faults:
    """The check of a loader that raises ``CardError`` on a file's first fault."""

    def check() -> list[str]:
        load(path)
        return []

    return check


def never_recognise(path: Path, data: Mapping[str, Any]) -> Faults | None:
    """For a kit with no files of its own."""
    return None


@dataclass(frozen=True, kw_only=True)
class SystemKit:
    """What every system's kit declares for the system-blind tooling."""

    system: str  # the system's name in engine/systems.py (SYSTEMS or SEASON_SYSTEMS)
    recognise: Recognise = never_recognise  # its data files, for ``cards validate``


@dataclass(frozen=True, kw_only=True)
class Kit(SystemKit):
    """A game system's kit (Hockey Bones, DICE Hockey)."""

    # --- data on disk
    find_team: Callable[[str, Root], TeamCards]  # a team by id (UnknownTeam when missing)
    list_teams: Callable[[Root], list[TeamCards]]
    load_team: Callable[[Path], TeamCards]  # one team file (CardError naming file and field)
    default_charts: Callable[[Root], Any]  # the chart pack of a fixtures root
    # the pack a game's options call for: (charts, the system's options value) -> charts
    game_charts: Callable[[Any, SystemOptions], Any]
    # optional rules by name -> the create_game keywords that record them in GameCreated
    # (each a system's options value, or the rules' names)
    game_options: Callable[[tuple[str, ...]], dict[str, SystemOptions]]
    leagues_dir: Path  # the bundled leagues
    # --- leagues and seasons
    check_league_options: Callable[[League], None]  # a league.toml's options (ValueError)
    draft_rules: Callable[[str], DraftRules | None]  # a ruleset's draft league rules, if any
    # starters and their card games
    goalie_shares: Callable[[Any], list[tuple[str, int]]]
    # a game's events and chart pack -> the system-only calibration figures
    calibration_figures: Callable[[Sequence[Event], Any], dict[str, float]]
    # --- coaches
    default_coach_setup: Any  # what a season's coach is built from (picklable)
    coach_setup_file: Callable[[Path], Any]  # a coach file (docs/coach.md) -> a setup
    season_coach: Callable[[Any], Any]  # a setup -> the system's default coach
    prompt_coach: Callable[[Prompter], TableDice]  # dice and coach typed at the table
    roll_prompt: str  # how a roll is typed, e.g. "blue white white red"
    # --- calibration: can a ruleset's game end in a shootout (FaceOff 2008: a tie stands)
    has_shootout: Callable[[str], bool] = field(default=lambda ruleset: True)
    # --- a league.toml's options as the kit records them (what ``game_options`` gives for
    # optional rules named on the command line; their keywords are SeasonCreated fields)
    league_options: Callable[[League], Mapping[str, SystemOptions]] = field(
        default=lambda league: {})


@dataclass(frozen=True, kw_only=True)
class SeasonKit(SystemKit):
    """A season system's kit (Matrix Hockey: rinklog referees a league's season): its
    files are its own, so ``recognise`` is required. Its season commands, odds, pages and
    sub-app live in the layers above (replay/leagues/<system>/, replay/reports/<system>/,
    replay/cli/<system>.py), each registered there."""

    recognise: Recognise


STATUS_WORDS = ("score", "clock", "status")  # answered at any prompt, never a roll or choice


class TableDice:
    """What every system's prompt coach shares: dice typed at the table, each roll's
    prompt saying what it decides (``watch`` the game's state, which the loop changes in
    place), ``help`` saying how to type them, a typo asked again. Every prompt (rolls and
    the coach's) ends with where the game stands, and ``score`` or ``clock`` typed at
    any prompt says it again and asks the same question."""

    dice = ""  # how a roll is typed, e.g. "blue white white red"
    dice_help = ""  # the line ``help`` prints at a roll prompt

    def __init__(self, prompter: Prompter, parse: Callable[[str], Any],
                 roll_for: Callable[[Any], str]) -> None:
        self._asked, self._out = prompter.ask, prompter.out
        self._status = prompter.status
        self._parse, self._roll_for = parse, roll_for
        self.state: Any = None
        self._typed: Any = None  # dice typed at a coach prompt, kept for the next roll

    def dice_typed(self, answer: str) -> bool:
        """Whether ``answer``, typed at a coach prompt, is a roll: then it is kept for the
        next roll (a person who rolled before answering loses nothing) and said so."""
        try:
            self._typed = self._parse(answer)
        except RollError:
            return False
        self._out(f"  {answer.strip()}: dice, kept for the next roll "
                  "(the coach's choice as shown)")
        return True

    def status(self) -> str:
        """Where the watched game stands (``""`` before it is watched or without words)."""
        if self._status is None or self.state is None:
            return ""
        return self._status(self.state)

    def _ask(self, text: str) -> str:
        """Ask ``text`` with the game's status after it; ``score``/``clock`` answer here."""
        while True:
            now = self.status()
            answer = self._asked(f"{text} [{now}]" if now else text)
            if answer.lower() not in STATUS_WORDS:
                return answer
            self._out(f"  {now or 'no game under way'}")

    def watch(self, state: Any) -> None:
        self.state = state

    @staticmethod
    def shooting_first(order: Any, side: str, named: list[str]) -> Any:
        """A shootout choice with ``named`` shooting first for ``side`` (home or away), the
        rest of its shooters after them in the order they had."""
        field = f"{side}_shooters"
        rest = [p for p in getattr(order, field) if p not in named]
        return msgspec.structs.replace(order, **{field: named + rest})

    def roll(self, n: int) -> Any:
        what = f" for {self._roll_for(self.state)}" if self.state is not None else ""
        if self._typed is not None:  # typed at the coach prompt just before
            typed, self._typed = self._typed, None
            self._out(f"roll {n}{what}: {typed}")
            return typed
        while True:
            text = self._ask(f"roll {n}{what} ({self.dice})")
            if text.lower() == "help":
                self._out(f"  {self.dice_help}; score or clock says where the game stands; "
                          "q stops the game (everything so far is kept)")
                continue
            try:
                return self._parse(text)
            except RollError as err:
                self._out(f"  {err}")
