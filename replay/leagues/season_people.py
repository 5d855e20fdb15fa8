"""The season aggregate's rules for its people's acts (issue 36, docs/web.md): who may do
what, folded with the season's other rules (season.py) by the writer before it appends
and by the audit after.

- MemberJoined: an account joins once; a coach for a team of the season, one coach a
  team; a commissioner for no team.
- ResultSubmitted: from the coach of one of the two teams of a scheduled game that is not
  recorded, started at the table, or waiting for a result already.
- ResultConfirmed, ResultDisputed: from the coach of the game's other team, while the
  result waits and no one disputed it.
- ConfirmationLapsed: while the result waits undisputed, at least ``hours`` after it was
  submitted.
- DisputeSettled: from the commissioner, of a disputed result; ``disputed`` only when the
  dispute came with a version of its own.
- ReceiptPublished, CommissionerActed: from the commissioner.
- A result that counts (confirmed, lapsed, settled) is the one the season then records:
  its table game's record must end at the head hash that was accepted (season.py).
- Every act's time is no earlier than the act before it, in UTC to the second
  (``2026-03-01T10:00:00+00:00``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from msgspec import UNSET

from events.league import SeasonCreated
from events.people import (
    COMMISSIONER,
    CommissionerActed,
    ConfirmationLapsed,
    DisputeSettled,
    MemberJoined,
    ReceiptPublished,
    ResultConfirmed,
    ResultDisputed,
    ResultSubmitted,
    utc_to_the_second,
)

__all__ = ["RULE", "People", "Waiting", "Wrong", "act", "fixture_teams", "opponent"]

RULE = "docs/web.md"


@dataclass(frozen=True)
class Waiting:
    """A result submitted and not yet counted or voided."""

    submitted: ResultSubmitted
    disputed: ResultDisputed | None = None


@dataclass(frozen=True)
class People:
    """The league's people as the season stream has them so far."""

    members: dict[str, MemberJoined] = field(default_factory=dict)  # by account
    coaches: dict[str, str] = field(default_factory=dict)  # team -> account
    waiting: dict[str, Waiting] = field(default_factory=dict)  # by game
    accepted: dict[str, str] = field(default_factory=dict)  # game -> the head that counts
    last_at: str = ""

    def coach_of(self, team: str) -> str | None:
        return self.coaches.get(team)

    def role_of(self, account: str) -> str | None:
        joined = self.members.get(account)
        return None if joined is None else joined.role


@dataclass(frozen=True)
class Wrong:
    """Why an act may not stand: what was expected there and what is."""

    expected: str
    recorded: str


Act = (MemberJoined | ResultSubmitted | ResultConfirmed | ResultDisputed | ConfirmationLapsed
       | DisputeSettled | ReceiptPublished | CommissionerActed)


def act(people: People, created: SeasonCreated, event: Act, recorded: frozenset[str],
        started: frozenset[str]) -> People | Wrong:
    """``people`` with ``event`` folded on, or what is wrong with it there. ``recorded``
    and ``started``: the season's games recorded and marked started at the table."""
    if event.at < people.last_at or not utc_to_the_second(event.at):
        return Wrong(f"a time in UTC (ISO 8601) no earlier than {people.last_at or 'none'}",
                     repr(event.at))
    people = replace(people, last_at=event.at)
    if isinstance(event, MemberJoined):
        return _joined(people, created, event)
    if isinstance(event, ResultSubmitted):
        return _submitted(people, created, event, recorded | started)
    if isinstance(event, ReceiptPublished | CommissionerActed):
        return people if people.role_of(event.account) == COMMISSIONER else Wrong(
            "an act of the commissioner", f"account {event.account!r}")
    waiting = people.waiting.get(event.game)
    if waiting is None:
        return Wrong(f"a result of {event.game} waiting", f"{type(event).__name__} with none")
    if isinstance(event, ResultConfirmed | ResultDisputed):
        return _answered(people, created, event, waiting)
    if isinstance(event, ConfirmationLapsed):
        return _lapsed(people, event, waiting)
    return _settled(people, event, waiting)


def _joined(people: People, created: SeasonCreated, event: MemberJoined) -> People | Wrong:
    if event.account in people.members or not event.account:
        return Wrong("an account that joins once", f"{event.account!r} again")
    if event.role == COMMISSIONER:
        if event.team:
            return Wrong("a commissioner of no team", f"team {event.team!r}")
        return replace(people, members={**people.members, event.account: event})
    if event.team not in created.team_hashes:
        return Wrong(f"a team of {created.season_id}", f"team {event.team!r}")
    if event.team in people.coaches:
        return Wrong(f"one coach of {event.team}", f"{people.coaches[event.team]!r} and "
                     f"{event.account!r}")
    return replace(people, members={**people.members, event.account: event},
                   coaches={**people.coaches, event.team: event.account})


def fixture_teams(created: SeasonCreated, number: int) -> tuple[str, str] | None:
    """The home and away teams of game ``number`` of the schedule (None: no such game)."""
    return next(((home, away) for n, home, away in created.schedule if n == number), None)


def opponent(created: SeasonCreated, number: int, team: str) -> str:
    """The other team of game ``number`` than ``team`` ("" for no such game)."""
    home, away = fixture_teams(created, number) or ("", "")
    return away if team == home else home


def _submitted(people: People, created: SeasonCreated, event: ResultSubmitted,
               taken: frozenset[str]) -> People | Wrong:
    teams = fixture_teams(created, event.number)
    if teams is None or event.game != f"{created.season_id}-{event.number:04d}":
        return Wrong(f"a game of the schedule of {created.season_id} under its own id",
                     f"game {event.game!r}, number {event.number}")
    if event.team not in teams or people.coach_of(event.team) != event.account:
        return Wrong(f"a result sent by the coach of {teams[0]} or {teams[1]}",
                     f"account {event.account!r} for {event.team}")
    if event.game in taken or event.game in people.accepted:
        return Wrong(f"{event.game} not played yet", "it is recorded or started already")
    if event.game in people.waiting:
        return Wrong(f"one result of {event.game} waiting", "a second one")
    return replace(people, waiting={**people.waiting, event.game: Waiting(event)})


def _answered(people: People, created: SeasonCreated, event: ResultConfirmed | ResultDisputed,
              waiting: Waiting) -> People | Wrong:
    other = opponent(created, waiting.submitted.number, waiting.submitted.team)
    if event.team != other or people.coach_of(other) != event.account:
        return Wrong(f"an answer from the coach of {other}", f"account {event.account!r} "
                     f"for {event.team}")
    if waiting.disputed is not None:
        return Wrong(f"the result of {event.game} answered once", "a second answer")
    if isinstance(event, ResultDisputed):
        if (event.export is UNSET) != (event.head is UNSET):
            return Wrong("a disputed version with its head hash", "one without the other")
        return replace(people, waiting={**people.waiting, event.game: Waiting(
            waiting.submitted, event)})
    return _counted(people, event.game, waiting.submitted.head)


def _lapsed(people: People, event: ConfirmationLapsed, waiting: Waiting) -> People | Wrong:
    if waiting.disputed is not None:
        return Wrong(f"the result of {event.game} undisputed", "disputed")
    hours = (datetime.fromisoformat(event.at)
             - datetime.fromisoformat(waiting.submitted.at)).total_seconds() / 3600
    if event.hours < 0 or hours < event.hours:
        return Wrong(f"at least {event.hours} hours after {waiting.submitted.at}", event.at)
    return _counted(people, event.game, waiting.submitted.head)


def _settled(people: People, event: DisputeSettled, waiting: Waiting) -> People | Wrong:
    if people.role_of(event.account) != COMMISSIONER:
        return Wrong("a dispute settled by the commissioner", f"account {event.account!r}")
    disputed = waiting.disputed
    if disputed is None:
        return Wrong(f"the result of {event.game} disputed", "no dispute")
    if event.verdict == "void":
        waiting_now = {g: w for g, w in people.waiting.items() if g != event.game}
        return replace(people, waiting=waiting_now)
    if event.verdict == "disputed":
        if disputed.head is UNSET:
            return Wrong("a disputed version to count", "the dispute came with none")
        return _counted(people, event.game, str(disputed.head))
    return _counted(people, event.game, waiting.submitted.head)


def _counted(people: People, game: str, head: str) -> People:
    return replace(people, waiting={g: w for g, w in people.waiting.items() if g != game},
                   accepted={**people.accepted, game: head})
