"""DICE Hockey: the system's registration object, which engine/systems.py lists
(docs/systems.md)."""

from __future__ import annotations

from engine.dicehockey import absences, coach, explain, game
from engine.dicehockey.cards import Charts, Team
from engine.dicehockey.dice import derive_roll, parse_roll
from engine.dicehockey.rulesets import RULESETS
from engine.dicehockey.state import NO_ROLL_STEPS, GameState
from engine.registration import GameSystem
from events import dicehockey as ev
from events.dicehockey import Roll

SYSTEM: GameSystem[GameState, Roll, Team, Charts] = GameSystem(
    name="dicehockey",
    title="DICE Hockey",
    rulesets=RULESETS,
    event_type=ev.DiceHockeyEvent,
    parse_roll=parse_roll,
    derive_roll=derive_roll,
    roll_event=ev.DiceRolled,
    team_type=Team,
    roster=explain.roster_entries,
    charts_type=Charts,
    initial_state=game.initial_state,
    decide=game.decide,
    evolve=game.evolve,
    check_choice=game.check_choice,
    rollless_steps=NO_ROLL_STEPS,
    window_steps=game.WINDOW_STEPS,
    window_asks=game.window_asks,
    choice_rules=game.CHOICE_RULES,
    choose=game.choose,
    max_steps=game.MAX_STEPS,
    choice_events=ev.CHOICES,
    stoppage_choices=(ev.LinesChanged, ev.DumpDeclared, ev.TimeOutCalled, ev.GoalieChanged,
                      ev.LineupRearranged, ev.PenaltyPlayerChosen, ev.ExtraAttackerAdded),
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
    # a face-off, a turnover, a dump: each starts a new possession
    play_starts=(ev.FaceoffWon, ev.TurnoverRolled, ev.PuckDumped),
    play_kind=explain.play_kind,
    games_out=absences.games_out,  # 15 suspensions, 17 games missed
    games_out_events=absences.GAMES_OUT_EVENTS,
    next_kind=game.next_kind,  # the loop's read of the next step, compiled
)
