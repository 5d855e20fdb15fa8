"""Every game system's event union, by system name: what a store decodes.

Tags never clash between systems (a system's events are named for it), so one union of
all of them decodes any stream; the store decodes a stream with the union of the system
it records (``streams.system``), and tooling that finds a stream's system from its events
uses that system's own union (engine/systems.py). Adding a system adds its union here.
"""

from __future__ import annotations

import functools
import operator
from pathlib import Path
from typing import Any

from events.bones import BonesEvent
from events.dicehockey import DiceHockeyEvent
from events.league import (
    SeasonCoachSet,
    SeasonCreated,
    SeasonGameRecorded,
    SeasonTableGameStarted,
)
from events.matrix import MatrixEvent
from events.odds import OddsEvent
from events.people import PeopleEvent
from events.postseason import PostseasonEvent
from events.store import EventStore

__all__ = ["ALL_EVENTS", "LEAGUE", "LEAGUE_EVENTS", "STREAM_EVENTS", "SYSTEM_EVENTS",
           "open_store"]

SYSTEM_EVENTS: dict[str, Any] = {"bones": BonesEvent, "dicehockey": DiceHockeyEvent,
                                 "matrix": MatrixEvent}

LEAGUE_EVENTS: Any = (SeasonCreated | SeasonCoachSet | SeasonTableGameStarted | SeasonGameRecorded
                      | PostseasonEvent | OddsEvent | PeopleEvent)
"""Events of league streams (a season), which belong to no one game system."""

ALL_EVENTS: Any = functools.reduce(operator.or_, SYSTEM_EVENTS.values(), LEAGUE_EVENTS)
"""The union of every system's events and the league events (common ones included once)."""


LEAGUE = "league"
"""The system of league streams (a season's): their events are :data:`LEAGUE_EVENTS`."""

STREAM_EVENTS: dict[str, Any] = {**SYSTEM_EVENTS, LEAGUE: LEAGUE_EVENTS}
"""What a stream of each system decodes to, by the system a stream records (``streams.system``):
every game system's union, and the league events."""


def open_store(path: str | Path, *, create: bool = True) -> EventStore:
    """The one way rinklog opens a database: a store that decodes each stream with its own
    system's events (:data:`STREAM_EVENTS`). Opening migrates an older database;
    ``create=False`` (read commands) refuses a database that is not there yet and writes
    nothing, reading an older one as if migrated."""
    return EventStore(path, decoders=STREAM_EVENTS, create=create)
