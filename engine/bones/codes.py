"""The grammar of action-matrix cells: skater codes (8.10, 8.20) and goalie codes (11.10).

Pure functions, no I/O: the card loader checks every cell with them and the rules engine
reads cells with them in its hot loop, so both parsers are cached.

Skater cells are a code followed by zero or more special markers, each at most once and
in any order (8.20): ``+`` penalty killing, ``?`` possible injury, ``S`` pressure
offense. ``SkaterCell.code`` names the code's family and ``value`` its number:

=========  ==========================================  =========================
code       cell text                                   value
=========  ==========================================  =========================
``N``      ``1`` .. ``14`` numeric (8.10, 9.00)          the number
``*``      ``*`` automatic shot                          None
``R``      ``R`` shot with rebound (11.20)               None
``*H``     ``*H`` / ``*H2`` .. ``*H9`` home-team shot    None / the number
``*D``     ``*D2`` .. ``*D9`` shot against LD + RD       the number
``@``      ``@`` passing-factor shot                     None
``P``      ``P`` / ``P1`` .. ``P5`` pass                 None / intimidation limit
``PP``     ``PP`` power-play pass                        None
``Pf``     ``Pf1`` .. ``Pf3`` forechecked pass           the number
``X``      ``X`` / ``X1`` .. ``X5`` penalty              None / red-die limit
``XH``     ``XH`` penalty if home                        None
``XV``     ``XV`` penalty if visitor                     None
``#``      ``#`` infraction                              None
``I``      ``I`` icing                                   None
=========  ==========================================  =========================

Goalie cells (11.10) give ``GoalieCell.code``, the slot the puck goes to, whether an
in-range shot is a goal there, and a number:

=========  ===================================================  ======  =====  ======
code       cell text                                            slot    goal   number
=========  ===================================================  ======  =====  ======
``F``      ``F`` save, puck frozen; ``FG`` goal if in range      None    no/yes None
``F?``     ``F?1`` frozen, goalie hurt on red 1                  None    no     1
``OWN``    ``LW`` ``LD`` ``C`` ``RW`` ``RD`` save to own slot;   slot    no/yes None
           ``LWG`` .. ``RDG`` goal if in range
``*``      ``*lw`` .. ``*rd`` goal if in range, else puck to     slot    yes    None
           the shooting team's slot
``R``      ``R`` save, possible rebound                          None    no     None
``X``      ``X`` / ``X1`` .. ``X5`` frozen, goalie penalty       None    no     None/n
``PS``     ``PS1`` possible penalty shot                         None    no     1
=========  ===================================================  ======  =====  ======
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

import msgspec

__all__ = [
    "GOALIE_CODES",
    "SKATER_CODES",
    "GoalieCell",
    "SkaterCell",
    "parse_goalie_cell",
    "parse_skater_cell",
]

SlotName = Literal["LW", "C", "RW", "LD", "RD"]

SKATER_CODES = frozenset({"N", "*", "R", "*H", "*D", "@", "P", "PP", "Pf", "X", "XH", "XV",
                          "#", "I"})
GOALIE_CODES = frozenset({"F", "F?", "OWN", "*", "R", "X", "PS"})


class SkaterCell(msgspec.Struct, frozen=True):
    """One parsed skater action cell (8.10) with its special markers (8.20)."""

    code: str
    value: int | None = None
    plus: bool = False  # ``+``: a short-handed player kills one time sequence instead
    injury: bool = False  # ``?``: possible injury after the play (18.00)
    pressure: bool = False  # ``S``: automatic shot under pressure offense (19.00)


class GoalieCell(msgspec.Struct, frozen=True):
    """One parsed goalie action cell (11.10)."""

    code: str
    slot: SlotName | None = None
    goal_if_in_range: bool = False
    number: int | None = None


_SKATER = re.compile(
    r"(?P<code>1[0-4]|[1-9]|\*[HD]|\*|R|@|PP|Pf|P|X[HV]?|#|I)"
    r"(?P<num>\d*)(?P<marks>[+?S]*)"
)
# Codes that take a number after them: (the numbers allowed, whether one is required).
_NUMBERS: dict[str, tuple[range, bool]] = {
    "*H": (range(2, 10), False),
    "*D": (range(2, 10), True),
    "P": (range(1, 6), False),
    "Pf": (range(1, 4), True),
    "X": (range(1, 6), False),
}
_GOALIE = re.compile(
    r"F|F\?1|FG|PS1|R|X[1-5]?|(?P<own>LW|LD|C|RW|RD)(?P<g>G?)|\*(?P<shot>lw|ld|c|rw|rd)"
)


@lru_cache(maxsize=1024)
def parse_skater_cell(text: str) -> SkaterCell:
    """Parse a skater action cell such as ``8``, ``P3+``, ``*H7``, ``X?S`` (8.10, 8.20).

    Raises ``ValueError`` quoting the text when it is not a skater action code.
    """
    match = _SKATER.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"not a skater action code: {text!r} (8.10)")
    code, num, marks = match["code"], match["num"], match["marks"]
    if len(set(marks)) != len(marks):
        raise ValueError(f"not a skater action code: {text!r} (marker repeated; 8.20)")
    value: int | None
    if code[0].isdigit():
        if num:  # "15" is matched as "1" + "5": no numeric code is above 14
            raise ValueError(f"not a skater action code: {text!r} (numbers run 1-14; 8.10)")
        value, code = int(code), "N"
    elif code in _NUMBERS:
        allowed, required = _NUMBERS[code]
        if not num and required:
            raise ValueError(f"not a skater action code: {text!r} ({code} needs a number)")
        value = int(num) if num else None
        if value is not None and (value not in allowed or num[0] == "0"):
            raise ValueError(f"not a skater action code: {text!r} (bad number after {code})")
    elif num:
        raise ValueError(f"not a skater action code: {text!r} ({code} takes no number)")
    else:
        value = None
    return SkaterCell(code, value, "+" in marks, "?" in marks, "S" in marks)


@lru_cache(maxsize=256)
def parse_goalie_cell(text: str) -> GoalieCell:
    """Parse a goalie action cell such as ``F``, ``LWG``, ``*rd``, ``X3`` (11.10).

    Raises ``ValueError`` quoting the text when it is not a goalie action code.
    """
    match = _GOALIE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"not a goalie action code: {text!r} (11.10)")
    if match["own"]:
        return GoalieCell("OWN", match["own"], bool(match["g"]))
    if match["shot"]:
        return GoalieCell("*", match["shot"].upper(), True)  # type: ignore[arg-type]
    if text == "FG":
        return GoalieCell("F", None, True)
    if text == "F?1":
        return GoalieCell("F?", None, False, 1)
    if text == "PS1":
        return GoalieCell("PS", None, False, 1)
    if text[0] == "X":
        return GoalieCell("X", None, False, int(text[1:]) if len(text) > 1 else None)
    return GoalieCell(text)
