"""DICE Hockey cards and charts as data models (4, 12, 21C, 21D).

A skater card has a goal range (``goal``: he scores on 00-goal), a Saves section (where
the puck goes when a shot on his card misses), ratings, a shootout range and a passing
column. The passing column is written as bands ``{upto, to, shot}`` covering 00-89; the
text fixes 90-99 on every card (TRV A 90-94, TRV B 95-96, Penalty 97-98, Special 99;
15, 16, 21C), so a card does not repeat them. A goalie card has a goal range (used for
GS shots), a Saves section whose 95-99 are always a penalty (15) and a shootout range. A
team's cover card gives its timing, PP and PK ratings (12, 21D).

Charts the text names but does not print are a chart pack (:class:`Charts`), every one a
list of bands ``{upto, ...}`` covering 00-99 in order. The text's own fixed points are
checked on load (:func:`fixed_point_faults`), so a user's pack must honour them too.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from engine.dicehockey.bands import band

Slot = Literal["LW", "C", "RW", "LD", "RD"]
Position = Literal["LW", "C", "RW", "D"]
Number = Annotated[int, Meta(ge=0, le=99)]
Id = Annotated[str, Meta(pattern=r"^[a-z0-9][a-z0-9-]*$")]
PASS_LAST = 89  # 21C: 90-99 are TRV A, TRV B, Penalty and Special on every card
GOON = 75  # 22: a penalty rating of 75 and up is a goon


def _bands_fault(bands: list, last: int) -> str | None:
    """A band list must rise strictly and end at ``last``."""
    uptos = [band.upto for band in bands]
    if any(b <= a for a, b in zip(uptos, uptos[1:], strict=False)):
        return f"bands must rise: {uptos}"
    if uptos[-1] != last:
        return f"the last band must end at {last:02d}, not {uptos[-1]:02d}"
    return None


class PassBand(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``To <to> [PS|GS]`` for rolls up to ``upto`` (7). ``GS*``/``GS**`` are 21C's
    shooter-tag passes (to LD and RD, unless a tagged shooter is on the ice)."""

    upto: Number
    to: Slot
    shot: Literal["", "PS", "GS", "GS*", "GS**"] = ""


class SaveBand(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Saves (8): ``To D LD`` (``team = "D"``, the goalie's team) or ``To O C`` (the
    shooting team keeps it: a rebound)."""

    upto: Number
    team: Literal["D", "O"]
    to: Slot


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: Id
    name: str
    goal: Number  # 4, 8: scores on 00-goal
    saves: Annotated[list[SaveBand], Meta(min_length=1)]
    so: Number  # 14: shootout range 00-so
    # 14: attempts a season ("(7)"); ruling R-DH-14d: kept, not enforced by one game
    so_attempts: Annotated[int, Meta(ge=0, le=82)] = 0

    def save(self, value: int) -> SaveBand:
        return band(self.saves, value)


class Skater(Card, frozen=True, kw_only=True):
    position: Position
    passing: Annotated[list[PassBand], Meta(min_length=1)]
    passer: Annotated[int, Meta(ge=-10, le=0)] = 0  # 7: lower is better
    defense: Annotated[int, Meta(ge=0, le=10)] = 0  # 7: +0..+10 (forwards +0 or +1)
    faceoff: Annotated[int, Meta(ge=-30, le=30)] | None = None  # 6; None: cannot play C
    penalty: Annotated[int, Meta(ge=0, le=99)] = 0  # 15, 22 (75 and up is a goon)
    injury: Annotated[int, Meta(ge=0, le=99)] = 0  # 17
    stamina: Literal["A", "B"] = "A"  # 11, 21A
    shooter: Annotated[int, Meta(ge=0, le=9)] = 0  # 21C: *[n]; 0 untagged

    def __post_init__(self) -> None:
        fault = _bands_fault(self.passing, PASS_LAST) or _bands_fault(self.saves, 99)
        if fault:
            raise msgspec.ValidationError(fault)
        if self.position != "D" and self.defense > 1:
            raise msgspec.ValidationError("defense: forwards are rated +0 or +1 (7)")
        if self.position == "C" and self.faceoff is None:
            raise msgspec.ValidationError("faceoff: a centre needs a face-off rating (6, 10)")

    def pass_band(self, value: int) -> PassBand:
        return band(self.passing, value)

    @property
    def goon(self) -> bool:
        return self.penalty >= GOON  # 22: the goons


class Goalie(Card, frozen=True, kw_only=True):
    def __post_init__(self) -> None:
        fault = _bands_fault(self.saves, 94)
        if fault:
            raise msgspec.ValidationError(f"{fault} (15: 95-99 is the goalie's penalty range)")


class Lines(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The lineup cards (9, 10): four forward lines (LW, C, RW), three pairs, goalies."""

    forwards: Annotated[list[Annotated[list[Id], Meta(min_length=3, max_length=3)]],
                        Meta(min_length=4, max_length=4)]
    defense: Annotated[list[Annotated[list[Id], Meta(min_length=2, max_length=2)]],
                       Meta(min_length=3, max_length=3)]
    goalies: Annotated[list[Id], Meta(min_length=1, max_length=2)]


class Team(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    id: Annotated[str, Meta(pattern=r"^[A-Z][A-Z0-9]{1,5}$")]
    name: str
    timing: Annotated[int, Meta(ge=1, le=40)]  # 12
    pp: Annotated[int, Meta(ge=-40, le=0)]  # 21D: power play, lower is better
    pk: Annotated[int, Meta(ge=0, le=40)]  # 21D: penalty killing, higher is better
    lines: Lines
    skaters: Annotated[list[Skater], Meta(min_length=18, max_length=18)]  # 10: 18 dressed
    goalies: Annotated[list[Goalie], Meta(min_length=1, max_length=2)]

    def __post_init__(self) -> None:
        skaters = {s.id: s for s in self.skaters}
        goalies = {g.id for g in self.goalies}
        if len(skaters) != len(self.skaters) or skaters.keys() & goalies:
            raise msgspec.ValidationError("player ids must be unique")
        placed = [p for line in [*self.lines.forwards, *self.lines.defense] for p in line]
        if sorted(placed) != sorted(skaters):
            raise msgspec.ValidationError("lines: every one of the 18 skaters is placed once (10)")
        if set(self.lines.goalies) != goalies:
            raise msgspec.ValidationError("lines.goalies: the team's goalies (10)")
        for line in self.lines.forwards:
            if skaters[line[1]].faceoff is None:
                raise msgspec.ValidationError(
                    f"lines: {line[1]!r} has no face-off rating and cannot play C (10)")

    def skater(self, player_id: str) -> Skater:
        for card in self.skaters:
            if card.id == player_id:
                return card
        raise KeyError(player_id)


# --- the chart pack -------------------------------------------------------------------

class WhoBand(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Penalty Chart A (15): the player on offense or defense with the ``rank``-th
    highest penalty rating."""

    upto: Number
    team: Literal["offense", "defense"]
    rank: Annotated[int, Meta(ge=1, le=5)]


class InfractionBand(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Penalty Chart B (15): the infraction of a card's penalty (always a minor)."""

    upto: Number
    infraction: str


SpecialKind = Literal["fight", "play_on", "scrum", "penalty", "injury"]


class SpecialBand(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The Special Play chart (16): a fight, a penalty with its kind, infraction and
    player (team and penalty-rating rank), or an injury (team and slot)."""

    upto: Number
    kind: SpecialKind
    text: str
    team: Literal["offense", "defense", "both", ""] = ""
    rank: Annotated[int, Meta(ge=0, le=5)] = 0
    slot: Slot | Literal[""] = ""
    penalty: Literal["", "minor", "double_minor", "major", "misconduct", "game_misconduct",
                     "penalty_shot"] = ""
    infraction: str = ""


class FightBand(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Fight chart (18): the ranks (by penalty rating) of the two fighters, offense
    and defense; 0 for no fight."""

    upto: Number
    offense: Annotated[int, Meta(ge=0, le=5)]
    defense: Annotated[int, Meta(ge=0, le=5)]
    text: str


class TurnoverBand(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Turnover chart (TRV B; 19, 21C): the defense's ``slot`` steals it, or steals
    it for a breakaway (a +30 shot on his card; on a miss ``miss`` of the other team
    has the puck), or a face-off (icing, offside)."""

    upto: Number
    kind: Literal["steal", "breakaway", "icing", "offside"]
    text: str
    slot: Slot | Literal[""] = ""
    miss: Slot | Literal[""] = ""


class GamesMissedBand(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Games Missed (17): an Injury Rating up to ``upto`` misses up to ``games``."""

    upto: Number
    games: Annotated[int, Meta(ge=0, le=99)]


class Charts(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The DICE Hockey chart pack. ``substitute`` names the charts its authors made up."""

    name: str
    substitute: list[str]
    penalty_a: list[WhoBand]
    penalty_b: list[InfractionBand]
    special: list[SpecialBand]
    fight: list[FightBand]
    turnover: list[TurnoverBand]
    games_missed: list[GamesMissedBand]

    def __post_init__(self) -> None:
        for name in CHART_NAMES:
            bands = getattr(self, name)
            fault = _bands_fault(bands, 99) if bands else "at least one band"
            if fault:
                raise msgspec.ValidationError(f"{name}: {fault}")
        for fault in fixed_point_faults(self):
            raise msgspec.ValidationError(fault)


CHART_NAMES = ("penalty_a", "penalty_b", "special", "fight", "turnover", "games_missed")


def fixed_point_faults(charts: Charts) -> list[str]:
    """The text's own chart cells a pack must keep (15, 16, 17, 18)."""
    faults = []
    who = band(charts.penalty_a, 33)
    if (who.team, who.rank) != ("offense", 2):
        faults.append("penalty_a: 33 is the offense's 2nd-highest penalty rating (15)")
    if band(charts.penalty_b, 6).infraction != "Hooking":
        faults.append("penalty_b: 06 is a Hooking minor (15)")
    bands = {"fight": range(0, 10), "penalty": range(50, 88), "injury": range(88, 100)}
    for kind, numbers in bands.items():
        if any(band(charts.special, n).kind != kind for n in numbers):
            faults.append(f"special: {numbers.start:02d}-{numbers.stop - 1:02d} are "
                          f"{kind} results (16, 17, 18)")
    if any(band(charts.special, n).kind in bands for n in range(10, 50)):
        faults.append("special: 10-49 are neither fight, penalty nor injury (16)")
    cell = band(charts.special, 63)
    if (cell.penalty, cell.infraction, cell.team, cell.rank) != (
            "double_minor", "Roughing", "offense", 2):
        faults.append("special: 63 is a double minor for Roughing to the offense's #2 "
                      "penalty rating (15)")
    if band(charts.games_missed, 65).games != 30:
        faults.append("games_missed: an Injury Rating of 65 misses up to 30 games (17)")
    return faults
