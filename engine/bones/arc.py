"""ARC cards (FaceOff 2008, 21.000-21.30): assists, retaliation and game misconducts
drawn player by player instead of by rank, an option of a FaceOff game.

A draw checks the eligible players lowest rating first, one three-dice roll each, on the
card for their total rating: column 2 while two assists are to be given (21.10), else 1.
It ends when every award is made; once as many players are left as awards, they get them
without a roll. The draw in progress is ``GameState.arc``; ``Step("arc")`` rolls the next
check and ``Step("arc_rest")`` gives out the rest without dice.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from engine.bones.cards import Skater
from engine.bones.dice import DiceRange
from engine.bones.penalties import make_call
from engine.bones.state import ArcDraw, GameState, Retaliation, Step
from events.bones import ArcChecked, AssistsAwarded, Roll

RULES: Final = {"assist": "21.10", "MI": "21.20", "MA": "21.20", "GM": "21.30"}


def convert_queue(state: GameState) -> None:
    """With the ARC cards on, the rank charts' draws in the queue become ARC draws:
    retaliation (14.30 -> 21.20), the game misconduct's player (14.51 -> 21.30) and the
    assists after the goalie's check (16.00 -> 21.10)."""
    converted: list[Step] = []
    for step in state.queue:
        if step.kind == "retaliation" and step.retaliation is not None:
            new = arc_step(state, step.side, step.retaliation.scale, retaliation=step.retaliation)
        elif step.kind == "gm_pick":
            new = arc_step(state, step.side, "GM")
        elif step.kind == "assist_ranks" and state.scorer:
            new = arc_step(state, state.scorer.side, "assist", left=step.number,
                           goalie=step.goalie)
        else:
            new = step
        if new is not None:
            converted.append(new)
    state.queue[:] = converted


def arc_step(state: GameState, side: str, kind: str, left: int = 1, goalie: str = "",
             retaliation: Retaliation | None = None) -> Step | None:
    """The step that starts a draw (``None`` when nobody is eligible): ``retaliation`` is
    the penalty an MI or MA draw gives (14.30), ``goalie`` the goalie who already has an
    assist (16.00, 21.10)."""
    step = Step("arc", side=side, goalie=goalie, draw=kind, retaliation=retaliation,
                number=left)
    draw = new_draw(state, step)
    if not draw.players:
        return None
    if len(draw.players) <= draw.left:
        return replace(step, kind="arc_rest")
    return step


def new_draw(state: GameState, step: Step) -> ArcDraw:
    kind = step.draw
    team = state.team(step.side)
    order = {pid: i for i, pid in enumerate(team.players)}
    if kind == "assist":  # 21.10: the skaters on the ice but the scorer
        scorer = state.scorer.player if state.scorer else ""
        pool = [p for p in team.skaters_on_ice() if p != scorer]
        ratings = {p: _rating(team.card(p), "assist") for p in pool}
    else:
        if kind == "GM":  # 21.30: on the ice, on the bench or in the box; no goalies
            pool = [p for p, s in team.players.items() if not s.is_goalie and s.out != "game"]
        else:  # 21.20: on the ice
            pool = team.skaters_on_ice()
        ratings = {p: _rating(team.card(p), kind.lower()) for p in pool}
        pool = [p for p in pool if ratings[p] > 0]  # 21.20, 21.30: zeros are left out
    players = sorted(pool, key=lambda p: (ratings[p], order[p]))
    left = step.number if kind == "assist" else 1
    draw = ArcDraw(kind=kind, side=step.side, players=players, ratings=ratings,
                   total=sum(ratings[p] for p in players), left=left,
                   column=2 if kind == "assist" and left == 2 else 1)
    _skip_unrated(draw)
    return draw


def _rating(card: object, name: str) -> int:
    return getattr(card, name, 0) if isinstance(card, Skater) else 0


def _skip_unrated(draw: ArcDraw) -> None:
    """An AS of 0 has no row on the card: such a player is passed over, unless he is one
    of the players left once they number the assists to give (ruling R-21.10a)."""
    while draw.players and draw.ratings[draw.players[0]] == 0 and len(draw.players) > draw.left:
        draw.players.pop(0)


def decide_arc(state: GameState, step: Step, roll: Roll) -> list:
    draw = state.arc or new_draw(state, step)
    player = draw.players[0]
    rating = draw.ratings[player]
    text = state.charts.arc.cell(draw.total, draw.column, rating)
    awarded = DiceRange.parse(text).contains(roll)
    events: list = [_checked(draw, player, text, awarded, state.rolls)]
    if draw.kind == "assist" and awarded and draw.left == 1:
        events.append(_assists(step, draw, [player], state.rolls))
    return events


def decide_arc_rest(state: GameState, step: Step, roll: None) -> list:
    draw = state.arc or new_draw(state, step)
    given = draw.players[:draw.left]
    events: list = [_checked(draw, p, "", True, 0) for p in given]
    if draw.kind == "assist":
        events.append(_assists(step, draw, given, 0))
    return events


def _checked(draw: ArcDraw, player: str, text: str, awarded: bool, roll: int) -> ArcChecked:
    return ArcChecked(side=draw.side, kind=draw.kind, player=player, rating=draw.ratings[player],
                      total=draw.total, column=draw.column, range=text, awarded=awarded,
                      roll=roll, rule=RULES[draw.kind])


def _assists(step: Step, draw: ArcDraw, last: list[str], roll: int) -> AssistsAwarded:
    goalie = [step.goalie] if step.goalie else []
    return AssistsAwarded(side=draw.side, players=goalie + draw.awarded + last, roll=roll,
                          rule="21.10")


def apply_arc_checked(state: GameState, event: ArcChecked) -> None:
    step = state.queue[0]
    draw = state.arc or new_draw(state, step)
    draw.players.remove(event.player)
    if event.awarded:
        draw.left -= 1
        draw.awarded.append(event.player)
        if draw.kind == "GM":
            state.calls.append(make_call(draw.side, event.player, "game_misconduct", "21.30"))
        elif draw.kind in ("MI", "MA"):
            assert step.retaliation is not None
            state.calls.append(make_call(draw.side, event.player, step.retaliation.penalty,
                                         "21.20", short=step.retaliation.short))
    _skip_unrated(draw)
    if draw.left == 0 or not draw.players:
        state.queue.pop(0)
        state.arc = None
        return
    state.arc = draw
    if len(draw.players) <= draw.left and step.kind == "arc":
        state.queue[0] = replace(step, kind="arc_rest")
