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
from typing import Any

from events.common import PeriodEnded, PeriodStarted
from events.dicehockey import TimingSpaceCounted
from projections.dicehockey.ice import SIDES, Ice, unique
from projections.models.toi import PlayerToi, ShiftLine, Toi

__all__ = ["FULL_SHIFT", "ToiFold", "build_toi", "charge"]

FULL_SHIFT = 2  # 9: "A line change must be made after two timing spaces"


def charge(spaces: int) -> float:
    return 1.0 if spaces >= FULL_SHIFT else 0.5


class _Player:
    __slots__ = ("spaces", "ev", "pp", "sh", "stints")

    def __init__(self) -> None:
        self.spaces = self.ev = self.pp = self.sh = 0
        self.stints: list[tuple[int, int, int]] = []  # (period, first space, last space)


class ToiFold:
    """The fold; ``apply`` one event at a time, ``result()`` whenever."""

    def __init__(self) -> None:
        self.ice = Ice()
        self.players: dict[tuple[str, str], _Player] = {}  # (side, id): ids may repeat
        self.open: dict[tuple[str, str], tuple[int, int, int]] = {}

    def apply(self, event: Any) -> None:
        self.ice.apply(event)
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def player(self, side: str, pid: str) -> _Player:
        key = (side, pid)
        p = self.players.get(key)
        if p is None:  # not setdefault: it would make a _Player every timing space
            p = self.players[key] = _Player()
        return p

    def close(self, key: tuple[str, str]) -> None:
        self.players[key].stints.append(self.open.pop(key))

    def _space(self, e: TimingSpaceCounted) -> None:
        for side, listed in (("home", e.home_on_ice), ("away", e.away_on_ice)):
            skaters = unique(listed)
            kind = self.ice.strength(side)
            goalie = self.ice.in_net(side)
            for pid in [*skaters, *([goalie] if goalie else [])]:
                p = self.player(side, pid)
                p.spaces += 1
                if kind == "ev":  # not setattr by name: a compiled class reads its slots
                    p.ev += 1
                elif kind == "pp":
                    p.pp += 1
                else:
                    p.sh += 1
            for key in [k for k in self.open if k[0] == side and k[1] not in skaters]:
                self.close(key)
            for pid in skaters:
                key = (side, pid)
                stint = self.open.get(key)
                if stint is not None and stint[0] == e.period and stint[2] == e.space - 1:
                    self.open[key] = (stint[0], stint[1], e.space)
                else:
                    if stint is not None:
                        self.close(key)
                    self.open[key] = (e.period, e.space, e.space)

    def _period_edge(self, e: PeriodStarted | PeriodEnded) -> None:
        for key in list(self.open):
            self.close(key)

    def result(self) -> Toi:
        ice = self.ice
        created = ice.created
        if created is None:
            raise ValueError("time on ice needs the stream's GameCreated event")
        entries = {(side, r.id): r for side in SIDES for r in getattr(created, side).roster}
        players, shifts = [], []
        for key, p in self.players.items():
            side, pid = key
            stints = p.stints + ([self.open[key]] if key in self.open else [])
            entry = entries.get(key)
            players.append(PlayerToi(
                team=ice.team[side], player=pid, name=entry.name if entry else pid,
                position=entry.position if entry else "?", sequences=p.spaces,
                shifts=sum(charge(last - first + 1) for _, first, last in stints), excess=0,
                toi=p.spaces, toi_ev=p.ev, toi_pp=p.pp, toi_sh=p.sh))
            for n, (period, first, last) in enumerate(stints, start=1):
                shifts.append(ShiftLine(team=ice.team[side], player=pid, shift=n,
                                        period=period, start=first - 1, end=last,
                                        duration=last - first + 1,
                                        charge=charge(last - first + 1)))
        side_order = {ice.team["home"]: 0, ice.team["away"]: 1}
        players.sort(key=lambda r: (side_order[r.team], r.position == "G", r.player))
        shifts.sort(key=lambda s: (s.period, s.start, side_order[s.team], s.player))
        return Toi(game_id=created.game_id, players=players, shifts=shifts)


_HANDLERS: dict[type, Callable[[ToiFold, Any], None]] = {
    TimingSpaceCounted: ToiFold._space,
    PeriodStarted: ToiFold._period_edge,
    PeriodEnded: ToiFold._period_edge,
}


def build_toi(events: Iterable[Any]) -> Toi:
    """Fold a DICE Hockey game's events (from its first) into time on ice and shifts."""
    fold = ToiFold()
    for event in events:
        fold.apply(event)
    return fold.result()
