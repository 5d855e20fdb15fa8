"""Time on ice and shifts of a DICE Hockey game, in timing spaces: a pure fold into the
shared ``Toi``.

Counting rules (docs/json.md, "DICE Hockey"):

- time on ice is counted in timing spaces (22 Timing: "time on ice is counted in timing
  spaces"): every ``TimingSpaceCounted`` is one space for each skater in its
  ``home_on_ice`` / ``away_on_ice`` list (each player once) and for the goalie in net
  (not pulled, 22); ``sequences`` and ``toi`` are both that count;
- the space is EV, PP or SH for a team by the men short when it is counted (15: one per
  running penalty that makes the team short, at most two);
- a shift is a run of consecutive spaces of a period a skater is on the ice for; a line
  is due off after two timing spaces (9), so a shift of two spaces or more is charged 1, a
  one-space shift 0.5. ``start``/``end`` are the spaces counted before the shift's first
  space and after its last, ``duration`` its spaces;
- ``excess`` is 0: DICE Hockey cards have no shift rating (stamina A/B, 11, limits the
  lines a player may skate on, not his shifts). Goalies are charged no shifts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from events.common import PeriodEnded, PeriodStarted
from events.dicehockey import TimingSpaceCounted
from projections.dicehockey.ice import SIDES, Ice, fold_with_ice, unique
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

__all__ = ["FULL_SHIFT", "ToiFold", "build_toi", "build_toi_by_player", "charge"]

FULL_SHIFT = 2  # 9: "A line change must be made after two timing spaces"


def charge(spaces: int) -> float:
    return 1.0 if spaces >= FULL_SHIFT else 0.5


class _Player:
    __slots__ = ("spaces", "ev", "pp", "sh", "stints", "listed_at")

    def __init__(self) -> None:
        self.spaces = self.ev = self.pp = self.sh = 0
        self.stints: list[tuple[int, int, int]] = []  # (period, first space, last space)
        self.listed_at = 0  # the TimingSpaceCounted, counted from 1, that last listed him


class ToiFold:
    """The fold; ``apply`` one event at a time, ``result()`` whenever."""

    def __init__(self, ice: Ice | None = None) -> None:
        self.ice = Ice() if ice is None else ice  # another fold's, followed by it
        self.players: dict[tuple[str, str], _Player] = {}  # (side, id): ids may repeat
        self.side_players: dict[str, dict[str, _Player]] = {side: {} for side in SIDES}
        # the stints running, by side then player: (period, first space, last space)
        self.open: dict[str, dict[str, tuple[int, int, int]]] = {side: {} for side in SIDES}
        self.counted = 0  # TimingSpaceCounted events folded

    def apply(self, event: Any) -> None:
        self.ice.apply(event)
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def player(self, side: str, pid: str) -> _Player:
        p = self.side_players[side].get(pid)
        if p is None:
            p = self.players[(side, pid)] = self.side_players[side][pid] = _Player()
        return p

    def close(self, side: str, pid: str) -> None:
        self.side_players[side][pid].stints.append(self.open[side].pop(pid))

    def on_space(self, e: TimingSpaceCounted) -> None:
        self.counted += 1
        self._listed("home", unique(e.home_on_ice), e.period, e.space)
        self._listed("away", unique(e.away_on_ice), e.period, e.space)

    def _listed(self, side: str, skaters: list[str], period: int, space: int) -> None:
        """One side of a timing space: its skaters' and goalie's strength counted, their
        stints carried on, ended or begun."""
        kind = self.ice.strength(side)
        goalie = self.ice.in_net(side)
        counted = self.counted
        opened, players = self.open[side], self.side_players[side]
        for pid in skaters:
            p = players.get(pid)  # his record by id, the side's dict read once a side
            if p is None:
                p = self.player(side, pid)
            _count(p, kind)
            p.listed_at = counted
        if goalie:
            p = players.get(goalie)
            _count(p if p is not None else self.player(side, goalie), kind)
        for pid in [pid for pid in opened if players[pid].listed_at != counted]:
            self.close(side, pid)  # not on the ice this space: his shift ended
        for pid in skaters:
            stint = opened.get(pid)
            if stint is not None and stint[0] == period and stint[2] == space - 1:
                opened[pid] = (stint[0], stint[1], space)
            else:
                if stint is not None:
                    self.close(side, pid)
                opened[pid] = (period, space, space)

    def on_period_edge(self, e: PeriodStarted | PeriodEnded) -> None:
        for side in SIDES:
            for pid in list(self.open[side]):
                self.close(side, pid)

    def _lines(self, json_charges: bool = False) -> tuple[list[PlayerLine], list[PlayerShifts]]:
        """Each player's line with its sort key, and each player's shifts in their order
        (his shift n the n-th): what :meth:`result` and :meth:`by_player` give (each
        shift's charge a number, or as its JSON: ``json_charges``, CHARGE_JSON)."""
        full: Any = FULL_JSON if json_charges else 1.0
        half: Any = HALF_JSON if json_charges else 0.5
        ice = self.ice
        created = ice.created
        if created is None:
            raise ValueError("time on ice needs the stream's GameCreated event")
        entries = {(side, r.id): r for side in SIDES for r in getattr(created, side).roster}
        side_order = {ice.team["home"]: 0, ice.team["away"]: 1}
        # each row with its sort key made as it is (the key's last item, its place in the
        # making, keeps rows of an equal key in that order, as a stable sort would)
        players: list[PlayerLine] = []
        shifts: list[PlayerShifts] = []
        for key, p in self.players.items():
            side, pid = key
            running = self.open[side].get(pid)
            stints = p.stints + ([running] if running is not None else [])
            entry = entries.get(key)
            team_id = ice.team[side]
            rank = side_order[team_id]
            position = entry.position if entry else "?"
            players.append((rank, position == "G", pid, len(players), PlayerToi(
                team_id, pid, entry.name if entry else pid, position, p.spaces,
                sum(charge(last - first + 1) for _, first, last in stints), 0, p.spaces,
                p.ev, p.pp, p.sh)))
            if stints:
                shifts.append((team_id, pid, rank, [
                    (period, first - 1, last, last - first + 1,
                     full if last - first + 1 >= FULL_SHIFT else half)  # charge(), 9
                    for period, first, last in stints]))
        players.sort()
        return players, shifts

    def result(self) -> Toi:
        players, by_player = self._lines()
        assert self.ice.created is not None  # (_lines raised otherwise)
        return toi_of(self.ice.created.game_id, players, by_player)

    def by_player(self) -> ToiByPlayer:
        """:meth:`result`'s players and each one's shifts in his order (what the store
        keeps, projections/store.py), each shift's charge as its JSON."""
        return toi_by_player(*self._lines(json_charges=True))


def _count(p: _Player, kind: str) -> None:
    p.spaces += 1
    if kind == "ev":  # not setattr by name: a compiled class reads its slots
        p.ev += 1
    elif kind == "pp":
        p.pp += 1
    else:
        p.sh += 1


_HANDLERS: Final[dict[type, Callable[[ToiFold, Any], None]]] = {
    TimingSpaceCounted: ToiFold.on_space,
    PeriodStarted: ToiFold.on_period_edge,
    PeriodEnded: ToiFold.on_period_edge,
}


def build_toi(events: Iterable[Any]) -> Toi:
    """Fold a DICE Hockey game's events (from its first) into time on ice and shifts."""
    fold = ToiFold()
    fold_with_ice(fold, fold.ice, _HANDLERS, events)
    return fold.result()


def build_toi_by_player(events: Iterable[Any]) -> ToiByPlayer:
    """:func:`build_toi` with each player's shifts kept by player (:meth:`ToiFold.by_player`)."""
    fold = ToiFold()
    fold_with_ice(fold, fold.ice, _HANDLERS, events)
    return fold.by_player()
