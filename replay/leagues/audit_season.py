"""The audit's checks of a season as the ledger of its games (issue 20, docs/trust.md).

- :func:`season_stream`: a season stream is its SeasonCreated, then its SeasonCoachSet
  (habits the season's coach can take), then records (and the postseason's events,
  which :mod:`replay.leagues.audit_postseason` checks): each names a scheduled game of the
  season by its own id, a game is recorded once, a table game is marked started before it
  is recorded and a simulated one never is. A stream of SeasonCreated alone was written
  before season records: it passes, with a warning.
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
    SeasonCoachSet,
    SeasonCreated,
    SeasonGameOpened,
    SeasonGameRecorded,
    SeasonTableGameStarted,
)
from events.odds import OddsRecorded, OddsRunReplayed
from events.postseason import PostseasonEvent
from replay.games.coach_habits import coach_setup
from replay.games.scan import Kinds
from replay.leagues.audit_odds import recorded_odds, replayed_run
from replay.leagues.ledger import SIMULATED, TABLE, SeasonLedger, ruleset_of
from replay.leagues.naming import PLAYOFF_NUMBER, is_playoff_game, season_game_id

__all__ = ["BEFORE_RECORDS", "Finding", "game_habits", "game_notes", "missing_games",
           "season_game", "season_stream"]

BEFORE_RECORDS = ("recorded before season records: its games are held to its schedule, "
                  "seed and options but not to a record of them (only a receipt does)")

RULE = "season ledger"


@dataclass(frozen=True)
class Finding:
    check: str
    seq: int
    expected: str
    recorded: str
    rule: str = RULE


def season_stream(events: Sequence[Event]) -> Finding | None:
    """The season stream's own record: what may follow its SeasonCreated."""
    created = events[0]
    assert isinstance(created, SeasonCreated)
    if len(events) == 1:
        return None
    coach = events[1]
    if not isinstance(coach, SeasonCoachSet):
        return Finding("kind", 2, "SeasonCoachSet after SeasonCreated", type(coach).__name__)
    try:
        coach_setup(ruleset_of(created), (coach.home, coach.away))
    except ValueError as err:
        return Finding("season", 2, f"coach settings of the {ruleset_of(created)} default "
                       "coach", str(err), "docs/coach.md")
    scheduled = {number for number, _, _ in created.schedule}
    recorded: set[str] = set()
    started: set[str] = set()
    replayed = 0
    for seq, event in enumerate(events[2:], 3):
        if isinstance(event, PostseasonEvent):
            continue  # the postseason's own checks (audit_postseason) hold it
        if isinstance(event, OddsRunReplayed | OddsRecorded):  # docs/odds.md
            played = sum(1 for g in recorded if not is_playoff_game(created.season_id, g))
            wrong = (replayed_run(created, event, replayed)
                     if isinstance(event, OddsRunReplayed)
                     else recorded_odds(created, event, played))
            replayed += isinstance(event, OddsRunReplayed)
            if wrong is not None:
                return Finding("season", seq, wrong, type(event).__name__, "docs/odds.md")
            continue
        if not isinstance(event, SeasonGameRecorded | SeasonTableGameStarted):
            return Finding("kind", seq, "a SeasonGameRecorded or SeasonTableGameStarted",
                           type(event).__name__, "season stream")
        # a playoff game (issue 22) has no schedule number, simulated or at the table
        playoff = (event.number == PLAYOFF_NUMBER
                   and is_playoff_game(created.season_id, event.game))
        want = event.game if playoff else season_game_id(created.season_id, event.number)
        if (event.number not in scheduled and not playoff) or event.game != want:
            return Finding("season", seq, f"a game of the schedule of {created.season_id} "
                           "under its own id", f"game {event.game!r}, number {event.number}")
        if isinstance(event, SeasonTableGameStarted):
            if event.game in started or event.game in recorded:
                return Finding("season", seq, f"{event.game} started at the table once, "
                               "before it is recorded", "a second start")
            started.add(event.game)
            continue
        if event.game in recorded:
            return Finding("season", seq, f"{event.game} recorded once", "a second record")
        recorded.add(event.game)
        if event.mode == TABLE and event.game not in started:
            return Finding("season", seq, f"{event.game} marked started at the table before "
                           "it is recorded as a table game", "no SeasonTableGameStarted")
        if event.mode == SIMULATED and event.game in started:
            return Finding("season", seq, f"{event.game} recorded as a table game (it was "
                           "started at the table)", "recorded as simulated")
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
