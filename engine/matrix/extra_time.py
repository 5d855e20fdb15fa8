"""2.2: extra time and the penalty shootout; the limits on each extra-time value.

Tied at the end of regular time, the higher extra-time value scores the golden goal
(+1, "AP"). Equal values: a draw in the championship and WG groups (3.1.2, 3.3.2); the
KDH shootout, then a die (3.2.2); in WG knock-out games the goals of the group games,
then a die (3.3.2). An X is 0-3 by a die (2.2), a shootout X 0-5.
"""

from __future__ import annotations

from collections import Counter

__all__ = ["EXTRA_TIME_LIMITS", "SHOOTOUT_VALUES", "X_VALUES", "available_extra_time",
           "golden_goal", "points"]

EXTRA_TIME_LIMITS: dict[str, dict[str, int]] = {
    "championship": {"0": 2, "1": 3, "2": 3, "3": 2, "X": 1},  # 2.2, 3.1.2
    "kdh": {"0": 2, "1": 2, "2": 2, "X": 1},  # 3.2.2
    "wg": {"0": 2, "1": 2, "2": 2, "X": 2},  # 3.3.2
}
X_VALUES = ["0", "1", "2", "3"]  # 2.2 (ruling M-2.2a: in every competition)
SHOOTOUT_VALUES = ["0", "1", "2", "3", "4", "5", "X"]  # 2.2: no limit given (M-2.2b)
SHOOTOUT_X_VALUES = ["0", "1", "2", "3", "4", "5"]


def available_extra_time(competition: str, used: Counter[str]) -> list[str]:
    """The extra-time values a team may still pick in a competition."""
    return [value for value, limit in EXTRA_TIME_LIMITS[competition].items()
            if used[value] < limit]


def golden_goal(home_value: int, away_value: int) -> str:
    """The side that scores the golden goal (2.2), or "" when the values are equal."""
    if home_value == away_value:
        return ""
    return "home" if home_value > away_value else "away"


def points(decided: str, won: bool) -> int:
    """3.1.5: a win 2 (regular or extra time), a draw 1, an extra-time loss 1, else 0."""
    if won:
        return 2
    return 1 if decided in ("DRAW", "AP") else 0
