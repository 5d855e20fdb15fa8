"""Each game system's tooling kit: what the system-blind tooling needs of a system beyond
its rules (engine/systems.py): its teams and chart pack on disk, the chart pack a game's
options call for, and its prompts at the table.

The engine registry holds the pure rules; a kit holds what reads files or talks to a
person, so it lives in replay/. Tooling finds a game's kit from its ruleset
(:func:`kit_for`) and never imports a system package; adding a system is one engine
package plus one kit module and one entry in :data:`KITS`.
"""

from __future__ import annotations

from engine.systems import system_of
from replay.systems import bones, dicehockey
from replay.systems.kit import DraftRuleError, DraftRules, Kit, Prompter

__all__ = ["KITS", "DraftRuleError", "DraftRules", "Kit", "Prompter", "kit_for",
           "kit_for_system"]

KITS: dict[str, Kit] = {"bones": bones.KIT, "dicehockey": dicehockey.KIT}


def kit_for(ruleset: str) -> Kit:
    """The tooling kit of a ruleset's game system."""
    return KITS[system_of(ruleset).name]


def kit_for_system(system: str) -> Kit:
    """The tooling kit of a game system, by its name."""
    return KITS[system]
