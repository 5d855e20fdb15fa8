"""The scoresheet, a game's official record: the read-model type every system's
scoresheet fold returns (projections/<system>/scoresheet.py), its JSON keys documented in
docs/json.md.

A goal's or a penalty's time is a :class:`GameTime` (``at``: a number in the system's
unit); ``time`` is how the JSON shows it (``"MM:SS"`` for Hockey Bones' seconds, the number
for DICE Hockey's timing spaces), set from ``at`` when the line is made (:meth:`Timed.timed`)
because a line's JSON is its fields. Every other time (a goalie's ``toi``) is a number in
the system's unit (``ReadModels.unit``).
"""

from __future__ import annotations

import copy
from typing import Any, Self, TypeVar

import msgspec
from msgspec import UNSET, UnsetType

from projections.models.times import GameTime

__all__ = ["GoalLine", "GoalieLine", "PenaltyLine", "PowerPlay", "Scoresheet", "ShootoutLine",
           "TeamLine", "Timed"]


T = TypeVar("T", bound="Timed")


def _with_time(line: T, at: GameTime) -> T:
    line.__dict__["at"] = at
    return line


def _remade(cls: type[T], fields: tuple[Any, ...], at: GameTime) -> T:
    return _with_time(cls(*fields), at)


class Timed:
    """A line with a time: ``at`` is the number (kept beside the fields, out of the JSON),
    ``time`` the field the JSON shows."""

    __slots__ = ()

    @property
    def at(self) -> GameTime:
        try:
            return self.__dict__["at"]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} made without its time "
                                 "(make it with .timed)") from None

    @classmethod
    def timed(cls, at: GameTime, **fields: Any) -> Self:
        """The line at ``at``: its ``time`` field is ``at`` as the JSON shows it."""
        return _with_time(cls(time=at.json, **fields), at)

    # Copied and pickled with its time (a struct's fields alone would leave ``at`` behind;
    # msgspec.structs.replace does: make a changed line with ``timed``).
    def __reduce__(self) -> tuple[Any, ...]:
        return (_remade, (type(self), msgspec.structs.astuple(self), self.at))

    def __copy__(self) -> Self:
        return _remade(type(self), msgspec.structs.astuple(self), self.at)

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return _remade(type(self), copy.deepcopy(msgspec.structs.astuple(self), memo), self.at)


class PowerPlay(msgspec.Struct, frozen=True):
    opportunities: int
    goals: int


class TeamLine(msgspec.Struct, frozen=True):
    team: str
    name: str
    goals: int  # final score, shootout bonus included
    goals_by_period: list[int]  # index 0 = period 1; OT (4) only if played; 2OT... too
    shots: list[int]  # shots on goal per period, same indexing
    pp: PowerPlay
    pim: int
    blocked: list[int]  # the other side's shots this team blocked, per period
    faceoffs: list[int]  # face-offs won per period


class GoalLine(Timed, msgspec.Struct, frozen=True, dict=True):
    period: int
    time: str | int  # ``at`` as the JSON shows it: MM:SS elapsed; DICE Hockey: the timing space
    team: str
    scorer: str
    scorer_name: str
    assists: list[str]
    assist_names: list[str]
    strength: str
    gwg: bool  # the game-winning goal


class PenaltyLine(Timed, msgspec.Struct, frozen=True, dict=True):
    period: int
    time: str | int  # ``at`` as the JSON shows it: MM:SS; DICE Hockey: the timing space
    team: str
    player: str
    player_name: str
    type: str
    minutes: int
    infraction: str | UnsetType = UNSET  # in words (DICE Hockey's Penalty Chart B, 15);
    # UNSET (left out of the JSON) where the stream does not name it (Hockey Bones)


class PenaltyType(msgspec.Struct, frozen=True):
    """A penalty's type where its system's stream names no infraction (Hockey Bones' 14.20
    codes, projections/bones/penalty_types.py): the penalty line it belongs to (period,
    time in the system's unit, player, kind) and its ``code`` and the text's ``name``.
    The pages' only (not stored)."""

    period: int
    time: int
    player: str
    kind: str
    code: str
    name: str


class GoalieLine(msgspec.Struct, frozen=True):
    team: str
    player: str
    name: str
    toi: int  # in the system's unit: seconds; DICE Hockey: timing spaces in net
    shots_against: int
    saves: int
    goals_against: int
    decision: str  # "W", "L", "OTL", "T" (a FaceOff tie) or ""


class ShootoutLine(msgspec.Struct, frozen=True):
    team: str
    shooter: str
    shooter_name: str
    scored: bool


class Scoresheet(msgspec.Struct, frozen=True):
    game_id: str
    decided: str | None  # REG, OT, SO, TIE; None while the game is not over
    home: TeamLine
    away: TeamLine
    goals: list[GoalLine]
    penalties: list[PenaltyLine]
    goalies: list[GoalieLine]
    shootout: list[ShootoutLine]

    def to_json(self) -> dict[str, Any]:
        return msgspec.to_builtins(self)
