"""Rulesets of the Hockey Bones engine: one engine, options as flags, looked up by name.

FaceOff Hockey 2008 is Hockey Bones' predecessor and a second ruleset of the same engine:
the same rules apart from the flags below, and its own section numbers (timing is 5.xx
and bench penalties 6.00 in FaceOff, the other way round in Hockey Bones). The rules code
names the Hockey Bones section; ``cite`` turns it into the ruleset's own. DICE Hockey and
Matrix Hockey are other engines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final, Literal

from mypy_extensions import mypyc_attr

# The optional rules a FaceOff game may turn on when it is created (17.000-21.000), by the
# name of the GameCreated field that records each one.
OPTIONAL_RULES: Final = {
    "fatigue": "faceoff_fatigue",  # 17.000
    "injuries": "faceoff_injuries",  # 18.000
    "pressure_offense": "faceoff_pressure_offense",  # 19.000
    "checking_game": "faceoff_checking_game",  # 20.000
    "arc_cards": "faceoff_arc_cards",  # 21.000
}

# A playoff game (issue 22; ruling R-6.00c): neither text has a playoff overtime (6.00,
# FaceOff 5.00: "If a regular season game is tied..."), so a game may ask for sudden-death
# overtime periods of the regular length, repeated until a goal, no shootout and no tie.
# Both rulesets take it; it is recorded by name in GameCreated.options.
PLAYOFF: Final = "playoff"

# A game of a Hockey Bones draft league (a league with ``draft_rules = true``; the rules
# text's "Draft League Setup"), recorded by name in GameCreated.options with the league's
# NHL game-misconduct range in GameCreated.nhl_gm_range (14.51): the in-game draft rules
# (engine/bones/draft.py) hang off it. Set by the league, never named on a command line.
DRAFT_LEAGUE: Final = "draft_league"
# Draft rule 28: "We do not use the following Faceoff rules: Predetermining game
# misconducts or bench penalties. Checking game. Injuries. Pressure Offense." The standing
# rules of Hockey Bones (18.00-20.00) a draft league's game does not use (GameState.uses);
# the bench checks of 5.00 are dropped in periods.py (ruling R-draft-28).
UNUSED_IN_DRAFT_LEAGUES: Final = frozenset({"injuries", "pressure_offense", "checking_game"})

# Hockey Bones section -> FaceOff 2008 section, where the numbers differ.
FACEOFF_SECTIONS: Final = {
    "3.20": "3.10",  # FaceOff keeps the dice-range rules under 3.10
    "5.00": "6.00",  # bench penalties
    "6.00": "5.00",  # timing
    "6.10": "5.10",
    "6.20": "5.20",
    "6.30": "5.30",
    "6.40": "5.40",
    "6.41": "5.41",
    "17.00": "17.000",  # the optional rules carry three-digit numbers
    "18.00": "18.000",
    "19.00": "19.000",
    "20.00": "20.000",
}

_SECTION: Final = re.compile(r"\b\d+\.\d+\b")


# compiled (setup.py), a plain Python class: a native one cannot be copied or pickled
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Ruleset:
    name: str
    version: int
    title: str
    # Older versions whose stored games this rinklog still plays and re-checks as they were
    # played (GameCreated.ruleset_version); none: Hockey Bones 1 games are refused by name.
    replays: tuple[int, ...] = ()
    # Section numbers of this ruleset that differ from Hockey Bones' (rule text wins).
    sections: dict[str, str] = field(default_factory=dict)
    # 10.70: "bones" counts blockers on the ice (its 5-row table); "blue_line" counts the
    # Blocked Shot ratings of the LD and RD players (FaceOff: 1 B white 3, 2 B white 3/11).
    blocked_shots: Literal["bones", "blue_line"] = "bones"
    shootout: bool = True  # Hockey Bones 21.00; FaceOff has none: a tie stands
    # 16.00: Hockey Bones gives the first assist to the highest ranked player after the
    # slash; FaceOff to the rank in red (the cell's first), the second to the one in blue.
    assists_highest_rank_first: bool = True
    # Fatigue, injuries, pressure offense and the checking game: standing rules (Hockey
    # Bones 17.00-20.00) or options a game turns on at creation (FaceOff 17.000-20.000).
    optional_rules: bool = False
    quick_reference: bool = True  # the Hockey Bones quick reference's house rules
    # FaceOff 6.00, 14.51: a draft league's games use the league's NHL bench-penalty and
    # game-misconduct ranges instead of the teams' (a FaceOff league option).
    draft_nhl_ranges: bool = False
    # Hockey Bones' Draft League Setup (roster and rating rules, standings rule 29; in
    # game: 14.51's NHL range, draft rules 16 and 28, the game option DRAFT_LEAGUE);
    # FaceOff has no such section.
    draft_league_setup: bool = True

    @property
    def option_names(self) -> tuple[str, ...]:
        """The optional rules a game of this ruleset may turn on, by name (every game
        system's ruleset has this; the CLI's --optional-rule takes these names): FaceOff's
        optional rules, and for both rulesets ``playoff`` (ruling R-6.00c)."""
        return (*OPTIONAL_RULES, PLAYOFF) if self.optional_rules else (PLAYOFF,)

    def cite(self, text: str) -> str:
        """``text`` with every Hockey Bones section number in it replaced by this
        ruleset's own: ``cite("6.41") == "5.41"`` under FaceOff 2008."""
        if not self.sections:
            return text
        table = _CITED.get(self.name)
        if table is None:
            table = _CITED[self.name] = {}
        cited = table.get(text)
        if cited is None:
            if len(table) > 4096:
                table.clear()
            cited = table[text] = _cited(self.sections, text)
        return cited


# A FaceOff game cites every event's rule and modifier texts (engine/bones/game.py,
# cite_events): a few hundred different texts, each thousands of times a game. The
# citation is a pure function of the ruleset (by name: a name has one section table) and
# the text, so each answer is kept instead of running the section pattern again.
_CITED: Final[dict[str, dict[str, str]]] = {}  # ruleset name -> text -> cited text


def cited_texts(ruleset: Ruleset) -> dict[str, str]:
    """The texts ``ruleset.cite`` has cited so far, each with its citation: a hot caller
    reads it first and calls ``cite`` only for a text it lacks (which adds it)."""
    table = _CITED.get(ruleset.name)
    if table is None:
        table = _CITED[ruleset.name] = {}
    return table


class Citations:
    """A ruleset's citations as ``decide`` reads them for every event (engine/bones/game.py,
    ``cite_events``): whether the ruleset cites at all and its table of texts cited so far
    (``cited_texts``), read once a game into a compiled class (each field a native read; a
    ``Ruleset`` is a plain class, each of its fields a generic look-up of about 200
    instructions, and the table was found by the ruleset's name at every decision), with
    whether its optional rules are a game's options. Kept in ``GameState`` for the
    ruleset it was made from."""

    ruleset: Ruleset
    cites: bool  # the ruleset has section numbers of its own (FaceOff 2008)
    table: dict[str, str]
    # Its optional rules are a game's options (FaceOff 17.000-21.000): read here by
    # ``GameState.uses``, asked about 190 times a game.
    optional_rules: bool

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.cites = bool(ruleset.sections)
        self.table = cited_texts(ruleset)
        self.optional_rules = ruleset.optional_rules

    def cite(self, text: str) -> str:
        """``ruleset.cite(text)``: the text itself when the ruleset has no sections of its
        own (``check_choice`` asks at every line change: Ruleset.cite, a plain class's
        method, was an interpreted call of about 1,000 instructions), else read from the
        table when it holds the text. A text without a full stop names no section
        (``_SECTION``): it is its own citation, kept in the table as ``Ruleset.cite``
        keeps it, without that method and the section pattern run (about 15,000
        instructions a text: the modifier texts that carry numbers, such as intimidation
        3, are new in each game that first gives them)."""
        if not self.cites:
            return text  # Hockey Bones' own numbers (Ruleset.cite: no sections, the text)
        table = self.table
        cited = table.get(text)
        if cited is not None:
            return cited
        if "." in text:
            return self.ruleset.cite(text)
        if len(table) > 4096:  # as Ruleset.cite bounds it
            table.clear()
        table[text] = text
        return text

    def cite_texts(self, texts: list[str] | None) -> list[str] | None:
        """An event's modifier texts cited, or None when citing changes none of them: no
        list is made until a text changes (nearly every list stays)."""
        if not texts:
            return None
        table = self.table
        cited: list[str] | None = None
        for k in range(len(texts)):
            text = texts[k]
            found = table.get(text)
            if found is None:
                found = self.cite(text)
            if cited is None:
                if found == text:
                    continue
                cited = texts[:k]  # the texts before it, unchanged
            cited.append(found)
        return cited


def _cited(sections: dict[str, str], text: str) -> str:
    # a function of its own: compiled, a lambda in a method of a plain class stops mypyc
    if not sections or not text:
        return text
    return _SECTION.sub(lambda m: sections.get(m.group(0), m.group(0)), text)


RULESETS: Final[dict[str, Ruleset]] = {
    "bones": Ruleset(name="bones", version=2, title="Hockey Bones"),
    "faceoff2008": Ruleset(
        name="faceoff2008", version=1, title="FaceOff Hockey 2008",
        sections=FACEOFF_SECTIONS, blocked_shots="blue_line", shootout=False,
        assists_highest_rank_first=False,
        optional_rules=True, quick_reference=False,
        draft_nhl_ranges=True, draft_league_setup=False,
    ),
}


def find_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise KeyError(f"unknown ruleset {name!r} (known: {known})") from None
