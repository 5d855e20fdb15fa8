"""Words for the events every game system shares (events/common.py), used by each
system's explainer so a period's end and a final read the same in every game."""

from __future__ import annotations

from events.common import GameEnded, PeriodEnded

__all__ = ["final_line", "period_end_line"]


def period_end_line(event: PeriodEnded) -> str:
    return f"end of period {event.period}: {event.home_goals} - {event.away_goals}"


def final_line(event: GameEnded, home: str, away: str, winner: str) -> str:
    """``final (SO): HFX 2 - 3 QUE, QUE win``; ``winner`` is the winning team's name."""
    result = "a tie" if event.winner == "none" else f"{winner} win"
    return f"final ({event.decided}): {home} {event.home_goals} - {event.away_goals} {away}, {result}"
