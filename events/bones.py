"""The Hockey Bones (and FaceOff 2008) event catalogue.

Every decision event names the roll it used (``roll``: the ``n`` of its DiceRolled
event, 0 when no dice were needed) and the rule section it applied (``rule``). ``rule``
has no default, so no event falls back on a Hockey Bones number: the rules code passes
the Hockey Bones section and ``decide`` cites it in the game's ruleset once
(engine/bones/game.py, ``cite_events``); a coach's choice cites its own with
``Ruleset.cite``. Events carry every fact a projection needs, so projections never
import the engine.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

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
from events.formats import raw_field, raw_value

Die = Annotated[int, Meta(ge=1, le=6)]


class Roll(msgspec.Struct, frozen=True, forbid_unknown_fields=True, array_like=True):
    """One throw of the four Hockey Bones dice: blue, two whites, red (3.00).

    The whites are kept apart so a typed roll can be checked die by die; the rules read
    their total, ``white`` (2-12).
    """

    blue: Die
    whites: tuple[Die, Die]
    red: Die

    @property
    def white(self) -> int:
        return self.whites[0] + self.whites[1]

    def __str__(self) -> str:
        return f"{self.blue} {self.whites[0]} {self.whites[1]} {self.red}"


class DiceRolled(Event, frozen=True):
    """The n-th roll of the game, and what it was rolled for."""

    n: int
    roll: Roll
    purpose: str


class LinesChanged(Event, frozen=True):
    """A coach choice (6.41): who now stands in each slot. ``None`` is an empty slot."""

    side: Side
    slots: dict[str, str | None]  # LW, C, RW, LD, RD, G
    on_the_fly: bool
    rule: str


class TacticDeclared(Event, frozen=True):
    """A coach choice in force until the next stoppage: pressure offense (19.00) or a
    checking game level (20.00); ``none`` ends it."""

    side: Side
    tactic: Literal["pressure", "checking1", "checking2"]
    rule: str


class BenchMinorChecked(Event, frozen=True):
    """The bench-minor roll of a period against the team's range (5.00; FaceOff 6.00)."""
    side: Side
    range: str
    in_range: bool
    roll: int
    rule: str


class BenchMinorScheduled(Event, frozen=True):
    """A bench minor's second in the period, rolled once the range is hit (5.00, 6.30)."""
    side: Side
    period: int
    time: int  # seconds elapsed in the period
    roll: int
    rule: str


class FaceoffRolled(Event, frozen=True):
    """A FACEOFFS chart result; ``player`` None means an empty slot and a re-roll (7.00)."""

    cell: str
    side: Side
    slot: str
    player: str | None
    zone: Side | None  # whose defensive zone (7.30); None at centre ice
    roll: int
    rule: str


class SequencePlayed(Event, frozen=True):
    """One 24-second time sequence used (6.10), with who was on the ice for it."""

    period: int
    sequence: int  # 1..50 in regulation, 1..12 in overtime
    home: list[str]  # skaters on the ice
    away: list[str]
    home_goalie: str | None
    away_goalie: str | None
    home_short: int = 0  # skaters each team is short because of penalties (14.10)
    away_short: int = 0


class ActionResolved(Event, frozen=True):
    """A roll read off a skater's action matrix (8.00) and what it came to."""

    side: Side
    player: str
    slot: str
    cell: str
    result: Literal["shot", "pass", "interception", "stoppage", "penalty", "kill", "play_on"]
    value: int | None  # numeric code after modifiers, or the number compared
    target: int | None  # the Team Defense (or other total) it was compared with
    modifiers: list[str]
    time: bool
    roll: int
    rule: str
    shooter: str | None = None  # who shoots because of it (the carrier, or the receiver)
    shot: str = ""  # "normal"; "R" rebound possible (11.20); "N" forced N range (10.11)
    injury: bool = False  # a ``?`` cell: check for an injury when the play ends (18.00)


class PuckPassed(Event, frozen=True):
    """A pass completed: who passed to whom, into which slot (13.00; 11.10, 12.00 results)."""
    side: Side
    from_player: str
    to_player: str
    slot: str
    roll: int
    rule: str


class PuckIntercepted(Event, frozen=True):
    """The puck taken by the other team: who lost it, who gained it (12.00, 12.10, 10.70)."""
    side: Side  # the team that gains the puck
    from_player: str | None
    to_player: str
    slot: str
    roll: int
    rule: str


class ShotTaken(Event, frozen=True):
    """A shot read off the shooter's range (10.10-10.60), and whether it was blocked (10.70)."""
    side: Side
    shooter: str
    kind: Literal["normal", "rebound", "empty_net", "penalty_shot"]
    range_name: str  # N, P, S, D, EN, PS
    range: str
    in_range: bool
    blockers: int
    block: Literal["", "blocked", "screened"]
    roll: int
    rule: str


class GoalieResult(Event, frozen=True):
    """The goalie's action code read for a shot that reached him, and what it came to (11.10)."""
    side: Side  # the goalie's team
    goalie: str
    cell: str
    outcome: Literal["goal", "frozen", "to_defense", "to_offense", "rebound", "penalty",
                     "penalty_shot"]
    player: str | None  # who gets the puck, for to_defense / to_offense
    roll: int
    rule: str


class GoalScored(Event, frozen=True):
    """A goal: scorer, goalie beaten, strength and the skaters on the ice (11.10, 10.50)."""
    side: Side
    scorer: str
    goalie: str | None  # None: empty net
    period: int
    sequence: int
    strength: Literal["EV", "PP", "SH", "EN", "PS"]
    home_on_ice: list[str]
    away_on_ice: list[str]
    roll: int
    rule: str


class ExactTime(Event, frozen=True):
    """The second a goal or penalty happened (6.30), elapsed in the period."""

    kind: Literal["goal", "penalty"]
    period: int
    time: int
    roll: int
    rule: str


class AssistsCounted(Event, frozen=True):
    """How many assists a goal gets, read off the dice (16.00)."""
    count: int
    roll: int
    rule: str


class GoalieAssistChecked(Event, frozen=True):
    """The scoring team's goalie checked for an assist against his range (16.00)."""
    goalie: str
    range: str
    in_range: bool
    roll: int
    rule: str


class AssistsAwarded(Event, frozen=True):
    """The players credited with a goal's assists (16.00)."""
    side: Side
    players: list[str]
    roll: int
    rule: str


class ArcChecked(Event, frozen=True):
    """FaceOff 21.000: one player checked on an ARC card (lowest rating first) for an
    assist (21.10), a retaliation penalty (``MI``/``MA``, 21.20) or a game misconduct
    (``GM``, 21.30). ``total`` picks the card, ``column`` 1 or 2 and ``rating`` the cell.
    Once as many players are left as awards, each gets one without a roll (``roll`` 0,
    ``range`` "")."""

    side: Side
    kind: Literal["assist", "MI", "MA", "GM"]
    player: str
    rating: int
    total: int
    column: int
    range: str
    awarded: bool
    roll: int
    rule: str


class ReboundChecked(Event, frozen=True):
    """Who gets a rebound, read off the upper or lower rebound chart (11.20)."""
    side: Side  # the shooting team
    chart: Literal["upper", "lower"]
    slot: str | None  # None: red 6 on the upper chart, re-roll on the lower one
    player: str | None
    roll: int
    rule: str


class ClearingChecked(Event, frozen=True):
    """Whether the defending team clears the puck after a rebound (11.20)."""
    side: Side  # the defending team
    total: int
    range: str
    cleared: bool
    roll: int
    rule: str


class PlayStopped(Event, frozen=True):
    """A whistle and why; ``zone`` names the team whose end the face-off is in (7.30)."""
    reason: Literal["icing", "infraction", "frozen", "goal", "penalty", "injury", "period"]
    zone: Side | None  # face-off in this team's defensive zone (7.30)


class PenaltyCalled(Event, frozen=True):
    """A penalty type read off a penalty column (14.00), before retaliation and checks."""

    side: Side
    player: str
    code: str  # "-", A, B, C, D, F, G, M, #
    source: Literal["action", "goalie"]
    delayed: bool
    red: int  # the red die of the same roll decides C and M penalties (14.20)
    roll: int
    rule: str


class RetaliationRolled(Event, frozen=True):
    """Who retaliates, by rank on the retaliation scale (14.30)."""
    side: Side  # the retaliating team
    scale: Literal["MI", "MA", "GM"]
    rank: int
    player: str | None  # None: nobody ranked there, or a zero rating; roll again
    roll: int
    rule: str


class SpecialOccurrenceRolled(Event, frozen=True):
    """A special occurrence read off the special-occurrence chart (14.20)."""
    index: int
    text: str
    roll: int
    rule: str


class MisconductChecked(Event, frozen=True):
    """A penalized player checked for a misconduct against his range (14.40)."""
    player: str
    range: str
    in_range: bool
    roll: int
    rule: str


class GameMisconductChecked(Event, frozen=True):
    """A game misconduct checked against the range (14.50-14.52; FaceOff 14.51)."""
    side: Side
    range: str
    in_range: bool
    roll: int
    rule: str


class PenaltyAssessed(Event, frozen=True):
    """A penalty put on a player: minutes, sequences in the box, time (14.10-14.60)."""
    id: int
    side: Side
    player: str  # who is charged the minutes
    served_by: str | None  # who sits (bench minor, goalie penalty); None: off for the game
    kind: Literal["minor", "double_minor", "major", "minor_major", "misconduct",
                  "game_misconduct", "bench_minor"]
    minutes: int
    box: int  # time sequences in the box (14.10)
    short: int  # time sequences the team plays a man short
    period: int
    sequence: int
    time: int  # seconds elapsed in the period (6.30)
    rule: str


class PenaltyEnded(Event, frozen=True):
    """A penalty over: served, ended by a power-play goal, or by the game's end (14.10)."""
    id: int
    reason: Literal["served", "power_play_goal", "game_end"]
    period: int
    sequence: int
    rule: str


class InjuryChecked(Event, frozen=True):
    """A player checked for an injury: OIP, adjusted blue die, the result (18.00, 18.10)."""
    player: str
    oip: int
    adjusted_blue: int
    result: str  # "" no injury, "G" game, "P" period, "-1".."-3"
    roll: int
    rule: str


class GoalieInjured(Event, frozen=True):
    """A goalie hurt and who replaces him, if a dressed goalie can (11.10, 18.00)."""
    side: Side
    goalie: str
    replacement: str | None
    roll: int
    rule: str


class PenaltyShotAwarded(Event, frozen=True):
    """Whether a PS1 goalie result gives a penalty shot, on the re-rolled red (11.10)."""
    side: Side  # the shooting team
    shooter: str
    awarded: bool
    roll: int
    rule: str


class ShootoutOrderChosen(Event, frozen=True):
    """Coach choices before a shootout (21.00): who shoots first and the shooters."""

    first: Side
    home_shooters: list[str]
    away_shooters: list[str]
    rule: str


class ShootoutAttempt(Event, frozen=True):
    """One shootout attempt: shooter's rating against the goalie's grade, scored or not (21.00)."""
    side: Side
    shooter: str
    goalie: str
    rating: int
    range: str
    scored: bool
    roll: int
    rule: str


# --- FaceOff 2008's options (a game's GameCreated fields, a league's SeasonCreated) ---

class FaceoffOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """FaceOff 2008's options of a game or league (all off by default): the optional rules
    17.000-20.000, the ARC cards (21.000), and a draft league's NHL bench-penalty range
    (6.00) and game-misconduct range (14.51; a Hockey Bones draft league's range is kept
    here too, R-draft-14.51). A game records them in its GameCreated fields named
    ``faceoff_*`` and ``nhl_*``."""

    fatigue: bool = False  # 17.000
    injuries: bool = False  # 18.000
    pressure_offense: bool = False  # 19.000
    checking_game: bool = False  # 20.000
    arc_cards: bool = False  # 21.000
    nhl_bench_range: str = ""  # 6.00, draft leagues
    nhl_gm_range: str = ""  # 14.51, draft leagues

    def created_fields(self) -> dict[str, bool | str]:
        """The GameCreated fields that record these options; an option that is off is
        left out (UNSET), so it adds nothing to the event's bytes."""
        fields: dict[str, bool | str] = {
            f"faceoff_{name}": True for name in _FACEOFF_FLAGS if getattr(self, name)}
        for name in _FACEOFF_RANGES:
            if getattr(self, name):
                fields[name] = getattr(self, name)
        return fields

    @property
    def any(self) -> bool:
        return self != FaceoffOptions()


NO_FACEOFF_OPTIONS = FaceoffOptions()

_FACEOFF_FLAGS = ("fatigue", "injuries", "pressure_offense", "checking_game", "arc_cards")
_FACEOFF_RANGES = ("nhl_bench_range", "nhl_gm_range")
FACEOFF_CREATED_FIELDS = (*(f"faceoff_{name}" for name in _FACEOFF_FLAGS), *_FACEOFF_RANGES)
"""Every GameCreated field that may record a FaceOff option (see ``created_fields``)."""


def faceoff_options(field: msgspec.Raw | UnsetType) -> FaceoffOptions:
    """The FaceOff options a season records (``SeasonCreated.faceoff``: UNSET for none),
    which each of its games is created with."""
    return NO_FACEOFF_OPTIONS if field is UNSET else raw_value(field, FaceoffOptions)


def faceoff_field(options: FaceoffOptions, format: int) -> msgspec.Raw | UnsetType:
    """``SeasonCreated.faceoff`` of a season with these options, in the season stream's
    payload ``format``: UNSET when none is on, so other seasons' bytes are unchanged."""
    return raw_field(options, format) if options.any else UNSET


def faceoff_created(created: GameCreated) -> dict[str, bool | str]:
    """The FaceOff options a game records, by GameCreated field (those that are set)."""
    return {name: value for name in FACEOFF_CREATED_FIELDS
            if (value := getattr(created, name)) is not UNSET}


BonesEvent = (
    GameCreated
    | BranchStarted
    | SeasonGameOpened
    | GameCoachSet
    | DiceRolled
    | PeriodStarted
    | PeriodEnded
    | GameEnded
    | LinesChanged
    | TacticDeclared
    | BenchMinorChecked
    | BenchMinorScheduled
    | FaceoffRolled
    | SequencePlayed
    | ActionResolved
    | PuckPassed
    | PuckIntercepted
    | ShotTaken
    | GoalieResult
    | GoalScored
    | ExactTime
    | AssistsCounted
    | GoalieAssistChecked
    | AssistsAwarded
    | ArcChecked
    | ReboundChecked
    | ClearingChecked
    | PlayStopped
    | PenaltyCalled
    | RetaliationRolled
    | SpecialOccurrenceRolled
    | MisconductChecked
    | GameMisconductChecked
    | PenaltyAssessed
    | PenaltyEnded
    | InjuryChecked
    | GoalieInjured
    | PenaltyShotAwarded
    | ShootoutOrderChosen
    | ShootoutAttempt
)
