"""The projections registry: each game system's registration (projections/registration.py,
declared in the system's own package), one line a system.

A system's game read models are the folds behind ``scoresheet``, ``toi``, ``penalties`` and
``stats``: every system's folds return the same read-model types (projections/models/), so
the stored tables, the JSON keys and every command that shows them are shared; a system
gives the unit its times count (docs/json.md). Standings are shared outright: they read
only the common ``GameCreated`` and ``GameEnded``. A stream's system is the store's
``streams.system`` (the audit holds it equal to the system of the stream's ruleset);
projections never import the engine.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any, get_args

from events.errors import RinklogError
from projections import bones, dicehockey, matrix
from projections.registration import IndexStep, ReadModels, SystemProjections

__all__ = ["INDEX_OPENS", "INDEX_READS", "READ_MODELS", "SYSTEMS", "ReadModels",
           "game_read_models", "read_models", "read_models_of"]

SYSTEMS: dict[str, SystemProjections] = {
    "bones": bones.PROJECTIONS,
    "dicehockey": dicehockey.PROJECTIONS,
    "matrix": matrix.PROJECTIONS,
}

READ_MODELS: dict[str, ReadModels] = {
    name: s.read_models for name, s in SYSTEMS.items() if s.read_models is not None}
"""The systems with game read models (Matrix Hockey has none), by name."""

INDEX_OPENS: Mapping[type, tuple[str, Any]] = {
    t: opener for s in SYSTEMS.values() for t, opener in s.index.opens.items()}
INDEX_READS: Mapping[tuple[str, type], IndexStep] = {
    key: step for s in SYSTEMS.values() for key, step in s.index.reads.items()}
"""What the stream index reads of every system's own events (projections/index.py)."""


def read_models(system: str) -> ReadModels:
    """The read models of a system's games (one line naming it when there are none)."""
    try:
        return READ_MODELS[system]
    except KeyError:
        raise RinklogError(f"no read models for game system {system!r} "
                           f"(known: {', '.join(READ_MODELS)})") from None


def game_read_models(store: Any, stream: str) -> ReadModels:
    """The read models of a stored game, by its stream's system."""
    return read_models(store.info(stream).system)


@functools.cache
def _owners() -> dict[type, str]:
    """Every event class that belongs to one system only (the common events are in all)."""
    systems: dict[type, set[str]] = {}
    for name, s in SYSTEMS.items():
        for cls in get_args(s.events):
            systems.setdefault(cls, set()).add(name)
    return {cls: names.pop() for cls, names in systems.items() if len(names) == 1}


def read_models_of(events: Iterable[Any]) -> ReadModels:
    """The read models of a game given only its events: those of the system whose own
    events it holds (a stored game's are :func:`game_read_models`, by its stream)."""
    owners = _owners()
    for event in events:
        system = owners.get(type(event))
        if system is not None:
            return read_models(system)
    raise RinklogError("no event names the game's system: fold its events with "
                       "read_models(system)")
