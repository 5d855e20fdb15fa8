"""The postseason's read models (issue 22): the playoff bracket and the draft lottery,
folded from the postseason events alone (``events.postseason``), never from the engine.

:func:`bracket_view` folds PlayoffsOpened, RoundOpened, SeriesScheduled,
SeriesGameRecorded, SeriesWon and PlayoffsWon into a :class:`BracketView`;
:func:`lottery_view` folds LotteryOpened, LotteryDraw and LotteryOrderSet into a
:class:`LotteryView`. Any other event in the stream is skipped, so either fold can be
given a whole season (or league) stream. :func:`bracket_json` and :func:`lottery_json`
are the shapes of ``rinklog bracket SEASON --json`` and ``rinklog lottery SEASON --json``
(docs/postseason.md, "Reading the postseason").

A series' wins are counted from its recorded games (SeriesGameRecorded.winner); its
winner is the SeriesWon's: the audit, not this fold, checks that they agree with rule 9's
"4 out of 7".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from events.errors import RinklogError
from events.postseason import (
    LotteryDraw,
    LotteryEntry,
    LotteryOpened,
    LotteryOrderSet,
    PlayoffsOpened,
    PlayoffsWon,
    RoundOpened,
    SeriesGameRecorded,
    SeriesScheduled,
    SeriesWon,
)

__all__ = ["BracketView", "DrawView", "LotteryView", "PostseasonStreamError", "RoundView",
           "SeriesGameView", "SeriesView", "bracket_json", "bracket_view", "lottery_json",
           "lottery_view"]


class PostseasonStreamError(RinklogError):
    """Postseason events out of order (a series game before its series...); one line."""


class SeriesGameView(msgspec.Struct, frozen=True):
    """Game ``game`` (1, 2...) of a series: its stream id, rinks and winner."""

    game: int
    game_id: str
    home: str
    away: str
    winner: str


class SeriesView(msgspec.Struct, frozen=True):
    """A series: ``high`` (the better final place, home ice first) against ``low``; each
    team's wins so far; ``winner`` once it is over (None before)."""

    round: int
    slot: int
    pool: str
    high: str
    low: str
    high_seed: int
    low_seed: int
    length: int
    wins: dict[str, int]
    winner: str | None = None
    results: tuple[SeriesGameView, ...] = ()

    @property
    def games(self) -> list[str]:
        """The game stream ids of the series, game 1 first."""
        return [g.game_id for g in self.results]

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.low if self.winner == self.high else self.high


class RoundView(msgspec.Struct, frozen=True):
    """Round ``round``: the teams with a bye (rule 9: 1st and 2nd in round 1) and its
    series in slot order."""

    round: int
    byes: tuple[str, ...] = ()
    series: tuple[SeriesView, ...] = ()


class BracketView(msgspec.Struct, frozen=True):
    """A season's playoffs. ``rounds`` holds the rounds opened so far; ``round_count`` is
    how many the format plays (0 before PlayoffsOpened); ``seeds`` each playoff team's seed
    in its first bracket; ``champion`` None until the final is won."""

    season: str
    champion: str | None = None
    rounds: tuple[RoundView, ...] = ()
    round_count: int = 0
    seeds: dict[str, int] = {}
    pools: dict[str, str] = {}  # team -> the bracket (pool) it started in

    @property
    def opened(self) -> bool:
        return self.round_count > 0

    def series(self, round: int, slot: int) -> SeriesView:
        for r in self.rounds:
            if r.round == round:
                for s in r.series:
                    if s.slot == slot:
                        return s
        raise PostseasonStreamError(f"no series {slot} in round {round} of season "
                                    f"{self.season}'s playoffs")


def _replace_series(view: BracketView, series: SeriesView) -> BracketView:
    rounds = tuple(msgspec.structs.replace(r, series=tuple(
        series if s.slot == series.slot else s for s in r.series))
        if r.round == series.round else r for r in view.rounds)
    return msgspec.structs.replace(view, rounds=rounds)


def _evolve_bracket(view: BracketView, event: Any) -> BracketView:
    if isinstance(event, PlayoffsOpened):
        return BracketView(view.season, round_count=len(event.format.series or []),
                           seeds={s.team: s.seed for s in event.seeds},
                           pools={s.team: s.pool for s in event.seeds})
    if not view.opened:
        raise PostseasonStreamError(f"{type(event).__name__} before PlayoffsOpened in "
                                    f"season {view.season}")
    if isinstance(event, RoundOpened):
        return msgspec.structs.replace(view, rounds=view.rounds + (
            RoundView(event.round, tuple(event.byes)),))
    if isinstance(event, SeriesScheduled):
        if not view.rounds or view.rounds[-1].round != event.round:
            raise PostseasonStreamError(f"series {event.slot} of round {event.round} "
                                        "scheduled before its round opened")
        last = view.rounds[-1]
        series = SeriesView(event.round, event.slot, event.pool, event.high, event.low,
                            event.high_seed, event.low_seed, event.length,
                            {event.high: 0, event.low: 0})
        return msgspec.structs.replace(view, rounds=view.rounds[:-1] + (
            msgspec.structs.replace(last, series=last.series + (series,)),))
    if isinstance(event, SeriesGameRecorded):
        s = view.series(event.round, event.slot)
        wins = {**s.wins, event.winner: s.wins.get(event.winner, 0) + 1}
        game = SeriesGameView(event.game, event.game_id, event.home, event.away, event.winner)
        return _replace_series(view, msgspec.structs.replace(s, wins=wins,
                                                             results=s.results + (game,)))
    if isinstance(event, SeriesWon):
        s = view.series(event.round, event.slot)
        return _replace_series(view, msgspec.structs.replace(s, winner=event.winner))
    if isinstance(event, PlayoffsWon):
        return msgspec.structs.replace(view, champion=event.champion)
    raise PostseasonStreamError(f"not a playoff event: {type(event).__name__}")


_BRACKET_EVENTS = (PlayoffsOpened, RoundOpened, SeriesScheduled, SeriesGameRecorded,
                   SeriesWon, PlayoffsWon)
_LOTTERY_EVENTS = (LotteryOpened, LotteryDraw, LotteryOrderSet)


def bracket_view(season: str, events: Iterable[Any]) -> BracketView:
    """The playoffs of ``season`` after ``events`` (other events skipped); a view with no
    rounds (``opened`` false) when the stream has no PlayoffsOpened yet."""
    view = BracketView(season)
    for event in events:
        if isinstance(event, _BRACKET_EVENTS):
            view = _evolve_bracket(view, event)
    return view


class DrawView(msgspec.Struct, frozen=True):
    """One placement of the lottery (rule 31): ``pick`` to ``team`` (``place`` in the
    final standings); ``how``: drawn (``roll`` of a ``sides``-faced die), first pick
    twice, two-spot limit or last team (``roll`` None, ``sides`` 0)."""

    pick: int
    team: str
    place: int
    how: str
    roll: int | None
    sides: int


class LotteryView(msgspec.Struct, frozen=True):
    """The draft lottery: ``order`` the first round, first pick first (empty until the
    lottery is drawn), ``draws`` every placement in the order made, ``entries`` the
    lottery's teams with their opportunities, ``playoff_teams`` in their draft order."""

    order: tuple[str, ...] = ()
    draws: tuple[DrawView, ...] = ()
    entries: tuple[LotteryEntry, ...] = ()
    previous_first: str = ""
    playoff_teams: tuple[str, ...] = ()
    opened: bool = False

    @property
    def drawn(self) -> bool:
        return bool(self.order)


def _evolve_lottery(view: LotteryView, event: Any) -> LotteryView:
    if isinstance(event, LotteryOpened):
        return LotteryView(entries=tuple(event.entries), previous_first=event.previous_first,
                           playoff_teams=tuple(event.playoff_teams), opened=True)
    if not view.opened:
        raise PostseasonStreamError(f"{type(event).__name__} before LotteryOpened")
    if isinstance(event, LotteryDraw):
        draw = DrawView(event.pick, event.team, event.place, event.how, event.roll,
                        event.sides)
        return msgspec.structs.replace(view, draws=view.draws + (draw,))
    if isinstance(event, LotteryOrderSet):
        return msgspec.structs.replace(view, order=tuple(event.order))
    raise PostseasonStreamError(f"not a lottery event: {type(event).__name__}")


def lottery_view(events: Iterable[Any]) -> LotteryView:
    """The lottery after ``events`` (other events skipped); an empty view before any."""
    view = LotteryView()
    for event in events:
        if isinstance(event, _LOTTERY_EVENTS):
            view = _evolve_lottery(view, event)
    return view


def bracket_json(view: BracketView) -> dict[str, Any]:
    """``rinklog bracket SEASON --json``: {"season", "champion", "rounds": [{"round",
    "series": [{"high", "low", "high_seed", "low_seed", "wins": {team: n}, "winner",
    "games": [game ids]}]}]} (issue 22; ``champion`` and an open series' ``winner`` null)."""
    return {
        "season": view.season,
        "champion": view.champion,
        "rounds": [{"round": r.round,
                    "series": [{"high": s.high, "low": s.low, "high_seed": s.high_seed,
                                "low_seed": s.low_seed, "wins": dict(s.wins),
                                "winner": s.winner, "games": s.games}
                               for s in r.series]}
                   for r in view.rounds],
    }


def lottery_json(view: LotteryView) -> dict[str, Any]:
    """``rinklog lottery SEASON --json``: {"order": [teams, first pick first], "draws":
    [{"pick", "team", "place", "how", "roll", "sides"}, ...]} (issue 22; ``roll`` null and
    ``sides`` 0 for a pick placed without a roll)."""
    return {"order": list(view.order),
            "draws": [{"pick": d.pick, "team": d.team, "place": d.place, "how": d.how,
                       "roll": d.roll, "sides": d.sides} for d in view.draws]}
