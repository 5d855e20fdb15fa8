"""Where a DICE Hockey game stands after each event, as every DICE Hockey fold needs it:
the period and its timing spaces, the men short, and who is in net.

- ``space`` is the timing spaces counted so far in the period (12; 22 Timing), 0 before
  the first; a goal or penalty is placed at the space count when it happens;
- a team is one man short per running penalty with ``short`` (minors, double minors,
  majors: 15), at most two (15: 5 on 3 is the most). A penalty runs from its
  ``PenaltyAssessed`` to the ``PenaltyEnded`` with no clears left (a double minor's
  ``PenaltyEnded`` after a goal with ``clears_left`` 2 leaves its second half running, 15);
- each team has one goalie of record (10: ``GameCreated.*_goalie``, else the first goalie
  of its roster, corrected by any event that names him); he is out of net while pulled
  for an extra attacker (22: ``GoalieChanged.pulled``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from events.common import GameCreated, PeriodStarted, other_side
from events.dicehockey import (
    GoalieChanged,
    PenaltyAssessed,
    PenaltyEnded,
    PeriodLengthSet,
    ShootoutAttempt,
    ShotTaken,
    TimeOutCalled,
    TimingSpaceCounted,
)
from projections.models.penalties import strength_label
from projections.models.times import Unit

__all__ = ["MAX_SHORT", "SIDES", "TIMING_SPACES", "Ice", "fold_with_ice", "unique"]

SIDES = ("home", "away")
MAX_SHORT = 2  # 15: "If another penalty occurs and you are now 5-3"


def _count(value: int | None) -> str:
    return "-" if value is None else str(value)


TIMING_SPACES = Unit(name="timing_spaces", show=_count, json=int, label="Space",
                     toi_label="Spaces")
"""DICE Hockey's time (12; 22 Timing): timing spaces, shown and in the JSON as the number;
a state's count of them is the time, and a period is as long as the game sets it (its
timing ratings added), so a page makes it as long as the latest space it saw."""


def unique(players: list[str]) -> list[str]:
    """An on-ice list with each player once (an extra attacker may be listed twice): the
    list itself when no one is listed twice (read, never changed: a new list only for a
    repeat). Each pair of a list's five or six compared, not a dict made of them, which
    hashed every id (strings decoded afresh): 0.53 -> 0.13 M instructions of a game folded,
    two lists a timing space (callgrind)."""
    for i in range(1, len(players)):
        pid = players[i]
        for j in range(i):
            if players[j] == pid:
                return list(dict.fromkeys(players))
    return players


class Ice:
    """The game's state as the read models see it; ``apply`` every event in order."""

    def __init__(self) -> None:
        self.created: GameCreated | None = None
        self.names: dict[str, str] = {}
        self.team: dict[str, str] = {}
        self.period = 0
        self.space = 0
        self.lengths: dict[int, int] = {}  # period -> timing spaces (12, 13)
        self.short: dict[str, list[int]] = {s: [] for s in SIDES}  # running man-short ids
        self.goalie: dict[str, str | None] = {s: None for s in SIDES}
        self.pulled: dict[str, bool] = {s: False for s in SIDES}
        # each side's strength by the men short (``strength``), worked out when a penalty
        # starts or ends, not at each of the many asks between (two a timing space)
        self.strengths: dict[str, str] = dict.fromkeys(SIDES, "ev")

    def apply(self, event: Any) -> None:
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    # --- questions ---------------------------------------------------------------------

    def name(self, player: str) -> str:
        return self.names.get(player, player)

    def men_short(self, side: str) -> int:
        return min(MAX_SHORT, len(self.short[side]))

    def strength(self, side: str) -> str:
        """``ev``, ``pp`` or ``sh`` for ``side`` by the men short (15)."""
        return self.strengths[side]

    def _restrength(self) -> None:
        """Each side's strength again, the men short having changed."""
        for side in SIDES:
            mine, theirs = self.men_short(side), self.men_short(other_side(side))
            self.strengths[side] = "pp" if mine < theirs else "sh" if mine > theirs else "ev"

    def label(self, side: str) -> str:
        """``"5v4"``: skaters by penalties alone (a pulled goalie not counted)."""
        return strength_label(self.men_short(side), self.men_short(other_side(side)))

    def in_net(self, side: str) -> str | None:
        return None if self.pulled[side] else self.goalie[side]

    def regulation_spaces(self) -> int:
        """Timing spaces of the three regulation periods (12), as far as they are known."""
        first = self.lengths.get(1, 0)
        return sum(self.lengths.get(p, first) for p in (1, 2, 3))

    # --- events ------------------------------------------------------------------------

    def on_created(self, e: GameCreated) -> None:
        self.created = e
        for side in SIDES:
            sheet = getattr(e, side)
            self.team[side] = sheet.team_id
            self.names.update((r.id, r.name) for r in sheet.roster)
            chosen = getattr(e, f"{side}_goalie")
            self.goalie[side] = chosen or next(
                (r.id for r in sheet.roster if r.position == "G"), None)

    def on_period(self, e: PeriodStarted) -> None:
        self.period, self.space = e.period, 0

    def on_length(self, e: PeriodLengthSet) -> None:
        self.lengths[e.period] = e.length

    def on_time_out(self, e: TimeOutCalled) -> None:
        self.lengths[self.period] = e.period_length  # 12: a time out may add a space

    def on_space(self, e: TimingSpaceCounted) -> None:
        self.period, self.space = e.period, e.space

    def on_assessed(self, e: PenaltyAssessed) -> None:
        if e.short:
            self.short[e.side].append(e.id)
            self._restrength()

    def on_ended(self, e: PenaltyEnded) -> None:
        if e.clears_left == 0 and e.id in self.short[e.side]:
            self.short[e.side].remove(e.id)
            self._restrength()

    def on_goalie_changed(self, e: GoalieChanged) -> None:
        self.goalie[e.side], self.pulled[e.side] = e.goalie, e.pulled

    def on_faced(self, e: ShotTaken | ShootoutAttempt) -> None:
        if e.goalie is not None:
            self.goalie[other_side(e.side)] = e.goalie


# Final: compiled, a C static, not a read of the module's globals (a dict) each event
_HANDLERS: Final[dict[type, Callable[[Ice, Any], None]]] = {
    GameCreated: Ice.on_created,
    PeriodStarted: Ice.on_period,
    PeriodLengthSet: Ice.on_length,
    TimeOutCalled: Ice.on_time_out,
    TimingSpaceCounted: Ice.on_space,
    PenaltyAssessed: Ice.on_assessed,
    PenaltyEnded: Ice.on_ended,
    GoalieChanged: Ice.on_goalie_changed,
    ShotTaken: Ice.on_faced,
    ShootoutAttempt: Ice.on_faced,
}


def fold_with_ice(fold: Any, ice: Ice, handlers: dict[type, Any], events: Iterable[Any]) -> None:
    """Fold ``events`` into ``fold`` (its ``handlers`` by event type) with ``ice``, the
    fold's own, brought up to each event first: what ``fold.apply`` does an event at a
    time, in one loop with two look-ups an event instead of two method calls each reading
    its module's table (every DICE Hockey fold keeps an ice of its own: four a game).
    1.8 M of a DICE Hockey game's 15.6 M instructions folded, its four folds (callgrind)."""
    steps = _HANDLERS
    for event in events:
        kind = type(event)
        step = steps.get(kind)
        if step is not None:
            step(ice, event)
        handler = handlers.get(kind)
        if handler is not None:
            handler(fold, event)
