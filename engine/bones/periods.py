"""Periods, overtime and the end of the game (6.00), and the shootout (21.00).

A playoff game (the game option "playoff", ruling R-6.00c) tied after three plays
sudden-death overtime periods of 50 sequences, each opened as a period is (5.00 bench
checks, 7.00 face-off), until a goal: no shootout, no tie."""

from __future__ import annotations

from typing import Final

from engine.bones import draft
from engine.bones.dice import DiceRange
from engine.bones.state import SIDES, GameState, ShootoutOrder, Step, other
from engine.bones.timing import end_stint
from events.bones import PenaltyEnded, Roll, ShootoutAttempt, ShootoutOrderChosen
from events.common import GameEnded, PeriodEnded, PeriodStarted

GRADES: Final = "ABCDF"
SHOOTOUT_ROUNDS: Final = 3  # 21.00: three shooters a side, then one at a time


def decide_start_period(state: GameState, step: Step, roll: object) -> list:
    return [PeriodStarted(period=state.period + 1)]


def apply_period_started(state: GameState, event: PeriodStarted) -> None:
    state.period = event.period
    state.sequence = 0
    for team in (state.home, state.away):
        for status in team.players.values():
            if status.out == "period":
                status.out = ""  # 18.10 P: back for the next period
    # 5.00: bench-minor checks before every period, then the opening face-off. Draft rule
    # 28: a draft league does not predetermine bench penalties (ruling R-draft-28).
    checks = [] if state.draft_league else [Step("bench", side="home"), Step("bench", side="away")]
    state.queue[0:1] = [*checks, Step("faceoff")]
    state.coach_window = True


def game_over(state: GameState) -> bool:
    if state.period < 3:
        return False
    return state.home.score != state.away.score


def decide_end_period(state: GameState, step: Step, roll: object) -> list:
    events: list = [PeriodEnded(period=state.period, home_goals=state.home.score,
                                away_goals=state.away.score)]
    return events


def end_game(state: GameState, decided: str) -> list:
    events: list = []
    for side in SIDES:
        for pen in state.team(side).penalties:
            events.append(PenaltyEnded(id=pen.id, reason="game_end", period=state.period,
                                       sequence=state.sequence, rule="14.10"))
    home, away = state.home.score, state.away.score
    if decided == "SO":  # the shootout winner is credited one goal
        if state.home.shootout_goals > state.away.shootout_goals:
            home += 1
        else:
            away += 1
    # FaceOff 5.00: no shootout follows its overtime, so a tied game stands as a tie.
    winner = "home" if home > away else "away" if away > home else "none"
    events.append(GameEnded(home_goals=home, away_goals=away, decided=decided, winner=winner))
    return events


def apply_period_ended(state: GameState, event: PeriodEnded) -> None:
    for team in (state.home, state.away):
        for status in team.players.values():
            end_stint(status)  # ruling R-6.40a: a period's end ends every shift
            status.rest = 99
        if state.draft_league:
            draft.leave_at_period_end(team)  # draft rule 16
    if state.draft_league:
        # The period is over and the puck dead: nobody holds it past the period's end, so
        # a carrier whose card turned over leaves the ice too (draft rule 16). Other
        # games keep their carrier until the face-off, as they were played.
        state.puck = None
    if game_over(state):
        state.queue[0:1] = [Step("end_game")]
    elif state.period >= 3 and state.playoff:
        state.queue[0:1] = [Step("start_period")]  # ruling R-6.00c: another overtime
    elif state.period == 3 and state.overtime:
        state.queue[0:1] = [Step("start_period")]  # 6.00: a 5-minute overtime
    elif state.period >= 3 and not state.ruleset.shootout:
        state.queue[0:1] = [Step("end_game", decided="TIE")]  # FaceOff 5.00: a tie stands
    elif state.period >= 3:
        state.queue[0:1] = [Step("shootout_order")]  # 21.00
    else:
        state.queue[0:1] = [Step("start_period")]


def apply_game_ended(state: GameState, event: GameEnded) -> None:
    state.finished = True
    state.queue.clear()


def apply_shootout_order(state: GameState, event: ShootoutOrderChosen) -> None:
    state.shootout_order = ShootoutOrder(event.first, event.home_shooters, event.away_shooters)
    state.period = 5
    state.queue[0:1] = [Step("shootout", side=event.first, number=0)]


def decide_shootout(state: GameState, step: Step, roll: Roll) -> list:
    assert state.shootout_order is not None
    shooters = state.shootout_order.shooters(step.side)
    shooter = shooters[(step.number) % len(shooters)]
    goalie_team = state.team(other(step.side))
    goalie = goalie_team.card(goalie_team.goalie)
    rating = min(10, max(0, state.team(step.side).card(shooter).so))
    text = state.charts.shootout[rating][GRADES.index(goalie.shootout)]
    return [ShootoutAttempt(side=step.side, shooter=shooter, goalie=goalie_team.goalie,
                            rating=rating, range=text,
                            scored=DiceRange.parse(text).contains(roll), roll=state.rolls,
                            rule="21.00")]


def apply_shootout_attempt(state: GameState, event: ShootoutAttempt) -> None:
    assert state.shootout_order is not None
    first = state.shootout_order.first
    step = state.queue.pop(0)
    if event.scored:
        state.team(event.side).shootout_goals += 1
    shots = {first: step.number + 1, other(first): step.number + (event.side != first)}
    if _decided(state, shots):
        state.queue.insert(0, Step("end_game", decided="SO"))
        return
    if event.side == first:
        state.queue.insert(0, Step("shootout", side=other(first), number=step.number))
    else:
        state.queue.insert(0, Step("shootout", side=first, number=step.number + 1))


def _decided(state: GameState, shots: dict[str, int]) -> bool:
    """21.00: over when one side cannot be caught, or after equal rounds past three."""
    goals = {s: state.team(s).shootout_goals for s in SIDES}
    # 21.00: a lead is insurmountable only against the shots still owed this round, so
    # past round three the second shooter of a round still gets his reply.
    rounds = max(SHOOTOUT_ROUNDS, *shots.values())
    left = {s: rounds - shots[s] for s in SIDES}
    for side in SIDES:
        if goals[side] > goals[other(side)] + left[other(side)]:
            return True
    return shots["home"] == shots["away"] >= SHOOTOUT_ROUNDS and goals["home"] != goals["away"]


def decide_end_game(state: GameState, step: Step, roll: object) -> list:
    if step.decided:
        return end_game(state, step.decided)
    return end_game(state, "REG" if state.period <= 3 else "OT")
