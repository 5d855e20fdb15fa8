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
