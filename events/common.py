"""Events every game system shares: creation, dice, periods, coach choices, the end."""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from events.base import Event

Side = Literal["home", "away"]


def other_side(side: str) -> str:
    """The opponents of ``side``."""
    return "away" if side == "home" else "home"


class RosterEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What projections need to know of a dressed player (the full card is in a blob)."""

    id: str
    name: str
    position: str  # "LW", "C", "RW", "D" (first listed) or "G"
    shift: float = 0.0


class TeamSheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    team_id: str
    name: str
    card_hash: str  # blake2b of the team file's canonical bytes, kept in the blob table
    roster: list[RosterEntry]


class Absent(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A player of a season game's team who is not dressed for it: ruled out of his team's
    next games by an event of its earlier season game ``game`` (DICE Hockey: an injury's
    games missed, 17; a game misconduct's suspension, 15), ``rule`` that event's section."""

    team: str  # the team id
    player: str
    game: int  # the season game (schedule number) that put him out; 0: a playoff game
    rule: str


class GamesOut(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What one event of a game rules for the team's later games of a season: ``player``
    of ``side`` misses the next ``games`` of them (a system's ``games_out`` reads them)."""

    side: Side
    player: str
    games: int
    rule: str


class GameCreated(Event, frozen=True):
    """First event of a game: who plays, with which cards, charts, dice and ruleset."""

    game_id: str
    ruleset: str
    ruleset_version: int
    home: TeamSheet
    away: TeamSheet
    charts_hash: str
    dice: Literal["seeded", "manual"]
    seed: str | None = None
    overtime: bool = True  # regular season: 5-minute overtime, then a shootout (6.00, 21.00)
    home_goalie: str = ""  # the starting goalies, a coach choice (4.00); "" = the first listed
    away_goalie: str = ""
    overtime_skaters: int = 5  # 5 per the text (6.00); 3 for a league's 3-on-3 overtime
    # Hockey Bones': the quick reference's late-penalty house rule, an option of the game
    # (off by default). Read through the Bones system (engine/bones/system.py).
    late_penalty_house_rule: bool = False
    # A game played at the table (``rinklog play``): the only kind that may stop unfinished.
    live: bool = False
    # A game of a season: the season stream's id and the game's number in its schedule.
    season: str = ""
    number: int = 0
    # Hockey Bones' (its ruleset FaceOff 2008's) optional rules (17.000-21.000), turned on
    # when the game is created: events.bones.FaceoffOptions writes them, and the Bones
    # system reads them (engine/bones/system.py); shared code never names them.
    # UNSET (off) is left out of the event's bytes, so games without them, and every
    # Hockey Bones game, encode exactly as before these fields existed.
    faceoff_fatigue: bool | UnsetType = UNSET
    faceoff_injuries: bool | UnsetType = UNSET
    faceoff_pressure_offense: bool | UnsetType = UNSET
    faceoff_checking_game: bool | UnsetType = UNSET
    faceoff_arc_cards: bool | UnsetType = UNSET
    # FaceOff 6.00: a draft league's NHL bench-penalty range, used instead of the teams'.
    nhl_bench_range: str | UnsetType = UNSET
    # 14.51 (FaceOff's and Hockey Bones' draft leagues): likewise for game misconducts
    nhl_gm_range: str | UnsetType = UNSET
    # The optional rules of any other game system, by the names its ruleset gives them
    # (sorted; UNSET when none, so the field adds nothing to the bytes of older games).
    options: list[str] | UnsetType = UNSET
    # A season game's players not dressed: out from their teams' earlier season games
    # (replay/leagues/availability.py; DICE Hockey 15, 17). UNSET when nobody is out, so
    # the field adds nothing to the bytes of any other game.
    absent: list[Absent] | UnsetType = UNSET

    def option(self, field: str) -> bool:
        """Whether an optional rule recorded as ``field`` is on (UNSET is off)."""
        return getattr(self, field) is True

    def option_text(self, field: str) -> str:
        """A text option recorded as ``field``; "" when UNSET."""
        value = getattr(self, field)
        return "" if value is UNSET else value


class BranchStarted(Event, frozen=True):
    """First event of a branch after the events it shares with its parent: the lineage and
    the dice it plays on with, inside the chain so the audit holds the branch to them.

    ``dice_schedule`` says which seed derives roll n: ``[(from_roll, seed or None for
    typed dice), ...]``; ``parent_head`` is the parent's hash at ``parent_seq``.
    """

    branch_id: str
    parent: str
    parent_seq: int
    parent_head: str
    dice_schedule: list[tuple[int, str | None]]


class PeriodStarted(Event, frozen=True):
    """A period begins (Hockey Bones 6.00; each system's timing section): 4 overtime, 5 shootout."""
    period: int  # 1-3, 4 = overtime, 5 = shootout


class PeriodEnded(Event, frozen=True):
    """A period over, with the score at its end (Hockey Bones 6.00; each system's timing)."""
    period: int
    home_goals: int
    away_goals: int


class GameEnded(Event, frozen=True):
    """The final score, how the game was decided and the winner (Hockey Bones 6.00, 21.00)."""
    home_goals: int
    away_goals: int
    decided: Literal["REG", "OT", "SO", "TIE"]  # TIE: FaceOff 5.00, no shootout
    winner: Literal["home", "away", "none"]  # "none" for a tie


CoachSetting = str | int | bool | list[str]
"""One coach-file setting as recorded (docs/coach.md): a number, a tactic, a flag or a
list of shooters."""

# --- notes in a game stream, right after GameCreated (no rule: the refold passes over them;
# events.league.GAME_NOTES) ---

class SeasonGameOpened(Event, frozen=True):
    """A season game pins the season it was created under: ``opening`` is the hash of the
    season stream's SeasonCoachSet row, which covers its SeasonCreated (schedule, seed,
    cards, options) and its coach habits. Games of a season written before season records
    do not have it."""

    season: str
    opening: str


class GameCoachSet(Event, frozen=True):
    """The coach-file habits a simulated game's default coach played with (only the
    settings that differ from the default coach's, per side). Written only when some
    differ: a simulated game without it was played by the plain default coach."""

    home: dict[str, CoachSetting]
    away: dict[str, CoachSetting]
