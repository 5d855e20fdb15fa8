"""Games in a database: simulate one into a stream, and load one back to replay it.

This is the layer between the pure rules (engine/) and the store (events/): it builds
the first event from the fixtures, keeps the cards and charts a game used as
content-addressed blobs, runs the engine's loop with a dice source and a coach, and
appends the whole game in one transaction.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from engine.dice import DiceSource
from engine.loop import CollectorPaused
from engine.systems import SEASON_SYSTEMS, GameSystem, system_of
from events.base import Event
from events.catalogue import open_store as open_store  # the one way to open a store
from events.common import Absent, GameCreated, GameEnded, GamesOut, TeamSheet
from events.errors import RinklogError, UnknownGame
from events.store import EventStore, blob_hash
from projections.index import stream_index
from replay.games.coach_habits import game_notes, habits_of_coach
from replay.games.game_setup import GameSetup
from replay.games.registry import DEFAULT_RULESET

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


def team_sheet(system: GameSystem, team: Any, card_hash: str) -> TeamSheet:
    """What a GameCreated records of a team: the roster projections need (as the game's
    system reads its cards), and its cards' hash."""
    return TeamSheet(team_id=team.id, name=team.name, card_hash=card_hash,
                     roster=system.roster(team))


# What a game records of the cards and charts it was created from: their canonical bytes
# (stored as blobs), their hash and, for a team, its sheet; kept for the objects last
# created from. A season or an odds run creates every game from the same loaded teams and
# charts, and encoding and hashing them again was about a twentieth of a DICE Hockey
# game's cost (issue 35). Loaded cards are frozen and never changed in place. Keyed by
# identity, the entry holding the object itself (an id is not reused while it lives),
# and written whole (a Dask worker's threads read it too).
_ENCODED: dict[tuple[int, int], tuple[Any, bytes, str, TeamSheet | None]] = {}
_ENCODED_MOST = 256  # entries: a league's teams, its charts, a few systems'


def _encoded(obj: Any, system: GameSystem | None) -> tuple[bytes, str, TeamSheet | None]:
    """``obj``'s canonical bytes, their hash and (``system`` given: ``obj`` is a team)
    its sheet."""
    key = (id(obj), id(system))
    entry = _ENCODED.get(key)
    if entry is not None and entry[0] is obj:
        return entry[1], entry[2], entry[3]
    content = _canonical.encode(obj)
    digest = blob_hash(content)
    sheet = None if system is None else team_sheet(system, obj, digest)
    if len(_ENCODED) >= _ENCODED_MOST:
        _ENCODED.clear()
    _ENCODED[key] = (obj, content, digest, sheet)
    return content, digest, sheet


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


def create_game(setup: GameSetup, home: Any, away: Any, *, game_id: str,
                seed: str | None = None, goalies: tuple[str, str] = ("", ""),
                season: str = "", number: int = 0, live: bool = False,
                absent: Sequence[Absent] = ()) -> PlayedGame:
    """A game's first event, with the blobs it names: the one way a game is created. The
    setup's options (a league's overtime skaters, the quick reference's late-penalty house
    rule, the system's optional rules) are recorded in it, and a season game's players out
    from its teams' earlier games (``absent``: replay/leagues/availability.py)."""
    return _created(setup, home, away, game_id=game_id, seed=seed, goalies=goalies,
                    season=season, number=number, live=live, absent=absent)[0]


def _created(setup: GameSetup, home: Any, away: Any, *, game_id: str, seed: str | None,
             goalies: tuple[str, str], season: str, number: int, live: bool,
             absent: Sequence[Absent]) -> tuple[PlayedGame, Any]:
    """:func:`create_game`'s game, and the initial state its rules checked it with (what
    :func:`play_game` plays from, not made twice)."""
    shared = {c.id for c in [*home.skaters, *home.goalies]} & {
        c.id for c in [*away.skaters, *away.goalies]}
    if shared:
        # Events name players by id, so a game needs ids unique across both teams.
        raise RinklogError(f"{home.id} and {away.id} share player ids: {', '.join(sorted(shared))}")
    system, rules = setup.system, setup.rules
    home_bytes, _, home_sheet = _encoded(home, system)
    away_bytes, _, away_sheet = _encoded(away, system)
    chart_bytes, charts_hash, _ = _encoded(setup.charts, None)
    assert home_sheet is not None and away_sheet is not None  # a system was given
    created = GameCreated(
        game_id=game_id, ruleset=rules.name, ruleset_version=rules.version,
        home=home_sheet,
        away=away_sheet,
        charts_hash=charts_hash,
        dice="manual" if seed is None else "seeded",
        seed=seed,
        home_goalie=goalies[0],
        away_goalie=goalies[1],
        live=live,
        season=season,
        number=number,
        **setup.options.created_fields(),
        # who is out from earlier season games (UNSET when nobody: unchanged bytes)
        **({"absent": list(absent)} if absent else {}),
    )
    # The game's rules check its options (and its goalies) now, before anything is written.
    state = system.initial_state(created, home, away, setup.charts)
    blobs = [(home_bytes, CARD_MEDIA), (away_bytes, CARD_MEDIA), (chart_bytes, CHART_MEDIA)]
    return PlayedGame([created], blobs), state


def play_game(setup: GameSetup, home: Any, away: Any, *, game_id: str, dice: DiceSource,
              seed: str | None = None, goalies: tuple[str, str] = ("", ""),
              season: str = "", number: int = 0, absent: Sequence[Absent] = (),
              notes: Sequence[Event] = ()) -> PlayedGame:
    """Play a game between two loaded teams with ``setup``; no I/O beyond the dice source.

    ``notes`` go right after GameCreated (a season game's SeasonGameOpened, and its
    coach's habits, events.league.GAME_NOTES); None given, a setup's coach with habits
    other than the default coach's (a coach file) has them recorded (GameCoachSet)."""
    game, batches = _game_steps(setup, home, away, game_id=game_id, dice=dice, seed=seed,
                                goalies=goalies, season=season, number=number,
                                absent=absent, notes=notes)
    for batch in batches:
        game.events.extend(batch)
    return game


def _game_steps(setup: GameSetup, home: Any, away: Any, *, game_id: str, dice: DiceSource,
                seed: str | None, goalies: tuple[str, str], season: str, number: int,
                absent: Sequence[Absent], notes: Sequence[Event]
                ) -> tuple[PlayedGame, Iterator[Sequence[Event]]]:
    """A game created (its first event) and its batches of events to come: the notes, then
    each batch its rules play with ``dice`` (what :func:`play_game` keeps whole and
    :func:`play_outcome` reads and drops)."""
    game, state = _created(setup, home, away, game_id=game_id, seed=seed, goalies=goalies,
                           season=season, number=number, live=False, absent=absent)
    coach = setup.game_coach()
    return game, _batches(setup.system, state, dice, coach,
                          notes or game_notes(habits_of_coach(coach)))


def _batches(system: GameSystem, state: Any, dice: DiceSource, coach: Any,
             notes: Sequence[Event]) -> Iterator[Sequence[Event]]:
    yield notes
    with CollectorPaused():  # the rules make no cycles: engine.loop.CollectorPaused
        yield from system.steps(state, dice, coach or system.default_coach())


@dataclass(frozen=True)
class GameOutcome:
    """What an odds run keeps of a game it plays (replay/leagues/odds_run.py): the first
    and last events (what the standings fold reads) and what the game rules for its
    teams' later games (the system's ``games_out``; empty for a system without)."""

    created: GameCreated
    end: GameEnded
    outs: list[GamesOut]


def play_outcome(setup: GameSetup, home: Any, away: Any, *, game_id: str, dice: DiceSource,
                 seed: str | None = None, goalies: tuple[str, str] = ("", ""),
                 season: str = "", number: int = 0, absent: Sequence[Absent] = (),
                 notes: Sequence[Event] = ()) -> GameOutcome:
    """:func:`play_game`'s game, the same steps with the same dice, keeping only its
    :class:`GameOutcome`: each batch of events is read for what it rules for later games
    and dropped while the next is played, not held to the end (a DICE Hockey game's ~900
    events freed at once after it took about a twentieth of a game's time in an odds
    run, issue 35). A system's ``games_out`` reads each event alone (engine/registration.py),
    so reading it a batch at a time finds what it finds over the whole game."""
    game, batches = _game_steps(setup, home, away, game_id=game_id, dice=dice, seed=seed,
                                goalies=goalies, season=season, number=number,
                                absent=absent, notes=notes)
    games_out = setup.system.games_out
    outs: list[GamesOut] = []
    last: Event = game.created
    for batch in batches:
        if batch:
            last = batch[-1]
            if games_out is not None:
                outs += games_out(batch)
    if not isinstance(last, GameEnded):
        raise RinklogError(f"game {game_id} stopped before its end")
    return GameOutcome(game.created, last, outs)


def store_game(store: EventStore, game_id: str, game: PlayedGame, system: GameSystem) -> str:
    """Write a played game: its blobs, then its stream in one transaction; the head hash.

    Blobs go in only once the game is whole, so a failed game leaves no trace.
    """
    for content, media in game.blobs:
        store.put_blob(content, media)
    store.append(game_id, game.events, expected_version=0, kind="game",
                 system=system.name, meta=game.meta())
    return store.head_hash(game_id)


def simulate(store: EventStore, setup: GameSetup, *, game_id: str | None = None) -> GameResult:
    """Play a one game's setup whole and append it as one stream; nothing is written on
    an error. Its dice come from ``setup.dice``: seeded, typed lines (e.g. a file) or any
    source (such as a person typing at a prompt)."""
    home, away = setup.matchup()
    dice = setup.dice
    if dice.rolls is None and dice.seed is None and dice.source is None:
        raise RinklogError("give a --seed for seeded dice or --rolls FILE for typed dice")
    if dice.source is not None and game_id is None:
        game_id = next_live_id(store, home.id, away.id)
    if game_id is None:
        game_id = game_id_for(home.id, away.id, dice.seed,
                              "\n".join(dice.rolls) if dice.rolls is not None else None)
        if setup.ruleset != DEFAULT_RULESET:
            game_id += f"-{setup.ruleset}"  # the same seed under another ruleset is another game
    if store.exists(game_id):
        raise RinklogError(f"game {game_id} is already in the database; pick another --game-id")
    game = play_game(setup, home, away, game_id=game_id,
                     dice=dice.for_game(setup.system, game_id),
                     seed=None if dice.typed else str(dice.seed))
    head = store_game(store, game_id, game, setup.system)
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


def stream_list(store: EventStore) -> list[dict[str, Any]]:
    """The games in a database (with branches' parents and games in progress), then its
    refereed seasons, one row each as ``rinklog games --json`` shows them (docs/json.md)."""
    rows = [{"game_id": s.stream, "home": s.meta.get("home"), "away": s.meta.get("away"),
             "score": {"home": s.meta.get("home_goals"), "away": s.meta.get("away_goals")},
             "decided": s.meta.get("decided"), "events": s.version,
             "head_hash": s.head_hash, "parent": s.meta.get("parent"),
             "parent_seq": s.meta.get("parent_seq"),
             "in_progress": "decided" not in s.meta} for s in store.streams(kind="game")]
    rows += [{"game_id": s.stream, "kind": s.kind, "league": s.meta.get("league"),
              "season": s.meta.get("season_number"), "weeks_played": s.meta.get("weeks_played"),
              "games": s.meta.get("games"), "events": s.version, "head_hash": s.head_hash,
              "in_progress": not s.meta.get("closed", False)}
             for kind in sorted(season_kinds()) for s in store.streams(kind=kind)]
    return rows


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
