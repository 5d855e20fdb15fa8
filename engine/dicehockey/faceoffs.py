"""Face-offs (5, 6): home wins 00-49 before modification; the centres' ratings move the
line by their difference (home +4 against away -9: home 00-62). The same roll's parity
gives the winning team's RD (even) or LD (odd) the puck."""

from __future__ import annotations

from typing import Final

from engine.dicehockey.dice import roll_value
from engine.dicehockey.lines import must_start_fourth, on_ice
from engine.dicehockey.passing import parity_defense
from engine.dicehockey.state import GameState, Step
from events.base import Event
from events.dicehockey import FaceoffWon, Roll
from events.errors import IllegalChoice

HOME_WINS: Final = 49  # 6: "the home team wins the face off on rolls of 00-49"


def home_upto(home_rating: int, away_rating: int) -> int:
    """The last number the home centre wins on (6); ruling R-DH-6a: -1 to 99 at most."""
    return max(-1, min(99, HOME_WINS + home_rating - away_rating))


def owed_change(state: GameState) -> str:
    """A line change the coaches owe before this face-off (9, 15), or ""."""
    for side in ("away", "home"):
        team = state.team(side)
        if team.men_short() and team.forwards not in (1, 2):
            return f"15: {side} kills its penalty with line 1 or 2, not {team.forwards}"
        if must_start_fourth(state, side) and team.forwards != 4:
            return f"9: {side}'s fourth line sat a period and starts this one"
    return ""


def decide_faceoff(state: GameState, step: Step, roll: Roll) -> list[Event]:
    owed = owed_change(state)
    if owed:
        raise IllegalChoice(f"a line change is owed before the face-off: {owed}")
    home, away = on_ice(state, "home"), on_ice(state, "away")
    # ruling R-DH-10a: a stand-in +0 (the two centres written out: no list, tuples or
    # call with its arguments unpacked at every face-off)
    home_rating = state.card("home", home["C"]).faceoff or 0
    away_rating = state.card("away", away["C"]).faceoff or 0
    upto = home_upto(home_rating, away_rating)
    value = roll_value(roll)
    side = "home" if value <= upto else "away"
    winner, loser = (home["C"], away["C"]) if side == "home" else (away["C"], home["C"])
    slot = parity_defense(roll)
    to = (home if side == "home" else away)[slot]
    assert winner and loser and to
    # positionally, in declared order (side, winner, loser, home_upto, value, to_player,
    # slot, roll, rule)
    return [FaceoffWon(side, winner, loser, upto, value, to, slot, state.rolls, "6")]
