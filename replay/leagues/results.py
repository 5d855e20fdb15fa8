"""A league's people and its results (issue 36, docs/web.md): a coach joins, submits a
game played at the table, the other team's coach confirms or disputes it, the
commissioner settles a dispute; a result nobody answered counts once the league's
confirmation window passes.

Every act is an event of the season stream (events/people.py), appended through the
season's one writer (season_stream.py) onto the version it was decided from; the season's
rules (season_people.py) refuse what the person may not do, and the audit folds the same
rules. A result that counts is imported (transfer.py: audited as ``rinklog import``
audits it) in the same transaction as the act that makes it count: a result refused by
the audit leaves nothing written. Two acts at once: the one that lost the race decides
again from the season as it now stands (a few times), then is refused in one line.

``at`` is a clock (the caller's: the web server's UTC now); an act is never dated before
the act the season holds last.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from events.base import Event
from events.errors import RinklogError
from events.people import (
    COACH,
    COMMISSIONER,
    EXPORT_MEDIA,
    ConfirmationLapsed,
    DisputeSettled,
    MemberJoined,
    ResultConfirmed,
    ResultDisputed,
    ResultSubmitted,
)
from events.store import EventStore, blob_hash
from replay.leagues.season import SeasonState
from replay.leagues.season_people import Waiting, fixture_teams, opponent
from replay.leagues.season_stream import SeasonStream, decided_again
from replay.leagues.transfer import ImportRefused, export_entry, import_verified, verify_export

__all__ = ["ActRefused", "Clock", "NotYours", "act_on_season", "checked_file", "confirm",
           "dispute", "join", "lapse_due", "now_utc", "season_state", "settle", "submit"]

Clock = Callable[[], str]


class ActRefused(RinklogError):
    """An act the league's rules or the audit refuse; nothing written."""


class NotYours(ActRefused):
    """An act for a team (or as a commissioner) the account is not."""


def now_utc() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def season_state(store: EventStore, season_id: str) -> SeasonState:
    state = SeasonStream.at(store, season_id).state()
    if state is None or state.created is None:
        raise RinklogError(f"{season_id}: not a league season")
    return state


def act_on_season(store: EventStore, season_id: str, clock: Clock,
         decide: Callable[[SeasonState, str], tuple[list[Event], Callable[[], Any] | None]]
         ) -> list[Event]:
    """Decide from the season as it stands and append what was decided (with the writes
    ``decide`` returns, in the same transaction); a lost race decides again."""
    def once() -> list[Event]:
        season = SeasonStream.at(store, season_id)
        state = season.state()
        if state is None or state.created is None:
            raise ActRefused(f"{season_id}: not a league season")
        events, also = decide(state, max(clock(), state.people.last_at))
        with store.transaction():
            if events:
                season.append(events)
            if also is not None:
                also()
        return events
    return decided_again(once)


def join(store: EventStore, season_id: str, account: str, role: str, team: str,
         clock: Clock = now_utc) -> None:
    """``account`` joins as the coach of ``team`` or as the commissioner (team "")."""
    def decide(state: SeasonState, at: str) -> tuple[list[Event], None]:
        if account in state.people.members:
            raise ActRefused(f"account {account!r} is taken")
        if role == COACH and state.people.coach_of(team):
            raise ActRefused(f"{team} has a coach already ({state.people.coach_of(team)})")
        return [MemberJoined(account=account, role=role, team=team, at=at)], None  # type: ignore[arg-type]
    act_on_season(store, season_id, clock, decide)


def _coach(state: SeasonState, account: str, team: str) -> None:
    if state.people.coach_of(team) != account:
        raise NotYours(f"{account} is not the coach of {team}")


def _teams(state: SeasonState, number: int) -> tuple[str, str]:
    assert state.created is not None
    teams = fixture_teams(state.created, number)
    if teams is None:
        raise ActRefused(f"no game {number} in the schedule of {state.created.season_id}")
    return teams


def checked_file(store: EventStore, data: bytes, origin: str, season_id: str,
                 counting: Callable[[Any], list[Event]] | None = None) -> Any:
    """The export ``data`` verified, and imported into the database and rolled back (so
    held to the stored season's ledger exactly as its import will be). ``counting``: the
    season events that would make this version count (a dispute, its settlement), given
    the verified file, appended first in the same rolled-back transaction."""
    verified = verify_export(data, origin)
    index = verified.report.index
    if index.get("season") != season_id:
        raise ImportRefused(f"{origin}: {verified.report.game_id} is not a game of season "
                            f"{season_id}; nothing written")
    if not index.get("live") or not index.get("decided"):
        raise ImportRefused(f"{origin}: {verified.report.game_id} is not a finished game played "
                            "at the table (rinklog play --season); nothing written")
    try:
        with store.transaction():
            if counting is not None:
                SeasonStream.at(store, season_id).append(counting(verified))
            import_verified(store, verified)
            raise _Undo
    except _Undo:
        pass
    return verified


class _Undo(Exception):  # noqa: N818 - rolls a trial import back
    pass


def submit(store: EventStore, season_id: str, account: str, team: str, data: bytes,
           origin: str = "upload", clock: Clock = now_utc) -> ResultSubmitted:
    """The coach of ``team`` sends a game of his team played at the table (its export
    file): audited on arrival (ImportRefused with the audit's reason), then recorded as
    submitted, the file kept as a blob."""
    try:
        verified = checked_file(store, data, origin, season_id)
    except ImportRefused:
        _waiting_already(store, season_id, data, origin)
        raise
    game, number = verified.report.game_id, int(verified.report.index["number"])

    def decide(state: SeasonState, at: str) -> tuple[list[Event], Callable[[], Any]]:
        if team not in _teams(state, number):
            raise NotYours(f"{game} is not a game of {team}")
        _coach(state, account, team)
        if game in state.people.waiting:
            raise ActRefused(f"{game}: a result is waiting already")
        event = ResultSubmitted(game=game, number=number, account=account, team=team,
                                export=blob_hash(data), head=verified.report.head_hash, at=at)
        return [event], lambda: store.put_blob(data, EXPORT_MEDIA)
    return act_on_season(store, season_id, clock, decide)[0]  # type: ignore[return-value]


def _waiting_already(store: EventStore, season_id: str, data: bytes, origin: str) -> None:
    """ActRefused when the file's game has a result waiting already: its trial import was
    refused for that (a game whose result waits is not recorded), not for the file."""
    try:
        game = export_entry(data, origin).game
    except ImportRefused:
        return
    if game in season_state(store, season_id).people.waiting:
        raise ActRefused(f"{game}: a result is waiting already") from None


def _waiting(state: SeasonState, game: str) -> Waiting:
    waiting = state.people.waiting.get(game)
    if waiting is None:
        raise ActRefused(f"{game}: no result waiting")
    return waiting


def _other(state: SeasonState, waiting: Waiting) -> str:
    assert state.created is not None
    return opponent(state.created, waiting.submitted.number, waiting.submitted.team)


def _count(store: EventStore, export: str, origin: str) -> Callable[[], Any]:
    """Import the stored version ``export`` (a blob): audited where it lands."""
    def write() -> None:
        found = store.blob_record(export)
        if found is None:
            raise ActRefused(f"blob {export[:16]}… of {origin} is missing (run rinklog audit)")
        import_verified(store, verify_export(found[0], origin))
    return write


def _answering(state: SeasonState, game: str, account: str, team: str, verb: str) -> Waiting:
    """The result of ``game`` waiting undisputed for the other team's coach's answer."""
    waiting = _waiting(state, game)
    if team != _other(state, waiting):
        raise NotYours(f"{game}: only the coach of {_other(state, waiting)} {verb} it")
    _coach(state, account, team)
    if waiting.disputed is not None:
        raise ActRefused(f"{game}: disputed already; the commissioner settles it")
    return waiting


def confirm(store: EventStore, season_id: str, account: str, team: str, game: str,
            clock: Clock = now_utc) -> None:
    """The other team's coach confirms: the result counts, imported now."""
    def decide(state: SeasonState, at: str) -> tuple[list[Event], Callable[[], Any]]:
        waiting = _answering(state, game, account, team, "confirms")
        return ([ResultConfirmed(game=game, account=account, team=team, at=at)],
                _count(store, waiting.submitted.export, f"{game} as submitted"))
    act_on_season(store, season_id, clock, decide)


def dispute(store: EventStore, season_id: str, account: str, team: str, game: str,
            reason: str, data: bytes | None = None, origin: str = "upload",
            clock: Clock = now_utc) -> None:
    """The other team's coach disputes, saying why, with his own version or none."""
    def counting(verified: Any) -> list[Event]:
        """This version counting as the commissioner would make it count."""
        state = season_state(store, season_id)
        at = state.people.last_at
        judge = next((m.account for m in state.people.members.values()
                      if m.role == COMMISSIONER), None)
        if verified.report.game_id != game or judge is None:
            raise ImportRefused(f"{origin}: holds {verified.report.game_id}, not {game}, or the "
                                "league has no commissioner to settle it; nothing written")
        return [ResultDisputed(game=game, account=account, team=team, reason="", at=at,
                               export=blob_hash(data or b""), head=verified.report.head_hash),
                DisputeSettled(game=game, account=judge, verdict="disputed", note="", at=at)]
    verified = checked_file(store, data, origin, season_id, counting) if data else None

    def decide(state: SeasonState, at: str) -> tuple[list[Event], Callable[[], Any] | None]:
        _answering(state, game, account, team, "disputes")
        if verified is None:
            return [ResultDisputed(game=game, account=account, team=team,
                                   reason=reason.strip(), at=at)], None
        event = ResultDisputed(game=game, account=account, team=team, reason=reason.strip(),
                               at=at, export=blob_hash(data or b""),
                               head=verified.report.head_hash)
        return [event], lambda: store.put_blob(data or b"", EXPORT_MEDIA)
    act_on_season(store, season_id, clock, decide)


def settle(store: EventStore, season_id: str, account: str, game: str, verdict: str,
           note: str, clock: Clock = now_utc) -> None:
    """The commissioner settles a dispute: ``submitted``, ``disputed`` or ``void``."""
    if verdict not in ("submitted", "disputed", "void"):
        raise ActRefused(f"verdict {verdict!r}: submitted, disputed or void")

    def decide(state: SeasonState, at: str) -> tuple[list[Event], Callable[[], Any] | None]:
        if state.people.role_of(account) != COMMISSIONER:
            raise NotYours(f"{account} is not the commissioner")
        waiting = _waiting(state, game)
        disputed = waiting.disputed
        if disputed is None:
            raise ActRefused(f"{game}: not disputed")
        event = DisputeSettled(game=game, account=account, verdict=verdict,  # type: ignore[arg-type]
                               note=note.strip(), at=at)
        if verdict == "void":
            return [event], None
        if verdict == "disputed" and not isinstance(disputed.export, str):
            raise ActRefused(f"{game}: the dispute came with no version of its own")
        export = waiting.submitted.export if verdict == "submitted" else str(disputed.export)
        return [event], _count(store, export, f"{game} as {verdict}")
    act_on_season(store, season_id, clock, decide)


def lapse_due(store: EventStore, season_id: str, hours: int,
              clock: Clock = now_utc) -> list[str]:
    """Every result that waited ``hours`` undisputed counts now: the games."""
    counted = []
    while True:
        state = season_state(store, season_id)
        limit = (datetime.fromisoformat(clock()) - timedelta(hours=hours)).isoformat()
        due = sorted(g for g, w in state.people.waiting.items()
                     if w.disputed is None and w.submitted.at <= limit)
        if not due:
            return counted
        game = due[0]

        def decide(state: SeasonState, at: str, game: str = game
                   ) -> tuple[list[Event], Callable[[], Any] | None]:
            waiting = state.people.waiting.get(game)
            if waiting is None or waiting.disputed is not None:
                return [], None  # answered meanwhile
            return ([ConfirmationLapsed(game=game, hours=hours, at=at)],
                    _count(store, waiting.submitted.export, f"{game} as submitted"))
        if act_on_season(store, season_id, clock, decide):
            counted.append(game)
