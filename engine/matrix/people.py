"""A Matrix Hockey league on the web (issue 36, docs/web.md): its people's acts in the
season stream, checked as the audit folds them (recheck.py). None is a rule of the game:
they say who may send a team's picks, and until when.

- MemberJoined: an account joins once; a manager for a team of the season, one a team;
  the commissioner for no team.
- PicksDeadlineSet: from the commissioner, for a week not played yet.
- PicksSubmitted: from the team's manager, for a week not played yet and no later than
  its deadline (if one is set); the team's PicksSent for that week comes next.
- Every act's time is in UTC to the second, no earlier than the act before it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from engine.matrix.state import SeasonState
from events.matrix import MemberJoined, PicksDeadlineSet, PicksSubmitted
from events.people import utc_to_the_second

__all__ = ["People", "act", "after_picks"]


@dataclass
class People:
    """The league's people so far (a fold of the stream, in place)."""

    members: dict[str, MemberJoined] = field(default_factory=dict)  # by account
    managers: dict[str, str] = field(default_factory=dict)  # team -> account
    deadlines: dict[int, str] = field(default_factory=dict)  # week -> UTC ISO time
    last_at: str = ""
    expecting: tuple[int, str] | None = None  # (week, team): its PicksSent comes next


def _time(at: str) -> datetime | None:
    try:
        found = datetime.fromisoformat(at)
    except ValueError:
        return None
    return found if found.utcoffset() is not None else None


def act(people: People, state: SeasonState,
        event: MemberJoined | PicksDeadlineSet | PicksSubmitted) -> str | None:
    """Fold ``event`` into ``people``; what is wrong with it instead (nothing folded)."""
    if people.expecting is not None:
        return f"the PicksSent of {people.expecting[1]} for week {people.expecting[0]} first"
    if not utc_to_the_second(event.at) or event.at < people.last_at:
        return (f"a time in UTC to the second no earlier than {people.last_at or 'none'}, "
                f"not {event.at!r}")
    if isinstance(event, MemberJoined):
        wrong = _joined(people, state, event)
    elif isinstance(event, PicksDeadlineSet):
        wrong = _deadline(people, state, event)
    else:
        wrong = _submitted(people, state, event)
    if wrong is None:
        people.last_at = event.at
    return wrong


def _joined(people: People, state: SeasonState, event: MemberJoined) -> str | None:
    if not event.account or event.account in people.members:
        return f"an account that joins once, not {event.account!r} again"
    if event.role == "commissioner":
        if event.team:
            return f"a commissioner of no team, not of {event.team!r}"
    elif event.team not in state.teams:
        return f"a team of the season, not {event.team!r}"
    elif event.team in people.managers:
        return f"one manager of {event.team}, not {people.managers[event.team]!r} and {event.account!r}"
    else:
        people.managers[event.team] = event.account
    people.members[event.account] = event
    return None


def _is_commissioner(people: People, account: str) -> bool:
    joined = people.members.get(account)
    return joined is not None and joined.role == "commissioner"


def _deadline(people: People, state: SeasonState, event: PicksDeadlineSet) -> str | None:
    if not _is_commissioner(people, event.account):
        return f"a deadline set by the commissioner, not by {event.account!r}"
    if event.week in state.weeks_played or _time(event.deadline) is None:
        return f"a UTC deadline of a week not played yet, not week {event.week} {event.deadline!r}"
    people.deadlines[event.week] = event.deadline
    return None


def _submitted(people: People, state: SeasonState, event: PicksSubmitted) -> str | None:
    if people.managers.get(event.team) != event.account:
        return f"picks of {event.team} sent by its manager, not by {event.account!r}"
    if event.week in state.weeks_played:
        return f"picks for a week not played yet, not week {event.week}"
    deadline = people.deadlines.get(event.week)
    if deadline is not None and _time(event.at) > _time(deadline):  # type: ignore[operator]
        return f"picks for week {event.week} by its deadline {deadline}, not at {event.at}"
    people.expecting = (event.week, event.team)
    return None


def after_picks(people: People, week: int, team: str) -> str | None:
    """A PicksSent: the one a PicksSubmitted announced, if one did."""
    if people.expecting is not None and people.expecting != (week, team):
        return (f"the PicksSent of {people.expecting[1]} for week {people.expecting[0]}, not "
                f"of {team} for week {week}")
    people.expecting = None
    return None
