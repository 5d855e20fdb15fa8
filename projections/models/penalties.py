"""The penalty report: the read-model type every system's penalty fold returns
(projections/<system>/penalties.py), its JSON keys documented in docs/json.md. Every time
is a number in the system's unit (``ReadModels.unit``): Hockey Bones' seconds, DICE
Hockey's timing spaces (its ``box``, ``short`` and clocks count clears, 15)."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

__all__ = ["BoxStint", "PenaltyLine", "PenaltyReport", "Running", "skaters", "strength_label"]


def skaters(mine: int, theirs: int, base: int = 5) -> int:
    """Skaters a side has with ``mine`` and ``theirs`` men short (Hockey Bones 15.00, DICE
    Hockey 15); ``base`` 3 is a league's 3-on-3 overtime, where each penalty to the other
    side adds one (R-6.00b)."""
    if base < 5:
        return max(3, min(5, base + theirs - mine))
    return 5 - mine


@cache  # two labels every sequence, from a handful of (mine, theirs, base)
def strength_label(mine: int, theirs: int, base: int = 5) -> str:
    """``"5v4"``: skaters each way by penalties alone (a pulled goalie not counted)."""
    return f"{skaters(mine, theirs, base)}v{skaters(theirs, mine, base)}"


class PenaltyLine(msgspec.Struct, frozen=True):
    id: int
    team: str
    side: str
    player: str
    served_by: str | None
    kind: str
    minutes: int
    box: int  # sequences in the box (DICE Hockey: clears, or spaces without a man short)
    short: int  # sequences a man short (DICE Hockey: clears)
    period: int
    sequence: int
    start: int  # elapsed in the period, in the system's unit
    scheduled_end_period: int | None  # None: no scheduled end (DICE Hockey: killed by clears)
    scheduled_end: int | None
    end_period: int | None  # None while still running
    end: int | None
    why: str | None  # served, power_play_goal, game_end


class BoxStint(msgspec.Struct, frozen=True):
    team: str
    player: str
    penalty: int
    period_in: int
    time_in: int
    period_out: int | None
    time_out: int | None


class Running(msgspec.Struct, frozen=True):
    id: int
    team: str
    player: str  # who sits
    kind: str
    time_left: int  # box time left, in the system's unit
    short_left: int  # man-short time left


class PenaltyReport(msgspec.Struct, frozen=True):
    game_id: str
    at: int | None  # the event seq the state is read at; None: the whole stream
    period: int
    sequence: int
    penalties: list[PenaltyLine]
    box: list[BoxStint]
    running: list[Running]
    strength: dict[str, str]  # side -> "5v4"
    sequences: list[dict[str, Any]]  # per sequence: period, sequence, home, away labels

    def to_json(self) -> dict[str, Any]:
        return msgspec.to_builtins(self)
