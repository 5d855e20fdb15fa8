"""Time on ice and shift charges of a Hockey Bones game (6.40, 17.00): a pure fold into
the shared ``Toi`` (projections/models/toi.py), in seconds.

Imports events and the shared read-model types only (never the engine). Counting rules
(documented in docs/json.md):

- every ``SequencePlayed`` is 24 seconds (6.10) for each skater in its ``home`` / ``away``
  list and for the goalie named in ``home_goalie`` / ``away_goalie``;
- that time is even strength, power play or short-handed by comparing the two teams'
  ``*_short`` counts of the same ``SequencePlayed`` (own < other: PP; own > other: SH);
- a *stint* is a run of consecutive sequences a skater is listed in; it ends when the next
  ``SequencePlayed`` of the period does not list him, and at every period's end. A stint
  of 1-2 sequences is charged half a shift, of 3 or more a full shift (6.40);
- ``excess`` is the whole shifts played beyond the card's shift rating (17.00), as the
  engine's fatigue reads it: ``max(0, floor(shifts - rating))``, 0 when the card has no
  rating. Goalies are charged no shifts.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import chain
from typing import Any

from events.bones import SequencePlayed
from events.common import GameCreated, PeriodEnded, PeriodStarted
from projections.models.toi import PlayerToi, ShiftLine, Toi

__all__ = ["ToiFold", "build_toi"]

SEQUENCE_SECONDS = 24
SIDES = ("home", "away")
STRENGTHS = ("ev", "pp", "sh")


class _Player:
    __slots__ = ("side", "entry", "shifts", "stints")

    def __init__(self, side: str, entry: Any) -> None:
        self.side, self.entry = side, entry
        self.shifts = 0.0
        self.stints: list[tuple[int, int, int]] = []  # (period, first seq, last seq)


class ToiFold:
    """The fold; ``apply`` one event at a time, ``result()`` whenever."""

    def __init__(self) -> None:
        self.created: GameCreated | None = None
        self.players: dict[tuple[str, str], _Player] = {}  # (side, id): ids repeat
        self.order: list[tuple[str, str]] = []
        self.known: dict[str, set[str]] = {s: set() for s in SIDES}  # the ids in players
        # Who each SequencePlayed lists (skaters and goalie), by side and strength: counted
        # once in result() instead of three counters a player moved every sequence.
        self.listed: dict[tuple[str, str], list[Sequence[str]]] = {
            (side, kind): [] for side in SIDES for kind in STRENGTHS}
        # The stints running, by side then player: (period, first seq). Every stint running
        # on a side was last listed by the side's latest SequencePlayed (one not listed
        # ends), so their last seq is one number a side, moved once a sequence instead of
        # a stint each.
        self.open: dict[str, dict[str, tuple[int, int]]] = {s: {} for s in SIDES}
        self.last: dict[str, int] = dict.fromkeys(SIDES, 0)
        self.period = 0

    def player(self, side: str, pid: str) -> _Player:
        key = (side, pid)
        p = self.players.get(key)
        if p is None:
            p = self.players[key] = _Player(side, None)
            self.order.append(key)
            self.known[side].add(pid)
        return p

    def close_one(self, side: str, pid: str) -> None:
        period, first = self.open[side].pop(pid)
        last = self.last[side]
        p = self.players[(side, pid)]
        p.stints.append((period, first, last))
        p.shifts += 1.0 if last - first + 1 >= 3 else 0.5

    def close_stints(self) -> None:
        for side, opened in self.open.items():
            for pid in list(opened):
                self.close_one(side, pid)

    def apply(self, e: Any) -> None:
        handler = _HANDLERS.get(type(e))
        if handler is not None:
            handler(self, e)

    def _sequence_played(self, e: SequencePlayed) -> None:
        period, sequence = e.period, e.sequence
        if period != self.period:
            self.close_stints()
            self.period = period
        for side, skaters, goalie, mine, theirs in (
                ("home", e.home, e.home_goalie, e.home_short, e.away_short),
                ("away", e.away, e.away_goalie, e.away_short, e.home_short)):
            kind = "pp" if mine < theirs else "sh" if mine > theirs else "ev"
            listed = (*skaters, goalie) if goalie else skaters
            self.listed[side, kind].append(listed)
            if not self.known[side].issuperset(listed):
                for pid in listed:
                    self.player(side, pid)  # first seen here (not on the roster)
            opened = self.open[side]
            if opened:  # every stint running is of this period (a new one ended them all)
                if self.last[side] == sequence - 1:
                    for pid in [pid for pid in opened if pid not in skaters]:
                        self.close_one(side, pid)  # not listed: his stint ended last sequence
                else:  # a gap in the sequences: every stint ended with the last one listed
                    for pid in list(opened):
                        self.close_one(side, pid)
            self.last[side] = sequence  # the stints listed again go on to this sequence
            for pid in skaters:
                if pid not in opened:
                    opened[pid] = (period, sequence)
            if len(opened) != len(skaters):  # a skater listed twice: each repeat ends his
                seen = set()  # stint at this sequence and starts another one here
                for pid in skaters:
                    if pid in seen:
                        self.close_one(side, pid)
                        opened[pid] = (period, sequence)
                    seen.add(pid)

    def _period_edge(self, e: PeriodStarted | PeriodEnded) -> None:
        self.close_stints()

    def _game_created(self, e: GameCreated) -> None:
        self.created = e
        for side in SIDES:
            for entry in getattr(e, side).roster:
                self.player(side, entry.id).entry = entry

    def result(self) -> Toi:
        if self.created is None:
            raise ValueError("time on ice needs the stream's GameCreated event")
        created = self.created
        team = {s: getattr(created, s).team_id for s in SIDES}
        # Stints still open (a stream read up to some event) count as they stand.
        pending = {(side, pid): [(period, first, self.last[side])]
                   for side, opened in self.open.items()
                   for pid, (period, first) in opened.items()}
        listed = {group: Counter(chain.from_iterable(sequences))
                  for group, sequences in self.listed.items()}
        players, shifts = [], []
        for key in self.order:
            side, pid = key
            p = self.players[key]
            ev, pp, sh = listed[side, "ev"][pid], listed[side, "pp"][pid], listed[side, "sh"][pid]
            stints = p.stints + pending.get(key, [])
            charged = p.shifts + sum(1.0 if b - a + 1 >= 3 else 0.5
                                     for _, a, b in pending.get(key, []))
            entry = p.entry
            position = entry.position if entry is not None else "?"
            rating = entry.shift if entry is not None else 0.0
            excess = max(0, math.floor(charged - rating)) if rating else 0
            sequences = ev + pp + sh
            if sequences == 0 and not stints:
                continue
            players.append(PlayerToi(
                team=team[side], player=pid, name=entry.name if entry else pid,
                position=position, sequences=sequences, shifts=charged, excess=excess,
                toi=sequences * SEQUENCE_SECONDS, toi_ev=ev * SEQUENCE_SECONDS,
                toi_pp=pp * SEQUENCE_SECONDS, toi_sh=sh * SEQUENCE_SECONDS))
            for n, (period, first, last) in enumerate(stints, start=1):
                start, end = (first - 1) * SEQUENCE_SECONDS, last * SEQUENCE_SECONDS
                shifts.append(ShiftLine(team=team[p.side], player=pid, shift=n, period=period,
                                        start=start, end=end, duration=end - start,
                                        charge=1.0 if last - first + 1 >= 3 else 0.5))
        side_order = {team["home"]: 0, team["away"]: 1}
        players.sort(key=lambda r: (side_order[r.team], r.position == "G", r.player))
        shifts.sort(key=lambda s: (s.period, s.start, side_order[s.team], s.player))
        return Toi(game_id=created.game_id, players=players, shifts=shifts)


# The events time on ice reads, each with its handler.
_HANDLERS: dict[type, Callable[[ToiFold, Any], None]] = {
    SequencePlayed: ToiFold._sequence_played,
    PeriodEnded: ToiFold._period_edge,
    PeriodStarted: ToiFold._period_edge,
    GameCreated: ToiFold._game_created,
}


def build_toi(events: Iterable[Any]) -> Toi:
    """Fold a game's events (from its first, ``GameCreated``) into time on ice and shifts."""
    fold = ToiFold()
    handlers = _HANDLERS
    for event in events:
        handler = handlers.get(type(event))
        if handler is not None:
            handler(fold, event)
    return fold.result()
