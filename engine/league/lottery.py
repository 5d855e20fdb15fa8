"""The draft lottery of Hockey Bones draft league rule 31, as decide and evolve.

Rule 31: the lottery sets the first round only and only among the non-playoff teams
(7th place 1 opportunity ... 13th place 7); a team falls at most two spots; no team drafts
first two years in a row (its ball drawn first, it is given the second pick); teams 1-6
still draft in reverse order of the standings after the lottery's teams.

How balls become picks (ruling R-post-31a, docs/rulings.md): the picks
are drawn in order, first pick first. Before each draw a team that would otherwise fall
more than two spots below its natural pick (reverse standings) takes the pick without a
draw. Otherwise the balls still in the drum are numbered 1..B, the best-placed team's
first (the text's list order: 7th place's 1 ball, then 8th place's 2...); one roll of a
B-sided die (seeded: :func:`seeded_lottery_roll`; at the table, any fair number 1..B)
draws ball ``roll`` and its team takes the pick; its other balls leave the drum. A
league of another size gives the best non-playoff team 1 opportunity and each place below
one more (ruling R-post-31b).

Pure: the dice are passed in (a roll per draw, or a callable ``roll(n, sides)``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from engine.dice import derive_faces
from events.errors import RinklogError, RollError
from events.postseason import LotteryDraw, LotteryEntry, LotteryOpened, LotteryOrderSet

__all__ = ["Ball", "LotteryError", "LotteryResult", "LotteryState", "NextDraw", "drum",
           "evolve_lottery", "lottery_entries", "next_draw", "open_lottery", "place",
           "run_lottery", "seeded_lottery_roll"]

RULE = "31"
MAX_FALL = 2  # rule 31: "The maximum a team can fall in the lottery is two draft spots."


class LotteryError(RinklogError):
    """Standings or rolls the lottery cannot take; one line."""


class Ball(msgspec.Struct, frozen=True):
    """A team's balls in the drum: numbers ``first`` to ``last``."""

    team: str
    first: int
    last: int


class NextDraw(msgspec.Struct, frozen=True):
    """What the next placement needs: a roll of a ``sides``-faced die (``sides`` 0: no
    roll, the pick is placed by the two-spot limit or goes to the last team)."""

    pick: int
    sides: int


class LotteryState(msgspec.Struct, frozen=True):
    entries: tuple[LotteryEntry, ...]
    previous_first: str
    playoff_teams: tuple[str, ...]  # their draft order: reverse standings
    picks: tuple[LotteryDraw, ...] = ()
    order: tuple[str, ...] = ()  # set by LotteryOrderSet


class LotteryResult(msgspec.Struct, frozen=True):
    """A drawn lottery: the entries, every placement in order, the first round's order."""

    entries: tuple[LotteryEntry, ...]
    draws: tuple[LotteryDraw, ...]
    order: tuple[str, ...]


def lottery_entries(standings: list[str], playoff_teams: list[str]) -> list[LotteryEntry]:
    """The non-playoff teams, best first: opportunities 1, 2, 3... (7th place 1 ... 13th
    place 7 in a 13-team league with six in the playoffs) and their natural picks."""
    unknown = sorted(set(playoff_teams) - set(standings))
    if unknown:
        raise LotteryError(f"playoff teams not in the standings: {', '.join(unknown)}")
    out = [t for t in standings if t not in set(playoff_teams)]
    return [LotteryEntry(team=t, place=standings.index(t) + 1, opportunities=i + 1,
                         natural_pick=len(out) - i) for i, t in enumerate(out)]


def open_lottery(standings: list[str], playoff_teams: list[str],
                 previous_first: str = "") -> LotteryOpened:
    """The lottery's first event; ``previous_first`` drafted first last season ("": none)."""
    if len(set(standings)) != len(standings):
        raise LotteryError("the standings list a team twice")
    entries = lottery_entries(standings, playoff_teams)
    reverse = [t for t in reversed(standings) if t in set(playoff_teams)]
    return LotteryOpened(entries=entries, previous_first=previous_first,
                         playoff_teams=reverse, rule=RULE)


def _placed(state: LotteryState) -> dict[int, str]:
    return {d.pick: d.team for d in state.picks}


def _left(state: LotteryState) -> list[LotteryEntry]:
    taken = {d.team for d in state.picks}
    return [e for e in state.entries if e.team not in taken]


def drum(state: LotteryState) -> list[Ball]:
    """The balls still in the drum, numbered from 1, the best-placed team's first."""
    balls, first = [], 1
    for entry in _left(state):
        balls.append(Ball(entry.team, first, first + entry.opportunities - 1))
        first += entry.opportunities
    return balls


def next_draw(state: LotteryState) -> NextDraw | None:
    """The next pick to place and the die it needs; None once every pick is placed."""
    placed = _placed(state)
    pick = next((k for k in range(1, len(state.entries) + 1) if k not in placed), None)
    if pick is None:
        return None
    left = _left(state)
    if len(left) == 1 or any(e.natural_pick + MAX_FALL <= pick for e in left):
        return NextDraw(pick, 0)
    return NextDraw(pick, sum(e.opportunities for e in left))


def place(state: LotteryState, roll: int | None) -> list[Any]:
    """The events of the next placement: one LotteryDraw (``roll`` used only when
    :func:`next_draw` asks for a die), then LotteryOrderSet after the last pick."""
    step = next_draw(state)
    if step is None:
        raise LotteryError("the lottery is drawn: every pick is placed")
    left = {e.team: e for e in _left(state)}
    if step.sides == 0:
        falling = [e for e in left.values() if e.natural_pick + MAX_FALL <= step.pick]
        entry = falling[0] if falling else next(iter(left.values()))
        how = "two-spot limit" if falling else "last team"
        draw = LotteryDraw(pick=step.pick, team=entry.team, place=entry.place, how=how,
                           roll=None, sides=0, rule=RULE)
    else:
        if roll is None or not 1 <= roll <= step.sides:
            raise RollError(f"pick {step.pick}: the lottery needs a number 1-{step.sides} "
                            f"(one per ball in the drum), not {roll}")
        ball = next(b for b in drum(state) if b.first <= roll <= b.last)
        entry = left[ball.team]
        twice = step.pick == 1 and entry.team == state.previous_first
        # Rule 31: "If their lottery ball is picked first, the second year, they will be
        # given the second overall pick"; the first pick is then drawn again.
        draw = LotteryDraw(pick=2 if twice else step.pick, team=entry.team,
                           place=entry.place, how="first pick twice" if twice else "drawn",
                           roll=roll, sides=step.sides, rule=RULE)
    after = evolve_lottery(state, draw)
    if next_draw(after) is not None:
        return [draw]
    placed = _placed(after)
    order = [placed[k] for k in sorted(placed)] + list(state.playoff_teams)
    return [draw, LotteryOrderSet(order=order, rule=RULE)]


def evolve_lottery(state: LotteryState | None, event: Any) -> LotteryState:
    """The lottery after one of its events."""
    if isinstance(event, LotteryOpened):
        return LotteryState(tuple(event.entries), event.previous_first,
                            tuple(event.playoff_teams))
    if state is None:
        raise LotteryError(f"{type(event).__name__} before LotteryOpened")
    if isinstance(event, LotteryDraw):
        return msgspec.structs.replace(state, picks=state.picks + (event,))
    if isinstance(event, LotteryOrderSet):
        return msgspec.structs.replace(state, order=tuple(event.order))
    raise LotteryError(f"not a lottery event: {type(event).__name__}")


def run_lottery(standings: list[str], playoff_teams: list[str], previous_first: str,
                roll: Callable[[int, int], int]) -> LotteryResult:
    """Draw the whole lottery; ``roll(n, sides)`` gives the n-th draw's number 1..sides."""
    state = evolve_lottery(None, open_lottery(standings, playoff_teams, previous_first))
    n = 0
    while (step := next_draw(state)) is not None:
        value = None
        if step.sides:
            n += 1
            value = roll(n, step.sides)
        for event in place(state, value):
            state = evolve_lottery(state, event)
    return LotteryResult(state.entries, state.picks, state.order)


def seeded_lottery_roll(seed: str, lottery_id: str) -> Callable[[int, int], int]:
    """The seeded lottery die: draw n of ``lottery_id`` under ``seed`` is a pure function
    of (seed, lottery id, n, sides) (ruling R-post-31a, the derivation of docs/dice.md).

    Up to 256 balls: one face of ``engine.dice.derive_faces`` (0..sides-1) plus 1. More
    balls: two-byte numbers (faces of 256, high byte first) below the largest multiple
    of ``sides`` under 65536, the first that fits, modulo ``sides``, plus 1."""
    def roll(n: int, sides: int) -> int:
        if sides <= 256:
            return derive_faces(seed, lottery_id, n, sides, 1)[0] + 1
        limit = 65536 - 65536 % sides
        count = 16
        while True:
            faces = derive_faces(seed, lottery_id, n, 256, count)
            for hi, lo in zip(faces[0::2], faces[1::2], strict=True):
                if hi * 256 + lo < limit:
                    return (hi * 256 + lo) % sides + 1
            count *= 2
    return roll
