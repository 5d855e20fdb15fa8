"""Time on ice and shifts: the read-model type every system's time-on-ice fold returns
(projections/<system>/toi.py), its JSON keys documented in docs/json.md. Every time is a
number in the system's unit (``ReadModels.unit``: Hockey Bones' seconds, DICE Hockey's
timing spaces)."""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = ["PlayerToi", "ShiftLine", "Toi"]


class PlayerToi(msgspec.Struct, frozen=True):
    team: str
    player: str
    name: str
    position: str
    sequences: int
    shifts: float  # a full shift 1, a half 0.5
    excess: int
    toi: int  # in the system's unit (seconds; DICE Hockey: timing spaces)
    toi_ev: int
    toi_pp: int
    toi_sh: int


class ShiftLine(msgspec.Struct, frozen=True):
    team: str
    player: str
    shift: int  # 1.. per player
    period: int  # 4 = overtime
    start: int  # elapsed in the period, in the system's unit
    end: int
    duration: int
    charge: float  # 0.5 or 1.0


class Toi(msgspec.Struct, frozen=True):
    game_id: str
    players: list[PlayerToi]
    shifts: list[ShiftLine]

    def to_json(self) -> dict[str, Any]:
        return msgspec.to_builtins(self)
