"""DICE Hockey's one ruleset (1st edition, 2009, with its "Changes" section 21) and the
optional rules a game may turn on by name in ``GameCreated.options``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mypy_extensions import mypyc_attr

# 20: forward defense is the text's one optional rule. 7: the text suggests a learning
# game without defense and passer ratings ("feel free to add this advanced rule"); rinklog
# plays the full game and a game may ask for the learning one (ruling R-DH-7b). 13: a
# playoff game plays full-length sudden-death overtime periods instead of the short one
# and a shootout.
OPTIONS: Final = {
    "forward_defense": "20",
    "learning_game": "7",
    "playoff": "13",
}


# compiled (setup.py), a plain Python class: a native one cannot be copied or pickled
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Ruleset:
    name: str
    version: int
    title: str
    # Older versions whose stored games this rinklog still plays and re-checks as they were
    # played: a game keeps the version it was created under (GameCreated.ruleset_version,
    # GameState.version), and each rule that changed since says so where it is decided.
    replays: tuple[int, ...] = ()
    options: tuple[str, ...] = tuple(OPTIONS)

    @property
    def option_names(self) -> tuple[str, ...]:
        """The optional rules a game may turn on, by name (what every ruleset has)."""
        return self.options


# Version 2 (rules round 4): what the rules decide differently for a game created since.
# Each is read through GameState.version where it is decided (engine/dicehockey/*), so a
# version-1 game stored before replays, audits and branches byte for byte as it was played.
VERSION_2: Final = 2
DICEHOCKEY: Final = Ruleset(name="dicehockey", version=VERSION_2, replays=(1,),
                            title="DICE Hockey (1st edition, 2009)")
RULESETS: Final[dict[str, Ruleset]] = {DICEHOCKEY.name: DICEHOCKEY}
