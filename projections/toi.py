"""Time on ice and shift charges: a pure fold of a Hockey Bones stream (6.40, 17.00).

Imports events only (never the engine). Counting rules (documented in docs/json.md):

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
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import msgspec

from events.bones import SequencePlayed
from events.common import GameCreated, PeriodEnded, PeriodStarted

__all__ = ["PlayerToi", "ShiftLine", "Toi", "ToiFold", "build_toi"]

SEQUENCE_SECONDS = 24
SIDES = ("home", "away")


class PlayerToi(msgspec.Struct, frozen=True):
    team: str
    player: str
    name: str
    position: str
    sequences: int
    shifts: float  # a full shift 1, a half 0.5
    excess: int
    toi: int  # seconds
    toi_ev: int
    toi_pp: int
    toi_sh: int


class ShiftLine(msgspec.Struct, frozen=True):
    team: str
    player: str
    shift: int  # 1.. per player
    period: int  # 4 = overtime
    start: int  # seconds elapsed in the period
    end: int
    duration: int
    charge: float  # 0.5 or 1.0


class Toi(msgspec.Struct, frozen=True):
    game_id: str
    players: list[PlayerToi]
    shifts: list[ShiftLine]

    def to_json(self) -> dict[str, Any]:
        return msgspec.to_builtins(self)


class _Player:
    __slots__ = ("side", "entry", "sequences", "ev", "pp", "sh", "shifts", "stints")

    def __init__(self, side: str, entry: Any) -> None:
        self.side, self.entry = side, entry
        self.sequences = self.ev = self.pp = self.sh = 0
        self.shifts = 0.0
        self.stints: list[tuple[int, int, int]] = []  # (period, first seq, last seq)


class ToiFold:
    """The fold; ``apply`` one event at a time, ``result()`` whenever."""

    def __init__(self) -> None:
        self.created: GameCreated | None = None
        self.players: dict[tuple[str, str], _Player] = {}  # (side, id): ids repeat
        self.order: list[tuple[str, str]] = []
        # The stints running, by side then player: (period, first seq, last seq).
        self.open: dict[str, dict[str, tuple[int, int, int]]] = {s: {} for s in SIDES}
        self.period = 0

    def player(self, side: str, pid: str) -> _Player:
        key = (side, pid)
        p = self.players.get(key)
        if p is None:
            p = self.players[key] = _Player(side, None)
            self.order.append(key)
        return p

    def close_one(self, side: str, pid: str) -> None:
        period, first, last = self.open[side].pop(pid)
        p = self.players[(side, pid)]
        p.stints.append((period, first, last))
        p.shifts += 1.0 if last - first + 1 >= 3 else 0.5

    def close_stints(self) -> None:
        for side, opened in self.open.items():
            for pid in list(opened):
                self.close_one(side, pid)

    def apply(self, e: Any) -> None:
        handler = self.HANDLERS.get(type(e))
        if handler is not None:
            handler(self, e)

    def _sequence_played(self, e: SequencePlayed) -> None:
        if e.period != self.period:
            self.close_stints()
            self.period = e.period
        for side, skaters, goalie, mine, theirs in (
                ("home", e.home, e.home_goalie, e.home_short, e.away_short),
                ("away", e.away, e.away_goalie, e.away_short, e.home_short)):
            kind = "pp" if mine < theirs else "sh" if mine > theirs else "ev"
            for pid in (*skaters, goalie) if goalie else skaters:
                p = self.player(side, pid)
                p.sequences += 1
                if kind == "ev":
                    p.ev += SEQUENCE_SECONDS
                elif kind == "pp":
                    p.pp += SEQUENCE_SECONDS
                else:
                    p.sh += SEQUENCE_SECONDS
            opened = self.open[side]
            for pid in [pid for pid in opened if pid not in skaters]:
                self.close_one(side, pid)  # not listed: his stint ended with the last one
            for pid in skaters:
                stint = opened.get(pid)
                if stint is not None and stint[0] == e.period and stint[2] == e.sequence - 1:
                    opened[pid] = (stint[0], stint[1], e.sequence)
                else:
                    if stint is not None:
                        self.close_one(side, pid)
                    opened[pid] = (e.period, e.sequence, e.sequence)

    def _period_edge(self, e: PeriodStarted | PeriodEnded) -> None:
        self.close_stints()

    def _game_created(self, e: GameCreated) -> None:
        self.created = e
        for side in SIDES:
            for entry in getattr(e, side).roster:
                self.player(side, entry.id).entry = entry

    # The events time on ice reads, each with its handler.
    HANDLERS: ClassVar[dict[type, Callable[[ToiFold, Any], None]]] = {
        SequencePlayed: _sequence_played, PeriodEnded: _period_edge,
        PeriodStarted: _period_edge, GameCreated: _game_created,
    }

    def result(self) -> Toi:
        if self.created is None:
            raise ValueError("time on ice needs the stream's GameCreated event")
        created = self.created
        team = {s: getattr(created, s).team_id for s in SIDES}
        # Stints still open (a stream read up to some event) count as they stand.
        pending = {(side, pid): [stint] for side, opened in self.open.items()
                   for pid, stint in opened.items()}
        players, shifts = [], []
        for key in self.order:
            pid = key[1]
            p = self.players[key]
            stints = p.stints + pending.get(key, [])
            charged = p.shifts + sum(1.0 if b - a + 1 >= 3 else 0.5
                                     for _, a, b in pending.get(key, []))
            entry = p.entry
            position = entry.position if entry is not None else "?"
            rating = entry.shift if entry is not None else 0.0
            excess = max(0, math.floor(charged - rating)) if rating else 0
            if p.sequences == 0 and not stints:
                continue
            players.append(PlayerToi(
                team=team[p.side], player=pid, name=entry.name if entry else pid,
                position=position, sequences=p.sequences, shifts=charged, excess=excess,
                toi=p.ev + p.pp + p.sh, toi_ev=p.ev, toi_pp=p.pp, toi_sh=p.sh))
            for n, (period, first, last) in enumerate(stints, start=1):
                start, end = (first - 1) * SEQUENCE_SECONDS, last * SEQUENCE_SECONDS
                shifts.append(ShiftLine(team=team[p.side], player=pid, shift=n, period=period,
                                        start=start, end=end, duration=end - start,
                                        charge=1.0 if last - first + 1 >= 3 else 0.5))
        side_order = {team["home"]: 0, team["away"]: 1}
        players.sort(key=lambda r: (side_order[r.team], r.position == "G", r.player))
        shifts.sort(key=lambda s: (s.period, s.start, side_order[s.team], s.player))
        return Toi(game_id=created.game_id, players=players, shifts=shifts)


def build_toi(events: Iterable[Any]) -> Toi:
    """Fold a game's events (from its first, ``GameCreated``) into time on ice and shifts."""
    fold = ToiFold()
    handlers = fold.HANDLERS
    for event in events:
        handler = handlers.get(type(event))
        if handler is not None:
            handler(fold, event)
    return fold.result()
