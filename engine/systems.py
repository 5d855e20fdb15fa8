"""The game systems rinklog plays, looked up by name (compare python-chess's variants).

Each system declares one registration object in its own engine package
(``engine.<system>.system.SYSTEM``; the types are in engine/registration.py): a
:class:`GameSystem` is what tooling needs of a game system (its rulesets, events, dice,
cards and charts, rules, what the one loop asks of them, its coach and its words); a
:class:`SeasonSystem` what it needs of a system whose stream is a whole season (Matrix
Hockey). The registries below list them, one line per system. Tooling finds a stream's
system from its ``GameCreated`` ruleset (:func:`system_of`) and never imports a system
package itself; adding a system is its own packages plus one line per registry
(docs/systems.md).

Hockey Bones and FaceOff Hockey 2008 are one system (``bones``) with two rulesets; DICE
Hockey (``dicehockey``) is a second system with one.
"""

from __future__ import annotations

import copyreg
from typing import Any, Protocol, TypeVar

from engine.bones.system import SYSTEM as BONES
from engine.dicehockey.system import SYSTEM as DICEHOCKEY
from engine.matrix.system import SYSTEM as MATRIX
from engine.registration import GameSystem, SeasonSystem
from events.errors import RinklogError

__all__ = ["GameSystem", "SEASON_SYSTEMS", "SYSTEMS", "SeasonSystem", "find_system",
           "register", "registry", "system_of"]


class _Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=_Named)


def registry(*systems: N) -> dict[str, N]:
    """A registry: the systems by name, in the order given (a name only once)."""
    found: dict[str, N] = {}
    for system in systems:
        register(found, system)
    return found


def register(registry: dict[str, N], system: N) -> N:
    """Add ``system`` to ``registry`` (a system added later, e.g. a test's toy system)."""
    if system.name in registry:
        raise RinklogError(f"a system named {system.name!r} is registered already")
    registry[system.name] = system
    return system


SYSTEMS: dict[str, GameSystem[Any, Any, Any, Any]] = registry(
    BONES,
    DICEHOCKEY,
)

SEASON_SYSTEMS: dict[str, SeasonSystem] = registry(
    MATRIX,
)


def find_system(name: str) -> GameSystem[Any, Any, Any, Any]:
    try:
        return SYSTEMS[name]
    except KeyError:
        raise RinklogError(f"unknown game system {name!r} (known: {', '.join(SYSTEMS)})"
                           ) from None


def _registered(system: GameSystem[Any, Any, Any, Any]) -> tuple[Any, tuple[str]]:
    """A game system pickles as its name and unpickles as the system registered under it:
    a Dask worker (``--cluster``, docs/cluster.md) plays a season's games with its own
    rinklog's system, functions and all, not a copy (a lambda does not pickle)."""
    return find_system, (system.name,)


copyreg.pickle(GameSystem, _registered)


def system_of(ruleset: str) -> GameSystem[Any, Any, Any, Any]:
    """The system a ruleset belongs to (as a stream's GameCreated names it)."""
    for system in SYSTEMS.values():
        if ruleset in system.rulesets:
            return system
    known = ", ".join(r for s in SYSTEMS.values() for r in s.rulesets)
    raise RinklogError(f"unknown ruleset {ruleset!r} (known: {known})")
