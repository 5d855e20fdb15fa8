"""Periods, overtime and the shootout (12, 13, 14), and penalty shots (15).

A period lasts the two teams' timing ratings added, in timing spaces (12: 10 + 11 = 21).
The space that fills the period is played out (its shot, its chart roll) and then the
period ends (ruling R-DH-12a). Tied after three, a regular-season game plays one overtime
of a quarter period rounded up (13: 21 gives 6), sudden death (ruling R-DH-13a), then a
shootout; a playoff game plays full periods until a goal (13). A shootout (14) is three
shooters a side (away first: ruling R-DH-14b), each attempt a roll for the card (00-49 the
shooter's, 50-99 the goalie's) and a roll on its shootout range; tied after three,
sudden-death rounds follow (ruling R-DH-14a). The winner is credited one goal (ruling R-DH-14c).
"""

from __future__ import annotations

import math
from typing import Final

from engine.dicehockey.absences import ABSENT
from engine.dicehockey.dice import roll_value
from engine.dicehockey.lines import rest_all
from engine.dicehockey.shots import goal_events
from engine.dicehockey.state import SIDES, Attempt, GameState, Shootout, Step, other
from events.base import Event
from events.common import GameEnded, PeriodEnded, PeriodStarted
from events.dicehockey import (
    PenaltyEnded,
    PeriodLengthSet,
    PlayStopped,
    Roll,
    ShootoutAttempt,
    ShootoutCardRolled,
    ShootoutShootersChosen,
)

SHOOTERS: Final = 3  # 14: "The away team chooses 3 players and the home team chooses 3 players"
SHOOTOUT: Final = 5  # PeriodStarted.period of a shootout


def period_length(state: GameState, period: int) -> int:
    if period <= 3 or state.uses("playoff"):  # ruling R-DH-13b: the game option
        return state.regular_length  # 12, 13: playoff overtime as long as a period
    return math.ceil(state.regular_length / 4)  # 13: divide by 4 and round up


def decide_start_period(state: GameState, step: Step, roll: Roll | None) -> list[Event]:
    period = state.period + 1
    if period >= SHOOTOUT and not state.uses("playoff"):
        return [PeriodStarted(period=SHOOTOUT)]
    return [PeriodStarted(period=period),
            PeriodLengthSet(period=period, length=period_length(state, period), roll=0,
                            rule="13" if period > 3 else "12")]


def apply_period_started(state: GameState, event: PeriodStarted) -> None:
    state.period = event.period
    if event.period == SHOOTOUT and not state.uses("playoff"):
        state.shootout = Shootout()
        return
    state.period_live = True
    state.period_opened = False
    state.space = 0
    state.puck = None
    state.whistle_side = None  # 12: nobody has had the puck yet this period
    state.window = "stoppage"
    state.coach_window = True
    for side in SIDES:
        team = state.team(side)
        rest_all(team)  # 9: the period's end lets every line back
        team.fourth_played = False
        if event.period > 1:
            team.lineup_open = "period"  # 10: "until the period ends"


def apply_length(state: GameState, event: PeriodLengthSet) -> None:
    state.length = event.length


def decide_end_period(state: GameState, step: Step, roll: Roll | None) -> list[Event]:
    home, away = state.home.score, state.away.score
    events: list[Event] = [PeriodEnded(period=state.period, home_goals=home, away_goals=away)]
    if state.period >= 3 and home != away:
        events += final_events(state, "REG" if state.period == 3 else "OT")
    return events


def apply_period_ended(state: GameState, event: PeriodEnded) -> None:
    state.period_live = False
    state.puck = None
    state.coach_window = False
    for side in SIDES:
        team = state.team(side)
        # 10: "unless you get an injury" (one from an earlier game too: R-DH-17b)
        hurt = any(team.out.get(p) in ("injured", "ejected", ABSENT)
                   for p in team.lines.forwards[3])
        if not team.fourth_played and not hurt and event.period <= 3:
            team.fourth_in_rotation = True  # 9: it starts the next period and rotates


def final_events(state: GameState, decided: str, home: int | None = None,
                 away: int | None = None) -> list[Event]:
    """The penalties still running end with the game; then the result."""
    home = state.home.score if home is None else home
    away = state.away.score if away is None else away
    ended: list[Event] = [PenaltyEnded(id=p.id, side=side, player=p.player, reason="game_end",
                                       clears_left=0, roll=0, rule="15")
                          for side in SIDES for p in state.team(side).penalties]
    winner = "home" if home > away else "away"
    return [*ended, GameEnded(home_goals=home, away_goals=away, decided=decided, winner=winner)]


def decide_end_game(state: GameState, step: Step, roll: Roll | None) -> list[Event]:
    """The end of a shootout (14): the winner gets one goal more (ruling R-DH-14c)."""
    shootout = state.shootout
    assert shootout is not None
    winner = shootout_winner(shootout.taken)
    home = state.home.score + (winner == "home")
    away = state.away.score + (winner == "away")
    return [PeriodEnded(period=SHOOTOUT, home_goals=home, away_goals=away),
            *final_events(state, "SO", home, away)]


def apply_game_ended(state: GameState, event: GameEnded) -> None:
    state.finished = True
    state.decided = event.decided


def shootout_winner(taken: list[Attempt]) -> str | None:
    """Who has won the shootout so far (14), or None: after three rounds unless the
    other side cannot catch up; then sudden-death rounds (ruling R-DH-14a)."""
    shots = {side: [scored for s, scored in taken if s == side] for side in SIDES}
    goals = {side: sum(shots[side]) for side in SIDES}
    left = {side: max(0, SHOOTERS - len(shots[side])) for side in SIDES}
    for side in SIDES:
        if goals[side] > goals[other(side)] + left[other(side)]:
            return side
    if len(shots["home"]) >= SHOOTERS and len(shots["home"]) == len(shots["away"]) \
            and goals["home"] != goals["away"]:
        return "home" if goals["home"] > goals["away"] else "away"
    return None


def apply_shooters(state: GameState, event: ShootoutShootersChosen) -> None:
    assert state.shootout is not None
    state.shootout.home = list(event.home_shooters)
    state.shootout.away = list(event.away_shooters)


def decide_so_card(state: GameState, step: Step, roll: Roll) -> list[Event]:
    """14, 15: 00-49 the shooter's card, 50-99 the goalie's."""
    opponent = state.team(other(step.side))
    shooter = state.card(step.side, step.player)
    goalie = opponent.goalie_card()
    on_shooter = roll_value(roll) <= 49
    return [ShootoutCardRolled(
        side=step.side, shooter=step.player, goalie=opponent.goalie,
        card="shooter" if on_shooter else "goalie", upto=shooter.so if on_shooter else goalie.so,
        kind=step.shot, round=step.number, roll=state.rolls,
        rule="14" if step.shot == "shootout" else "15")]


def apply_so_card(state: GameState, event: ShootoutCardRolled) -> None:
    state.pending.append(Step("so_shot", side=event.side, player=event.shooter,
                              shot=event.kind, number=event.round, upto=event.upto,
                              card=event.card))


def decide_so_shot(state: GameState, step: Step, roll: Roll) -> list[Event]:
    opponent = state.team(other(step.side))
    scored = roll_value(roll) <= step.upto
    attempt = ShootoutAttempt(side=step.side, shooter=step.player, goalie=opponent.goalie,
                              card=step.card, upto=step.upto, scored=scored, kind=step.shot,
                              round=step.number, roll=state.rolls,
                              rule="14" if step.shot == "shootout" else "15")
    if step.shot == "shootout":
        return [attempt]
    if scored:  # 15: a penalty shot that scores is a goal
        return [attempt, *goal_events(state, step.side, step.player, False, kind="PS",
                                      rule="15")[:-1]]
    return [attempt]


def apply_attempt(state: GameState, event: ShootoutAttempt) -> None:
    if event.kind != "shootout":
        return
    assert state.shootout is not None
    state.shootout.taken.append(Attempt(event.side, event.scored))
    if shootout_winner(state.shootout.taken):
        state.decided = "SO"


__all__ = ["PlayStopped", "apply_attempt", "apply_game_ended", "apply_length",
           "apply_period_ended", "apply_period_started", "apply_shooters", "apply_so_card",
           "decide_end_game", "decide_end_period", "decide_so_card", "decide_so_shot",
           "decide_start_period", "shootout_winner"]
