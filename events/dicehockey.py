"""The DICE Hockey event catalogue.

Every DICE Hockey event is tagged ``dicehockey.<ClassName>`` (the base class's tag
function), so no tag can clash with Hockey Bones' plain class names; the store's ``type``
column holds the same tag. Every decision event names the roll it used (``roll``: the
``n`` of its :class:`DiceRolled`, 0 when no dice were needed) and the DICE Hockey section
it applied (``rule``, no default). Coach choices (:data:`CHOICES`) carry their section
too. Events carry every fact a read model needs (who was on the ice for each timing
space, clears left on each penalty, the goal's assists and strength), so projections
never import the engine.

Sections are the DICE Hockey text's (1st edition, 2009): ``"7"`` passing, ``"21C"`` the
later player-card changes, ``"22"`` the clarifications, and so on.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from events.base import Event
from events.common import (
    BranchStarted,
    GameCoachSet,
    GameCreated,
    GameEnded,
    PeriodEnded,
    PeriodStarted,
    SeasonGameOpened,
    Side,
)

Digit = Annotated[int, Meta(ge=0, le=9)]
Slot = Literal["LW", "C", "RW", "LD", "RD", "EA"]  # EA: the extra attacker (22)
Team = Literal["offense", "defense"]


def _tag(name: str) -> str:
    return f"dicehockey.{name}"


class DiceHockeyBase(Event, frozen=True, tag=_tag):
    """Base of every DICE Hockey event: tagged ``dicehockey.<ClassName>``."""


class Roll(msgspec.Struct, frozen=True, forbid_unknown_fields=True, array_like=True):
    """One throw of the two DICE Hockey d10 (1, 5): the red die is the tens, the white die
    the ones, read 00-99 (red 4, white 3 = 43). Where the text rolls one die (a game
    misconduct's suspension, 15) the rules read the white die alone."""

    red: Digit
    white: Digit

    @property
    def value(self) -> int:
        return self.red * 10 + self.white

    @property
    def even(self) -> bool:
        return self.white % 2 == 0

    def __str__(self) -> str:
        return f"{self.red} {self.white}"


class DiceRolled(DiceHockeyBase, frozen=True):
    """The n-th roll of the game, and the step it was rolled for."""

    n: int
    roll: Roll
    purpose: str


# --- coach choices ------------------------------------------------------------------

class LinesChanged(DiceHockeyBase, frozen=True):
    """A coach moves a pawn (9): forward line and defense pair now on, 1-based, and who
    stands in each slot once penalties are taken out (``None``: an empty box)."""

    side: Side
    forwards: int
    defense: int
    slots: dict[str, str | None]
    rule: str


class DumpDeclared(DiceHockeyBase, frozen=True):
    """A coach dumps the puck (9; against an empty net, 22): the roll follows."""

    side: Side
    player: str
    rule: str


class TimeOutCalled(DiceHockeyBase, frozen=True):
    """A team's one time out (12); ``period_length`` is the period's count after it."""

    side: Side
    add_space: bool
    period_length: int
    rule: str


class GoalieChanged(DiceHockeyBase, frozen=True):
    """A goalie pulled for an extra attacker, or back in net (22)."""

    side: Side
    goalie: str
    pulled: bool
    extra_attacker: str | None
    rule: str


class LineupRearranged(DiceHockeyBase, frozen=True):
    """A coach re-sets his lineup cards (10): who stands in each box of forward lines 1-4
    (LW, C, RW) and pairs 1-3 (LD, RD) from now on. Only between periods, at his own time
    out or after one of his players is injured; every dressed skater is placed once, only
    a face-off man plays C, and goalies never skate. The pawns stay where they are."""

    side: Side
    forwards: list[list[str]]
    defense: list[list[str]]
    rule: str


class PenaltyPlayerChosen(DiceHockeyBase, frozen=True):
    """A tie on Penalty Chart A settled by the penalized players' coach (15: "If there is
    a tie, the players' coach gets to decide who the penalty was on"): ``player`` is one
    of the :class:`PenaltyTied` players; Penalty Chart B follows for him."""

    side: Side
    player: str
    rule: str


class ExtraAttackerAdded(DiceHockeyBase, frozen=True):
    """During a delayed penalty on the defense, the offense's coach adds an extra attacker
    to the line on the ice (22: "take any player from any line"): a dressed skater of his
    who is off the ice. He plays until the whistle."""

    side: Side
    player: str
    rule: str


class ShootoutShootersChosen(DiceHockeyBase, frozen=True):
    """Both coaches' shooters, in order (14): the first three shoot; the rest, in order,
    in sudden-death rounds."""

    home_shooters: list[str]
    away_shooters: list[str]
    rule: str


# --- rules decisions ----------------------------------------------------------------

class PeriodLengthSet(DiceHockeyBase, frozen=True):
    """How many timing spaces (shots/turnovers) the period lasts (12, 13)."""

    period: int
    length: int
    roll: int
    rule: str


class FaceoffWon(DiceHockeyBase, frozen=True):
    """A face-off (6): the home centre wins on 00-``home_upto``; the roll's parity gives
    the winning team's RD (even) or LD (odd) the puck."""

    side: Side
    winner: str
    loser: str
    home_upto: int
    value: int
    to_player: str
    slot: Slot
    roll: int
    rule: str


PassResult = Literal[
    "shot",  # a PS or GS pass: ``to_player`` shoots (7)
    "pass",  # a To pass: ``to_player`` rolls next (7)
    "trv_a",  # the defense's ``to_player`` steals it (21C)
    "trv_b",  # roll on the Turnover chart (21C, 19)
    "penalty",  # roll on Penalty Chart A (15)
    "special",  # roll on the Special Play chart (16)
    "faceoff",  # a modified number above 94: dead puck (21C)
    "clear",  # the penalty killers cleared it (15); ``to_player`` of the power play retrieves
    "failed_clear",  # to an empty box: the power play's LW (or RD/LD) has it (15, 22)
    "steal",  # against the extra attacker: to the carrier himself (22)
    "good_pass",  # against an empty net: a pass to a team-mate (22)
]


class PassRolled(DiceHockeyBase, frozen=True):
    """A roll on the carrier's passing column (7) and what it came to. ``value`` is the
    number read after the modifiers (``modifiers`` names each)."""

    side: Side  # the carrier's team
    passer: str
    raw: int
    modifier: int
    value: int
    modifiers: list[str]
    result: PassResult
    shot: Literal["", "PS", "GS"]
    to_side: Side
    to_player: str | None
    slot: Slot | None
    roll: int
    rule: str


class TimingSpaceCounted(DiceHockeyBase, frozen=True):
    """One timing space (9, 12, 22): a turnover or a possession's first shot; who was on
    the ice for it (time on ice is counted in timing spaces)."""

    period: int
    space: int  # 1..the period's length
    reason: Literal["shot", "turnover"]
    home_on_ice: list[str]
    away_on_ice: list[str]
    roll: int
    rule: str


class ShotTaken(DiceHockeyBase, frozen=True):
    """A shot (8): on the shooter's goal range (PS, breakaway +30) or the goalie's (GS).
    A miss reads the Saves section of the card shot on; every miss is a goalie's save."""

    side: Side
    shooter: str
    goalie: str | None  # None: an empty net (22)
    kind: Literal["PS", "GS", "breakaway"]
    upto: int  # goal range 00-upto
    raw: int
    modifier: int
    modifiers: list[str]
    goal: bool
    rebound: bool  # a second (or later) shot of the possession
    puck_side: Side | None  # who has the puck after a save (None after a goal)
    puck_to: str | None
    slot: Slot | None
    penalty: bool  # a goalie card's 95-99 (15)
    roll: int
    rule: str


class GoalScored(DiceHockeyBase, frozen=True):
    """A DICE Hockey goal: scorer, assists, goalie, timing space and strength (8)."""
    side: Side
    scorer: str
    assists: list[str]
    goalie: str | None  # None: an empty net
    period: int
    space: int
    strength: Literal["EV", "PP", "SH", "EN", "PS"]
    home_on_ice: list[str]
    away_on_ice: list[str]
    roll: int
    rule: str


class PuckDumped(DiceHockeyBase, frozen=True):
    """A dump (9, 21B, 22). ``outcome``: ``recovered`` by the other team's RD (even) or
    LD (odd); against an empty net ``goal``, ``steal`` or ``icing`` (22)."""

    side: Side
    player: str
    reason: Literal["choice", "line_overstayed", "21B", "empty_net_passes"]
    outcome: Literal["recovered", "goal", "steal", "icing"]
    to_side: Side | None
    to_player: str | None
    roll: int
    rule: str


class TurnoverRolled(DiceHockeyBase, frozen=True):
    """A Turnover chart result (TRV B, 19, 21C): a steal, a breakaway or a face-off."""

    side: Side  # the team that gains the puck (for icing/offside: the team that lost it)
    kind: Literal["steal", "breakaway", "icing", "offside"]
    to_player: str | None
    slot: Slot | None
    miss: Slot | None  # breakaway: the other team's slot that has the puck after a miss
    text: str
    roll: int
    rule: str


class PenaltyCalled(DiceHockeyBase, frozen=True):
    """Penalty Chart A (15): who took it, by penalty-rating rank on offense or defense;
    ``source`` is where the call came from."""

    side: Side
    player: str
    team: Team
    rank: int
    source: Literal["skater", "goalie", "special"]
    roll: int
    rule: str


class PenaltyTied(DiceHockeyBase, frozen=True):
    """Penalty Chart A or the Special Play chart (15, 16) names a penalty-rating rank that
    two or more of the team's players share (``players``, in slot order): their coach
    decides who it is on (:class:`PenaltyPlayerChosen`), which stands for Chart A's
    :class:`PenaltyCalled` (Chart B follows) or names the special play's offender (the
    penalty is then assessed). ``value`` is the number read on the chart."""

    side: Side
    team: Team
    rank: int
    players: list[str]
    source: Literal["skater", "goalie", "special"]
    value: int
    roll: int
    rule: str


PenaltyKind = Literal["minor", "double_minor", "major", "misconduct", "game_misconduct",
                      "fight", "penalty_shot"]


class InfractionRolled(DiceHockeyBase, frozen=True):
    """Penalty Chart B (15): what the player did; a card's penalty is always a minor."""

    side: Side
    player: str
    infraction: str
    kind: PenaltyKind
    delayed: bool  # on the defense: play goes on (15)
    roll: int
    rule: str


class PenaltyAssessed(DiceHockeyBase, frozen=True):
    """A penalty in the box. Minors, double minors and majors are killed by ``clears``
    (2, 4, 5; 15) and make the team short; a fight's box time is ``spaces`` timing spaces
    (18) and a misconduct's or game misconduct's is the game, both without a man short."""

    id: int
    side: Side
    player: str
    infraction: str
    kind: PenaltyKind
    minutes: int
    clears: int
    spaces: int
    short: bool
    period: int
    space: int
    roll: int
    rule: str


class PenaltyErased(DiceHockeyBase, frozen=True):
    """A delayed penalty wiped out by a goal before the whistle (15)."""

    side: Side
    player: str
    infraction: str
    roll: int
    rule: str


class ClearCounted(DiceHockeyBase, frozen=True):
    """A clear (15, 22) counted towards every running penalty of ``side`` at once:
    ``penalties`` and their clears ``left`` after it."""

    side: Side
    player: str
    penalties: list[int]
    left: list[int]
    roll: int
    rule: str


class PenaltyEnded(DiceHockeyBase, frozen=True):
    """A DICE Hockey penalty over: cleared, ended by a goal, served or the game's end (15, 18)."""
    id: int
    side: Side
    player: str
    reason: Literal["cleared", "goal", "served", "game_end"]
    clears_left: int  # a double minor after a goal keeps its second two (15)
    roll: int
    rule: str


class SpecialPlayRolled(DiceHockeyBase, frozen=True):
    """The Special Play chart (16): a fight (00-09), a penalty (50-87), an injury
    (88-99), or (the substitute 10-49) play on or a scrum."""

    kind: Literal["fight", "play_on", "scrum", "penalty", "penalty_shot", "injury"]
    text: str
    roll: int
    rule: str


class FightRolled(DiceHockeyBase, frozen=True):
    """The Fight chart (18): who drops the gloves, or no fight."""

    fought: bool
    home: str | None
    away: str | None
    text: str
    roll: int
    rule: str


class InjuryRolled(DiceHockeyBase, frozen=True):
    """An injury (17): the player, his Injury Rating and the Games Missed maximum."""

    side: Side
    player: str
    rating: int
    max_games: int
    roll: int
    rule: str


class GamesMissedRolled(DiceHockeyBase, frozen=True):
    """Games missed (17): the roll, the maximum when the roll is larger. He is out for
    the rest of this game too."""

    side: Side
    player: str
    games: int
    roll: int
    rule: str


class SuspensionRolled(DiceHockeyBase, frozen=True):
    """A game misconduct's suspension (15): one die, the white; a 0 reads 10."""

    side: Side
    player: str
    games: int
    roll: int
    rule: str


class PlayStopped(DiceHockeyBase, frozen=True):
    """A whistle: a face-off follows. ``side`` had the puck (it may call its time out)."""

    reason: Literal["goal", "penalty", "injury", "icing", "offside", "modified_over_94",
                    "scrum", "fight", "period"]
    side: Side | None
    roll: int
    rule: str


class ShootoutCardRolled(DiceHockeyBase, frozen=True):
    """Before a shootout attempt or a penalty shot (14, 15): 00-49 the shooter's card,
    50-99 the goalie's; ``upto`` is the range read."""

    side: Side
    shooter: str
    goalie: str | None
    card: Literal["shooter", "goalie"]
    upto: int
    kind: Literal["shootout", "penalty_shot"]
    round: int
    roll: int
    rule: str


class ShootoutAttempt(DiceHockeyBase, frozen=True):
    """One shootout shot (14) or penalty shot (15), read off the shooter's or goalie's card."""
    side: Side
    shooter: str
    goalie: str | None
    card: Literal["shooter", "goalie"]
    upto: int
    scored: bool
    kind: Literal["shootout", "penalty_shot"]
    round: int
    roll: int
    rule: str


CHOICES = (LinesChanged, DumpDeclared, TimeOutCalled, GoalieChanged, LineupRearranged,
           PenaltyPlayerChosen, ExtraAttackerAdded, ShootoutShootersChosen)
"""The coach's choices: checked for legality on audit, never re-decided."""

DiceHockeyEvent = (
    GameCreated
    | BranchStarted
    | SeasonGameOpened
    | GameCoachSet
    | PeriodStarted
    | PeriodEnded
    | GameEnded
    | DiceRolled
    | LinesChanged
    | DumpDeclared
    | TimeOutCalled
    | GoalieChanged
    | LineupRearranged
    | PenaltyPlayerChosen
    | ExtraAttackerAdded
    | ShootoutShootersChosen
    | PeriodLengthSet
    | FaceoffWon
    | PassRolled
    | TimingSpaceCounted
    | ShotTaken
    | GoalScored
    | PuckDumped
    | TurnoverRolled
    | PenaltyCalled
    | PenaltyTied
    | InfractionRolled
    | PenaltyAssessed
    | PenaltyErased
    | ClearCounted
    | PenaltyEnded
    | SpecialPlayRolled
    | FightRolled
    | InjuryRolled
    | GamesMissedRolled
    | SuspensionRolled
    | PlayStopped
    | ShootoutCardRolled
    | ShootoutAttempt
)
