"""A DICE Hockey goalie's shots against by strength (projections/models/strengths.py): the
scoresheet's fold (its shots and goals against) and the ice it keeps (15: the men short
by the running penalties), neither changed.

A shot's strength is read from the ice just before its event, as the engine labels its
goal (``GoalScored.strength``, 15: the scorer's side by the men short): a shot by the
team with fewer men short is ``PP``. A goal goes with the shot it went in on (the timing
space its shot fills may end a penalty before the ``GoalScored``); a penalty shot (15) is
filed under the strength on the ice when it is taken.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from events.common import other_side
from projections.dicehockey.ice import SIDES
from projections.dicehockey.scoresheet import ScoresheetFold
from projections.models.strengths import GoalieStrength, StrengthTally, shot_strength

__all__ = ["build_strengths"]


def build_strengths(events: Iterable[Any]) -> list[GoalieStrength]:
    """Fold a game's events (from its ``GameCreated``) into its goalies' strength lines."""
    sheet, tally = ScoresheetFold(), StrengthTally()
    ice = sheet.ice
    for event in events:
        short = {side: ice.men_short(side) for side in SIDES}
        strengths = {side: shot_strength(short[other_side(side)], short[side])
                     for side in SIDES}  # of a shot against ``side``'s goalie
        sheet.apply(event)
        tally.step({key: (g.sa, g.ga) for key, g in sheet.goalies.items()}, strengths)
    return tally.result(dict(ice.team))
