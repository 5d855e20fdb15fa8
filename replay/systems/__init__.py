"""Each system's tooling kit: what the system-blind tooling needs of a system beyond
its rules (engine/systems.py): its teams and chart pack on disk, the chart pack a game's
options call for, its prompts at the table, which data files are its own (``cards
validate``). What a system does above the kits (Matrix Hockey's season commands and
odds, its pages, its sub-app) lives in those layers, named by the command line
(replay/cli/app.py), the one layer above them all, which hands them down.

The engine registry holds the pure rules; a kit holds what reads files or talks to a
person, so it lives in replay/. Tooling finds a game's kit from its ruleset
(:func:`kit_for`) and never imports a system package; adding a system is one engine
package plus one kit package (``replay/systems/<system>/``, declaring ``KIT``) and one
line in :data:`KITS`.
"""

from __future__ import annotations

from engine.systems import system_of
from replay.systems import bones, dicehockey, matrix
from replay.systems.kit import DraftRuleError, DraftRules, Kit, Prompter, SeasonKit, SystemKit

__all__ = ["KITS", "DraftRuleError", "DraftRules", "Kit", "Prompter", "SeasonKit",
           "SystemKit", "kit_for", "kit_for_system"]

KITS: dict[str, SystemKit] = {
    bones.KIT.system: bones.KIT,
    dicehockey.KIT.system: dicehockey.KIT,
    matrix.KIT.system: matrix.KIT,
}


def kit_for(ruleset: str) -> Kit:
    """The tooling kit of a ruleset's game system."""
    return kit_for_system(system_of(ruleset).name)


def kit_for_system(system: str) -> Kit:
    """The tooling kit of a game system, by its name."""
    kit = KITS[system]
    assert isinstance(kit, Kit), f"{system} is not a game system"  # system_of: game systems
    return kit
