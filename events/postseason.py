"""The postseason of a league season (issue 22): the playoffs and the draft lottery.

The Hockey Bones text ends with the rules of a draft league: rule 9 sets the playoffs,
rule 27 limits a goalie's games in a series, rule 29 breaks ties in the standings (the
standings apply it), rule 31 draws the first round's draft order, rule 32 paces games
played at the table; DICE Hockey 13 plays a playoff game's overtime to a winner. This
module holds the data of a league's ``[playoffs]`` table (:class:`PlayoffFormat`) and the
events a postseason will record; the rules that decide them are ``engine.league``.

A season stream (the one SeasonCreated opens) holds them: :data:`PostseasonEvent` is in
``events.catalogue.LEAGUE_EVENTS``; ``rinklog lottery SEASON --draw`` records the lottery's
(replay/leagues/postseason.py). Tags are namespaced (``postseason.SeriesWon``) so they
never meet another system's names.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from events.base import Event
from events.errors import CardError

__all__ = ["DRAFT_BYES", "DRAFT_SERIES", "DRAFT_TEAMS", "DEFAULT_HOME_ICE", "LotteryDraw",
           "LotteryEntry", "LotteryOpened", "LotteryOrderSet", "PlayoffFormat",
           "PlayoffFormatError", "PlayoffPool", "PlayoffSeed", "PlayoffsOpened", "PlayoffsWon",
           "PostseasonEvent",
           "RoundOpened", "SeriesGameRecorded", "SeriesScheduled", "SeriesWon",
           "home_ice_blocks"]

# Rule 9: "The first six teams make the playoffs. 1st and 2nd place teams get a bye in the
# first round. ... All series are 4 out of 7." Three rounds: 3v6 and 4v5, then 1 and 2
# against the survivors, then the final.
DRAFT_TEAMS = 6
DRAFT_BYES = 2
DRAFT_SERIES = (7, 7, 7)
# Rule 32 gives a manager 7 days for "his two games" after a road line-up and 4 days for
# "single games ie games 5, 6, and 7": two-game blocks, then single games: 2-2-1-1-1.
DEFAULT_HOME_ICE = "2-2-1-1-1"

_PATTERN = re.compile(r"^[1-9](-[1-9])*$")
Length = Annotated[int, Meta(ge=1, le=15)]


class PlayoffFormatError(CardError, ValueError):
    """A ``[playoffs]`` table that does not make a bracket; one line naming the field.

    A ``ValueError`` too, so msgspec reports it with its path when it is raised while a
    ``league.toml`` converts."""


def home_ice_blocks(pattern: str, field: str = "home_ice") -> list[int]:
    """The home blocks of a pattern such as ``2-2-1-1-1``: [2, 2, 1, 1, 1]."""
    if not isinstance(pattern, str) or not _PATTERN.match(pattern):
        raise PlayoffFormatError(f"field {field!r}: {pattern!r} is not a home-ice pattern "
                                 "(blocks of games at alternate rinks, e.g. '2-2-1-1-1')")
    return [int(p) for p in pattern.split("-")]


def _power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


class PlayoffFormat(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A league's ``[playoffs]`` table.

    ``format = "draft"`` is rule 9 exactly. Otherwise exactly one of ``teams`` (the top N
    of the standings), ``per_conference`` or ``per_division`` (the top N of each group,
    whose champions then meet) says who qualifies; ``byes`` is how many top seeds of each
    bracket sit out round 1; ``reseed`` (true: each round the best survivor meets the
    worst; false: a fixed bracket, 1v8 4v5 2v7 3v6); ``series`` one length per round;
    ``home_ice`` one pattern (every round) or one per round, the better seed at home first.
    Checks here need no league; ``engine.league.formats.resolve_format`` checks the rest
    against the league's conferences and divisions and fills the defaults.
    """

    format: Literal["draft"] | None = None
    teams: Annotated[int, Meta(ge=2)] | None = None
    per_conference: Annotated[int, Meta(ge=1)] | None = None
    per_division: Annotated[int, Meta(ge=1)] | None = None
    byes: Annotated[int, Meta(ge=0)] | None = None
    reseed: bool | None = None
    series: Annotated[list[Length], Meta(min_length=1)] | None = None
    home_ice: str | Annotated[list[str], Meta(min_length=1)] | None = None

    def __post_init__(self) -> None:
        if self.format == "draft":
            self._check_draft()
            return
        given = [n for n in ("teams", "per_conference", "per_division")
                 if getattr(self, n) is not None]
        if not given:
            raise PlayoffFormatError("field 'format': a [playoffs] table needs format = "
                                     "\"draft\" (rule 9) or one of teams, per_conference, "
                                     "per_division")
        if len(given) > 1:
            raise PlayoffFormatError(f"field {given[1]!r}: give one of teams, per_conference, "
                                     f"per_division, not {' and '.join(given)}")
        self._check_byes(given[0])
        for i, n in enumerate(self.series or []):
            if n % 2 == 0:
                raise PlayoffFormatError(f"field 'series[{i}]': a series is best of an odd "
                                         f"number of games (no tie ends one), not {n}")
        patterns = [self.home_ice] if isinstance(self.home_ice, str) else self.home_ice or []
        for i, pattern in enumerate(patterns):
            home_ice_blocks(pattern, "home_ice" if isinstance(self.home_ice, str)
                            else f"home_ice[{i}]")

    def _check_draft(self) -> None:
        """Rule 9 leaves nothing to choose: a field may only repeat its value."""
        rule9 = {"teams": DRAFT_TEAMS, "byes": DRAFT_BYES, "reseed": True,
                 "series": list(DRAFT_SERIES), "per_conference": None, "per_division": None}
        for name, value in rule9.items():
            mine = getattr(self, name)
            if mine is not None and mine != value:
                raise PlayoffFormatError(
                    f"field {name!r}: format = \"draft\" is rule 9 exactly (the first six, "
                    "1 and 2 with a bye, reseeded, best of 7); leave it out or drop 'format'")
        if self.home_ice is not None:
            patterns = [self.home_ice] if isinstance(self.home_ice, str) else self.home_ice
            if len(patterns) not in (1, len(DRAFT_SERIES)):
                raise PlayoffFormatError("field 'home_ice': one pattern, or one for each of "
                                         "the draft format's 3 rounds")
            for i, pattern in enumerate(patterns):
                if sum(home_ice_blocks(pattern, f"home_ice[{i}]")) != 7:
                    raise PlayoffFormatError(f"field 'home_ice': {pattern!r} is not 7 games "
                                             "(rule 9: all series are 4 out of 7)")

    def _check_byes(self, field: str) -> None:
        qualifiers = getattr(self, field)
        byes = self.byes or 0
        if qualifiers == 1 and field == "teams":
            raise PlayoffFormatError("field 'teams': a playoff needs two teams or more")
        if byes and byes > qualifiers - 2:
            raise PlayoffFormatError(f"field 'byes': {byes} byes leave fewer than two of "
                                     f"{qualifiers} teams to play round 1")
        if not _power_of_two(qualifiers + byes):
            raise PlayoffFormatError(
                f"field 'byes': {qualifiers} teams and {byes} byes do not make a bracket "
                f"({field} + byes must be a power of two: 2, 4, 8, 16...)")

    @property
    def qualifiers(self) -> int:
        """Teams per bracket (the whole league's for ``teams`` and ``draft``)."""
        if self.format == "draft":
            return DRAFT_TEAMS
        return self.teams or self.per_conference or self.per_division or 0


class PlayoffSeed(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A playoff team: its ``seed`` in its first bracket (1 the best), its ``rank`` in the
    final standings of the whole league (1 first; the better rank has home ice), and the
    ``pool`` (bracket) it starts in."""

    team: str
    seed: int
    rank: int
    pool: str


class PlayoffPool(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One bracket of the playoffs: a league's (``league``), a conference's or a
    division's. ``parent`` is the pool its champion goes on to ("" for the league's);
    ``teams`` the qualifiers of a first bracket in seed order (empty for a pool whose
    teams are its children's champions)."""

    name: str
    parent: str
    teams: list[str]


class PlayoffsOpened(Event, frozen=True, tag="postseason.PlayoffsOpened"):
    """The playoffs begin (rule 9): the league's format with every default filled, the
    seeds from the final standings (rule 29's tie-breaks already applied) and the pools."""

    format: PlayoffFormat
    seeds: list[PlayoffSeed]
    pools: list[PlayoffPool]
    rule: str


class RoundOpened(Event, frozen=True, tag="postseason.RoundOpened"):
    """Round ``round`` begins; ``byes`` go on without playing (rule 9: 1st and 2nd place
    have a bye in the first round). Its series follow, one SeriesScheduled each."""

    round: int
    byes: list[str]
    rule: str


class SeriesScheduled(Event, frozen=True, tag="postseason.SeriesScheduled"):
    """A series of round ``round`` (``slot`` 1, 2... in bracket order): ``high`` has the
    better rank and home ice in the pattern's first block; first to ``length // 2 + 1``
    wins (rule 9: "4 out of 7")."""

    round: int
    slot: int
    pool: str
    high: str
    low: str
    high_seed: int
    low_seed: int
    length: int
    home_ice: str
    rule: str


class SeriesGameRecorded(Event, frozen=True, tag="postseason.SeriesGameRecorded"):
    """Game ``game`` of a series was played (stream ``game_id``) and won by ``winner``;
    a playoff game has no tie and no shootout (DICE Hockey 13)."""

    round: int
    slot: int
    game: int
    game_id: str
    home: str
    away: str
    winner: str
    rule: str


class SeriesWon(Event, frozen=True, tag="postseason.SeriesWon"):
    """A series is over: ``winner`` reached ``wins`` (rule 9: four of seven)."""

    round: int
    slot: int
    winner: str
    loser: str
    wins: int
    losses: int
    rule: str


class PlayoffsWon(Event, frozen=True, tag="postseason.PlayoffsWon"):
    """The last series is over: ``champion`` won the final (rule 9: "Winners will meet in
    the final")."""

    champion: str
    rule: str


class LotteryEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A team in the draft lottery (rule 31): its ``place`` in the final standings, its
    ``opportunities`` (7th place 1 ... 13th place 7) and ``natural_pick``, the pick that
    reverse standings would give it (13th of 13: pick 1)."""

    team: str
    place: int
    opportunities: int
    natural_pick: int


class LotteryOpened(Event, frozen=True, tag="postseason.LotteryOpened"):
    """The draft lottery begins (rule 31): the non-playoff teams with their opportunities,
    the previous season's first pick ("" if none: nobody drafts first two years in a row)
    and the playoff teams, who pick after them in reverse order of the standings.
    ``dice``: ``seeded`` (every roll derived from the season's seed, which the audit
    re-derives) or ``table`` (typed at the table)."""

    entries: list[LotteryEntry]
    previous_first: str
    playoff_teams: list[str]
    rule: str
    dice: Literal["seeded", "table"] = "seeded"


LotteryHow = Literal["drawn", "first pick twice", "two-spot limit", "last team"]


class LotteryDraw(Event, frozen=True, tag="postseason.LotteryDraw"):
    """Pick ``pick`` goes to ``team`` (rule 31). ``how``: ``drawn`` (``roll`` of a die of
    ``sides`` faces, one per opportunity left, picked ball ``roll``); ``first pick twice``
    (its ball was drawn first but it picked first last season: the second pick, and the
    first is drawn again); ``two-spot limit`` (it would fall more than two spots: placed
    without a roll); ``last team`` (the only team left)."""

    pick: int
    team: str
    place: int
    how: LotteryHow
    roll: int | None
    sides: int
    rule: str


class LotteryOrderSet(Event, frozen=True, tag="postseason.LotteryOrderSet"):
    """The first round's draft order, first pick first: the lottery's teams, then the
    playoff teams in reverse order of the standings (rule 31)."""

    order: list[str]
    rule: str


PostseasonEvent = (PlayoffsOpened | RoundOpened | SeriesScheduled | SeriesGameRecorded | SeriesWon
                   | PlayoffsWon | LotteryOpened | LotteryDraw | LotteryOrderSet)
"""Every postseason event: a season stream (the one SeasonCreated opens) holds them."""
