"""A league's playoff format checked against its groups, with every default filled.

``PlayoffFormat`` (events.postseason) checks what needs no league; here what does: the
groups a ``per_conference`` or ``per_division`` format draws from, the number of rounds
(so ``series`` and ``home_ice`` have one entry per round), and the defaults. Every fault
is one :class:`PlayoffFormatError` line naming the ``[playoffs]`` field.

How a format becomes brackets ("pools", docs/postseason.md): ``draft`` and ``teams`` make
one pool, ``league``; ``per_conference`` one per conference, whose champions meet in
``league``; ``per_division`` one per division (named ``conference/division``), whose
champions meet in their conference's pool, whose champions meet in ``league``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from events.postseason import (
    DEFAULT_HOME_ICE,
    DRAFT_BYES,
    DRAFT_SERIES,
    DRAFT_TEAMS,
    PlayoffFormat,
    PlayoffFormatError,
    PlayoffPool,
    home_ice_blocks,
)

__all__ = ["LEAGUE_POOL", "Division", "PlayoffFormat", "PlayoffFormatError", "default_home_ice",
           "divisions_of", "parse_playoff_format", "pool_members", "pool_plan", "resolve_format",
           "rounds_of"]

LEAGUE_POOL = "league"


class Division(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A division of the league, as ``SeasonCreated.divisions`` and ``LoadedLeague``
    list them (conference, division, team ids)."""

    conference: str
    name: str
    teams: list[str]


def divisions_of(rows: Iterable[tuple[str, str, list[str]]]) -> list[Division]:
    """Named divisions from the (conference, division, teams) rows a season records."""
    return [Division(conference, name, list(teams)) for conference, name, teams in rows]


def default_home_ice(length: int) -> str:
    """The home-ice pattern of a series of ``length`` games when the table gives none.

    7 games: 2-2-1-1-1 (rule 32: a manager plays "his two games", then "single games ie
    games 5, 6, and 7"). Other lengths (ruling R-post-home-ice): two two-game blocks, then
    single games (5: 2-2-1); a series under 5 games alternates single games (3: 1-1-1)."""
    if length == 7:
        return DEFAULT_HOME_ICE
    if length >= 5:
        return "-".join(["2", "2"] + ["1"] * (length - 4))
    return "-".join(["1"] * length)


def _groups(fmt: PlayoffFormat, divisions: list[Division]) -> list[list[PlayoffPool]]:
    """The pools of a format, level by level from the first brackets up to ``league``
    (teams left empty: the seeds fill the first level's)."""
    root = PlayoffPool(LEAGUE_POOL, "", [])
    if fmt.per_division is not None:
        conferences = list(dict.fromkeys(d.conference for d in divisions))
        return [[PlayoffPool(f"{d.conference}/{d.name}", d.conference, []) for d in divisions],
                [PlayoffPool(c, LEAGUE_POOL, []) for c in conferences], [root]]
    if fmt.per_conference is not None:
        conferences = list(dict.fromkeys(d.conference for d in divisions))
        return [[PlayoffPool(c, LEAGUE_POOL, []) for c in conferences], [root]]
    return [[root]]


def pool_members(pool: str, divisions: list[Division]) -> list[str]:
    """The league's teams a first-level pool draws its qualifiers from."""
    if pool == LEAGUE_POOL:
        return [t for d in divisions for t in d.teams]
    return [t for d in divisions if pool in (d.conference, f"{d.conference}/{d.name}")
            for t in d.teams]


def _check_groups(fmt: PlayoffFormat, divisions: list[Division],
                  levels: list[list[PlayoffPool]]) -> None:
    field = ("per_division" if fmt.per_division is not None else "per_conference"
             if fmt.per_conference is not None else "teams" if fmt.format is None else "format")
    wanted = fmt.qualifiers
    for pool in levels[0]:
        have = len(pool_members(pool.name, divisions))
        if have < wanted:
            where = ("the league has" if pool.name == LEAGUE_POOL else
                     f"division {pool.name} has" if fmt.per_division is not None else
                     f"conference {pool.name} has")
            rule = " (rule 9: the first six teams)" if fmt.format == "draft" else ""
            raise PlayoffFormatError(f"field {field!r}: {wanted} teams qualify{rule} but "
                                     f"{where} {have}")
    for lower in levels[:-1]:
        counts: dict[str, int] = {}
        for pool in lower:
            counts[pool.parent] = counts.get(pool.parent, 0) + 1
        sizes = sorted(set(counts.values()))
        if len(sizes) > 1 or sizes[0] & (sizes[0] - 1):
            what = "conference's divisions" if lower[0].parent != LEAGUE_POOL else "conferences"
            raise PlayoffFormatError(
                f"field {field!r}: the {what} do not make a bracket of their champions "
                f"({', '.join(f'{k or LEAGUE_POOL}: {v}' for k, v in counts.items())}; "
                "each must be the same power of two: 1, 2, 4...)")


def rounds_of(fmt: PlayoffFormat, divisions: list[Division]) -> int:
    """How many rounds the format plays in this league (rule 9's: three)."""
    levels = _groups(fmt, divisions)
    _check_groups(fmt, divisions, levels)
    byes = DRAFT_BYES if fmt.format == "draft" else fmt.byes or 0
    rounds = (fmt.qualifiers + byes).bit_length() - 1
    for lower in levels[:-1]:
        children = sum(1 for p in lower if p.parent == lower[0].parent)
        rounds += children.bit_length() - 1
    return rounds


def resolve_format(fmt: PlayoffFormat, divisions: list[Division]) -> PlayoffFormat:
    """The format with every field filled for this league (``draft``: rule 9's values),
    ``series`` and ``home_ice`` one entry per round; PlayoffFormatError if it does not
    fit the league."""
    rounds = rounds_of(fmt, divisions)
    if fmt.format == "draft":
        series = list(DRAFT_SERIES)
    else:
        series = list(fmt.series) if fmt.series is not None else [7] * rounds
    if len(series) != rounds:
        raise PlayoffFormatError(f"field 'series': {len(series)} series length"
                                 f"{'s' if len(series) > 1 else ''} for {rounds} rounds "
                                 "(one per round)")
    if fmt.home_ice is None:
        home = [default_home_ice(n) for n in series]
    elif isinstance(fmt.home_ice, str):
        home = [fmt.home_ice] * rounds
    else:
        home = list(fmt.home_ice)
        if len(home) != rounds:
            raise PlayoffFormatError(f"field 'home_ice': {len(home)} patterns for {rounds} "
                                     "rounds (one pattern, or one per round)")
    for i, (pattern, length) in enumerate(zip(home, series, strict=True)):
        games = sum(home_ice_blocks(pattern))
        if games != length:
            field = "home_ice" if isinstance(fmt.home_ice, str) else f"home_ice[{i}]"
            raise PlayoffFormatError(f"field {field!r}: {pattern!r} is {games} games but "
                                     f"round {i + 1} is best of {length}")
    return msgspec.structs.replace(
        fmt, teams=DRAFT_TEAMS if fmt.format == "draft" else fmt.teams,
        byes=DRAFT_BYES if fmt.format == "draft" else fmt.byes or 0,
        reseed=True if fmt.reseed is None else fmt.reseed, series=series, home_ice=home)


def pool_plan(fmt: PlayoffFormat, divisions: list[Division]) -> list[PlayoffPool]:
    """Every pool of the format in this league, first brackets first, then up to
    ``league`` (teams empty; ``engine.league.playoffs`` seeds the first level)."""
    levels = _groups(fmt, divisions)
    _check_groups(fmt, divisions, levels)
    return [pool for level in levels for pool in level]


def parse_playoff_format(table: Mapping[str, Any], divisions: list[Division]) -> PlayoffFormat:
    """A ``[playoffs]`` table (as TOML reads it) checked and resolved for this league;
    PlayoffFormatError, one line naming the field, on the first fault."""
    try:
        fmt = msgspec.convert(dict(table), PlayoffFormat)
    except msgspec.ValidationError as err:
        text = str(err)
        if text.startswith("field "):  # PlayoffFormat's own check: already names it
            raise PlayoffFormatError(text.split(" - at ", 1)[0]) from None
        unknown = re.match(r"Object contains unknown field `([^`]*)`", text)
        if unknown:
            raise PlayoffFormatError(f"field {unknown[1]!r}: not a [playoffs] field (format, "
                                     "teams, per_conference, per_division, byes, reseed, "
                                     "series, home_ice)") from None
        path = text.rsplit(" - at `$.", 1)
        where = f"field {path[1].rstrip('`')!r}: " if len(path) == 2 else ""
        raise PlayoffFormatError(f"{where}{path[0]}") from None
    return resolve_format(fmt, divisions)
