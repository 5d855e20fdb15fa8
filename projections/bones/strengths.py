"""A Hockey Bones goalie's shots against by strength (projections/models/strengths.py): the
scoresheet's fold (its shots and goals against) run beside the penalty timers' (14.10: the
men short at each event), neither changed.

A shot's strength is read from the penalty timers just before its event, as the engine
labels its goal (``GoalScored.strength``: the scorer's side by the men short, 9.00): a
shot by the team with fewer men short is ``PP``. A penalty shot (11.10) is filed under
the strength on the ice when it is taken; a goal goes with the shot it went in on.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from events.common import other_side
from projections.bones.penalties import PenaltyFold
from projections.bones.scoresheet import ScoresheetFold
from projections.models.strengths import GoalieStrength, StrengthTally, shot_strength

__all__ = ["build_strengths"]

SIDES = ("home", "away")


def build_strengths(events: Iterable[Any]) -> list[GoalieStrength]:
    """Fold a game's events (from its ``GameCreated``) into its goalies' strength lines."""
    sheet, timers, tally = ScoresheetFold(), PenaltyFold(), StrengthTally()
    for event in events:
        short = {side: timers.man_short(side) for side in SIDES}
        strengths = {side: shot_strength(short[other_side(side)], short[side])
                     for side in SIDES}  # of a shot against ``side``'s goalie
        sheet.apply(event)
        timers.apply(event)
        tally.step({(g.side, pid): (g.sa, g.ga) for pid, g in sheet.goalies.items()},
                   strengths)
    return tally.result({side: sheet.team_id(side) for side in SIDES})
