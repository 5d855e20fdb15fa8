"""The registration objects a system declares in its own engine package (docs/systems.md).

A game system declares one :class:`GameSystem` (``SYSTEM`` in ``engine/<system>/system.py``,
which the registry imports from there); a season system (Matrix Hockey) one
:class:`SeasonSystem`.
``engine/systems.py`` lists them, one line each. These types live apart from the
registries so that a system's package can build its object without importing the
registry that imports it.

A game system's object is also what :mod:`engine.loop` runs its rules through
(:class:`engine.loop.LoopRules`): ``system.steps(state, dice, coach)`` is the one loop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from msgspec import UNSET, Raw, UnsetType

from engine import loop
from engine.dice import DiceSource
from events.base import Event
from events.common import GameCreated, GamesOut, RosterEntry
from events.league import SeasonCreated

__all__ = ["GameSystem", "Ruleset", "SeasonSystem"]

S = TypeVar("S")  # the system's game state
R = TypeVar("R")  # the system's roll
T = TypeVar("T")  # the system's team (its cards, as a card blob stores them)
C = TypeVar("C")  # the system's chart pack


class Ruleset(Protocol):
    """What tooling reads of any system's ruleset (each system's has more)."""

    @property
    def name(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def replays(self) -> tuple[int, ...]: ...  # older versions whose stored games it re-checks
    @property
    def title(self) -> str: ...
    @property
    def option_names(self) -> tuple[str, ...]: ...


ROLL_EVENT_FIELDS = ("n", "roll", "purpose")  # a game system's roll event's, in order


@dataclass(frozen=True)
class GameSystem(Generic[S, R, T, C]):
    """What tooling needs of a game system: its rulesets, event union, dice, cards and
    charts, its rules and what the one loop asks of them, its coach and its words."""

    name: str
    title: str
    rulesets: Mapping[str, Ruleset]  # ruleset name -> the system's ruleset
    event_type: Any  # the union of the system's events (a msgspec type expression)
    # --- dice ---
    parse_roll: Callable[[str], R]  # a typed roll (raises RollError)
    derive_roll: Callable[[str, str, int], R]  # seeded dice: (seed, game id, n) -> roll
    roll_event: loop.RollEvent  # the event that records the n-th roll (its ``n`` and ``roll``)
    # --- cards and charts ---
    team_type: type[T]  # a team's cards, as stored in a card blob
    roster: Callable[[T], list[RosterEntry]]  # a team's roster, as GameCreated records it
    charts_type: type[C]  # a chart pack, as stored in a chart blob
    # --- rules ---
    initial_state: Callable[[GameCreated, T, T, C], S]  # (GameCreated, home, away, charts)
    decide: Callable[[S, R | None], list[Event]]  # (state, roll or None) -> events
    evolve: Callable[[S, Event], S]  # (state, event) -> state, changed in place
    check_choice: Callable[[S, Event], None]  # raises events.errors.IllegalChoice
    # --- what the one loop asks of the rules (engine/loop.py) ---
    rollless_steps: frozenset[str]  # the steps that roll no dice (by kind: every other rolls)
    window_steps: frozenset[str]  # the steps a coach window comes before
    # (next step, coach) -> the coach's questions at a window, in order; by the step's kind
    # and the coach alone (the loop asks once a kind a game)
    window_asks: Callable[[Any, Any], Sequence[loop.Asker]]
    choice_rules: Mapping[str, str]  # the steps that wait for a coach -> the rule asking
    choose: Callable[[S, Any, Any], list[Event]]  # (state, step, coach) -> his choices
    max_steps: int  # a guard: no game takes this many steps
    # --- coach choices ---
    choice_events: tuple[type[Event], ...]  # checked for legality, not re-decided
    stoppage_choices: tuple[type[Event], ...]  # the choices a coach makes before a roll
    line_change_event: type[Event]  # the choice that changes who is on the ice
    default_coach: Callable[[], Any]
    # --- words ---
    why: Callable[[S, Event, dict[int, R]], str]  # (state before, event, rolls by n)
    describe: Callable[[S, Event], str | None]  # ``play``'s line for an event, or None
    roll_json: Callable[[R], dict[str, Any]]  # a roll as ``explain --json`` shows it
    summary: Callable[[S], dict[str, Any]]  # a state as ``replay --json`` shows it
    roll_for: Callable[[S], str]  # what the next roll decides, in the play prompt's words
    status: Callable[[S], str]  # period, clock, score and strength, as ``play`` shows them
    # ``explain --goal N`` / ``--penalty N``: the event a scoresheet goal or penalty line
    # comes from, and the events that start a play (a face-off won, the puck changing
    # hands), so the play that led to one can be told from its start
    goal_event: type[Event]
    penalty_event: type[Event]
    play_starts: tuple[type[Event], ...]
    # an event's part in a play, for a page's play-by-play ("" for the shared events)
    play_kind: Callable[[Event], str]
    # a game's events -> the games each ruling takes from a player's later season games
    # (an injury's games missed, a suspension), in order; None: the system's rulings all
    # end with the game, so a season's games never wait on each other for them
    games_out: Callable[[Sequence[Event]], list[GamesOut]] | None = None
    # the event classes ``games_out`` reads, each event alone (a game's events read a
    # batch at a time, or only these read back from the store, find what the whole game
    # does: replay/games/game_streams.py ``play_outcome``, replay/leagues/availability.py)
    games_out_events: tuple[type[Event], ...] = ()
    # (state) -> the next step's kind, "" once the game has ended: what the one loop asks at
    # every step. A system's own is a compiled function of its state (its reads native);
    # the default reads ``finished`` and ``queue[0].kind`` through engine.loop.LoopState,
    # each a generic look-up
    next_kind: Callable[[S], str] = loop.next_kind  # type: ignore[assignment]
    # --- the system's own options beyond ``GameCreated.options`` (Hockey Bones: FaceOff's
    # options and the late-penalty house rule, in GameCreated fields of their own): shared
    # tooling reads and writes them only through these, never by field name
    # an options value -> the GameCreated fields that record it ({} for none)
    options_fields: Callable[[Any], dict[str, object]] = lambda options: {}
    # a GameCreated -> the system's option fields it records (those set)
    options_of: Callable[[GameCreated], dict[str, object]] = lambda created: {}
    # a season's SeasonCreated -> the options value each of its games is created with
    league_options: Callable[[SeasonCreated], Any] = lambda season: None
    # (a league's options value, the season stream's payload format) -> SeasonCreated's
    # ``faceoff`` field recording it (UNSET: none, so the season's bytes are unchanged)
    league_field: Callable[[Any, int], Raw | UnsetType] = lambda options, format: UNSET
    # a season's SeasonCreated -> the option fields each of its games must record (what
    # ``options_of`` of such a game gives: the audit holds them equal)
    season_fields: Callable[[SeasonCreated], dict[str, object]] = lambda season: {}

    def __post_init__(self) -> None:
        # the loop makes the roll event by position (engine.loop.RollEvent)
        fields = tuple(getattr(self.roll_event, "__struct_fields__", ())[:3])
        if fields != ROLL_EVENT_FIELDS:
            raise TypeError(f"{self.name}: the roll event's first fields are {fields}, not "
                            f"{ROLL_EVENT_FIELDS} (engine.loop.RollEvent)")

    def steps(self, state: S, dice: DiceSource, coach: object,
              coach_asked: bool = False) -> Iterator[list[Event]]:
        """The one game loop (:func:`engine.loop.steps`) over this system's rules."""
        return loop.steps(self, state, dice, coach, coach_asked)  # type: ignore[arg-type]


@dataclass(frozen=True)
class SeasonSystem:
    """A system whose stream is a whole league season refereed by rinklog (Matrix Hockey:
    a league played by mail), not a game: the audit, ``replay``, ``explain`` and the
    index find what they need of such a stream here."""

    name: str
    title: str
    kind: str  # the stream's kind in the store's index
    first_event: type[Event]  # the event a stream of it starts with (``season_id``)
    event_type: Any  # the union of the system's events (a msgspec type expression)
    roll_event: type[Event]
    initial_state: Callable[[Any], Any]  # the first event -> the season's state
    evolve: Callable[[Any, Event], Any]  # (state, event) -> state
    check_dice: Callable[[Sequence[Event]], tuple[int, Any]]  # -> (seeded checked, finding)
    recheck: Callable[[Sequence[Event]], Any]  # events -> the first finding, or None
    # (previous season's events, their hashes, first event) -> a finding or None
    check_lineage: Callable[[Sequence[Event], Sequence[str], Any], Any]
    why: Callable[[Any, Event, dict[int, Any]], str]
    summary: Callable[[Any], dict[str, Any]]
    # (season id, event) -> the id of the season game the event records, or None: a season
    # receipt's leaves (replay/leagues/season_receipts.py)
    season_game_id: Callable[[str, Event], str | None]
    fold: Callable[[Sequence[Event]], Any]  # a season's events -> its state
    # a state -> its standings rows as a season receipt digests them (docs/trust.md): the
    # form receipts were issued with, kept when the rows a command shows change
    standings: Callable[[Any], list[dict[str, Any]]]
    # the event that makes a stream an odds run (``rinklog odds --replay``: never the
    # season as played, replay/leagues/ledger.py), None for a system without odds runs
    odds_run_event: type[Event] | None = None
