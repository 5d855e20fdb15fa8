"""Words for the events every game system shares (events/common.py), used by each
system's explainer so a period's end and a final read the same in every game."""

from __future__ import annotations

from events.common import GameEnded, PeriodEnded

__all__ = ["final_line", "period_end_line", "score"]


def score(home: str, home_goals: int, away: str, away_goals: int, *,
          away_first: bool = False) -> str:
    """``HFX 2 - 3 QUE``: the teams named with their goals, home first (the play prompt's
    order, as its status line), or away first (a page's play-by-play, whose score column
    is away-home as NHL.com's)."""
    if away_first:
        return f"{away} {away_goals} - {home_goals} {home}"
    return f"{home} {home_goals} - {away_goals} {away}"


def period_end_line(event: PeriodEnded, home: str, away: str, *, away_first: bool = False
                    ) -> str:
    """``end of period 1: HFX 0 - 3 QUE``: named, so neither order can be misread."""
    return (f"end of period {event.period}: "
            + score(home, event.home_goals, away, event.away_goals, away_first=away_first))


def final_line(event: GameEnded, home: str, away: str, winner: str, *,
               away_first: bool = False) -> str:
    """``final (SO): HFX 2 - 3 QUE, QUE win``; ``winner`` is the winning team's name."""
    result = "a tie" if event.winner == "none" else f"{winner} win"
    return (f"final ({event.decided}): "
            + score(home, event.home_goals, away, event.away_goals, away_first=away_first)
            + f", {result}")
