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

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, get_args

from events.errors import RinklogError
from projections import bones, dicehockey, matrix
from projections.registration import IndexStep, ReadModels, SystemProjections

__all__ = ["READ_MODELS", "SYSTEMS", "IndexTables", "ReadModels", "game_read_models",
           "index_tables", "read_models", "read_models_of"]

SYSTEMS: dict[str, SystemProjections] = {
    "bones": bones.PROJECTIONS,
    "dicehockey": dicehockey.PROJECTIONS,
    "matrix": matrix.PROJECTIONS,
}
"""Every system's registration, by name: the one table to add a system to (everything
below reads it when asked)."""


class _ReadModelsView(Mapping[str, ReadModels]):
    """The game read models of the systems in :data:`SYSTEMS` that have them, by name."""

    def __getitem__(self, system: str) -> ReadModels:
        models = SYSTEMS[system].read_models
        if models is None:
            raise KeyError(system)
        return models

    def __iter__(self) -> Iterator[str]:
        return (name for name, s in SYSTEMS.items() if s.read_models is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


READ_MODELS: Mapping[str, ReadModels] = _ReadModelsView()
"""The systems with game read models (Matrix Hockey has none), by name."""


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


def read_models_of(events: Iterable[Any]) -> ReadModels:
    """The read models of a game given only its events: those of the system whose own
    events it holds (the common events are every system's; a stored game's read models
    are :func:`game_read_models`, by its stream)."""
    systems: dict[type, set[str]] = {}
    for name, s in SYSTEMS.items():
        for cls in get_args(s.events):
            systems.setdefault(cls, set()).add(name)
    for event in events:
        owners = systems.get(type(event), set())
        if len(owners) == 1:
            return read_models(next(iter(owners)))
    raise RinklogError("no event names the game's system: fold its events with "
                       "read_models(system)")


@dataclass(frozen=True)
class IndexTables:
    """What the stream index reads of every system's own events (projections/index.py)."""

    opens: Mapping[type, tuple[str, Any]]  # first event type -> (kind, first metadata)
    reads: Mapping[tuple[str, type], IndexStep]  # (kind, event type) -> metadata changes


_tables: tuple[tuple[SystemProjections, ...], IndexTables] | None = None


def index_tables() -> IndexTables:
    """Every registration's index reads in one table (made again when SYSTEMS changes)."""
    global _tables
    current = tuple(SYSTEMS.values())
    if _tables is None or len(_tables[0]) != len(current) or any(
            a is not b for a, b in zip(_tables[0], current, strict=True)):
        _tables = (current, IndexTables(
            opens={t: opened for s in current for t, opened in s.index.opens.items()},
            reads={key: step for s in current for key, step in s.index.reads.items()}))
    return _tables[1]
