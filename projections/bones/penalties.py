"""Penalty timers (14.10) of a Hockey Bones game: a pure fold into the shared
``PenaltyReport`` (projections/models/penalties.py), in seconds.

Imports events and the shared read-model types only (never the engine). The clocks are
rebuilt from the events:

- a ``PenaltyAssessed`` puts ``served_by`` (else the player: off for the game) in the box
  for ``box`` time sequences and his team a man short for ``short`` sequences; a penalty
  with no man-short time waits for the same sitter's earlier box time (served after it);
- at every ``SequencePlayed`` a team is as many skaters short as it has penalties with
  man-short time left, at most two; only those first two (in the order assessed) count
  their man-short time down (ruling R-14.10a). Box time counts down for every penalty but
  a game misconduct;
- a power-play goal (the scorer's team with fewer men short than the other, not a penalty
  shot) cuts the first releasable minor of the other team that is still running: a double
  minor in its first minor starts its second (box time falls to 5 sequences, man-short
  time too, or to none for an F double minor that was short for two minutes only: 14.20 D,
  ruling R-14.20b); anything else ends with the ``PenaltyEnded`` (``power_play_goal``)
  that follows. Any other goal (short-handed, even strength, 4 on 4) cuts nothing;
- a penalty's end is its ``PenaltyEnded`` (``served``, ``power_play_goal``, ``game_end``):
  the time at the end of that sequence (``sequence`` × 24 s). The scheduled end is the
  start plus ``box`` × 24 s, carried into the next period(s) (20:00 periods, 5:00 OT).

Strength labels are skaters by penalties alone, ``"5v4"`` = 5 - own short v 5 - other's
short; a pulled goalie is not counted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from events.bones import GoalScored, PenaltyAssessed, PenaltyEnded, SequencePlayed
from events.common import GameCreated, other_side
from projections.models.penalties import (
    BoxStint,
    PenaltyLine,
    PenaltyReport,
    Running,
    strength_label,
)

__all__ = ["PenaltyFold", "build_penalties", "period_length"]

SEQUENCE_SECONDS = 24
SIDES = ("home", "away")
RELEASABLE = frozenset({"minor", "double_minor", "bench_minor"})  # 14.20: end on a PP goal
MAX_SHORT = 2
MINOR = 5  # 14.10: sequences of a minor, and of each half of a double minor


PLAYOFF = "playoff"  # the game option of a playoff game (GameCreated.options, R-6.00c)


def period_length(period: int, playoff: bool = False) -> int:
    """Seconds of a period: 20:00, the regular season's overtime 5:00 (6.00); a playoff
    game's overtimes are 20:00 each (ruling R-6.00c)."""
    return 300 if period == 4 and not playoff else 1200


class _Clock:
    __slots__ = ("event", "sitter", "box_left", "short_left")

    def __init__(self, event: PenaltyAssessed, sitter: str, box_left: int) -> None:
        self.event, self.sitter, self.box_left, self.short_left = event, sitter, box_left, \
            event.short


class PenaltyFold:
    def __init__(self, sequences: bool = True) -> None:
        # whether each sequence's strength labels are kept (the report's ``sequences``):
        # not for the stored rows, which take the penalty lines alone
        self.keep_sequences = sequences
        self.created: GameCreated | None = None
        self.assessed: list[PenaltyAssessed] = []
        self.ended: dict[int, PenaltyEnded] = {}
        self.clocks: dict[str, list[_Clock]] = {s: [] for s in SIDES}
        self.period = 1
        self.sequence = 0
        self.sequences: list[dict[str, Any]] = []
        # the last strengths labelled (home short, away short, base) and their labels: most
        # sequences are played at the strength of the one before
        self.strengths: tuple[int, int, int] = (-1, -1, -1)
        self.labels: tuple[str, str] = ("", "")

    @property
    def playoff(self) -> bool:
        return self.created is not None and PLAYOFF in (self.created.options or [])

    def base_skaters(self) -> int:
        if self.period == 4 and self.created is not None and not self.playoff:
            return self.created.overtime_skaters
        return 5  # a playoff game's overtimes are 5 on 5 (ruling R-6.00c)

    def man_short(self, side: str) -> int:
        clocks = self.clocks[side]
        if not clocks:
            return 0  # most sequences: no penalty on the books
        return min(MAX_SHORT, sum(1 for c in clocks if c.short_left > 0))

    def apply(self, e: Any) -> None:
        handler = _HANDLERS.get(type(e))
        if handler is not None:
            handler(self, e)

    def on_sequence_played(self, e: SequencePlayed) -> None:
        self.period, self.sequence = e.period, e.sequence
        if self.keep_sequences:
            home, away = self.man_short("home"), self.man_short("away")
            base = self.base_skaters()
            strengths = (home, away, base)
            if strengths != self.strengths:
                self.strengths = strengths
                self.labels = (strength_label(home, away, base),
                               strength_label(away, home, base))
            self.sequences.append({"period": e.period, "sequence": e.sequence,
                                   "home": self.labels[0], "away": self.labels[1]})
        for side in SIDES:
            clocks = self.clocks[side]
            if not clocks:
                continue  # most sequences: no penalty on the books
            ticking = [c for c in clocks if c.short_left > 0][:MAX_SHORT]
            for c in ticking:
                c.short_left -= 1
            for c in clocks:
                if c.box_left > 0 and c.event.kind != "game_misconduct":
                    c.box_left -= 1

    def on_penalty_assessed(self, e: PenaltyAssessed) -> None:
        sitter = e.served_by or e.player
        waiting = max((c.box_left for c in self.clocks[e.side] if c.sitter == sitter),
                      default=0)
        self.clocks[e.side].append(
            _Clock(e, sitter, e.box + (waiting if e.short == 0 else 0)))
        self.assessed.append(e)

    def on_penalty_ended(self, e: PenaltyEnded) -> None:
        self.ended[e.id] = e
        for side in SIDES:
            self.clocks[side] = [c for c in self.clocks[side] if c.event.id != e.id]

    def on_goal_scored(self, e: GoalScored) -> None:
        other = other_side(e.side)
        if e.strength != "PS" and self.man_short(e.side) < self.man_short(other):
            for c in self.clocks[other]:
                if c.short_left > 0 and c.event.kind in RELEASABLE:
                    if c.event.kind == "double_minor" and max(c.box_left, c.short_left) > MINOR:
                        # 14.20 D: the first minor ends, the second begins; man short only
                        # if the double minor was short for both (D, G; not F, R-14.20b)
                        c.box_left = min(c.box_left, MINOR)
                        c.short_left = min(c.short_left, MINOR) if c.event.short > MINOR else 0
                    break

    def on_game_created(self, e: GameCreated) -> None:
        self.created = e

    def lines(self) -> list[PenaltyLine]:
        """Each penalty's line, in the order assessed."""
        if self.created is None:
            raise ValueError("a penalty report needs the stream's GameCreated event")
        team = {s: getattr(self.created, s).team_id for s in SIDES}
        lines = []
        playoff = self.playoff
        for p in self.assessed:
            end_p, end_t = p.period, p.time + p.box * SEQUENCE_SECONDS
            while end_t > period_length(end_p, playoff) and (end_p < 4 or playoff):
                end_t -= period_length(end_p, playoff)
                end_p += 1
            done = self.ended.get(p.id)
            out_p = done.period if done else None
            out_t = min(done.sequence * SEQUENCE_SECONDS, period_length(done.period, playoff)) \
                if done else None
            lines.append(PenaltyLine(
                id=p.id, team=team[p.side], side=p.side, player=p.player,
                served_by=p.served_by, kind=p.kind, minutes=p.minutes, box=p.box,
                short=p.short, period=p.period, sequence=p.sequence, start=p.time,
                scheduled_end_period=end_p, scheduled_end=end_t, end_period=out_p, end=out_t,
                why=done.reason if done else None))
        return lines

    def result(self, at: int | None = None) -> PenaltyReport:
        lines = self.lines()
        assert self.created is not None  # (lines raised otherwise)
        team = {s: getattr(self.created, s).team_id for s in SIDES}
        # each penalty's stint in the box: who sits it, from its start to its end
        box = [BoxStint(team=line.team, player=line.served_by or line.player,
                        penalty=line.id, period_in=line.period, time_in=line.start,
                        period_out=line.end_period, time_out=line.end) for line in lines]
        running = [Running(id=c.event.id, team=team[side], player=c.sitter, kind=c.event.kind,
                           time_left=c.box_left * SEQUENCE_SECONDS,
                           short_left=c.short_left * SEQUENCE_SECONDS)
                   for side in SIDES for c in self.clocks[side]]
        running.sort(key=lambda r: r.id)
        home, away = self.man_short("home"), self.man_short("away")
        return PenaltyReport(
            game_id=self.created.game_id, at=at, period=self.period, sequence=self.sequence,
            penalties=lines, box=box, running=running,
            strength={"home": strength_label(home, away, self.base_skaters()),
                      "away": strength_label(away, home, self.base_skaters())},
            sequences=list(self.sequences))


# The events the penalty timers read, each with its handler.
_HANDLERS: dict[type, Callable[[PenaltyFold, Any], None]] = {
    SequencePlayed: PenaltyFold.on_sequence_played,
    PenaltyAssessed: PenaltyFold.on_penalty_assessed,
    PenaltyEnded: PenaltyFold.on_penalty_ended,
    GoalScored: PenaltyFold.on_goal_scored,
    GameCreated: PenaltyFold.on_game_created,
}


def build_penalties(events: Iterable[Any], at: int | None = None) -> PenaltyReport:
    """Fold a game's events (from its first) into its penalty report.

    With ``at`` only the first ``at`` events are folded: the state right after event
    ``at`` (running penalties with time left, strength per team).
    """
    fold = PenaltyFold()
    handlers = _HANDLERS
    for n, event in enumerate(events, start=1):
        if at is not None and n > at:
            break
        handler = handlers.get(type(event))
        if handler is not None:
            handler(fold, event)
    return fold.result(at)
