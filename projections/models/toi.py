"""Time on ice and shifts: the read-model type every system's time-on-ice fold returns
(projections/<system>/toi.py), its JSON keys documented in docs/json.md. Every time is a
number in the system's unit (``ReadModels.unit``: Hockey Bones' seconds, DICE Hockey's
timing spaces)."""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = ["PlayerLine", "PlayerShifts", "PlayerToi", "ShiftLine", "Toi", "ToiByPlayer",
           "toi_by_player", "toi_of"]


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
    # each charge as its JSON (CHARGE_JSON)
    shifts: list[tuple[str, str, list[tuple[int, int, int, int, msgspec.Raw]]]]


# What a time-on-ice fold works out (projections/<system>/toi.py ``_lines``), both systems
# alike: a player's line with its sort key (his side's order, a goalie after the skaters,
# his id, his place in the making: rows of an equal key stay in that order), and a
# player's shifts in his order (team, player, his side's order, his shifts: (period,
# start, end, duration, charge)).
PlayerLine = tuple[int, bool, str, int, PlayerToi]
PlayerShifts = tuple[str, str, int, list[tuple[int, int, int, int, Any]]]

# A shift's charge as the stored JSON spells it (``msgspec.Raw``: its bytes copied as they
# are), in the shifts ``ToiByPlayer`` gives the store, which only ever encodes them: the
# two charges a shift takes, not a float formatted at each of a game's few hundred shifts
# (msgspec's shortest-float formatting: 0.26 M instructions of a Hockey Bones game's 8.4 M
# folded, 0.29 M of DICE Hockey's 7.2 M, callgrind).
CHARGE_JSON = {1.0: msgspec.Raw(b"1.0"), 0.5: msgspec.Raw(b"0.5")}
FULL_JSON, HALF_JSON = CHARGE_JSON[1.0], CHARGE_JSON[0.5]


def toi_of(game_id: str, players: list[PlayerLine], by_player: list[PlayerShifts]) -> Toi:
    """A game's :class:`Toi` from its players' lines (sorted) and their shifts: each
    player's shifts numbered in his order, then the game's shift lines sorted by time
    (period, start), his side's order, his id and their place in the making."""
    shifts: list[tuple[int, int, int, str, int, ShiftLine]] = []
    for team_id, pid, rank, lines in by_player:
        for n, (period, start, end, duration, charge) in enumerate(lines, start=1):
            shifts.append((period, start, rank, pid, len(shifts), ShiftLine(
                team_id, pid, n, period, start, end, duration, charge)))
    shifts.sort()
    return Toi(game_id=game_id, players=[row[4] for row in players],
               shifts=[row[5] for row in shifts])


def toi_by_player(players: list[PlayerLine], by_player: list[PlayerShifts]) -> ToiByPlayer:
    """:func:`toi_of`'s players and each one's shifts in his order, not made into a game's
    shift lines sorted by time (what the store keeps: a player's shifts a row)."""
    return ToiByPlayer(players=[row[4] for row in players],
                       shifts=[(team, pid, lines) for team, pid, _, lines in by_player])
