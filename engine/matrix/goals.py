"""2.1: a team's goals in regular time, from the matrix, extra goals, great saves, the
bonus goal, and the ONR penalty goal (3.1.3).

The order is the text's: the week's row and the picked column, one goal less for each
other team of the division on the same column (2.1.1), not below zero; the extra goals
added after that (2.1.2.2); the opponent's great saves taken off next, not below zero
(2.1.3.2); the bonus goal added last (2.1.4); an ONR team's penalty goal taken from what
it should have scored (3.1.3, ruling M-3.1.3c: last, not below zero).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from events.matrix import MatrixTable

__all__ = ["Entry", "column_value", "regular_goals", "shared_with"]


# compiled (setup.py), a plain Python class: a native one cannot be copied or pickled
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Entry:
    """A team's pick as the referee plays it in one game."""

    team: str
    division: str
    column: str
    extra_time: str
    extra_goals: int = 0  # charged (4)
    great_saves: int = 0  # charged; the championship only (2.1.3)
    shootout: str = ""
    onr: bool = False
    replaced: str = ""  # "onr", "repeat", "dummy" or ""

    @property
    def counts_for_others(self) -> bool:
        """3.1.3: an ONR team's random pick does not change the column for the others; a
        used pick replaced by a die does (4)."""
        return not self.onr


def column_value(matrix: MatrixTable, row: int, column: str) -> int:
    """The matrix value of ``row`` (the week, or the cup round) and ``column``."""
    return matrix.rows[row - 1][matrix.columns.index(column)]


def shared_with(entry: Entry, field: Iterable[Entry]) -> list[str]:
    """2.1.1: the other teams of ``entry``'s division on its column, each taking a goal."""
    return [e.team for e in field if e.team != entry.team and e.division == entry.division
            and e.column == entry.column and e.counts_for_others]


def regular_goals(row_value: int, shared: int, extra_goals: int, great_saves_against: int,
                  bonus: bool, onr: bool) -> int:
    """Goals at the end of regular time (2.1.1-2.1.4, 3.1.3)."""
    goals = max(0, row_value - shared)  # 2.1.1: below zero counts as zero
    goals += extra_goals  # 2.1.2.2: added after the value was set to zero
    goals = max(0, goals - great_saves_against)  # 2.1.3.2: after the extra goals
    goals += 1 if bonus else 0  # 2.1.4: added last, a great save cannot cancel it
    if onr:
        goals = max(0, goals - 1)  # 3.1.3: the penalty goal
    return goals
