"""What a game system registers with the projections layer: one :class:`SystemProjections`
a system, declared in its own package (``projections/<system>/__init__.py``) and listed in
the registry (projections/systems.py), one line each.

A system gives its game read models (the folds behind ``scoresheet``, ``toi``,
``penalties`` and ``stats``, all returning the shared types of projections/models/, and
the unit its times count) and what the stream index reads of its own events; the shared
modules (the store, the index) take both from the registry and import no system's events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from projections.models.penalties import PenaltyLine, PenaltyReport
from projections.models.scoresheet import PenaltyType, Scoresheet
from projections.models.stats import GameStats
from projections.models.strengths import GoalieStrength
from projections.models.times import Unit
from projections.models.toi import Toi, ToiByPlayer

__all__ = ["GameFolds", "IndexReads", "IndexStep", "ReadModels", "SystemProjections"]

IndexStep = Callable[[Mapping[str, Any], Any], dict[str, Any]]
"""(the stream's metadata so far, an event) -> the metadata fields the event changes."""

GameFolds = tuple[Scoresheet, GameStats, ToiByPlayer, list[PenaltyLine]]
"""What a game's stored rows take of its folds, folded together in one pass over its events
(``ReadModels.game``): its scoresheet, its stats (their goalie and team lines from that
scoresheet), its time on ice kept by player and its penalty lines (not the whole report:
its clocks and per-sequence labels are stored nowhere)."""


@dataclass(frozen=True)
class ReadModels:
    """A system's game read models: each folds a game's events (from its ``GameCreated``)."""

    scoresheet: Callable[[Iterable[Any]], Scoresheet]
    toi: Callable[[Iterable[Any]], Toi]
    penalties: Callable[..., PenaltyReport]  # (events, at=None): the timers after event ``at``
    stats: Callable[..., GameStats]  # (events, scoresheet=None): the game's, if folded
    unit: Unit  # what every time field counts (Hockey Bones: seconds; DICE Hockey: spaces)
    # each goalie's shots against by strength (the pages' EV/PP/SH; not stored); None: the
    # system's pages have no such split
    strengths: Callable[[Iterable[Any]], list[GoalieStrength]] | None = None
    # each scoresheet penalty line's words where the stream names no infraction (Hockey
    # Bones: its 14.20 type), in the lines' order (the pages'; not stored); None: none
    penalty_types: Callable[[Iterable[Any]], list[PenaltyType]] | None = None
    # time on ice with each player's shifts kept by player (ToiByPlayer: what the store
    # keeps); None: the store groups ``toi``'s shift lines itself
    toi_by_player: Callable[[Iterable[Any]], ToiByPlayer] | None = None
    # the scoresheet, stats, time on ice by player and penalty lines in one pass over the
    # events (GameFolds: what the store folds of every game three times in a season);
    # None: each folded on its own
    game: Callable[[Iterable[Any]], GameFolds] | None = None

    @property
    def show_time(self) -> Callable[[int], str]:
        """A time field as the text commands show it (seconds as MM:SS, a count as it is)."""
        return self.unit.show


@dataclass(frozen=True)
class IndexReads:
    """What the stream index (projections/index.py) reads of a system's own events."""

    # A stream whose first event is one of these: its kind and its first metadata (Matrix
    # Hockey's season). Game streams open with the common GameCreated, read by the index.
    opens: Mapping[type, tuple[str, Callable[[Any], dict[str, Any]]]] = field(
        default_factory=dict)
    # (stream kind, event type) -> what the event changes in the metadata.
    reads: Mapping[tuple[str, type], IndexStep] = field(default_factory=dict)


@dataclass(frozen=True)
class SystemProjections:
    """A game system's registration with the projections layer."""

    name: str
    events: Any  # the union of the system's events (events/<system>.py)
    read_models: ReadModels | None = None  # None: no game read models (Matrix Hockey)
    index: IndexReads = field(default_factory=IndexReads)
