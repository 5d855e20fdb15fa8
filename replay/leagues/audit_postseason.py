"""The audit's check of a season's draft lottery (Hockey Bones draft league rule 31,
issue 22).

:func:`lottery` re-draws the lottery the season stream records from what it was drawn
from: the final standings, the playoff teams (``replay.leagues.postseason.playoff_teams``
of the events before it) and the league's previous first pick. Its LotteryOpened must be
``engine.league.lottery.open_lottery``'s; a seeded lottery's rolls must equal their
derivation from the season's seed (``seeded_lottery_roll(seed, "lottery")``), a typed
one's are taken as recorded; every LotteryDraw must be the placement the rules make with
that roll (the two-spot limit, no first pick twice) and LotteryOrderSet the order the
draws give. :func:`lottery_in_store` gathers those inputs from a database; the audit of a
season stream (``audit SEASON``, ``audit --all``) calls it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.league.lottery import (
    evolve_lottery,
    next_draw,
    open_lottery,
    place,
    seeded_lottery_roll,
)
from events.errors import RinklogError
from events.odds import OddsRunReplayed
from events.plurals import counted
from events.postseason import LotteryDraw, LotteryOpened, LotteryOrderSet
from events.store import EventStore
from replay.leagues.audit_season import Finding
from replay.leagues.postseason import (
    LOTTERY_ID,
    final_standings,
    missing_regular_games,
    playoff_teams,
    previous_first_pick,
)

__all__ = ["CHECK", "RULE", "lottery", "lottery_in_store"]

CHECK = "lottery"
RULE = "Hockey Bones draft league rule 31"

_LOTTERY = (LotteryOpened, LotteryDraw, LotteryOrderSet)


def _show(event: Any) -> str:
    if isinstance(event, LotteryDraw):
        roll = f"roll {event.roll} of {event.sides}" if event.sides else "no roll"
        return f"pick {event.pick} to {event.team} ({event.how}, {roll})"
    if isinstance(event, LotteryOrderSet):
        return f"order {', '.join(event.order)}"
    return type(event).__name__


def lottery(events: Sequence[Any], table: list[str], previous_first: str,
            seed: str) -> Finding | None:
    """The season stream's lottery (``events``: the whole stream) against rule 31 drawn
    again from ``table`` (the final standings) and ``previous_first``."""
    at = next((i for i, e in enumerate(events) if isinstance(e, _LOTTERY)), None)
    if at is None:
        return None
    opened = events[at]
    if not isinstance(opened, LotteryOpened):
        return Finding(CHECK, at + 1, "LotteryOpened first", type(opened).__name__, RULE)
    try:
        want = open_lottery(table, playoff_teams(events[:at], table), previous_first)
    except RinklogError as err:
        return Finding(CHECK, at + 1, "a lottery the final standings allow", str(err), RULE)
    if (want.entries, want.previous_first, want.playoff_teams) != (
            opened.entries, opened.previous_first, opened.playoff_teams):
        return Finding(CHECK, at + 1, f"teams {[e.team for e in want.entries]}, previous "
                       f"first pick {want.previous_first!r}, playoff teams "
                       f"{want.playoff_teams} (final standings, rule 31)",
                       f"teams {[e.team for e in opened.entries]}, previous first pick "
                       f"{opened.previous_first!r}, playoff teams {opened.playoff_teams}", RULE)
    state = evolve_lottery(None, opened)
    seeded = seeded_lottery_roll(seed, LOTTERY_ID)
    queue: list[Any] = []
    used = 0
    for seq, event in enumerate(events[at + 1:], at + 2):
        if not isinstance(event, _LOTTERY):
            continue
        if not queue:
            step = next_draw(state)
            if step is None:
                return Finding(CHECK, seq, "nothing after the LotteryOrderSet", _show(event),
                               RULE)
            roll = event.roll if isinstance(event, LotteryDraw) else None
            if step.sides:
                used += 1
                if opened.dice == "seeded":
                    derived = seeded(used, step.sides)
                    if roll != derived:
                        return Finding(CHECK, seq, f"seeded roll {used} of the lottery: "
                                       f"{derived} of {step.sides}", f"{roll}", RULE)
            try:
                queue = place(state, roll if step.sides else None)
            except RinklogError as err:
                return Finding(CHECK, seq, f"pick {step.pick} by rule 31", str(err), RULE)
        expected = queue.pop(0)
        if event != expected:
            return Finding(CHECK, seq, _show(expected), _show(event), RULE)
        state = evolve_lottery(state, event)
    if queue or next_draw(state) is not None or not state.order:
        return Finding(CHECK, len(events), "a whole lottery (every pick, then the order)",
                       f"{counted(len(state.picks), 'pick')} and no order", RULE)
    return None


def lottery_in_store(store: EventStore, season_id: str, events: Sequence[Any]
                     ) -> Finding | None:
    """:func:`lottery` of a stored season stream: its standings and its league's previous
    first pick read from ``store`` (nothing is written)."""
    opened = next((i for i, e in enumerate(events) if isinstance(e, _LOTTERY)), None)
    if opened is None:
        return None
    created = events[0]
    missing = missing_regular_games(store, created)
    if missing:
        return Finding(CHECK, opened + 1, "a lottery after the regular season (rule 31: "
                       "final standings)", f"{counted(len(missing), 'game')} not played yet", RULE)
    # drawn after an odds run replayed into the season: that run's dice (docs/odds.md)
    replayed = next((e for e in events[:opened] if isinstance(e, OddsRunReplayed)), None)
    return lottery(events, final_standings(store, season_id),
                   previous_first_pick(store, season_id),
                   created.seed if replayed is None else replayed.run_seed)
