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
from collections.abc import Callable, Iterable
from typing import Any

from events.bones import SequencePlayed
from events.common import GameCreated, PeriodEnded, PeriodStarted
from projections.models.toi import (
    FULL_JSON,
    HALF_JSON,
    PlayerLine,
    PlayerShifts,
    PlayerToi,
    Toi,
    ToiByPlayer,
    toi_by_player,
    toi_of,
)

__all__ = ["ToiFold", "build_toi", "build_toi_by_player"]

SEQUENCE_SECONDS = 24
SIDES = ("home", "away")


class _Player:
    __slots__ = ("side", "entry", "shifts", "stints", "ev", "pp", "sh", "listed_at")

    def __init__(self, side: str, entry: Any) -> None:
        self.side, self.entry = side, entry
        self.shifts = 0.0
        self.stints: list[tuple[int, int, int]] = []  # (period, first seq, last seq)
        # the sequences he is listed in, by strength (a player listed twice counts twice)
        self.ev = self.pp = self.sh = 0
        self.listed_at = 0  # the SequencePlayed, counted from 1, that last listed him


class _Side:
    """One side's players as time on ice follows them: its own attributes, read directly
    in the compiled build, not four dicts keyed by side (``self.open[side]``: a string
    key looked up about a dozen times a sequence: 0.5 M instructions of a game's 8.9 M
    folded, callgrind)."""

    __slots__ = ("name", "players", "open", "last", "run")

    def __init__(self, name: str) -> None:
        self.name = name  # home or away
        self.players: dict[str, _Player] = {}  # by id
        # The stints running, by player: (period, first seq). Every stint running on a
        # side was last listed by the side's latest SequencePlayed (one not listed ends),
        # so their last seq is one number a side, moved once a sequence instead of a
        # stint each.
        self.open: dict[str, tuple[int, int]] = {}
        self.last = 0
        # the skaters as the side's last SequencePlayed listed them, with their records,
        # while every one of them has a stint running and none is listed twice: the next
        # sequence most often lists the same skaters (two sides in three of a game), whose
        # stints then all go on (None: the next list is read skater by skater)
        self.run: tuple[list[str], list[_Player]] | None = None

    def close_one(self, pid: str) -> None:
        period, first = self.open.pop(pid)
        last = self.last
        p = self.players[pid]
        p.stints.append((period, first, last))
        p.shifts += 1.0 if last - first + 1 >= 3 else 0.5


class ToiFold:
    """The fold; ``apply`` one event at a time, ``result()`` whenever."""

    def __init__(self) -> None:
        self.created: GameCreated | None = None
        self.players: dict[tuple[str, str], _Player] = {}  # (side, id): ids repeat
        self.order: list[tuple[str, str]] = []
        self.home, self.away = _Side("home"), _Side("away")
        self.sides: dict[str, _Side] = {"home": self.home, "away": self.away}
        self.period = 0
        self.played = 0  # SequencePlayed events folded

    def player(self, side: str, pid: str) -> _Player:
        key = (side, pid)
        p = self.players.get(key)
        if p is None:
            p = self.players[key] = _Player(side, None)
            self.order.append(key)
            self.sides[side].players[pid] = p
        return p

    def close_stints(self) -> None:
        for s in (self.home, self.away):
            for pid in list(s.open):
                s.close_one(pid)

    def apply(self, e: Any) -> None:
        handler = _HANDLERS.get(type(e))
        if handler is not None:
            handler(self, e)

    def on_sequence_played(self, e: SequencePlayed) -> None:
        period, sequence = e.period, e.sequence
        if period != self.period:
            self.close_stints()
            self.period = period
        self.played += 1
        home_short, away_short = e.home_short, e.away_short
        self._listed(self.home, e.home, e.home_goalie, home_short - away_short, period, sequence)
        self._listed(self.away, e.away, e.away_goalie, away_short - home_short, period, sequence)

    def _listed(self, s: _Side, skaters: list[str], goalie: str | None, fewer: int, period: int,
                sequence: int) -> None:
        """One side of a SequencePlayed: its skaters' and goalie's strength counted
        (``fewer``: how many more of the side are in the box than of the other: PP when
        below 0, SH above), their stints carried on, ended or begun."""
        players, played = s.players, self.played
        opened = s.open
        run = s.run
        if opened and run is not None and s.last == sequence - 1 and skaters == run[0]:
            # The skaters of the sequence before, each one's stint running (a period's edge
            # or a gap in the sequences would have ended them): they all go on, and no id
            # is looked up (0.3 M of a Hockey Bones game's 14.3 M instructions folded).
            for p in run[1]:
                _count(p, fewer)
                p.listed_at = played
            if goalie:
                p = players.get(goalie)
                _count(p if p is not None else self.player(s.name, goalie), fewer)
            s.last = sequence
            return
        for pid in skaters:
            p = players.get(pid)
            if p is None:
                p = self.player(s.name, pid)  # first seen here (not on the roster)
            _count(p, fewer)
            p.listed_at = played
        if goalie:
            p = players.get(goalie)
            _count(p if p is not None else self.player(s.name, goalie), fewer)
        if opened:  # every stint running is of this period (a new one ended them all)
            if s.last == sequence - 1:
                for pid in [pid for pid in opened if players[pid].listed_at != played]:
                    s.close_one(pid)  # not listed: his stint ended last sequence
            else:  # a gap in the sequences: every stint ended with the last one listed
                for pid in list(opened):
                    s.close_one(pid)
        s.last = sequence  # the stints listed again go on to this sequence
        for pid in skaters:
            if pid not in opened:
                opened[pid] = (period, sequence)
        if len(opened) != len(skaters):  # a skater listed twice: each repeat ends his
            seen = set()  # stint at this sequence and starts another one here
            for pid in skaters:
                if pid in seen:
                    s.close_one(pid)
                    opened[pid] = (period, sequence)
                seen.add(pid)
            s.run = None
        else:
            s.run = (skaters, [players[pid] for pid in skaters])

    def on_period_edge(self, e: PeriodStarted | PeriodEnded) -> None:
        self.close_stints()

    def on_game_created(self, e: GameCreated) -> None:
        self.created = e
        for side in SIDES:
            for entry in getattr(e, side).roster:
                self.player(side, entry.id).entry = entry

    def _lines(self, json_charges: bool = False) -> tuple[list[PlayerLine], list[PlayerShifts]]:
        """Each player's line with its sort key, and each player's shifts in their order
        (his shift n the n-th): what :meth:`result` and :meth:`by_player` give (each
        shift's charge a number, or as its JSON: ``json_charges``, CHARGE_JSON)."""
        full: Any = FULL_JSON if json_charges else 1.0
        half: Any = HALF_JSON if json_charges else 0.5
        if self.created is None:
            raise ValueError("time on ice needs the stream's GameCreated event")
        created = self.created
        team = {s: getattr(created, s).team_id for s in SIDES}
        # Stints still open (a stream read up to some event) count as they stand.
        pending = {(s.name, pid): [(period, first, s.last)]
                   for s in (self.home, self.away)
                   for pid, (period, first) in s.open.items()}
        side_order = {team["home"]: 0, team["away"]: 1}
        # each row with its sort key made as it is (the key's last item, its place in the
        # making, keeps rows of an equal key in that order, as a stable sort would)
        players: list[PlayerLine] = []
        shifts: list[PlayerShifts] = []
        for key in self.order:
            side, pid = key
            p = self.players[key]
            ev, pp, sh = p.ev, p.pp, p.sh
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
            team_id = team[side]
            rank = side_order[team_id]
            players.append((rank, position == "G", pid, len(players), PlayerToi(
                team_id, pid, entry.name if entry else pid, position, sequences, charged,
                excess, sequences * SEQUENCE_SECONDS, ev * SEQUENCE_SECONDS,
                pp * SEQUENCE_SECONDS, sh * SEQUENCE_SECONDS)))
            if stints:
                shifts.append((team_id, pid, rank, [
                    ((period, (first - 1) * SEQUENCE_SECONDS, last * SEQUENCE_SECONDS,
                      (last - first + 1) * SEQUENCE_SECONDS,
                      full if last - first + 1 >= 3 else half))
                    for period, first, last in stints]))
        players.sort()
        return players, shifts

    def result(self) -> Toi:
        players, by_player = self._lines()
        assert self.created is not None  # (_lines raised otherwise)
        return toi_of(self.created.game_id, players, by_player)

    def by_player(self) -> ToiByPlayer:
        """:meth:`result`'s players and each one's shifts in his order (what the store
        keeps, projections/store.py), each shift's charge as its JSON."""
        return toi_by_player(*self._lines(json_charges=True))


def _count(p: _Player, fewer: int) -> None:
    """A sequence at his side's strength: even, power play (fewer of his side in the box)
    or short-handed (more)."""
    if fewer == 0:
        p.ev += 1
    elif fewer < 0:
        p.pp += 1
    else:
        p.sh += 1


# The events time on ice reads, each with its handler.
_HANDLERS: dict[type, Callable[[ToiFold, Any], None]] = {
    SequencePlayed: ToiFold.on_sequence_played,
    PeriodEnded: ToiFold.on_period_edge,
    PeriodStarted: ToiFold.on_period_edge,
    GameCreated: ToiFold.on_game_created,
}


def _folded(events: Iterable[Any]) -> ToiFold:
    fold = ToiFold()
    handlers = _HANDLERS
    for event in events:
        handler = handlers.get(type(event))
        if handler is not None:
            handler(fold, event)
    return fold


def build_toi(events: Iterable[Any]) -> Toi:
    """Fold a game's events (from its first, ``GameCreated``) into time on ice and shifts."""
    return _folded(events).result()


def build_toi_by_player(events: Iterable[Any]) -> ToiByPlayer:
    """:func:`build_toi` with each player's shifts kept by player (:meth:`ToiFold.by_player`)."""
    return _folded(events).by_player()
