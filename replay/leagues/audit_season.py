"""The audit's checks of a season as the ledger of its games (issue 20, docs/trust.md).

- :func:`season_stream`: a season stream folded by the season's own rules
  (:mod:`replay.leagues.season`, the code every writer appends through): its
  SeasonCreated, then its SeasonCoachSet, then records (and the postseason's events,
  which :mod:`replay.leagues.audit_postseason` checks). A stream of SeasonCreated alone
  was written before season records: it passes, with a warning.
- :func:`game_notes`: the events a game carries right after its GameCreated (the season
  opening it pins, its coach's habits) stand there, once each, and only where they may.
- :func:`season_game`: a game of a season that keeps records pins the season's opening,
  played (if simulated) with the season's coach habits, and is the game its season
  recorded: same number, mode (simulated or table) and head hash; a table game still in
  progress is one the season marked started.
- :func:`missing_games`: a game the season recorded (or marked started) that the
  database does not hold (``audit --all``).

Each returns a :class:`Finding` (or None), which the audit reports as its ``season`` or
``kind`` check.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from events.base import Event
from events.common import GameCreated, GameEnded
from events.league import (
    GAME_NOTES,
    GameCoachSet,
    SeasonGameOpened,
)
from replay.games.scan import Kinds
from replay.leagues import season
from replay.leagues.ledger import SeasonLedger
from replay.leagues.season import RULE, SIMULATED, TABLE, Finding

__all__ = ["BEFORE_RECORDS", "RULE", "Finding", "game_habits", "game_notes", "missing_games",
           "season_game", "season_stream"]

BEFORE_RECORDS = ("recorded before season records: its games are held to its schedule, "
                  "seed and options but not to a record of them (only a receipt does)")


def season_stream(events: Sequence[Event]) -> Finding | None:
    """The season stream's own record, folded by the season's rules (season.py, the
    writer's own): the first event they refuse, or None."""
    try:
        season.fold(events)
    except season.SeasonRefused as refused:
        return refused.finding
    return None


def game_notes(events: Sequence[Event], created: GameCreated) -> Finding | None:
    """SeasonGameOpened then GameCoachSet, each at most once, right after GameCreated; the
    season pin only in a season game, the coach's habits only in a simulated game."""
    at = 1
    for cls in GAME_NOTES:
        if at < len(events) and isinstance(events[at], cls):
            at += 1
    seq = _NOTES.first(itertools.islice(events, at, None), at + 1)
    if seq is not None:
        event = events[seq - 1]
        return Finding("kind", seq, f"{type(event).__name__} only right after "
                       "GameCreated, once", f"at seq {seq}", "game stream")
    for seq, event in enumerate(events[1:at], 2):
        if isinstance(event, SeasonGameOpened) and (not created.season
                                                    or event.season != created.season):
            return Finding("season", seq, f"the season of GameCreated ({created.season!r})",
                           f"SeasonGameOpened of {event.season!r}")
        if isinstance(event, GameCoachSet) and created.live:
            return Finding("kind", seq, "no coach habits in a game played at the table "
                           "(its choices are typed)", "GameCoachSet", "docs/coach.md")
    return None


_NOTES = Kinds(GAME_NOTES)


def game_habits(events: Sequence[Event]) -> tuple[dict, dict]:
    """The coach habits a game records ({} and {}: the default coach)."""
    for event in events[1:3]:
        if isinstance(event, GameCoachSet):
            return event.home, event.away
    return {}, {}


def _opening(events: Sequence[Event]) -> SeasonGameOpened | None:
    for event in events[1:3]:
        if isinstance(event, SeasonGameOpened):
            return event
    return None


def season_game(events: Sequence[Event], created: GameCreated, head: str,
                ledger: SeasonLedger, complete: bool) -> Finding | None:
    """A season game held to its season's opening and record (``complete``: the ledger
    is the stored one, so the game must be in it; a season's worker audits a game before
    the writer records it)."""
    pin = _opening(events)
    if not ledger.recorded:
        if pin is not None:
            return Finding("season", 2, f"no season opening ({created.season} was recorded "
                           "before season records)", f"opening {pin.opening[:16]}…")
        return None
    if pin is None or pin.opening != ledger.opening:
        return Finding("season", 2 if pin is not None else 1,
                       f"played under the opening of {created.season} (its SeasonCoachSet "
                       f"row, hash {ledger.opening[:16]}…: schedule, seed, cards, options, "
                       "coach)", f"opening {pin.opening[:16]}…" if pin is not None
                       else "no SeasonGameOpened")
    assert ledger.coach is not None
    if not created.live:
        habits = game_habits(events)
        want = (ledger.coach.home, ledger.coach.away)
        if habits != want:
            return Finding("season", 2, f"the season's coach habits {want}",
                           f"{habits}", "docs/coach.md (SeasonCoachSet)")
    if not complete:
        return None
    game, mode = created.game_id, TABLE if created.live else SIMULATED
    record = ledger.record_of(game)
    if record is None:
        ended = isinstance(events[-1], GameEnded)
        if created.live and game in ledger.started and not ended:
            return None  # a table game in progress, marked started by its season
        return Finding("season", len(events), f"a game {created.season} recorded "
                       f"(game {created.number})", "not in the season's record"
                       + (" (not marked started at the table either)" if created.live
                          and game not in ledger.started else ""))
    if record.number != created.number:
        return Finding("season", 1, f"game {record.number} (season record at seq "
                       f"{record.seq})", f"game {created.number}")
    if record.mode != mode:
        return Finding("season", 1, f"a {record.mode} game (season record at seq "
                       f"{record.seq})", f"a {mode} game (relabelled)")
    if record.head != head:
        return Finding("season", len(events), f"head {record.head[:16]}… (season record "
                       f"at seq {record.seq})", f"head {head[:16]}… (another game: replaced)")
    return None


@dataclass(frozen=True)
class Missing:
    game: str
    season: str
    number: int
    seq: int
    what: str  # "recorded (head …)" or "marked started at the table"


def missing_games(ledger: SeasonLedger, held: set[str]) -> list[Missing]:
    """Games the season recorded or marked started that are not in ``held`` (the
    database's stream ids)."""
    season = ledger.created.season_id
    missing = [Missing(g.game, season, g.number, g.seq, f"recorded as {g.mode} (head "
                       f"{g.head[:16]}…)") for g in ledger.games if g.game not in held]
    recorded = {g.game for g in ledger.games}
    missing += [Missing(g, season, number, seq, "marked started at the table")
                for g, (number, seq) in ledger.started.items()
                if g not in held and g not in recorded]
    return sorted(missing, key=lambda m: m.seq)
