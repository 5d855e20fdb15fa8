"""Helpers for the Matrix Hockey rules tests: a season of the text's twelve teams (or the
demo league), picks written as the text writes them, a week played."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.matrix.dice import SeededDie
from engine.matrix.referee import open_season, play_week
from engine.matrix.state import SeasonState, evolve, initial_state
from events.matrix import GamePlayed, Pick, PicksSent, RefereeDrawsEntered, RefereeOnr
from replay.cli.app import main
from replay.systems.matrix.files import season_opened

__all__ = ["game", "new_season", "pick", "play", "side"]


ROOT = Path(__file__).resolve().parents[2]
WEEK1 = ROOT / "fixtures" / "matrix" / "examples" / "week1-picks.toml"


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    """``rinklog ARGV``: its exit code, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def new_season(league: str = "example", seed: str = "t", **changes: Any) -> SeasonState:
    created = season_opened(league, seed)
    if changes:
        import msgspec

        created = msgspec.structs.replace(created, **changes)
    state = initial_state(created)
    for event in open_season(created, SeededDie(seed, created.season_id))[1:]:
        evolve(state, event)
    return state


_TEXT = re.compile(r"^([A-K])(\+*)(#*)(\*?)\((\w)\)$")


def pick(text: str, competition: str = "championship", shootout: str = "") -> Pick:
    """A pick as the text writes it: ``F+(2)``, ``D++*(1)``, ``F#(3)`` (the ``*`` is the
    referee's bonus draw, not a pick: it is ignored here)."""
    m = _TEXT.match(text)
    assert m, text
    return Pick(competition, m[1], m[5], len(m[2]), len(m[3]), shootout)


def play(state: SeasonState, week: int, picks: dict[str, Pick | list[Pick]],
         bonus: dict[str, str] | None = None, onr: dict[str, tuple[str, str]] | None = None,
         x: dict[str, int] | None = None, seed: str = "t") -> list[Any]:
    """Send ``picks`` for ``week`` (a team left out is ONR), the table's draws, and play
    the week; returns the week's events (the state is evolved)."""
    for team, p in picks.items():
        evolve(state, PicksSent(week, team, p if isinstance(p, list) else [p]))
    if bonus or onr or x:
        evolve(state, RefereeDrawsEntered(
            week, bonus or {}, {t: RefereeOnr(c, e) for t, (c, e) in (onr or {}).items()},
            x or {}))
    events = play_week(state, week, SeededDie(seed, state.season_id))
    for event in events:
        evolve(state, event)
    return events


def game(events: list[Any], team: str, competition: str = "championship") -> GamePlayed:
    return next(e for e in events if isinstance(e, GamePlayed) and e.competition == competition
                and team in (e.home.team, e.away.team))


def side(events: list[Any], team: str, competition: str = "championship"):
    g = game(events, team, competition)
    return g.home if g.home.team == team else g.away


def score(events: list[Any], home: str, competition: str = "championship") -> tuple[int, int, str]:
    g = game(events, home, competition)
    assert g.home.team == home
    return g.home_goals, g.away_goals, g.decided


def everyone(state: SeasonState, week: int, seed: str = "m") -> dict[str, list[Pick]]:
    """Picks for every team playing ``week`` (the demo managers', none ONR)."""
    from replay.leagues.matrix.demo import demo_picks

    return {s.team: list(s.picks) for s in demo_picks(state, week, seed, onr_rate=0.0)}
