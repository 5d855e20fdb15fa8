"""Time on ice and shifts: the read-model type every system's time-on-ice fold returns
(projections/<system>/toi.py), its JSON keys documented in docs/json.md. Every time is a
number in the system's unit (``ReadModels.unit``: Hockey Bones' seconds, DICE Hockey's
timing spaces)."""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = ["PlayerToi", "ShiftLine", "Toi", "ToiByPlayer"]


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


class ToiByPlayer(msgspec.Struct, frozen=True):
    """:class:`Toi`'s players, and each one's shifts kept by player, in his order (his
    shift n the n-th): (team, player, [(period, start, end, duration, charge), ...]), a
    player with none left out. What the store keeps of a game's shifts (a player's a row,
    ``rm_toi_player_shifts``, projections/store.py): a fold gives it without the game's
    shift lines made and sorted by time only to be grouped by player again."""

    players: list[PlayerToi]
    shifts: list[tuple[str, str, list[tuple[int, int, int, int, float]]]]
