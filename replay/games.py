"""Games in a database: simulate one into a stream, and load one back to replay it.

This is the layer between the pure rules (engine/) and the store (events/): it builds
the first event from the fixtures, keeps the cards and charts a game used as
content-addressed blobs, runs the engine's loop with a dice source and a coach, and
appends the whole game in one transaction.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import msgspec

from engine.bones.cards import Charts, Team
from engine.bones.coach import DefaultCoach
from engine.bones.game import evolve, initial_state, play
from engine.bones.rulesets import find_ruleset
from engine.bones.state import GameState
from engine.dice import DiceSource, ManualDice, SeededDice
from events.base import Event
from events.bones import BonesEvent
from events.common import GameCreated, GameEnded, RosterEntry, TeamSheet
from events.errors import RinklogError, UnknownGame
from events.store import EventStore, blob_hash
from replay.library import default_charts, find_team

CARD_MEDIA = "application/x-rinklog-team+json"
CHART_MEDIA = "application/x-rinklog-charts+json"
_canonical = msgspec.json.Encoder(order="deterministic")


def open_store(path: str | Path) -> EventStore:
    return EventStore(path, event_type=BonesEvent)


def game_id_for(home: str, away: str, seed: str | None, rolls_text: str | None = None) -> str:
    """A game id derived from the inputs, so the same command writes the same stream."""
    if rolls_text is not None:
        digest = hashlib.blake2b(rolls_text.encode(), digest_size=4).hexdigest()
        return f"{home}-{away}-m{digest}"
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", str(seed)).strip("-") or "seed"
    return f"{home}-{away}-{slug}"


def _sheet(team: Team, card_hash: str) -> TeamSheet:
    roster = [RosterEntry(id=s.id, name=s.name, position=s.positions[0], shift=s.shift)
              for s in team.skaters]
    roster += [RosterEntry(id=g.id, name=g.name, position="G") for g in team.goalies]
    return TeamSheet(team_id=team.id, name=team.name, card_hash=card_hash, roster=roster)


@dataclass(frozen=True)
class GameResult:
    game_id: str
    home: str
    away: str
    home_goals: int
    away_goals: int
    decided: str
    events: int
    head_hash: str

    def to_json(self) -> dict:
        return {"game_id": self.game_id, "home": self.home, "away": self.away,
                "score": {"home": self.home_goals, "away": self.away_goals},
                "decided": self.decided, "events": self.events, "head_hash": self.head_hash}


def simulate(store: EventStore, home_id: str, away_id: str, *, seed: str | None = None,
             rolls: Iterable[str] | None = None, rolls_origin: str = "rolls",
             game_id: str | None = None, fixtures: str | Path | None = None,
             ruleset: str = "bones", dice: DiceSource | None = None) -> GameResult:
    """Play a whole game and append it as one stream; nothing is written on an error.

    Dice come from ``seed`` (seeded), ``rolls`` (typed lines, e.g. a file) or ``dice``
    (any source, such as a person typing at a prompt).
    """
    home, away = find_team(home_id, fixtures), find_team(away_id, fixtures)
    if home.id == away.id:
        raise RinklogError(f"a team cannot play itself: {home.id}")
    shared = {c.id for c in [*home.skaters, *home.goalies]} & {
        c.id for c in [*away.skaters, *away.goalies]}
    if shared:
        # Events name players by id, so a game needs ids unique across both teams.
        raise RinklogError(f"{home.id} and {away.id} share player ids: {', '.join(sorted(shared))}")
    charts = default_charts(fixtures)
    rolls_list = list(rolls) if rolls is not None else None
    if rolls_list is None and seed is None and dice is None:
        raise RinklogError("give a --seed for seeded dice or --rolls FILE for typed dice")
    if dice is not None and game_id is None:
        count = 1 + sum(1 for s in store.streams() if s.stream.startswith(f"{home.id}-{away.id}-live"))
        game_id = f"{home.id}-{away.id}-live{count}"
    rolls_text = "\n".join(rolls_list) if rolls_list is not None else None
    game_id = game_id or game_id_for(home.id, away.id, seed, rolls_text)
    if store.exists(game_id):
        raise RinklogError(f"game {game_id} is already in the database; pick another --game-id")
    if dice is None:
        dice = (ManualDice(rolls_list, rolls_origin) if rolls_list is not None
                else SeededDice(str(seed), game_id))
    manual = rolls_list is not None or seed is None
    rules = find_ruleset(ruleset)
    home_bytes, away_bytes = _canonical.encode(home), _canonical.encode(away)
    chart_bytes = _canonical.encode(charts)
    created = GameCreated(
        game_id=game_id, ruleset=rules.name, ruleset_version=rules.version,
        home=_sheet(home, blob_hash(home_bytes)),
        away=_sheet(away, blob_hash(away_bytes)),
        charts_hash=blob_hash(chart_bytes),
        dice="manual" if manual else "seeded",
        seed=None if manual else str(seed),
    )
    events: list[Event] = [created]
    state = initial_state(created, home, away, charts)
    play(state, dice, DefaultCoach(), events.append)
    end = events[-1]
    assert isinstance(end, GameEnded)
    meta = {"home": home.id, "away": away.id, "home_goals": end.home_goals,
            "away_goals": end.away_goals, "decided": end.decided, "ruleset": rules.name}
    # Blobs only once the game is whole: a failed game leaves no trace in the database.
    store.put_blob(home_bytes, CARD_MEDIA)
    store.put_blob(away_bytes, CARD_MEDIA)
    store.put_blob(chart_bytes, CHART_MEDIA)
    store.append(game_id, events, expected_version=0, kind="game", meta=meta)
    return GameResult(game_id, home.id, away.id, end.home_goals, end.away_goals, end.decided,
                      len(events), store.head_hash(game_id))


def load_inputs(store: EventStore, created: GameCreated) -> tuple[Team, Team, Charts]:
    """The exact cards and charts a game was played with, from the database's blobs."""
    home = msgspec.json.decode(store.get_blob(created.home.card_hash), type=Team)
    away = msgspec.json.decode(store.get_blob(created.away.card_hash), type=Team)
    charts = msgspec.json.decode(store.get_blob(created.charts_hash), type=Charts)
    return home, away, charts


def read_game(store: EventStore, game_id: str) -> list[Event]:
    if not store.exists(game_id):
        known = ", ".join(s.stream for s in store.streams()[:5])
        raise UnknownGame(f"no game {game_id!r} in this database" +
                          (f" (games: {known}...)" if known else " (it holds no games)"))
    return [row.event for row in store.iter_events(game_id)]


def rebuild_state(store: EventStore, events: list[Event]) -> GameState:
    """Fold a stream's events into the engine state at its end."""
    created = events[0]
    assert isinstance(created, GameCreated)
    state = initial_state(created, *load_inputs(store, created))
    for event in events[1:]:
        evolve(state, event)
    return state
