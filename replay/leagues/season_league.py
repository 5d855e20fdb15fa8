"""A season keeps its league (issue 34, "What users see, round 3", item 8).

``rinklog season --league FOLDER`` stores the league's ``league.toml`` with the season,
as a blob beside its teams' cards and its charts (:data:`LEAGUE_MEDIA`), and pins it by
hash in the season's first event (``SeasonCreated.league_hash``). Every later command
(``season`` playing on, ``playoffs``, ``lottery --draw``, ``odds``) reads the league from
the database: the folder may move, change or go.

``--league`` for a season already begun must give the same league: a difference in
anything the season decided from (a league.toml setting, a team's cards, the chart pack)
is refused in one line naming it, before anything is written (docs/postseason.md, "A
season keeps its league"). A season stored before its league file was (``league_hash``
UNSET) reads its league as it did: ``--league``, or the bundled league of its name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from msgspec import UNSET

from engine.league.formats import PlayoffFormat
from engine.systems import system_of
from events.errors import CardError, RinklogError
from events.league import SeasonCreated
from events.plurals import counted
from events.store import EventStore
from replay.games.game_setup import GameOptions, GameSetup, league_setup
from replay.games.registry import ruleset_of_season
from replay.leagues.league import (
    League,
    LoadedLeague,
    league_dir,
    league_of_text,
    load_league,
    playoff_format,
)
from replay.leagues.schedule import make_schedule
from replay.systems import kit_for

__all__ = ["LEAGUE_MEDIA", "SeasonToPlay", "check_given", "league_changes", "league_file_wrong",
           "refuse_changes", "season_blobs", "season_playoffs", "season_to_play",
           "stored_league"]

LEAGUE_MEDIA = "application/x-rinklog-league+toml"
"""The media type of a season's stored league file (its league.toml's bytes)."""


def season_blobs(created: SeasonCreated) -> list[str]:
    """The blobs a season stream names: its teams' cards, its charts and, once seasons
    keep it, its league file."""
    league = [] if created.league_hash is UNSET else [created.league_hash]
    return [*created.team_hashes.values(), created.charts_hash, *league]


def _shown(created: SeasonCreated) -> str:
    return f"season {created.season_id}'s stored league.toml"


def stored_league(store: EventStore, created: SeasonCreated) -> League | None:
    """The league a season stored (its league file read back); None for a season stored
    before seasons kept it."""
    if created.league_hash is UNSET:
        return None
    return league_of_text(store.get_blob(created.league_hash).decode("utf-8"),
                          _shown(created))


def league_file_wrong(created: SeasonCreated, content: bytes) -> str | None:
    """What is wrong with a season's stored league file beside its first event (None:
    nothing): it must read as a league.toml of the season's league name and divisions
    (the audit's check; its hash the blob check holds to the pin)."""
    try:
        league = league_of_text(content.decode("utf-8"), _shown(created))
    except (CardError, UnicodeDecodeError) as err:
        return f"one that does not read ({err})"
    divisions = [(c.name, d.name, list(d.teams)) for c in league.conferences
                 for d in c.divisions]
    if league.name != created.league:
        return f"one of league {league.name!r}, not {created.league!r}"
    if divisions != [(c, d, list(t)) for c, d, t in created.divisions]:
        return "one of other divisions"
    return None


def check_given(store: EventStore, created: SeasonCreated, league: str | None) -> None:
    """``--league`` given for a season that keeps its league file: refused if it is not
    the same league (whether or not the command reads it); a season stored before its
    league file takes any."""
    stored = stored_league(store, created) if league is not None else None
    if stored is not None:
        assert league is not None
        refuse_changes(store, created, stored, load_league(league), league)


def season_playoffs(store: EventStore, created: SeasonCreated,
                    league: str | None = None) -> PlayoffFormat | None:
    """The ``[playoffs]`` format of a season's league (None: it has none): its stored
    league file's, or ``league``'s (a folder or bundled name) when that is the same league
    (:func:`league_changes` refused otherwise). A season stored before its league file:
    ``league``, or the bundled league of its name, else one line saying to give
    ``--league``."""
    stored = stored_league(store, created)
    if league is not None:
        loaded = load_league(league)
        if stored is not None:
            refuse_changes(store, created, stored, loaded, league)
        return loaded.playoffs
    if stored is not None:
        return playoff_format(stored, _shown(created))
    return _named_league(created).playoffs


def _named_league(created: SeasonCreated) -> LoadedLeague:
    """A season stored before seasons kept their league file: its league by name."""
    try:
        league_dir(created.league)
    except CardError:
        raise RinklogError(
            f"season {created.season_id} was stored before seasons kept their league file, "
            f"and {created.league!r} is no bundled league: give --league FOLDER (the league "
            "it was begun with)") from None
    return load_league(created.league)


def league_changes(store: EventStore, created: SeasonCreated, stored: League,
                   loaded: LoadedLeague) -> list[str]:
    """What ``loaded`` changes of the league a season stored: its league.toml settings by
    name, the teams whose cards differ, the charts (empty: the same league)."""
    fields = [f.name for f in msgspec.structs.fields(League)
              if getattr(stored, f.name) != getattr(loaded.league, f.name)]
    changed = [f"league.toml's {', '.join(fields)}"] if fields else []
    if loaded.league.ruleset != ruleset_of_season(created):
        return changed
    setup = league_setup(loaded)
    teams, charts = _stored_cards(store, created, setup.system)
    cards = [tid for tid in sorted({*teams, *setup.teams})
             if tid not in teams or tid not in setup.teams or setup.teams[tid] != teams[tid]]
    if cards:
        changed.append(f"the cards of {', '.join(cards)}")
    if setup.charts != charts:
        changed.append("the charts")
    return changed


def refuse_changes(store: EventStore, created: SeasonCreated, stored: League,
                   loaded: LoadedLeague, given: str) -> None:
    """One line naming what ``--league`` changes of a season already begun, if anything."""
    changed = league_changes(store, created, stored, loaded)
    if changed:
        raise RinklogError(
            f"season {created.season_id} keeps the league it was begun with, and --league "
            f"{given} changes {'; '.join(changed)}: a season already begun cannot change "
            "its league (drop --league to play on with the stored one, or begin a new season "
            "with another --seed or --db); nothing written")


@dataclass(frozen=True)
class SeasonToPlay:
    """What ``rinklog season`` plays: the setup of every game, the league's name, its
    schedule and divisions, and the league file the season stores (or stored)."""

    setup: GameSetup
    name: str
    schedule: list[tuple[int, str, str]]
    divisions: list[tuple[str, str, list[str]]]
    league_file: bytes


def season_to_play(store: EventStore | None, league: str | None, seed: str,
                   coach_file: Path | None = None, default: str = "demo") -> SeasonToPlay:
    """The season ``rinklog season --league LEAGUE --seed SEED`` plays in ``store`` (None:
    no database yet). A season of that seed already begun (without ``league``: the one of
    that seed in the database) plays on with the league it stored (``league`` refused if it
    changes it); else ``league`` (default: ``default``) is loaded and a new season begun."""
    created = _begun(store, league, seed) if store is not None else None
    if created is not None and created.league_hash is not UNSET:
        assert store is not None
        if league is not None:
            stored = stored_league(store, created)
            assert stored is not None
            refuse_changes(store, created, stored, load_league(league), league)
        return _stored_season(store, created, coach_file)
    loaded = _named_league(created) if created is not None and league is None \
        else load_league(league or default)
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(loaded, seed)]
    return SeasonToPlay(league_setup(loaded, coach_file=coach_file), loaded.name, fixtures,
                        loaded.divisions, loaded.path.read_bytes())


def _begun(store: EventStore, league: str | None, seed: str) -> SeasonCreated | None:
    """The stored season ``league`` and ``seed`` name (without ``league``: the one season
    of that seed), None if there is none."""
    if league is not None:
        season_id = f"{load_league(league).name}-{seed}"
        if not store.exists(season_id) or store.info(season_id).kind != "season":
            return None
        found = [store.read(season_id, 1, 1)[0].event]
    else:
        found = [first for info in store.streams(kind="season")
                 if isinstance(first := store.read(info.stream, 1, 1)[0].event, SeasonCreated)
                 and first.seed == seed]
    if len(found) > 1:
        raise RinklogError(f"{store.path} holds {counted(len(found), 'season')} of seed {seed!r} ("
                           f"{', '.join(c.season_id for c in found)}): give --league to say "
                           "which")
    return found[0] if found and isinstance(found[0], SeasonCreated) else None


def _stored_cards(store: EventStore, created: SeasonCreated, system: Any
                  ) -> tuple[dict[str, Any], Any]:
    """The teams' cards (by team id) and the charts a season stored, read back."""
    teams = {tid: msgspec.json.decode(store.get_blob(digest), type=system.team_type)
             for tid, digest in created.team_hashes.items()}
    return teams, msgspec.json.decode(store.get_blob(created.charts_hash), type=system.charts_type)


def _stored_season(store: EventStore, created: SeasonCreated,
                   coach_file: Path | None) -> SeasonToPlay:
    """A begun season played on from what it stored: its cards, charts, options,
    schedule and league file (the coach file, as every run, from ``coach_file``)."""
    ruleset = ruleset_of_season(created)
    system = system_of(ruleset)
    kit = kit_for(ruleset)
    teams, charts = _stored_cards(store, created, system)
    coach = kit.coach_setup_file(coach_file) if coach_file is not None else None
    setup = GameSetup(system, ruleset, teams, charts,
                      GameOptions.of_season(system, kit, created), coach)
    assert created.league_hash is not UNSET
    return SeasonToPlay(setup, created.league, [tuple(f) for f in created.schedule],
                        [(c, d, list(t)) for c, d, t in created.divisions],
                        store.get_blob(created.league_hash))
