"""Invariants of a DICE Hockey game, checked event by event over a stored or played game:
what no single rule's test shows, and what a season of seeded games must never break."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.dicehockey import game
from engine.dicehockey.lines import on_ice
from events.common import GameCreated


def boxed_on_ice(created: GameCreated, home: Any, away: Any, charts: Any,
                 events: Iterable[Any]) -> list[str]:
    """15: "Take the player off of his line and place him in the penalty box": every
    moment a player in the box (or out of the game) stands in a slot of his team, the
    extra attacker's included, as "seq N: side SLOT player (why)"."""
    state = game.initial_state(created, home, away, charts)
    found = []
    for seq, event in enumerate(events, 2):
        game.evolve(state, event)
        if state.finished:
            break
        for side in ("home", "away"):
            team = state.team(side)
            if not team.out:
                continue
            for slot, player in on_ice(state, side).items():
                if player is not None and player in team.out:
                    found.append(f"seq {seq}: {side} {slot} {player} ({team.out[player]})")
    return found


def skipped_lines(created: GameCreated, home: Any, away: Any, charts: Any,
                  events: Iterable[Any]) -> list[str]:
    """:class:`Rotation`'s findings over a whole game, event by event."""
    state = game.initial_state(created, home, away, charts)
    watch = Rotation()
    for event in events:
        game.evolve(state, event)
        if state.finished:
            break
        watch.after(state, type(event).__name__)
    return watch.found


class Rotation:
    """9: "You must use all 3 lines regularly" (ruling R-DH-9b): each team's forward lines
    and pairs in the order they have full shifts; every time a rotation line has a second
    full shift before another rotation line had one is a finding, "side forwards|pairs:
    ...". The order starts again where the rules rest every line (a period's end, a time
    out: 9, 12) or take a team out of the rotation (a penalty kill, 15)."""

    def __init__(self) -> None:
        self.runs: dict[tuple[str, str], list[int]] = {}
        self.counted: dict[tuple[str, str], bool] = {}  # the stint had its full shift
        self.current: dict[tuple[str, str], int] = {}  # the line (pair) on the ice
        self.found: list[str] = []

    def after(self, state: Any, event_name: str = "") -> None:
        """Look at the game as an event (named) left it."""
        for side in ("home", "away"):
            team = state.team(side)
            rested = event_name in ("PeriodEnded", "TimeOutCalled") or team.men_short()
            for unit, full, on, regular in (
                    ("forwards", team.f_full(), team.forwards,
                     (1, 2, 3, 4) if team.fourth_in_rotation else (1, 2, 3)),
                    ("pairs", team.d_full(), team.defense, (1, 2, 3))):
                key = (side, unit)
                if rested:
                    self.runs[key], self.counted[key] = [], False
                elif self.current.get(key) != on:  # a new stint
                    self.current[key], self.counted[key] = on, False
                if not rested and full and not self.counted[key] and on in regular:
                    self._shift(state, key, on, regular)

    def _shift(self, state: Any, key: tuple[str, str], on: int,
               regular: tuple[int, ...]) -> None:
        run = self.runs.setdefault(key, [])
        if on in run:
            missing = set(regular) - {on} - set(run[run.index(on) + 1:])
            if missing:
                self.found.append(f"{key[0]} {key[1]}: {on} again before {sorted(missing)} "
                                  f"(period {state.period} space {state.space})")
            del run[:run.index(on) + 1]
        run.append(on)
        self.counted[key] = True


def goal_spaces_off(events: Iterable[Any]) -> list[str]:
    """9, 12: a goal's recorded space against the spaces counted so far in its period
    (what the scoresheet prints): every goal that says another, as "period P space S
    (counted C)". A version-1 game has them (one short on a possession's first shot)."""
    counted, found = 0, []
    for event in events:
        name = type(event).__name__
        if name == "PeriodStarted":
            counted = 0
        elif name == "TimingSpaceCounted":
            counted = event.space
        elif name == "GoalScored" and event.space != counted:
            found.append(f"goal period {event.period} space {event.space} (counted {counted})")
    return found
