"""A league season's postseason in a database (issue 22): the draft lottery of rule 31
drawn and recorded in the season's stream, and the postseason events read back.

The lottery is drawn once, when the regular season is complete (every scheduled game
stored and ended), from the final standings (``rinklog standings``' order, rule 29's
tie-breaks applied), the playoff teams (:func:`playoff_teams`) and the previous
season's first pick (:func:`previous_first_pick`). Its dice are seeded from the season's
seed (:data:`LOTTERY_ID`, ``engine.league.lottery.seeded_lottery_roll``) or typed at the
table. Its events (LotteryOpened, one LotteryDraw per pick, LotteryOrderSet) are appended
to the season stream in one transaction, after the rules took every roll, so a lottery is
either whole or not there. The audit re-derives it (replay/leagues/audit_postseason.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from engine.league.lottery import (
    LotteryError,
    evolve_lottery,
    next_draw,
    open_lottery,
    place,
    seeded_lottery_roll,
)
from events.common import GameEnded
from events.errors import RinklogError
from events.league import SeasonCreated
from events.plurals import counted
from events.postseason import DRAFT_TEAMS, PlayoffsOpened
from events.store import EventStore
from projections.postseason import BracketView, LotteryView, bracket_view, lottery_view
from replay.leagues.ledger import ledger_of
from replay.leagues.naming import season_game_id
from replay.leagues.season_stream import SeasonStream
from replay.leagues.stored_seasons import load_season, seasons, standings

__all__ = ["LOTTERY_ID", "DrawnLottery", "RegularSeasonOpen", "draw_lottery",
           "final_standings", "lottery_events", "missing_regular_games", "playoff_teams",
           "previous_first_pick", "read_bracket", "read_lottery", "season_events"]

LOTTERY_ID = "lottery"
"""The seeded lottery's dice: draw n is ``seeded_lottery_roll(season seed, "lottery")(n, B)``
(docs/postseason.md)."""


class RegularSeasonOpen(RinklogError):
    """The lottery (or the playoffs) before every regular-season game is played."""


@dataclass(frozen=True)
class DrawnLottery:
    """The lottery just drawn: its read model and how many events it appended."""

    view: LotteryView
    events: int


def season_events(store: EventStore, season_id: str) -> list[Any]:
    """The season stream's events (load_season checks it is a season first)."""
    load_season(store, season_id)
    return [row.event for row in store.read(season_id)]


def read_lottery(store: EventStore, season_id: str) -> LotteryView:
    return lottery_view(season_events(store, season_id))


def read_bracket(store: EventStore, season_id: str) -> BracketView:
    return bracket_view(season_id, season_events(store, season_id))


def missing_regular_games(store: EventStore, created: SeasonCreated) -> list[int]:
    """The schedule's numbers whose game is not stored or not ended yet."""
    missing = []
    for number, _, _ in created.schedule:
        game = season_game_id(created.season_id, number)
        version = store.version(game) if store.exists(game) else 0
        if not version or not isinstance(store.read(game, version, version)[0].event,
                                         GameEnded):
            missing.append(number)
    return missing


def final_standings(store: EventStore, season_id: str) -> list[str]:
    """The teams in the order ``rinklog standings`` prints them (rule 29)."""
    return [r.team for r in standings(store, load_season(store, season_id))]


def playoff_teams(before: Sequence[Any], table: list[str]) -> list[str]:
    """The teams of the playoffs, as the lottery sees them: the seeds of a PlayoffsOpened
    in the season stream before the lottery (``before``: the events before it; ``rinklog
    lottery --draw`` opens the playoffs of the league's ``[playoffs]`` format first), else
    rule 9's six, the first six of the final standings (a league with no ``[playoffs]``
    table: rule 31 reads rule 9's playoffs), R-post-31d."""
    opened = next((e for e in before if isinstance(e, PlayoffsOpened)), None)
    if opened is not None:
        return [s.team for s in opened.seeds]
    return table[:DRAFT_TEAMS]


def _same_league(store: EventStore, season_id: str) -> tuple[list[str], list[str]]:
    """The league's other seasons in this database, (before, after) this one, in the
    order they were created (``stored_seasons.seasons``)."""
    own = store.read(season_id, 1, 1)[0].event
    assert isinstance(own, SeasonCreated)
    ids = []
    for other in seasons(store):
        first = store.read(other, 1, 1)[0].event
        if other == season_id or (isinstance(first, SeasonCreated)
                                   and first.league == own.league):
            ids.append(other)
    at = ids.index(season_id)
    return ids[:at], ids[at + 1:]


def previous_first_pick(store: EventStore, season_id: str) -> str:
    """The first pick of the league's previous season in this database ("" if none, or if
    it drew no lottery): the season stream listed just before this one (``rinklog
    seasons``' order, the order they were created in) whose SeasonCreated names the same
    league."""
    before, _ = _same_league(store, season_id)
    if not before:
        return ""
    view = lottery_view(row.event for row in store.read(before[-1]))
    return view.order[0] if view.drawn else ""


def lottery_events(table: list[str], playoffs: list[str], previous_first: str,
                   seed: str, rolls: Sequence[int] | None) -> list[Any]:
    """Every event of a lottery (rule 31): seeded dice from ``seed`` when ``rolls`` is
    None, else the typed ``rolls``, one per draw that needs a die, all of them used."""
    opened = open_lottery(table, playoffs, previous_first)
    if not opened.entries:
        raise LotteryError(f"all {counted(len(table), 'team')} are in the playoffs: no team for the "
                           "draft lottery (rule 31: non-playoff teams only)")
    opened = msgspec.structs.replace(opened, dice="seeded" if rolls is None else "table")
    seeded = seeded_lottery_roll(seed, LOTTERY_ID)
    events: list[Any] = [opened]
    state = evolve_lottery(None, opened)
    used = 0
    while (step := next_draw(state)) is not None:
        roll = None
        if step.sides:
            used += 1
            if rolls is None:
                roll = seeded(used, step.sides)
            elif used > len(rolls):
                raise LotteryError(f"pick {step.pick} needs a number 1-{step.sides}: the "
                                   f"{len(rolls)} typed rolls ran out")
            else:
                roll = rolls[used - 1]
        for event in place(state, roll):
            events.append(event)
            state = evolve_lottery(state, event)
    if rolls is not None and used < len(rolls):
        raise LotteryError(f"the lottery took {counted(used, 'roll')}; "
                           f"{counted(len(rolls) - used, 'typed roll')} left over (give one per draw "
                           "that needs a die)")
    return events


def draw_lottery(store: EventStore, season_id: str, rolls: Sequence[int] | None = None,
                 opening: Sequence[Any] = (), *,
                 season: SeasonStream | None = None) -> DrawnLottery:
    """Draw the season's lottery and append it to the season stream (once; refused before
    the regular season is complete, and once drawn). ``opening``: the playoffs' opening
    (PlayoffsOpened, round 1) of the league's ``[playoffs]`` format, appended first in the
    same transaction, whose seeds are the playoff teams (R-post-31d;
    ``replay.leagues.playoffs.draw_season_lottery`` gives it). ``season``: the season as
    the caller read it before deciding the opening (None: as it stands now)."""
    season = season or SeasonStream.at(store, season_id)
    found = load_season(store, season_id)
    events = season_events(store, season_id)
    if lottery_view(events).opened:
        raise LotteryError(f"season {season_id}'s draft lottery is already drawn (once, rule "
                           f"31): `rinklog lottery {season_id}` prints it")
    if not ledger_of(store, season_id).recorded:
        raise LotteryError(f"season {season_id} was stored before seasons recorded their "
                           "games: its stream takes no lottery (play it again in another --db)")
    missing = missing_regular_games(store, found.created)
    if missing:
        raise RegularSeasonOpen(
            f"season {season_id}: the regular season is not complete ({len(missing)} of "
            f"{counted(len(found.created.schedule), 'game')} to play, first game {missing[0]}); the "
            "lottery is drawn from the final standings")
    _, after = _same_league(store, season_id)
    later = next((s for s in after if read_lottery(store, s).opened), None)
    if later is not None:
        raise LotteryError(f"season {later}, after {season_id} in league "
                           f"{found.created.league}, has drawn its lottery already from this "
                           "season's first pick (none yet): draw the lotteries in order")
    table = [r.team for r in standings(store, found)]
    drawn = lottery_events(table, playoff_teams([*events, *opening], table),
                           previous_first_pick(store, season_id),
                           ledger_of(store, season_id).dice_seed(), rolls)  # odds.md
    with store.transaction():
        season.append([*opening, *drawn])
    return DrawnLottery(lottery_view(drawn), len(drawn))
