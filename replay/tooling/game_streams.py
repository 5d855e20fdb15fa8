"""Games in a database: simulate one into a stream, and load one back to replay it.

This is the layer between the pure rules (engine/) and the store (events/): it builds
the first event from the fixtures, keeps the cards and charts a game used as
content-addressed blobs, runs the engine's loop with a dice source and a coach, and
appends the whole game in one transaction.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from engine.dice import DiceSource, ManualDice, SeededDice
from engine.systems import SEASON_SYSTEMS, system_of
from events.base import Event
from events.catalogue import open_store as open_store  # the one way to open a store
from events.common import (
    NO_FACEOFF_OPTIONS,
    Absent,
    FaceoffOptions,
    GameCreated,
    GameEnded,
    TeamSheet,
)
from events.errors import RinklogError, UnknownGame
from events.store import EventStore, blob_hash
from projections.index import stream_index
from replay.leagues.ledger import game_notes, habits_of_coach
from replay.systems import kit_for

CARD_MEDIA = "application/x-rinklog-team+json"
CHART_MEDIA = "application/x-rinklog-charts+json"
_canonical = msgspec.json.Encoder(order="deterministic")


def game_id_for(home: str, away: str, seed: str | None, rolls_text: str | None = None) -> str:
    """A game id derived from the inputs, so the same command writes the same stream."""
    if rolls_text is not None:
        digest = hashlib.blake2b(rolls_text.encode(), digest_size=4).hexdigest()
        return f"{home}-{away}-m{digest}"
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", str(seed)).strip("-") or "seed"
    return f"{home}-{away}-{slug}"


def next_live_id(store: EventStore, home: str, away: str) -> str:
    """``HOME-AWAY-liveN`` for a game played at the table (``play``, ``sim --rolls -``):
    the first number not taken."""
    count = 1 + sum(1 for s in store.streams() if s.stream.startswith(f"{home}-{away}-live"))
    game_id = f"{home}-{away}-live{count}"
    while store.exists(game_id):
        count += 1
        game_id = f"{home}-{away}-live{count}"
    return game_id


def team_sheet(ruleset: str, team: Any, card_hash: str) -> TeamSheet:
    """What a GameCreated records of a team: the roster projections need (as the game's
    system reads its cards), and its cards' hash."""
    return TeamSheet(team_id=team.id, name=team.name, card_hash=card_hash,
                     roster=system_of(ruleset).roster(team))


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


@dataclass(frozen=True)
class PlayedGame:
    """A game in memory: its events (a whole game once played) and the blobs its first
    event names."""

    events: list[Event]
    blobs: list[tuple[bytes, str]]

    @property
    def created(self) -> GameCreated:
        created = self.events[0]
        assert isinstance(created, GameCreated)
        return created

    @property
    def end(self) -> GameEnded:
        end = self.events[-1]
        assert isinstance(end, GameEnded)
        return end

    def meta(self) -> dict:
        """The stream index of the game (derived from its events, checked by the audit)."""
        return stream_index(self.events).meta


def create_game(home: Any, away: Any, charts: Any, *, game_id: str,
                seed: str | None = None, ruleset: str = "bones",
                goalies: tuple[str, str] = ("", ""), overtime_skaters: int = 5,
                late_penalty_house_rule: bool = False, season: str = "", number: int = 0,
                live: bool = False, faceoff: FaceoffOptions = NO_FACEOFF_OPTIONS,
                options: Sequence[str] = (), absent: Sequence[Absent] = ()) -> PlayedGame:
    """A game's first event, with the blobs it names: the one way a game is created. The
    options (a league's overtime skaters, the quick reference's late-penalty house rule,
    FaceOff 2008's optional rules and NHL ranges) are recorded in it, and a season game's
    players out from its teams' earlier games (``absent``: replay/leagues/availability.py)."""
    shared = {c.id for c in [*home.skaters, *home.goalies]} & {
        c.id for c in [*away.skaters, *away.goalies]}
    if shared:
        # Events name players by id, so a game needs ids unique across both teams.
        raise RinklogError(f"{home.id} and {away.id} share player ids: {', '.join(sorted(shared))}")
    system = system_of(ruleset)
    rules = system.rulesets[ruleset]
    charts = kit_for(ruleset).game_charts(charts, faceoff)
    home_bytes, away_bytes = _canonical.encode(home), _canonical.encode(away)
    chart_bytes = _canonical.encode(charts)
    created = GameCreated(
        game_id=game_id, ruleset=rules.name, ruleset_version=rules.version,
        home=team_sheet(ruleset, home, blob_hash(home_bytes)),
        away=team_sheet(ruleset, away, blob_hash(away_bytes)),
        charts_hash=blob_hash(chart_bytes),
        dice="manual" if seed is None else "seeded",
        seed=seed,
        home_goalie=goalies[0],
        away_goalie=goalies[1],
        overtime_skaters=overtime_skaters,
        late_penalty_house_rule=late_penalty_house_rule,
        live=live,
        season=season,
        number=number,
        **faceoff.created_fields(),
        # another system's optional rules, by name (UNSET when none: unchanged bytes)
        **({"options": sorted(set(options))} if options else {}),
        # who is out from earlier season games (UNSET when nobody: unchanged bytes)
        **({"absent": list(absent)} if absent else {}),
    )
    # The game's rules check its options (and its goalies) now, before anything is written.
    system.initial_state(created, home, away, charts)
    blobs = [(home_bytes, CARD_MEDIA), (away_bytes, CARD_MEDIA), (chart_bytes, CHART_MEDIA)]
    return PlayedGame([created], blobs)


def play_game(home: Any, away: Any, charts: Any, *, game_id: str,
              dice: DiceSource, seed: str | None = None, ruleset: str = "bones",
              goalies: tuple[str, str] = ("", ""),
              coach: Any = None, overtime_skaters: int = 5,
              late_penalty_house_rule: bool = False, season: str = "",
              number: int = 0, faceoff: FaceoffOptions = NO_FACEOFF_OPTIONS,
              options: Sequence[str] = (), absent: Sequence[Absent] = (),
              notes: Sequence[Event] = ()) -> PlayedGame:
    """Play a game between two loaded teams; no I/O beyond the dice source.

    ``notes`` go right after GameCreated (a season game's SeasonGameOpened, and its
    coach's habits, events.league.GAME_NOTES); None given, a ``coach`` with habits other
    than the default coach's (a coach file) has them recorded (GameCoachSet)."""
    game = create_game(home, away, charts, game_id=game_id, seed=seed, ruleset=ruleset,
                       goalies=goalies, overtime_skaters=overtime_skaters,
                       late_penalty_house_rule=late_penalty_house_rule, season=season,
                       number=number, faceoff=faceoff, options=options, absent=absent)
    created = game.created
    system = system_of(created.ruleset)
    game.events.extend(notes or game_notes(habits_of_coach(coach)))
    charts = kit_for(ruleset).game_charts(charts, faceoff)
    state = system.initial_state(created, home, away, charts)
    for batch in system.steps(state, dice, coach or system.default_coach()):
        game.events.extend(batch)
    return game


def store_game(store: EventStore, game_id: str, game: PlayedGame) -> str:
    """Write a played game: its blobs, then its stream in one transaction; the head hash.

    Blobs go in only once the game is whole, so a failed game leaves no trace.
    """
    for content, media in game.blobs:
        store.put_blob(content, media)
    store.append(game_id, game.events, expected_version=0, kind="game",
                 system=system_of(game.created.ruleset).name, meta=game.meta())
    return store.head_hash(game_id)


def simulate(store: EventStore, home_id: str, away_id: str, *, seed: str | None = None,
             rolls: Iterable[str] | None = None, rolls_origin: str = "rolls",
             game_id: str | None = None, fixtures: str | Path | None = None,
             ruleset: str = "bones", dice: DiceSource | None = None,
             coach: Any = None, overtime_skaters: int = 5,
             late_penalty_house_rule: bool = False,
             faceoff: FaceoffOptions = NO_FACEOFF_OPTIONS,
             options: Sequence[str] = ()) -> GameResult:
    """Play a whole game and append it as one stream; nothing is written on an error.

    Dice come from ``seed`` (seeded), ``rolls`` (typed lines, e.g. a file) or ``dice``
    (any source, such as a person typing at a prompt).
    """
    kit = kit_for(ruleset)
    home, away = kit.find_team(home_id, fixtures), kit.find_team(away_id, fixtures)
    if home.id == away.id:
        raise RinklogError(f"a team cannot play itself: {home.id}")
    charts = kit.default_charts(fixtures)
    rolls_list = list(rolls) if rolls is not None else None
    if rolls_list is None and seed is None and dice is None:
        raise RinklogError("give a --seed for seeded dice or --rolls FILE for typed dice")
    if dice is not None and game_id is None:
        game_id = next_live_id(store, home.id, away.id)
    rolls_text = "\n".join(rolls_list) if rolls_list is not None else None
    if game_id is None:
        game_id = game_id_for(home.id, away.id, seed, rolls_text)
        if ruleset != "bones":
            game_id += f"-{ruleset}"  # the same seed under another ruleset is another game
    if store.exists(game_id):
        raise RinklogError(f"game {game_id} is already in the database; pick another --game-id")
    manual = rolls_list is not None or dice is not None or seed is None
    if dice is None:
        system = system_of(ruleset)
        dice = (ManualDice(rolls_list, rolls_origin, system.parse_roll)
                if rolls_list is not None
                else SeededDice(str(seed), game_id, system.derive_roll))
    game = play_game(home, away, charts, game_id=game_id, dice=dice,
                     seed=None if manual else str(seed), ruleset=ruleset, coach=coach,
                     overtime_skaters=overtime_skaters,
                     late_penalty_house_rule=late_penalty_house_rule, faceoff=faceoff,
                     options=options)
    head = store_game(store, game_id, game)
    end = game.end
    return GameResult(game_id, home.id, away.id, end.home_goals, end.away_goals, end.decided,
                      len(game.events), head)


def load_inputs(store: EventStore, created: GameCreated) -> tuple[Any, Any, Any]:
    """The exact cards and charts a game was played with, from the database's blobs, as
    its game system reads them."""
    system = system_of(created.ruleset)
    home = msgspec.json.decode(store.get_blob(created.home.card_hash), type=system.team_type)
    away = msgspec.json.decode(store.get_blob(created.away.card_hash), type=system.team_type)
    charts = msgspec.json.decode(store.get_blob(created.charts_hash), type=system.charts_type)
    return home, away, charts


def season_kinds() -> set[str]:
    """The stream kinds of refereed seasons (Matrix Hockey), which the tools that work on
    any stream (events, explain, replay, export) take beside games."""
    return {s.kind for s in SEASON_SYSTEMS.values()}


def read_stream(store: EventStore, stream_id: str) -> list[Event]:
    """A game's or a refereed season's events (``UnknownGame`` for anything else)."""
    if store.exists(stream_id) and store.info(stream_id).kind in season_kinds():
        return [row.event for row in store.iter_events(stream_id)]
    return read_game(store, stream_id)


def read_game(store: EventStore, game_id: str) -> list[Event]:
    """A game's events; ``UnknownGame`` for an id that is not a game stream here."""
    if not store.exists(game_id) or store.info(game_id).kind != "game":
        what = (f"no game {game_id!r} in this database" if not store.exists(game_id) else
                f"{game_id!r} is a {store.info(game_id).kind}, not a game")
        known = ", ".join(s.stream for s in store.streams(kind="game")[:5])
        raise UnknownGame(what +
                          (f" (games: {known}...)" if known else " (it holds no games)"))
    return [row.event for row in store.iter_events(game_id)]
