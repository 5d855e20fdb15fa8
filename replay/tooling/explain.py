"""Why an event happened, in words: its roll, the card cell, modifiers, totals, the rule.

:func:`explain` folds the stream up to the event (the state before it) with the game
system's ``evolve`` and asks the system's explainer for the words; decision events carry
the ``n`` of the roll they used and their rule section. :func:`describe` is the one-line
wording ``rinklog play`` prints after each roll. System-blind: the words live with each
system (engine/<system>/explain.py), found through the registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from engine.systems import SEASON_SYSTEMS, system_of
from events.base import Event
from events.common import GameCreated
from events.errors import RinklogError
from events.store import EventStore
from replay.tooling.games import load_inputs, read_stream


@dataclass(frozen=True)
class Explanation:
    """An event and why it happened: ``text`` is the line ``rinklog explain`` prints."""

    game_id: str
    seq: int
    event: Event
    roll: Any  # the system's roll, or None
    roll_json: dict[str, Any] | None
    text: str

    def to_json(self) -> dict[str, Any]:
        rule = getattr(self.event, "rule", "")
        return {"game_id": self.game_id, "seq": self.seq, "type": type(self.event).__name__,
                "rule": rule if isinstance(rule, str) and rule else None,
                "roll": self.roll_json,
                "event": msgspec.to_builtins(self.event), "explanation": self.text}


def explain(store: EventStore, game_id: str, seq: int) -> Explanation:
    """Event ``seq`` of a game (or a refereed season) with the roll it used (if any) and
    the words for why."""
    events = read_stream(store, game_id)
    if not 1 <= seq <= len(events):
        raise RinklogError(f"{game_id} has events 1..{len(events)}, not {seq}")
    created = events[0]
    season_system = store.info(game_id).system
    if season_system in SEASON_SYSTEMS:
        return _explain_season(SEASON_SYSTEMS[season_system], game_id, events, seq)
    assert isinstance(created, GameCreated)
    if seq == 1:
        return Explanation(game_id, 1, created, None, None, (
            f"seq 1 GameCreated: {created.home.team_id} (home) v {created.away.team_id} "
            f"(away), ruleset {created.ruleset} v{created.ruleset_version}, "
            f"{created.dice} dice" + (f" seed {created.seed!r}" if created.seed else "")
            + f"; cards {created.home.card_hash[:8]}…/{created.away.card_hash[:8]}…, "
            f"charts {created.charts_hash[:8]}… (the game's inputs)" + "".join(
                f"; not dressed: {a.team} {a.player} (out from season game {a.game}, "
                f"rule {a.rule})" for a in created.absent or [])))
    system = system_of(created.ruleset)
    state = system.initial_state(created, *load_inputs(store, created))
    for event in events[1:seq - 1]:
        system.evolve(state, event)
    rolls = {e.n: e.roll for e in events[:seq] if isinstance(e, system.roll_event)}
    event = events[seq - 1]
    n = getattr(event, "roll", None)
    roll = event.roll if isinstance(event, system.roll_event) \
        else rolls.get(n) if isinstance(n, int) else None
    return Explanation(game_id, seq, event, roll,
                       None if roll is None else system.roll_json(roll),
                       f"seq {seq} {type(event).__name__}: " + system.why(state, event, rolls))


def _explain_season(system: Any, season_id: str, events: list[Event], seq: int) -> Explanation:
    """A refereed season's event: the season folded up to it, the dice it used."""
    state = system.initial_state(events[0])
    for event in events[1:seq - 1]:
        system.evolve(state, event)
    dice = {e.n: e for e in events[:seq] if isinstance(e, system.roll_event)}
    event = events[seq - 1]
    used = [msgspec.to_builtins(dice[n]) for n in getattr(event, "rolls", []) if n in dice]
    text = (f"seq {seq} {type(event).__name__}: "
            + (f"{event.league}, season {event.season}, seed {event.seed!r}" if seq == 1
               else system.why(state, event, dice)))
    return Explanation(season_id, seq, event, used or None, {"dice": used} if used else None,
                       text)


def explain_event(store: EventStore, game_id: str, seq: int) -> str:
    """The line ``rinklog explain`` prints for event ``seq``."""
    return explain(store, game_id, seq).text


def describe(created: GameCreated, state: Any, event: Event) -> str | None:
    """One human line for ``rinklog play`` (None for events not worth a line), in the
    words of the game's system."""
    return system_of(created.ruleset).describe(state, event)
