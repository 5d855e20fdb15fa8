"""Rulesets of the Hockey Bones engine: one engine, options as flags, looked up by name.

FaceOff Hockey 2008 (Hockey Bones' predecessor) will join this registry as a second
ruleset of the same engine; DICE Hockey and Matrix Hockey are other engines.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ruleset:
    name: str
    version: int
    title: str


RULESETS: dict[str, Ruleset] = {
    "bones": Ruleset(name="bones", version=2, title="Hockey Bones"),
}


def find_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise KeyError(f"unknown ruleset {name!r} (known: {known})") from None
