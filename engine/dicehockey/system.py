"""DICE Hockey: the system's registration object, which engine/systems.py lists
(docs/systems.md)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import loop
from engine.dicehockey import absences, coach, explain, game
from engine.dicehockey.cards import Charts, Team
from engine.dicehockey.dice import derive_roll, parse_roll
from engine.dicehockey.rulesets import RULESETS
from engine.dicehockey.state import GameState, Step
from engine.registration import GameSystem
from events import dicehockey as ev
from events.base import Event
from events.dicehockey import Roll


def window_asks(step: Step, coach: object) -> Sequence[loop.Asker]:
    """At a window (9-12, 15, 22) the coaches change lines, dump, call a time out, pull
    the goalie or re-set the lineup cards: all of it through ``coach.lines``."""
    return [coach.lines]  # type: ignore[attr-defined]


def choose(state: GameState, step: Step, coach: object) -> list[Event]:
    """A step that waits for the coach: the shootout shooters (``coach.shootout``, 14), or
    (``coach.lines``, its first choice) who takes a tied penalty (15) or a delayed
    penalty's extra attacker (22)."""
    if step.kind == "shootout_choice":
        return [coach.shootout(state)]  # type: ignore[attr-defined]
    return list(coach.lines(state))[:1]  # type: ignore[attr-defined]


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
    window_steps=game.WINDOW_STEPS,
    window_asks=window_asks,
    choice_rules=game.CHOICE_RULES,
    choose=choose,
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
)
