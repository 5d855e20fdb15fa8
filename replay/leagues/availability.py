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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from events.common import Absent, GamesOut
from events.store import EventStore
from replay.leagues.naming import season_game_id

__all__ = ["Availability", "stored_availability"]

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
        for number, home, away in schedule:
            self.fixtures[number] = (home, away)
            for team in (home, away):
                games = self.team_games.setdefault(team, [])
                self.position[(team, number)] = len(games)
                games.append(number)
        self.known: set[int] = set()
        self.known_upto = dict.fromkeys(self.team_games, 0)  # each team's first games known
        self.rulings: dict[int, list[_Ruling]] = {}

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
                        games_out: GamesOutOf | None) -> Availability:
    """The rulings of every game of season ``season_id`` stored in ``store`` (its own
    games, ``{season_id}-{number:04d}``, not branches of them), read from their events.
    What the games rule is taken as stored: a game whose events are forged fails its own
    audit, and the games that follow it are held to what it says."""
    fixtures = [tuple(f) for f in schedule]
    found = Availability(fixtures, games_out)
    if games_out is None:
        return found
    for number, _, _ in fixtures:
        game_id = season_game_id(season_id, number)
        if not store.exists(game_id):
            continue
        try:
            events = [row.event for row in store.read(game_id)]
        except Exception:  # noqa: BLE001 - rows that do not decode fail their own audit
            continue  # and rule nothing here: the game is not known
        found.record_events(number, events)
    return found
