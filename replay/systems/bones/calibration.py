"""The figures of a Hockey Bones (or FaceOff) game that calibration counts beyond the
shared scoresheet: game-ending injuries, majors and game misconducts, goalies' penalty
minutes, and blocked shots
beside what the 10.70 table implies for the blockers on the ice at each shot (Hockey
Bones' five-row table, FaceOff's blue-line table)."""

from __future__ import annotations

from typing import Any

from engine.bones.cards import Charts
from engine.bones.rulesets import find_ruleset
from engine.bones.shots import block_chance
from events.bones import InjuryChecked, PenaltyAssessed, ShotTaken
from events.common import GameCreated

__all__ = ["block_figures", "game_figures", "goalie_minutes"]


def block_figures(events: list[Any], charts: Charts) -> dict[str, float]:
    """10.70 for one game: shots blocked, and what the table implies for the blockers
    counted at each shot checked (its sum of chances and their binomial variance)."""
    blocked, implied, variance, checked = 0, 0.0, 0.0, 0
    created = events[0] if events and isinstance(events[0], GameCreated) else None
    rules = find_ruleset(created.ruleset if created else "bones")  # FaceOff: its own table
    for e in events:
        if isinstance(e, ShotTaken) and e.blockers > 0:
            p = float(block_chance(charts, e.blockers, rules))
            checked += 1
            implied += p
            variance += p * (1 - p)
            blocked += e.block == "blocked"
    return {"blocked": blocked, "blocked_implied": implied, "block_variance": variance,
            "block_checks": checked}


def goalie_minutes(events: list[Any]) -> int:
    """Penalty minutes charged to goalies (11.10 X and their penalty column, 14.00)."""
    created = events[0] if events and isinstance(events[0], GameCreated) else None
    goalies = set() if created is None else {
        r.id for sheet in (created.home, created.away) for r in sheet.roster if r.position == "G"}
    return sum(e.minutes for e in events if isinstance(e, PenaltyAssessed) and e.player in goalies)


def game_figures(events: list[Any], charts: Charts) -> dict[str, float]:
    """The Hockey Bones figures of one game beyond the scoresheet's."""
    return {
        "goalie_pim": goalie_minutes(events),
        "injuries": sum(1 for e in events if isinstance(e, InjuryChecked) and e.result == "G"),
        "majors": sum(1 for e in events if isinstance(e, PenaltyAssessed)
                      and e.kind in ("major", "minor_major")),
        "game_misconducts": sum(1 for e in events if isinstance(e, PenaltyAssessed)
                                and e.kind == "game_misconduct"),
        **block_figures(events, charts),
    }
