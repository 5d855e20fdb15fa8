"""The acts of a league's people (issue 36, docs/web.md): who joined the league, who
submitted, confirmed or disputed a game's result, who settled a dispute, who published a
season receipt.

They belong to the season stream (the league events, events.catalogue) and are folded by
the season's rules (replay/leagues/season_people.py) like its other events, by the writer
before it appends them and by the audit after: a submission must come from a coach of one
of the game's teams, a confirmation or a dispute from the other team's coach, a settlement
from the commissioner. Accounts, passwords and sessions are tables beside the streams
(replay/web/accounts.py); here an account is its name only. ``at`` is when, in UTC
(ISO 8601, seconds), as the server's clock said.

An export file a coach uploads (``rinklog export GAME``) is stored as a blob; its hash is
in the event, so the version of a game each person sent is inside the hash chain.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from msgspec import UNSET, UnsetType

from events.base import Event

__all__ = ["COACH", "COMMISSIONER", "EXPORT_MEDIA", "RECEIPT_MEDIA", "CommissionerActed",
           "ConfirmationLapsed", "DisputeSettled",
           "MemberJoined", "PeopleEvent", "ReceiptPublished", "ResultConfirmed",
           "ResultDisputed", "ResultSubmitted", "utc_to_the_second"]

COACH, COMMISSIONER = "coach", "commissioner"
EXPORT_MEDIA = "application/vnd.rinklog.export"  # an uploaded game file, as a blob
RECEIPT_MEDIA = "application/vnd.rinklog.receipt+json"  # a published season receipt
Role = Literal["coach", "commissioner"]


def utc_to_the_second(at: str) -> bool:
    """``at`` in UTC to the second (``2026-03-01T10:00:00+00:00``), as the server's clock
    writes an act's time: the one form in which the order of the strings is the order of
    the times (the season's rules and a Matrix season's compare them as strings)."""
    try:
        when = datetime.fromisoformat(at)
    except ValueError:
        return False
    return when.utcoffset() == timedelta(0) and when.isoformat(timespec="seconds") == at


class MemberJoined(Event, frozen=True):
    """``account`` joined the league: the coach of ``team`` (one coach a team), or the
    commissioner (``team`` empty), by an invitation the commissioner made."""

    account: str
    role: Role
    team: str
    at: str


class ResultSubmitted(Event, frozen=True):
    """The coach of ``team`` sent game ``number`` of the schedule, played at the table:
    the export file ``export`` (a blob), whose game ends at ``head``. It counts once the
    other team's coach confirms it, the league's confirmation window passes, or the
    commissioner settles a dispute for it."""

    game: str
    number: int
    account: str
    team: str
    export: str
    head: str
    at: str


class ResultConfirmed(Event, frozen=True):
    """The other team's coach confirms the result submitted for ``game``."""

    game: str
    account: str
    team: str
    at: str


class ResultDisputed(Event, frozen=True):
    """The other team's coach disputes the result submitted for ``game``, saying why, with
    his own version of the game (an export file, a blob) or none."""

    game: str
    account: str
    team: str
    reason: str
    at: str
    export: str | UnsetType = UNSET
    head: str | UnsetType = UNSET


class ConfirmationLapsed(Event, frozen=True):
    """No one confirmed or disputed the result submitted for ``game`` within the league's
    confirmation window (``[web] confirm_hours`` of league.toml, ``hours`` here): it
    counts."""

    game: str
    hours: int
    at: str


class DisputeSettled(Event, frozen=True):
    """The commissioner settled the dispute over ``game``: the ``submitted`` version
    counts, the ``disputed`` one (the disputing coach's file), or neither (``void``: the
    game is to be played and submitted again)."""

    game: str
    account: str
    verdict: Literal["submitted", "disputed", "void"]
    note: str
    at: str


class ReceiptPublished(Event, frozen=True):
    """The commissioner published the season's receipt (docs/trust.md) of ``games``
    games with Merkle root ``root``, signed; the receipt's JSON is the blob ``receipt``."""

    account: str
    receipt: str
    games: int
    root: str
    at: str


class CommissionerActed(Event, frozen=True):
    """The commissioner did ``act`` (``play``: the simulated games due through game
    ``through``; ``playoffs``: opened them; ``postseason``: played its simulated games;
    ``lottery``: drew it; ``odds``: recorded them), appended in the transaction of the
    act's own events."""

    account: str
    act: Literal["play", "playoffs", "postseason", "lottery", "odds"]
    at: str
    through: int = 0


PeopleEvent = (MemberJoined | ResultSubmitted | ResultConfirmed | ResultDisputed
               | ConfirmationLapsed | DisputeSettled | ReceiptPublished | CommissionerActed)
