"""Hockey Bones (and FaceOff Hockey 2008, its second ruleset): the system's registration
object, which engine/systems.py lists (docs/systems.md)."""

from __future__ import annotations

from engine.bones import coach, explain, game, windows
from engine.bones.cards import Charts, Team, roster_entries
from engine.bones.dice import derive_roll, parse_roll
from engine.bones.rulesets import RULESETS
from engine.bones.state import CHOICE_STEPS, NO_ROLL_STEPS, GameState
from engine.registration import GameSystem
from events import bones as ev
from events.bones import FaceoffOptions, Roll, faceoff_created, faceoff_field, faceoff_options
from events.common import GameCreated
from events.league import SeasonCreated


def options_fields(options: FaceoffOptions) -> dict[str, object]:
    """The GameCreated fields recording a game's FaceOff options (those on)."""
    return dict(options.created_fields())


def options_of(created: GameCreated) -> dict[str, object]:
    """The FaceOff options and the late-penalty house rule a game records (those set)."""
    house = {"late_penalty_house_rule": True} if created.late_penalty_house_rule else {}
    return {**faceoff_created(created), **house}


def league_options(season: SeasonCreated) -> FaceoffOptions:
    """The FaceOff options each game of a season is created with."""
    return faceoff_options(season.faceoff)


def season_fields(season: SeasonCreated) -> dict[str, object]:
    """The option fields each game of a season records (its ``options_of``)."""
    house = {"late_penalty_house_rule": True} if season.late_penalty_house_rule else {}
    return {**league_options(season).created_fields(), **house}


SYSTEM: GameSystem[GameState, Roll, Team, Charts] = GameSystem(
    name="bones",
    title="Hockey Bones (and FaceOff Hockey 2008)",
    rulesets=RULESETS,
    event_type=ev.BonesEvent,
    parse_roll=parse_roll,
    derive_roll=derive_roll,
    roll_event=ev.DiceRolled,
    team_type=Team,
    roster=roster_entries,
    charts_type=Charts,
    initial_state=game.initial_state,
    decide=game.decide,
    evolve=game.evolve,
    check_choice=game.check_choice,
    rollless_steps=NO_ROLL_STEPS,
    window_steps=frozenset({"faceoff", "action"}),
    window_asks=windows.window_asks,
    choice_rules={kind: game.CHOICE_RULES[kind] for kind in CHOICE_STEPS},
    choose=windows.choose,
    max_steps=game.MAX_STEPS,
    choice_events=(ev.LinesChanged, ev.ShootoutOrderChosen, ev.TacticDeclared),
    stoppage_choices=(ev.LinesChanged, ev.TacticDeclared),
    line_change_event=ev.LinesChanged,
    default_coach=coach.DefaultCoach,
    why=explain.why,
    describe=explain.describe,
    roll_json=explain.roll_json,
    summary=explain.summary,
    roll_for=explain.roll_for,
    status=explain.status,
    goal_event=ev.GoalScored,
    penalty_event=ev.PenaltyAssessed,
    # a face-off, an interception, a penalty shot: each starts a new play
    play_starts=(ev.FaceoffRolled, ev.PuckIntercepted, ev.PenaltyShotAwarded),
    play_kind=explain.play_kind,
    # Hockey Bones 18.10: an injury lasts the game (G) or the period (P); 14.50-14.52: a
    # game misconduct, the rest of the game. Nothing is carried into later games.
    games_out=None,
    # FaceOff 2008's options (17.000-21.000, NHL ranges 6.00 and 14.51) and the quick
    # reference's late-penalty house rule, in GameCreated fields of their own
    options_fields=options_fields,
    options_of=options_of,
    league_options=league_options,
    league_field=faceoff_field,
    season_fields=season_fields,
    next_kind=game.next_kind,  # the loop's read of the next step, compiled
)
