"""What the web league's coach and commissioner pages show (issue 36, docs/web.md), read
from the season stream and the stored games: a team's schedule with each game's state,
the results waiting, and every submission with what became of it."""

from __future__ import annotations

from dataclasses import dataclass

from events.people import (
    ConfirmationLapsed,
    DisputeSettled,
    ResultConfirmed,
    ResultDisputed,
    ResultSubmitted,
)
from events.store import EventStore
from replay.leagues.season import SeasonState

__all__ = ["GameLine", "Submission", "schedule_lines", "submissions"]


@dataclass
class Submission:
    """One result a coach sent, and what became of it."""

    game: str
    number: int
    team: str
    account: str
    at: str
    state: str  # waiting, disputed, confirmed, counted (window), settled: ..., void
    export: str
    reason: str = ""  # the dispute's
    disputed_by: str = ""
    counter: str = ""  # the disputed version's blob, if any


@dataclass(frozen=True)
class GameLine:
    number: int
    game: str
    home: str
    away: str
    state: str  # "to play", "simulated", "waiting", "disputed", or the final score
    coached: bool  # a team of it has a coach: the coaches play it at the table


def submissions(store: EventStore, season_id: str) -> list[Submission]:
    """Every submission of the season, oldest first, each with its state now."""
    found: list[Submission] = []
    latest: dict[str, Submission] = {}
    for row in store.read(season_id):
        event = row.event
        if isinstance(event, ResultSubmitted):
            latest[event.game] = Submission(event.game, event.number, event.team,
                                            event.account, event.at, "waiting", event.export)
            found.append(latest[event.game])
        elif isinstance(event, ResultConfirmed):
            latest[event.game].state = f"confirmed by {event.account}"
        elif isinstance(event, ResultDisputed):
            item = latest[event.game]
            item.state, item.reason, item.disputed_by = "disputed", event.reason, event.account
            item.counter = event.export if isinstance(event.export, str) else ""
        elif isinstance(event, ConfirmationLapsed):
            latest[event.game].state = f"counted ({event.hours} h passed unanswered)"
        elif isinstance(event, DisputeSettled):
            latest[event.game].state = (f"void: {event.note}" if event.verdict == "void" else
                                        f"settled: the {event.verdict} version counts "
                                        f"({event.note})")
    return found


def schedule_lines(store: EventStore, state: SeasonState, team: str | None = None
                   ) -> list[GameLine]:
    """The schedule (one team's, or all of it) with each game's state."""
    assert state.created is not None
    season_id = state.created.season_id
    coaches = state.people.coaches
    lines = []
    for number, home, away in state.created.schedule:
        if team is not None and team not in (home, away):
            continue
        game = f"{season_id}-{number:04d}"
        waiting = state.people.waiting.get(game)
        if waiting is not None:
            shown = "disputed" if waiting.disputed is not None else "waiting"
        elif store.exists(game):
            meta = store.info(game).meta
            shown = (f"{meta.get('home_goals')} - {meta.get('away_goals')}"
                     if meta.get("decided") else "in progress")
        else:
            shown = "to play"
        lines.append(GameLine(number, game, home, away, shown,
                              home in coaches or away in coaches))
    return lines
