"""The penalty report of a DICE Hockey game: a pure fold into the shared ``PenaltyReport``.

DICE Hockey kills penalties by clears, not by time (15), so the clocks count clears and
timing spaces (docs/json.md, "DICE Hockey"):

- a minor, double minor or major (``short``) is killed by ``clears`` (2, 4, 5: 15); its
  ``box`` and ``short`` are those clears and it has no scheduled end (``null``). Every
  ``ClearCounted`` sets the clears left of the penalties it names (22: one clear counts
  for every running penalty of the team);
- a fight (18) and a misconduct (ruling R-DH-15d) sit ``spaces`` timing spaces without a
  man short: ``box`` is those spaces, ``short`` 0, the scheduled end the start plus the
  spaces, carried into the next period by the periods' lengths (12); the box time counts
  down at every ``TimingSpaceCounted``;
- a game misconduct is off for the game (``served_by`` null, ``box`` 0, no scheduled
  end, 15); every other penalty is sat by the player himself (15: "place him in the
  penalty box");
- a penalty ends at the ``PenaltyEnded`` that leaves it no clears (a double minor after
  a power-play goal keeps its second two clears, 15): ``end`` is the timing space count
  then; ``why`` is ``cleared``, ``power_play_goal``, ``served`` or ``game_end``;
- ``period``/``sequence`` are the period and timing space of the last space counted;
  ``sequences`` lists the strength labels at every ``TimingSpaceCounted``; strength
  labels are 5 minus the men short (at most two, 15) each way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice
from typing import Any, Final

from events.dicehockey import (
    ClearCounted,
    PenaltyAssessed,
    PenaltyEnded,
    TimingSpaceCounted,
)
from projections.dicehockey.ice import SIDES, Ice, fold_with_ice
from projections.models.penalties import BoxStint, PenaltyLine, PenaltyReport, Running

__all__ = ["PenaltyFold", "build_penalties"]

WHY = {"cleared": "cleared", "goal": "power_play_goal", "served": "served",
       "game_end": "game_end"}


class _Clock:
    __slots__ = ("event", "clears_left", "spaces_left")

    def __init__(self, event: PenaltyAssessed) -> None:
        self.event, self.clears_left, self.spaces_left = event, event.clears, event.spaces


class PenaltyFold:
    """The fold; ``apply`` one event at a time, ``result(at)`` whenever."""

    def __init__(self, ice: Ice | None = None, sequences: bool = True) -> None:
        self.ice = Ice() if ice is None else ice  # another fold's, followed by it
        # whether each space's strength labels are kept (the report's ``sequences``): not
        # for the stored rows, which take the penalty lines alone
        self.keep_sequences = sequences
        self.assessed: list[PenaltyAssessed] = []
        self.running: dict[int, _Clock] = {}
        self.ended: dict[int, tuple[PenaltyEnded, int, int]] = {}  # id -> (event, period, space)
        self.sequences: list[dict[str, Any]] = []

    def apply(self, event: Any) -> None:
        self.ice.apply(event)
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def on_assessed(self, e: PenaltyAssessed) -> None:
        self.assessed.append(e)
        self.running[e.id] = _Clock(e)

    def on_clear(self, e: ClearCounted) -> None:
        for penalty, left in zip(e.penalties, e.left, strict=False):
            if penalty in self.running:
                self.running[penalty].clears_left = left

    def on_ended(self, e: PenaltyEnded) -> None:
        clock = self.running.get(e.id)
        if e.clears_left > 0 and clock is not None:  # 15: a double minor's second half
            clock.clears_left = e.clears_left
            return
        self.running.pop(e.id, None)
        self.ended[e.id] = (e, self.ice.period, self.ice.space)

    def on_space(self, e: TimingSpaceCounted) -> None:
        if self.keep_sequences:
            self.sequences.append({"period": e.period, "sequence": e.space,
                                   "home": self.ice.label("home"),
                                   "away": self.ice.label("away")})
        for clock in self.running.values():
            if not clock.event.short and clock.spaces_left > 0:
                clock.spaces_left -= 1

    def scheduled_end(self, p: PenaltyAssessed) -> tuple[int | None, int | None]:
        """Start plus the box spaces, carried into the next period(s) (12)."""
        if p.short or p.spaces == 0:
            return None, None
        period, space = p.period, p.space + p.spaces
        first = self.ice.lengths.get(1, 0)
        length = self.ice.lengths.get(period, first if period <= 3 else 0)
        while 0 < length < space:
            space -= length
            period += 1
            length = self.ice.lengths.get(period, first if period <= 3 else 0)
        return period, space

    def lines(self) -> list[PenaltyLine]:
        """Each penalty's line, in the order assessed."""
        ice = self.ice
        if ice.created is None:
            raise ValueError("a penalty report needs the stream's GameCreated event")
        lines = []
        for p in self.assessed:
            sitter = None if p.kind == "game_misconduct" else p.player
            end_period, end = self.scheduled_end(p)
            done = self.ended.get(p.id)
            out_period, out = (done[1], done[2]) if done else (None, None)
            lines.append(PenaltyLine(
                id=p.id, team=ice.team[p.side], side=p.side, player=p.player,
                served_by=sitter, kind=p.kind, minutes=p.minutes,
                box=p.clears if p.short else p.spaces, short=p.clears if p.short else 0,
                period=p.period, sequence=p.space, start=p.space,
                scheduled_end_period=end_period, scheduled_end=end, end_period=out_period,
                end=out, why=WHY[done[0].reason] if done else None))
        return lines

    def result(self, at: int | None = None) -> PenaltyReport:
        ice = self.ice
        lines = self.lines()
        # each penalty's stint in the box: its player's, from its start to its end
        box = [BoxStint(team=line.team, player=line.player, penalty=line.id,
                        period_in=line.period, time_in=line.start, period_out=line.end_period,
                        time_out=line.end) for line in lines]
        assert ice.created is not None  # (lines raised otherwise)
        running = [Running(id=c.event.id, team=ice.team[c.event.side], player=c.event.player,
                           kind=c.event.kind,
                           time_left=c.clears_left if c.event.short else c.spaces_left,
                           short_left=c.clears_left if c.event.short else 0)
                   for c in sorted(self.running.values(), key=lambda c: c.event.id)]
        return PenaltyReport(
            game_id=ice.created.game_id, at=at, period=ice.period, sequence=ice.space,
            penalties=lines, box=box, running=running,
            strength={side: ice.label(side) for side in SIDES},
            sequences=list(self.sequences))


_HANDLERS: Final[dict[type, Callable[[PenaltyFold, Any], None]]] = {
    PenaltyAssessed: PenaltyFold.on_assessed,
    ClearCounted: PenaltyFold.on_clear,
    PenaltyEnded: PenaltyFold.on_ended,
    TimingSpaceCounted: PenaltyFold.on_space,
}


def build_penalties(events: Iterable[Any], at: int | None = None) -> PenaltyReport:
    """Fold a DICE Hockey game's events (from its first) into its penalty report; with
    ``at`` only the first ``at`` events (the state right after event ``at``)."""
    fold = PenaltyFold()
    fold_with_ice(fold, fold.ice, _HANDLERS, events if at is None else islice(events, max(0, at)))
    return fold.result(at)
