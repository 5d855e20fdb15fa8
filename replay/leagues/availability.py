"""Who is out of each game of a season: injuries' games missed and suspensions carried
from a team's earlier season games into its later ones.

A game system names what a game's events rule for later games (``GameSystem.games_out``:
DICE Hockey's injuries, 17, and game misconduct suspensions, 15; Hockey Bones has none,
its injuries and game misconducts end with the game, 18.10, 14.50-14.52). A player ruled
out for N games in his team's k-th game of the season dresses for none of its games
k+1..k+N, in the order of the season's schedule, and each of those games records him in
``GameCreated.absent`` (team, player, the game that put him out, its rule).

Everything here is a fold of the season's own games in schedule order, so a season plays
the same with any number of workers: a game is played only once every earlier game of
both its teams is known (:meth:`Availability.ready`), and the audit folds the same from
the stored games (:func:`stored_availability`) and holds each game's ``absent`` to it.

The playoffs (issue 22) go on from there (:class:`PlayoffAvailability`, ruling
R-post-absent): the texts count games missed in games ("suspended for" a die's games, 15;
"injured for 30 games", 17), not in regular-season games, so a team's playoff games, in
the bracket's order, are its next games after its regular season's. A playoff game that
puts a player out is named ``Absent.game`` 0 (a playoff game has no schedule number).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from events.base import tag_of
from events.common import Absent, GamesOut
from events.store import EventStore
from replay.leagues.naming import PLAYOFF_NUMBER, season_game_id

__all__ = ["Availability", "PlayoffAvailability", "stored_availability",
           "stored_playoff_availability"]

if TYPE_CHECKING:
    from engine.registration import GameSystem

GamesOutOf = Callable[[Sequence[object]], list[GamesOut]]


@dataclass(frozen=True)
class _Ruling:
    """A player of ``team`` out of its next ``games`` games after season game ``game``."""

    team: str
    player: str
    game: int
    games: int
    rule: str


class Availability:
    """The rulings of a season's games known so far, and who is out of each game."""

    def __init__(self, schedule: Iterable[Sequence], games_out: GamesOutOf | None) -> None:
        self.games_out = games_out
        self.fixtures: dict[int, tuple[str, str]] = {}
        self.team_games: dict[str, list[int]] = {}  # each team's games in schedule order
        self.position: dict[tuple[str, int], int] = {}  # (team, game) -> index in its list
        self.known_upto: dict[str, int] = {}  # each team's first games known
        for number, home, away in schedule:
            self.add_fixture(number, home, away)
        self.known: set[int] = set()
        self.rulings: dict[int, list[_Ruling]] = {}

    def add_fixture(self, number: int, home: str, away: str) -> None:
        """Game ``number`` of ``home`` and ``away``, after every game of theirs so far."""
        self.fixtures[number] = (home, away)
        for team in (home, away):
            games = self.team_games.setdefault(team, [])
            self.known_upto.setdefault(team, 0)
            self.position[(team, number)] = len(games)
            games.append(number)

    @property
    def carried(self) -> bool:
        """Whether the season's system carries anything into later games at all."""
        return self.games_out is not None

    def record(self, number: int, outs: Iterable[GamesOut]) -> None:
        """Season game ``number``'s rulings (a system's ``games_out`` of its events)."""
        home, away = self.fixtures[number]
        self.known.add(number)
        for team in (home, away):
            games, upto = self.team_games[team], self.known_upto[team]
            while upto < len(games) and games[upto] in self.known:
                upto += 1
            self.known_upto[team] = upto
        found = [_Ruling(home if o.side == "home" else away, o.player, number, o.games, o.rule)
                 for o in outs]
        if found:
            self.rulings[number] = found

    def record_events(self, number: int, events: Sequence[object]) -> None:
        self.record(number, self.games_out(events) if self.games_out is not None else ())

    def earlier(self, number: int) -> list[int]:
        """The games of both teams before ``number`` in the schedule, in order."""
        home, away = self.fixtures[number]
        games = {g for team in (home, away)
                 for g in self.team_games[team][:self.position[(team, number)]]}
        return sorted(games)

    def waiting_on(self, number: int) -> list[int]:
        """The earlier games of both teams whose rulings are not known yet."""
        if not self.carried:
            return []
        return [g for g in self.earlier(number) if g not in self.known]

    def ready(self, number: int) -> bool:
        """Whether who is out of game ``number`` is known (every earlier game of its teams
        is), so it may be played."""
        return not self.carried or all(
            self.known_upto[team] >= self.position[(team, number)]
            for team in self.fixtures[number])

    def absent(self, number: int) -> list[Absent]:
        """Who does not dress for game ``number``: home team first, each team's players by
        id; a player out by two rulings at once is named with the later one."""
        home, away = self.fixtures[number]
        out: dict[tuple[int, str], Absent] = {}
        for order, team in enumerate((home, away)):
            games = self.team_games[team]
            k = self.position[(team, number)]
            for j, earlier in enumerate(games[:k]):
                for ruling in self.rulings.get(earlier, ()):
                    if ruling.team == team and k - j <= ruling.games:
                        out[(order, ruling.player)] = Absent(team=team, player=ruling.player,
                                                             game=earlier, rule=ruling.rule)
        return [out[key] for key in sorted(out)]


def stored_availability(store: EventStore, season_id: str, schedule: Iterable[Sequence],
                        system: GameSystem) -> Availability:
    """The rulings of every game of season ``season_id`` stored in ``store`` (its own
    games, ``{season_id}-{number:04d}``, not branches of them), read from their events.
    What the games rule is taken as stored: a game whose events are forged fails its own
    audit, and the games that follow it are held to what it says."""
    fixtures = [tuple(f) for f in schedule]
    found = Availability(fixtures, system.games_out)
    if system.games_out is None:
        return found
    for number, _, _ in fixtures:
        events = _ruling_events(store, season_game_id(season_id, number), system)
        if events is not None:
            found.record_events(number, events)
    return found


def _ruling_events(store: EventStore, game_id: str, system: GameSystem) -> list[Any] | None:
    """The events of a stored game that its system's ``games_out`` reads (only those
    types, when the system names them: a DICE Hockey game's few rulings of ~900 events,
    a season's every earlier game read for each audit of one); None when the game is not
    stored or its rows do not decode (they fail their own audit, and rule nothing here:
    the game is not known)."""
    if not store.exists(game_id):
        return None
    try:
        if system.games_out_events:
            return store.read_tagged(game_id, [tag_of(t) for t in system.games_out_events])
        return [row.event for row in store.read(game_id)]
    except Exception:  # noqa: BLE001 - rows that do not decode fail their own audit
        return None


class PlayoffAvailability:
    """Who is out of each playoff game of a season: its regular season's rulings
    (``regular``) carried on into each team's playoff games, added in the bracket's order
    (round, game, slot), and the rulings of those games themselves (R-post-absent)."""

    def __init__(self, regular: Availability) -> None:
        self.availability = regular
        self.base = max(regular.fixtures, default=0)  # playoff games are numbered after it
        self.numbers: dict[str, int] = {}

    def add(self, game_id: str, home: str, away: str,
            events: Sequence[object] | None = None) -> None:
        """Playoff game ``game_id`` (after every game of its teams added so far), and what
        it rules for their later games when its ``events`` are known."""
        number = self.base + len(self.numbers) + 1
        self.numbers[game_id] = number
        self.availability.add_fixture(number, home, away)
        if events is not None:
            self.record(game_id, events)

    def record(self, game_id: str, events: Sequence[object]) -> None:
        self.availability.record_events(self.numbers[game_id], events)

    def record_outs(self, game_id: str, outs: Iterable[GamesOut]) -> None:
        """What playoff game ``game_id`` rules (its system's ``games_out``)."""
        self.availability.record(self.numbers[game_id], outs)

    def absent(self, game_id: str) -> list[Absent]:
        """Who does not dress for playoff game ``game_id`` (added before), as
        :meth:`Availability.absent` names them; a playoff game that put a player out is
        named by ``game`` 0."""
        return [a if a.game <= self.base else msgspec.structs.replace(a, game=PLAYOFF_NUMBER)
                for a in self.availability.absent(self.numbers[game_id])]


def stored_playoff_availability(store: EventStore, season_id: str,
                                schedule: Iterable[Sequence], system: GameSystem,
                                games: Iterable[tuple[str, str, str]]) -> PlayoffAvailability:
    """The playoff availability of a stored season: its regular season's stored games,
    then its playoff ``games`` (game id, home, away) in the bracket's order, each read
    from the store when it is there (a game not stored yet rules nothing)."""
    found = PlayoffAvailability(stored_availability(store, season_id, schedule, system))
    for game_id, home, away in games:
        events = None if system.games_out is None else _ruling_events(store, game_id, system)
        found.add(game_id, home, away, events)
    return found
