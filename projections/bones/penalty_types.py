"""A Hockey Bones penalty's type in the text's words, for the pages' penalty summaries.

A Hockey Bones card rates a player's penalties by TYPE, not by infraction (14.00: "the
number and TYPES of penalties the player received"): its penalty column gives a code,
and 14.20 names what each code is. No rule text names an infraction (no "hooking"), so
a page shows the type, never an invented infraction. The one table that names what
happened is the special-occurrences chart of a "#" penalty (14.20: "refer to the SPECIAL
OCCURENCES chart on the back of the Game Board"), which the text does not print: its
bundled lines are rinklog's labelled substitute, and a league may give its own chart:
the page shows the chart's line (``SpecialOccurrenceRolled.text``) as the chart's, and
docs/pages.md says the bundled chart is a substitute. FaceOff Hockey 2008's 14.20 names
the same codes the same way.

Nothing here is stored: the pages fold it from the events they read (docs/pages.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from events.bones import PenaltyAssessed, PenaltyCalled, SpecialOccurrenceRolled
from projections.models.scoresheet import PenaltyType

__all__ = ["PENALTY_TYPES", "build_penalty_types"]

PENALTY_TYPES = {  # 14.20 Penalty Types, each code's name as the text gives it
    "-": "2 Minute Minor",
    "A": "Coincidental 2 Minute Minors",
    "B": "Coincidental 5 Minute Majors",
    "C": "Coincidental 7 Minute Minor/Majors",
    "D": "4 Minute Double Minor",
    "F": "4 Minute Double Minor/2 Minute Minor in retaliation",
    "G": "Coincidental 4 Minute Double Minors",
    "M": "5 Minute Major",
    "#": "SPECIAL Penalty",
}
TYPED_KINDS = frozenset({"minor", "double_minor", "major", "minor_major"})
"""The penalties of a called type: a misconduct (14.40), a game misconduct (14.50) and a
bench minor (the bench-minor table) are their own, named by the penalty column."""


def build_penalty_types(events: Iterable[Any]) -> list[PenaltyType]:
    """The type of each ``PenaltyAssessed`` of a called type, in the stream's order: the
    code of the penalty called before it and the code's 14.20 name ("A", "Coincidental 2
    Minute Minors"), for a special occurrence's penalties with the substitute chart's
    line. Each names its scoresheet line by period, time, player and kind (the
    scoresheet orders its lines by time, a penalty shot among them)."""
    code, name, out = "", "", []
    for event in events:
        if isinstance(event, PenaltyCalled):
            code, name = event.code, PENALTY_TYPES.get(event.code, event.code)
        elif isinstance(event, SpecialOccurrenceRolled):
            code, name = "#", f"{PENALTY_TYPES['#']}: {event.text} (special occurrences chart)"
        elif isinstance(event, PenaltyAssessed) and event.kind in TYPED_KINDS and code:
            out.append(PenaltyType(event.period, event.time, event.player, event.kind, code, name))
    return out
