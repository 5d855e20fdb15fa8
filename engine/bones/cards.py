"""Player cards, team sheets and the game chart pack of Hockey Bones, as data models.

Files are TOML, written by hand or by ``rinklog cards generate``; msgspec checks every
field. Dice ranges stay text in the files (``"2-10"``, ``"3-6(3)"``) and are parsed once
on load. Matrices are lists of six blue columns, each of eleven cells for white 2-12
(3.10): ``action[blue - 1][white - 2]``.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

from events.common import RosterEntry

Position = Literal["LW", "C", "RW", "D"]
Slot = Literal["LW", "C", "RW", "LD", "RD"]
PenaltyType = Literal["-", "A", "B", "C", "D", "F", "G", "M", "#"]
Column = Annotated[list[str], Meta(min_length=11, max_length=11)]
Matrix = Annotated[list[Column], Meta(min_length=6, max_length=6)]
RangeText = Annotated[str, Meta(pattern=r"^[1-6]-([2-9]|1[0-2])(\([1-6]\))?$")]
Rating = Annotated[int, Meta(ge=0, le=9)]


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: Annotated[str, Meta(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: str


class PassSix(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The red-6 entry of a pass chart: even strength, penalty kill, power play (12.00)."""

    es: Slot
    pk: Slot
    pp: Slot


class PenaltyColumn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Penalty types by white total 2-12, read from O on an odd blue, E on an even (14.00)."""

    odd: Annotated[list[PenaltyType], Meta(min_length=11, max_length=11)]
    even: Annotated[list[PenaltyType], Meta(min_length=11, max_length=11)]


class Skater(Card, frozen=True, kw_only=True):
    positions: Annotated[list[Position], Meta(min_length=1)]
    # Shooting ranges (10.10-10.40); ``d`` is the range a forward uses on the blue line.
    n: RangeText
    p: RangeText
    s: RangeText
    d: RangeText | None = None
    action: Matrix
    passes: Annotated[list[Slot], Meta(min_length=5, max_length=5)]
    pass_six: PassSix
    penalty: PenaltyColumn
    defense: Annotated[int, Meta(ge=0, le=5)]
    clearing: Annotated[int, Meta(ge=0, le=5)] = 0
    shadow: bool = False
    forechecking: Rating = 0
    intimidation: Rating = 0
    passing: Rating = 0
    screening: bool = False
    blocker: bool = False
    faceoff: Literal["", "A", "AA"] = ""
    ace_pk: bool = False
    shift: Annotated[float, Meta(ge=0, le=40)]
    mc: RangeText
    assist: Rating = 0
    mi: Rating = 0
    ma: Rating = 0
    gm: Rating = 0
    so: Annotated[int, Meta(ge=0, le=10)] = 0

    @property
    def is_defenseman(self) -> bool:
        return "D" in self.positions

    def __post_init__(self) -> None:
        if "D" not in self.positions and self.d is None:
            raise msgspec.ValidationError("a forward needs a `d` shooting range (10.40)")


class Rebounds(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who on the shooting team gets a rebound: red 1-5, then red 1-6 on a re-roll (11.20)."""

    upper: Annotated[list[Slot], Meta(min_length=5, max_length=5)]
    lower: Annotated[list[Slot], Meta(min_length=6, max_length=6)]


class Goalie(Card, frozen=True, kw_only=True):
    action: Matrix
    rebounds: Rebounds
    penalty: PenaltyColumn
    assist_range: RangeText
    mc: RangeText
    gm_range: RangeText
    # 21.00 shootout grade; "" for a FaceOff 2008 card, which has none (no shootout)
    shootout: Literal["A", "B", "C", "D", "F", ""] = ""
    games: Annotated[int, Meta(ge=0, le=82)] = 41


class Lines(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The coach's depth chart: forward lines (LW, C, RW), pairs (LD, RD), goalies."""

    forwards: Annotated[list[Annotated[list[str], Meta(min_length=3, max_length=3)]],
                        Meta(min_length=3, max_length=4)]
    defense: Annotated[list[Annotated[list[str], Meta(min_length=2, max_length=2)]],
                       Meta(min_length=2, max_length=4)]
    goalies: Annotated[list[str], Meta(min_length=1, max_length=2)]


class Team(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: Annotated[str, Meta(pattern=r"^[A-Z][A-Z0-9]{1,5}$")]
    name: str
    bench_minor: RangeText  # 5.00
    game_misconduct: RangeText  # 14.51
    lines: Lines
    skaters: Annotated[list[Skater], Meta(min_length=6, max_length=18)]
    goalies: Annotated[list[Goalie], Meta(min_length=1, max_length=2)]


# --- the game chart pack --------------------------------------------------------------
# Every game chart is read blue column x white row (3.10): six lists of eleven cells.

def _grid(cell: object) -> object:
    return Annotated[list[Annotated[list[cell], Meta(min_length=11, max_length=11)]],
                     Meta(min_length=6, max_length=6)]


FaceoffCell = Annotated[str, Meta(pattern=r"^(LW|C|RW|LD|RD)-(H|V|PP)(/AA?)?$")]
AssistCell = Annotated[str, Meta(pattern=r"^(0|1/[1-4]|2/[1-4]-[1-4])$")]


class SpecialOccurrence(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Extra penalties after a ``#`` special penalty (14.20): to the side first penalized
    (``own``) and to the other side, each a list of penalty kinds."""

    text: str
    own: list[Literal["minor", "major", "misconduct"]] = []
    other: list[Literal["minor", "major", "misconduct"]] = []


class TeamDefenseRow(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A total of defensive ratings of at least ``total`` gives Team Defense ``defense``."""

    total: int
    defense: int


ArcRange = Annotated[str, Meta(pattern=r"^[1-6]-([2-9]|1[0-2])$")]  # three dice: no red
ArcColumn = Annotated[list[ArcRange], Meta(min_length=9, max_length=9)]  # ratings 1-9


class ArcCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One ARC card (FaceOff 21.000): the card for a total of ratings; column 1 or 2,
    row by a player's rating (1-9), each cell a three-dice range."""

    total: Annotated[int, Meta(ge=1)]
    one: ArcColumn
    two: ArcColumn


class ArcCards(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """FaceOff 2008's Assist/Retaliation Cards, one per total from 1 up (21.000)."""

    name: str
    substitute: bool  # the text prints no ARC card: every pack so far is made up
    cards: Annotated[list[ArcCard], Meta(min_length=1)]

    def __post_init__(self) -> None:
        totals = [card.total for card in self.cards]
        if totals != list(range(1, len(totals) + 1)):
            raise msgspec.ValidationError("cards: totals must run 1, 2, 3... with none missing")

    def cell(self, total: int, column: int, rating: int) -> str:
        """The range at (column, rating) of the card for ``total``; a total past the last
        card reads the last card (ruling R-21.000a)."""
        card = self.cards[min(total, len(self.cards)) - 1]
        return (card.one if column == 1 else card.two)[rating - 1]


class Charts(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The Game Chart. ``substitute`` names the charts this pack's authors made up."""

    name: str
    substitute: list[str]
    # 7.00: "LW-H" home LW wins; "C-PP" the power-play team's C (7.10); "/A", "/AA" ace marks.
    faceoffs: _grid(FaceoffCell)
    team_defense: Annotated[list[TeamDefenseRow], Meta(min_length=1)]  # 9.30-9.50
    clearing: Annotated[list[RangeText], Meta(min_length=1)]  # 11.20: index = clearing total
    # 16.00: count before the slash, AS ranks after it: "0", "1/4", "2/4-3".
    assists: _grid(AssistCell)
    retaliation: _grid(Annotated[int, Meta(ge=1, le=5)])  # 14.30: rank 5 (highest) .. 1
    exact_time: _grid(Annotated[int, Meta(ge=0, le=23)])  # 6.30: seconds into the sequence
    special_occurrences: _grid(Annotated[int, Meta(ge=0)])  # 14.20: index into occurrences
    occurrences: Annotated[list[SpecialOccurrence], Meta(min_length=1)]
    bench_penalty: Annotated[list[Annotated[list[str], Meta(min_length=11, max_length=11)]],
                             Meta(min_length=2, max_length=2)]  # 5.00: [odd, even] "MM:SS"
    injuries: Annotated[list[Annotated[list[str], Meta(min_length=11, max_length=11)]],
                        Meta(min_length=6, max_length=6)]  # 18.10: OIP 0..5+ x white 2-12
    blocked_shots: Annotated[list[list[int]], Meta(min_length=5, max_length=5)]  # 10.70
    shootout: Annotated[list[Annotated[list[RangeText], Meta(min_length=5, max_length=5)]],
                        Meta(min_length=11, max_length=11)]  # 21.00: SO 0..10 x grade A-F
    # FaceOff 21.000 ARC cards, added from their own pack for a game that uses them; UNSET
    # (left out of the bytes, so the charts' hash is unchanged) otherwise.
    arc: ArcCards | UnsetType = UNSET


def roster_entries(team: Team) -> list[RosterEntry]:
    """What a GameCreated records of a team's players: the roster projections need."""
    roster = [RosterEntry(id=s.id, name=s.name, position=s.positions[0], shift=s.shift)
              for s in team.skaters]
    return roster + [RosterEntry(id=g.id, name=g.name, position="G") for g in team.goalies]
