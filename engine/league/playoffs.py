"""The playoff bracket as a pure fold (Hockey Bones draft league rule 9, and the formats
a league's ``[playoffs]`` table declares).

Decide and evolve, as the game rules are: :func:`open_playoffs` turns the final standings
(rule 29's tie-breaks already applied: the ordered team list is the input) into the
opening events; :func:`record_game` turns a played game into events (the game, a series
won, the next round's pairings once a round is done, the champion); :func:`evolve` folds
one event into a :class:`Bracket`. No I/O and no dice: who wins a game is the game's.

Pairing (rule 9): each round the best survivor of a bracket (pool) meets the worst, the
second best the second worst (``reseed``: rule 9's "1st place team will play the lowest
seeded survivor. 2nd place team will play the other"), or, in a fixed bracket, the
standard positions (1v8, 4v5, 2v7, 3v6: neighbours' winners meet). Seeds left without an
opponent in round 1 are the byes (rule 9: 1st and 2nd). The better rank in the final
standings is ``high`` and has home ice in the pattern's first block.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from engine.league.formats import Division, pool_members, pool_plan, resolve_format
from events.errors import RinklogError
from events.postseason import (
    PlayoffFormat,
    PlayoffPool,
    PlayoffSeed,
    PlayoffsOpened,
    PlayoffsWon,
    RoundOpened,
    SeriesGameRecorded,
    SeriesScheduled,
    SeriesWon,
    home_ice_blocks,
)

__all__ = ["TABLE_DAYS", "Bracket", "PlayWindow", "PlayoffError", "Pool", "Round",
           "ScheduledGame", "Series", "SeriesGame", "bracket_order", "evolve", "fold",
           "next_games", "open_playoffs", "play_window", "record_game"]

RULE = "9"  # the draft league's playoff rule (Hockey Bones text, Draft League Setup)


class PlayoffError(RinklogError):
    """A playoff game or standings that do not fit the bracket; one line."""


class SeriesGame(msgspec.Struct, frozen=True):
    game: int
    game_id: str
    home: str
    away: str
    winner: str


class Series(msgspec.Struct, frozen=True):
    """One series: first to ``wins_needed`` (rule 9: 4 out of 7)."""

    round: int
    slot: int
    pool: str
    high: str
    low: str
    high_seed: int
    low_seed: int
    length: int
    home_ice: str
    games: tuple[SeriesGame, ...] = ()
    winner: str | None = None

    @property
    def wins_needed(self) -> int:
        return self.length // 2 + 1

    def wins(self, team: str) -> int:
        return sum(1 for g in self.games if g.winner == team)

    @property
    def over(self) -> bool:
        return self.winner is not None

    def home_of(self, game: int) -> str:
        """The home team of game ``game`` (1-based): the pattern's blocks alternate rinks,
        the high seed's first (2-2-1-1-1: games 1, 2, 5, 7 at the high seed's)."""
        start = 0
        for block, size in enumerate(home_ice_blocks(self.home_ice)):
            start += size
            if game <= start:
                return self.high if block % 2 == 0 else self.low
        raise PlayoffError(f"round {self.round} series {self.slot} has no game {game} "
                           f"(best of {self.length})")


class PlayWindow(msgspec.Struct, frozen=True):
    """Rule 32: the games of one home block and the days a manager has to play them from
    receiving the road line-up (``days`` None: a block the text does not pace)."""

    games: tuple[int, ...]
    days: int | None


# Rule 32: "7 days from the time he receives a road lineup ... to play his two games. 4
# days for single games ie games 5, 6, and 7". A three-game block (2-3-2) is not paced.
TABLE_DAYS = {2: 7, 1: 4}


def play_window(series: Series, game: int) -> PlayWindow:
    """The home block holding game ``game`` and its days at the table (rule 32)."""
    start = 0
    for size in home_ice_blocks(series.home_ice):
        if game <= start + size:
            return PlayWindow(tuple(range(start + 1, start + size + 1)), TABLE_DAYS.get(size))
        start += size
    raise PlayoffError(f"round {series.round} series {series.slot} has no game {game} "
                       f"(best of {series.length})")


class Round(msgspec.Struct, frozen=True):
    number: int
    byes: tuple[str, ...]
    series: tuple[Series, ...] = ()

    @property
    def over(self) -> bool:
        return bool(self.series) and all(s.over for s in self.series)


class Pool(msgspec.Struct, frozen=True):
    """A bracket's survivors in bracket order ("" marks a fixed bracket's empty seat)."""

    name: str
    parent: str
    alive: tuple[str, ...]


class Bracket(msgspec.Struct, frozen=True):
    format: PlayoffFormat
    seeds: tuple[PlayoffSeed, ...]
    pools: tuple[Pool, ...]
    rounds: tuple[Round, ...] = ()
    champion: str | None = None

    def seed_of(self, team: str) -> PlayoffSeed:
        for seed in self.seeds:
            if seed.team == team:
                return seed
        raise PlayoffError(f"{team} is not a playoff team")

    def series(self, round: int, slot: int) -> Series:
        for r in self.rounds:
            for s in r.series:
                if (r.number, s.slot) == (round, slot):
                    return s
        raise PlayoffError(f"no series {slot} in round {round} of these playoffs")


class _Pairing(msgspec.Struct, frozen=True):
    pool: str
    a: str
    b: str


class ScheduledGame(msgspec.Struct, frozen=True):
    """The next game of an open series: its number in the series and its rinks."""

    round: int
    slot: int
    game: int
    home: str
    away: str


def bracket_order(size: int) -> list[int]:
    """Seeds in fixed-bracket positions: 8 -> 1 8 4 5 2 7 3 6 (neighbours meet)."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


# --- decide ------------------------------------------------------------------------------

def open_playoffs(fmt: PlayoffFormat, standings: list[str],
                  divisions: list[Division]) -> list[Any]:
    """The opening events: PlayoffsOpened (format resolved, seeds, pools) and round 1.

    ``standings`` is the whole league, first place first, rule 29 already applied."""
    teams = [t for d in divisions for t in d.teams]
    if sorted(standings) != sorted(teams):
        missing = sorted(set(teams) - set(standings)) or sorted(set(standings) - set(teams))
        raise PlayoffError(f"the standings do not list the league's teams once each "
                           f"({', '.join(missing) or 'a team twice'})")
    resolved = resolve_format(fmt, divisions)
    rank = {team: i + 1 for i, team in enumerate(standings)}
    plan = pool_plan(resolved, divisions)
    first = [p.name for p in plan if not any(q.parent == p.name for q in plan)]
    seeds: list[PlayoffSeed] = []
    pools: list[PlayoffPool] = []
    for pool in plan:
        if pool.name not in first:
            pools.append(pool)
            continue
        members = set(pool_members(pool.name, divisions))
        qualified = [t for t in standings if t in members][:resolved.qualifiers]
        seeds += [PlayoffSeed(t, i + 1, rank[t], pool.name) for i, t in enumerate(qualified)]
        pools.append(PlayoffPool(pool.name, pool.parent, qualified))
    seeds.sort(key=lambda s: s.rank)
    opened = PlayoffsOpened(format=resolved, seeds=seeds, pools=pools, rule=RULE)
    return [opened, *_next_round(evolve(None, opened))]

    return [t for d in divisions if pool in (d.conference, f"{d.conference}/{d.name}")
            for t in d.teams]


def record_game(bracket: Bracket, round: int, slot: int, game_id: str,
                winner: str) -> list[Any]:
    """The events of a played playoff game: SeriesGameRecorded, and SeriesWon when the
    winner reaches ``length // 2 + 1``; the next round once this one is done, or
    PlayoffsWon after the final."""
    if bracket.champion is not None:
        raise PlayoffError(f"the playoffs are over: {bracket.champion} won")
    series = bracket.series(round, slot)
    if series.over:
        raise PlayoffError(f"round {round} series {slot} is over: {series.winner} won "
                           f"{series.wins(series.winner or '')}-"
                           f"{len(series.games) - series.wins(series.winner or '')}")
    if round != bracket.rounds[-1].number:
        raise PlayoffError(f"round {round} is not the round being played")
    if winner not in (series.high, series.low):
        raise PlayoffError(f"{winner} is not in round {round} series {slot} "
                           f"({series.high} v {series.low})")
    number = len(series.games) + 1
    home = series.home_of(number)
    away = series.low if home == series.high else series.high
    events: list[Any] = [SeriesGameRecorded(round=round, slot=slot, game=number,
                                            game_id=game_id, home=home, away=away,
                                            winner=winner, rule=RULE)]
    if series.wins(winner) + 1 == series.wins_needed:
        loser = series.low if winner == series.high else series.high
        events.append(SeriesWon(round=round, slot=slot, winner=winner, loser=loser,
                                wins=series.wins_needed, losses=series.wins(loser), rule=RULE))
        after = fold(events, bracket)
        if after.rounds[-1].over:
            events += _next_round(after)
    return events


def _next_round(bracket: Bracket) -> list[Any]:
    """Pairings of the next round (RoundOpened, SeriesScheduled...) or PlayoffsWon."""
    active = [p for p in bracket.pools if p.alive]
    if len(active) == 1 and active[0].parent == "" and len(active[0].alive) == 1:
        return [PlayoffsWon(champion=active[0].alive[0], rule=RULE)]
    number = len(bracket.rounds) + 1
    fmt = bracket.format
    length = (fmt.series or [])[number - 1]
    pattern = (fmt.home_ice or [])[number - 1]
    rank = {s.team: s.rank for s in bracket.seeds}
    byes: list[str] = []
    pairs: list[_Pairing] = []
    for pool in active:
        if fmt.reseed:
            teams = sorted((t for t in pool.alive if t), key=rank.__getitem__)
            free = (1 << (len(teams) - 1).bit_length()) - len(teams)  # byes to a power of 2
            byes += teams[:free]
            playing = teams[free:]
            pairs += [_Pairing(pool.name, playing[i], playing[-1 - i])
                      for i in range(len(playing) // 2)]
        else:
            for a, b in zip(pool.alive[0::2], pool.alive[1::2], strict=True):
                if a and b:
                    pairs.append(_Pairing(pool.name, a, b))
                else:
                    byes.append(a or b)
    events: list[Any] = [RoundOpened(round=number, byes=byes, rule=RULE)]
    for slot, pair in enumerate(pairs, start=1):
        high, low = sorted((pair.a, pair.b), key=rank.__getitem__)
        events.append(SeriesScheduled(
            round=number, slot=slot, pool=pair.pool, high=high, low=low,
            high_seed=bracket.seed_of(high).seed, low_seed=bracket.seed_of(low).seed,
            length=length, home_ice=pattern, rule=RULE))
    return events


def next_games(bracket: Bracket) -> list[ScheduledGame]:
    """The next game of every open series of the round being played."""
    if not bracket.rounds or bracket.champion is not None:
        return []
    out = []
    for s in bracket.rounds[-1].series:
        if not s.over:
            game = len(s.games) + 1
            home = s.home_of(game)
            out.append(ScheduledGame(s.round, s.slot, game, home,
                                     s.low if home == s.high else s.high))
    return out


# --- evolve ------------------------------------------------------------------------------

def _opened(event: PlayoffsOpened) -> Bracket:
    pools = []
    for pool in event.pools:
        alive: tuple[str, ...] = tuple(pool.teams)
        if pool.teams and not event.format.reseed:  # fixed: seats by bracket position
            size = len(pool.teams) + (event.format.byes or 0)
            alive = tuple(pool.teams[s - 1] if s <= len(pool.teams) else ""
                          for s in bracket_order(size))
        pools.append(Pool(pool.name, pool.parent, alive))
    return _promote(Bracket(format=event.format, seeds=tuple(event.seeds), pools=tuple(pools)))


def _promote(bracket: Bracket) -> Bracket:
    """Once every bracket of a level is down to its champion, the champions go on to
    their parents' bracket, in league order (a conference's or the league's)."""
    pools = list(bracket.pools)
    while True:
        active = [i for i, p in enumerate(pools) if p.alive]
        if not active or any(len(pools[i].alive) != 1 or not pools[i].parent for i in active):
            return msgspec.structs.replace(bracket, pools=tuple(pools))
        for i in active:
            j = next(k for k, p in enumerate(pools) if p.name == pools[i].parent)
            pools[j] = msgspec.structs.replace(pools[j], alive=pools[j].alive + pools[i].alive)
            pools[i] = msgspec.structs.replace(pools[i], alive=())


def _replace_series(bracket: Bracket, round: int, slot: int, series: Series) -> Bracket:
    rounds = tuple(msgspec.structs.replace(r, series=tuple(
        series if s.slot == slot else s for s in r.series)) if r.number == round else r
        for r in bracket.rounds)
    return msgspec.structs.replace(bracket, rounds=rounds)


def evolve(bracket: Bracket | None, event: Any) -> Bracket:
    """The bracket after one postseason event."""
    if isinstance(event, PlayoffsOpened):
        return _opened(event)
    if bracket is None:
        raise PlayoffError(f"{type(event).__name__} before PlayoffsOpened")
    if isinstance(event, RoundOpened):
        pools = tuple(msgspec.structs.replace(p, alive=tuple(t for t in p.alive if t))
                      for p in bracket.pools)  # a fixed bracket's empty seats are spent
        return msgspec.structs.replace(bracket, pools=pools, rounds=bracket.rounds + (
            Round(event.round, tuple(event.byes)),))
    if isinstance(event, SeriesScheduled):
        last = bracket.rounds[-1]
        series = Series(event.round, event.slot, event.pool, event.high, event.low,
                        event.high_seed, event.low_seed, event.length, event.home_ice)
        last = msgspec.structs.replace(last, series=last.series + (series,))
        return msgspec.structs.replace(bracket, rounds=bracket.rounds[:-1] + (last,))
    if isinstance(event, SeriesGameRecorded):
        s = bracket.series(event.round, event.slot)
        game = SeriesGame(event.game, event.game_id, event.home, event.away, event.winner)
        return _replace_series(bracket, event.round, event.slot,
                               msgspec.structs.replace(s, games=s.games + (game,)))
    if isinstance(event, SeriesWon):
        s = bracket.series(event.round, event.slot)
        bracket = _replace_series(bracket, event.round, event.slot,
                                  msgspec.structs.replace(s, winner=event.winner))
        pools = tuple(msgspec.structs.replace(p, alive=tuple(t for t in p.alive
                                                              if t != event.loser))
                      for p in bracket.pools)
        bracket = msgspec.structs.replace(bracket, pools=pools)
        return _promote(bracket) if bracket.rounds[-1].over else bracket
    if isinstance(event, PlayoffsWon):
        return msgspec.structs.replace(bracket, champion=event.champion)
    raise PlayoffError(f"not a playoff event: {type(event).__name__}")


def fold(events: Iterable[Any], bracket: Bracket | None = None) -> Bracket:
    """The bracket after ``events`` (from ``bracket``, or from the PlayoffsOpened)."""
    for event in events:
        bracket = evolve(bracket, event)
    if bracket is None:
        raise PlayoffError("no playoff events")
    return bracket
