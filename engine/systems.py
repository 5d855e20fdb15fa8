"""The game systems rinklog plays, looked up by name (compare python-chess's variants).

A :class:`GameSystem` is what tooling needs of a system: its rulesets, its event union
(``events.formats.decoder`` reads its payloads in a stream's format), how a typed roll
reads, the types of its cards and charts, the rules (``initial_state``, ``decide``,
``evolve``, ``check_choice``), its one engine loop (``steps``), which events are coach
choices, its default coach, and its words (why an event happened, ``play``'s lines, a
state summary). Tooling finds a stream's system from its ``GameCreated`` ruleset
(:func:`system_of`) and never imports a system package itself; adding a system is one
package and one entry in :data:`SYSTEMS`.

Hockey Bones and FaceOff Hockey 2008 are one system (``bones``) with two rulesets; DICE
Hockey (``dicehockey``) is a second system with one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.bones import coach as bones_coach
from engine.bones import explain as bones_explain
from engine.bones import game as bones_game
from engine.bones.cards import Charts as BonesCharts
from engine.bones.cards import Team as BonesTeam
from engine.bones.cards import roster_entries as bones_roster
from engine.bones.rulesets import RULESETS as BONES_RULESETS
from engine.dice import derive_roll, parse_roll
from engine.dicehockey import absences as dicehockey_absences
from engine.dicehockey import coach as dicehockey_coach
from engine.dicehockey import dice as dicehockey_dice
from engine.dicehockey import explain as dicehockey_explain
from engine.dicehockey import game as dicehockey_game
from engine.dicehockey.cards import Charts as DiceHockeyCharts
from engine.dicehockey.cards import Team as DiceHockeyTeam
from engine.dicehockey.rulesets import RULESETS as DICEHOCKEY_RULESETS
from engine.matrix import explain as matrix_explain
from engine.matrix import recheck as matrix_recheck
from engine.matrix import seasons as matrix_seasons
from engine.matrix.state import evolve as matrix_evolve
from engine.matrix.state import initial_state as matrix_initial_state
from events import bones as bones_events
from events import dicehockey as dicehockey_events
from events.bones import DiceRolled, LinesChanged, ShootoutOrderChosen, TacticDeclared
from events.catalogue import SYSTEM_EVENTS
from events.common import GamesOut
from events.errors import RinklogError
from events.matrix import DieRolled as MatrixDieRolled
from events.matrix import SeasonOpened as MatrixSeasonOpened

__all__ = ["GameSystem", "SEASON_SYSTEMS", "SYSTEMS", "SeasonSystem", "find_system", "system_of"]


@dataclass(frozen=True)
class GameSystem:
    name: str
    title: str
    rulesets: Mapping[str, Any]  # ruleset name -> the system's ruleset (name, version, ...)
    event_type: Any  # the union of the system's events
    parse_roll: Callable[[str], Any]
    team_type: type  # a team's cards, as stored in a card blob
    roster: Callable[[Any], list]  # a team's RosterEntry list, as GameCreated records it
    charts_type: type  # a chart pack, as stored in a chart blob
    initial_state: Callable[..., Any]  # (GameCreated, home, away, charts) -> state
    decide: Callable[[Any, Any], list]  # (state, roll or None) -> events
    evolve: Callable[[Any, Any], Any]  # (state, event) -> state
    check_choice: Callable[[Any, Any], None]  # raises illegal_choice
    illegal_choice: type[Exception]
    steps: Callable[..., Any]  # the engine loop: (state, dice, coach, coach_asked) -> batches
    choice_events: tuple[type, ...]  # coach choices: checked for legality, not re-decided
    stoppage_choices: tuple[type, ...]  # the choices a coach makes before a step's roll
    line_change_event: type  # the choice that changes who is on the ice
    roll_event: type  # the event that records the n-th roll (its ``n`` and ``roll``)
    derive_roll: Callable[[str, str, int], Any]  # seeded dice: (seed, game id, n) -> roll
    default_coach: Callable[[], Any]
    why: Callable[[Any, Any, dict[int, Any]], str]  # (state before, event, rolls by n) -> words
    describe: Callable[[Any, Any], str | None]  # (state, event) -> ``play``'s line, or None
    roll_json: Callable[[Any], dict[str, Any]]  # a roll as ``explain --json`` shows it
    summary: Callable[[Any], dict[str, Any]]  # a state as ``replay --json`` shows it
    roll_for: Callable[[Any], str]  # what the next roll decides, in the play prompt's words
    status: Callable[[Any], str]  # period, clock, score and strength, as ``play`` shows them
    # ``explain --goal N`` / ``--penalty N``: the event a scoresheet goal or penalty line
    # comes from, and the events that start a play (a face-off won, the puck changing
    # hands), so the play that led to one can be told from its start
    goal_event: type
    penalty_event: type
    play_starts: tuple[type, ...]
    # an event's part in a play, for a page's play-by-play ("" for the shared events)
    play_kind: Callable[[Any], str]
    # a game's events -> the games each ruling takes from a player's later season games
    # (an injury's games missed, a suspension), in order; None: the system's rulings all
    # end with the game, so a season's games never wait on each other for them
    games_out: Callable[[Sequence[Any]], list[GamesOut]] | None = None


BONES = GameSystem(
    name="bones",
    title="Hockey Bones (and FaceOff Hockey 2008)",
    rulesets=BONES_RULESETS,
    event_type=SYSTEM_EVENTS["bones"],
    parse_roll=parse_roll,
    team_type=BonesTeam,
    roster=bones_roster,
    charts_type=BonesCharts,
    initial_state=bones_game.initial_state,
    decide=bones_game.decide,
    evolve=bones_game.evolve,
    check_choice=bones_game.check_choice,
    illegal_choice=bones_game.IllegalChoice,
    steps=bones_game.steps,
    choice_events=(LinesChanged, ShootoutOrderChosen, TacticDeclared),
    stoppage_choices=(LinesChanged, TacticDeclared),
    line_change_event=LinesChanged,
    roll_event=DiceRolled,
    derive_roll=derive_roll,
    default_coach=bones_coach.DefaultCoach,
    why=bones_explain.why,
    describe=bones_explain.describe,
    roll_json=bones_explain.roll_json,
    summary=bones_explain.summary,
    roll_for=bones_explain.roll_for,
    status=bones_explain.status,
    goal_event=bones_events.GoalScored,
    penalty_event=bones_events.PenaltyAssessed,
    # a face-off, an interception, a penalty shot: each starts a new play
    play_kind=bones_explain.play_kind,
    play_starts=(bones_events.FaceoffRolled, bones_events.PuckIntercepted,
                 bones_events.PenaltyShotAwarded),
    # Hockey Bones 18.10: an injury lasts the game (G) or the period (P); 14.50-14.52: a
    # game misconduct, the rest of the game. Nothing is carried into later games.
    games_out=None,
)

DICEHOCKEY = GameSystem(
    name="dicehockey",
    title="DICE Hockey",
    rulesets=DICEHOCKEY_RULESETS,
    event_type=SYSTEM_EVENTS["dicehockey"],
    parse_roll=dicehockey_dice.parse_roll,
    team_type=DiceHockeyTeam,
    charts_type=DiceHockeyCharts,
    initial_state=dicehockey_game.initial_state,
    decide=dicehockey_game.decide,
    evolve=dicehockey_game.evolve,
    check_choice=dicehockey_game.check_choice,
    illegal_choice=dicehockey_game.IllegalChoice,
    steps=dicehockey_game.steps,
    choice_events=dicehockey_events.CHOICES,
    stoppage_choices=(dicehockey_events.LinesChanged, dicehockey_events.DumpDeclared,
                      dicehockey_events.TimeOutCalled, dicehockey_events.GoalieChanged,
                      dicehockey_events.LineupRearranged,
                      dicehockey_events.PenaltyPlayerChosen,
                      dicehockey_events.ExtraAttackerAdded),
    line_change_event=dicehockey_events.LinesChanged,
    roll_event=dicehockey_events.DiceRolled,
    derive_roll=dicehockey_dice.derive_roll,
    default_coach=dicehockey_coach.DefaultCoach,
    roster=dicehockey_explain.roster_entries,
    why=dicehockey_explain.why,
    describe=dicehockey_explain.describe,
    roll_json=dicehockey_explain.roll_json,
    summary=dicehockey_explain.summary,
    roll_for=dicehockey_explain.roll_for,
    status=dicehockey_explain.status,
    goal_event=dicehockey_events.GoalScored,
    penalty_event=dicehockey_events.PenaltyAssessed,
    # a face-off, a turnover, a dump: each starts a new possession
    play_kind=dicehockey_explain.play_kind,
    play_starts=(dicehockey_events.FaceoffWon, dicehockey_events.TurnoverRolled,
                 dicehockey_events.PuckDumped),
    games_out=dicehockey_absences.games_out,  # 15 suspensions, 17 games missed
)

SYSTEMS: dict[str, GameSystem] = {BONES.name: BONES, DICEHOCKEY.name: DICEHOCKEY}


@dataclass(frozen=True)
class SeasonSystem:
    """A system whose stream is a whole league season refereed by rinklog (Matrix Hockey:
    a league played by mail), not a game: the audit, ``replay``, ``explain`` and the
    index find what they need of such a stream here."""

    name: str
    title: str
    kind: str  # the stream's kind in the store's index
    first_event: type  # the event a stream of it starts with (its identity: ``season_id``)
    event_type: Any
    roll_event: type
    initial_state: Callable[[Any], Any]
    evolve: Callable[[Any, Any], Any]
    check_dice: Callable[[Any], tuple[int, Any]]  # events -> (seeded checked, finding)
    recheck: Callable[[Any], Any]  # events -> the first finding (seq, expected...) or None
    # (previous season's events, their hashes, first event) -> a finding or None
    check_lineage: Callable[[Any, Any, Any], Any]
    why: Callable[[Any, Any, dict[int, Any]], str]
    summary: Callable[[Any], dict[str, Any]]
    # (season id, event) -> the id of the season game the event records, or None: a season
    # receipt's leaves (replay/tooling/season_receipts.py)
    season_game_id: Callable[[str, Any], str | None]
    fold: Callable[[Any], Any]  # a season's events -> its state
    standings: Callable[[Any], list[dict[str, Any]]]  # a state -> its standings rows


MATRIX = SeasonSystem(
    name="matrix",
    title="Matrix Hockey (a league played by mail; rinklog referees a season)",
    kind="matrix_season",
    first_event=MatrixSeasonOpened,
    event_type=SYSTEM_EVENTS["matrix"],
    roll_event=MatrixDieRolled,
    initial_state=matrix_initial_state,
    evolve=matrix_evolve,
    check_dice=matrix_recheck.check_dice,
    recheck=matrix_recheck.recheck,
    check_lineage=matrix_recheck.check_lineage,
    why=matrix_explain.why,
    summary=matrix_explain.summary,
    season_game_id=matrix_seasons.season_game_id,
    fold=matrix_recheck.fold,
    standings=matrix_seasons.standings_rows,
)

SEASON_SYSTEMS: dict[str, SeasonSystem] = {MATRIX.name: MATRIX}


def find_system(name: str) -> GameSystem:
    try:
        return SYSTEMS[name]
    except KeyError:
        raise RinklogError(f"unknown game system {name!r} (known: {', '.join(SYSTEMS)})"
                           ) from None


def system_of(ruleset: str) -> GameSystem:
    """The system a ruleset belongs to (as a stream's GameCreated names it)."""
    for system in SYSTEMS.values():
        if ruleset in system.rulesets:
            return system
    known = ", ".join(r for s in SYSTEMS.values() for r in s.rulesets)
    raise RinklogError(f"unknown ruleset {ruleset!r} (known: {known})")
