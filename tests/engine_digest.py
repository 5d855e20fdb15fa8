"""One seeded game of every system, ruleset and option, hashed: the digests the compiled
and the pure-Python build must both give (tests/test_compiled.py).

The engine's digest: every event the rules produce, as its tag and its deterministic
JSON, game by game in the order of ``GAMES`` (then a Matrix Hockey season of the text's
twelve teams). The events are the engine's output only: the store and its encoding play
no part. The read models' digest: the rows of every stored read model folded from each
of those games (``projections.store.game_rows``, table by table, as JSON), then the
stream index of every stream (the season's too): the folds' output only.

Run: ``python tests/engine_digest.py`` (``RINKLOG_PURE=1`` for the pure build) prints
the build this process runs, the two digests and the files Bones' game module and
Bones' time-on-ice fold came from.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import msgspec
from setups import setup_for

import engine
from engine.dice import SeededDice
from engine.matrix.dice import SeededDie
from engine.matrix.referee import close_season, open_season, play_week
from engine.matrix.state import evolve, initial_state
from engine.systems import system_of
from events.base import tag_of
from events.bones import FaceoffOptions
from projections.index import stream_index
from projections.store import PROJECTIONS, game_rows
from replay.games.game_streams import play_game
from replay.leagues.matrix.demo import demo_picks
from replay.systems import kit_for
from replay.systems.matrix.files import season_opened

_JSON = msgspec.json.Encoder(order="deterministic")


@dataclass(frozen=True)
class SeededGame:
    """One game of the digest: a ruleset, two fixture teams and the options it turns on
    (the keyword arguments of tests/setups.py's ``setup_for``)."""

    ruleset: str
    home: str
    away: str
    options: dict[str, Any] = field(default_factory=dict)


FACEOFF_RULES = ("fatigue", "injuries", "pressure_offense", "checking_game", "arc_cards")
GAMES = (
    SeededGame("bones", "HFX", "QUE"),
    SeededGame("bones", "WPG", "SAS", {"options": ("playoff",)}),
    SeededGame("bones", "QUE", "WPG", {"overtime_skaters": 3, "late_penalty_house_rule": True}),
    SeededGame("faceoff2008", "HFX", "QUE"),
    *(SeededGame("faceoff2008", "SAS", "HFX", {"faceoff": FaceoffOptions(**{rule: True})})
      for rule in FACEOFF_RULES),
    SeededGame("faceoff2008", "WPG", "QUE", {
        "faceoff": FaceoffOptions(**dict.fromkeys(FACEOFF_RULES, True),
                                  nhl_bench_range="1-5", nhl_gm_range="1-2"),
        "options": ("playoff",)}),
    SeededGame("dicehockey", "ALD", "BRK"),
    SeededGame("dicehockey", "CDV", "DRF", {"options": ("forward_defense",)}),
    SeededGame("dicehockey", "ELM", "FRN", {"options": ("learning_game",)}),
    SeededGame("dicehockey", "GLN", "HTH", {"options": ("playoff",)}),
)


def game_events(game: SeededGame, n: int) -> list[Any]:
    kit = kit_for(game.ruleset)
    home, away = kit.find_team(game.home, None), kit.find_team(game.away, None)
    setup = setup_for(home, away, kit.default_charts(None), ruleset=game.ruleset, **game.options)
    game_id, seed = f"{game.home}-{game.away}-digest-{n}", f"digest-{n}"
    return play_game(setup, home, away, game_id=game_id, seed=seed,
                     dice=SeededDice(seed, game_id, system_of(game.ruleset).derive_roll)).events


def matrix_season_events(seed: str = "digest") -> list[Any]:
    """The example league's season: opened, eleven weeks of the demo managers' picks
    (some ONR), closed."""
    created = season_opened("example", seed)
    events = open_season(created, SeededDie(seed, created.season_id))
    state = initial_state(created)
    for event in events[1:]:
        evolve(state, event)
    for week in range(1, 12):
        week_events = [*demo_picks(state, week, seed, onr_rate=0.1)]
        for event in week_events:
            evolve(state, event)
        played = play_week(state, week, SeededDie(seed, state.season_id))
        for event in played:
            evolve(state, event)
        events += week_events + played
    closed = close_season(state, SeededDie(seed, state.season_id))
    return events + closed


@dataclass(frozen=True)
class Digests:
    """The engine's digest (the events) and the read models' (what is folded from them)."""

    engine: str
    read_models: str


def digests() -> Digests:
    streams = [game_events(game, n) for n, game in enumerate(GAMES)]
    season = matrix_season_events()
    sha = hashlib.sha256()
    for stream in [*streams, season]:
        for event in stream:
            sha.update(tag_of(type(event)).encode())
            sha.update(_JSON.encode(event))
        sha.update(b"\n")
    folded = hashlib.sha256()
    for n, (game, events) in enumerate(zip(GAMES, streams, strict=True)):
        rows = game_rows(system_of(game.ruleset).name, f"digest-{n}", events, PROJECTIONS)
        folded.update(_JSON.encode(rows))  # projection -> table -> sorted rows, in order
    for stream in [*streams, season]:
        index = stream_index(stream)
        folded.update(_JSON.encode([index.kind, index.meta]))
    return Digests(sha.hexdigest(), folded.hexdigest())


def digest() -> str:
    return digests().engine


if __name__ == "__main__":
    import engine.bones.game
    import projections.bones.toi

    both = digests()
    print("compiled" if engine.BUILD.compiled else "pure", both.engine, both.read_models,
          engine.bones.game.__file__, projections.bones.toi.__file__)
