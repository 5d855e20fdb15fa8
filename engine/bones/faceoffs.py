"""Face-offs (7.00-7.30): who wins the draw, ace centres, power plays, defensive zones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.bones.rolls import white
from engine.bones.state import GameState, Step, other
from engine.bones.stoppages import ACTION_STEP
from events.bones import FaceoffRolled, Roll

# The event, a name of a module that is not compiled, as a Final alias: compiled, an
# imported name is looked up in this module's dictionary at every use (about 130
# instructions); a Final one is a C static.
_FACEOFF_ROLLED: Final = FaceoffRolled


# Values made at every face-off: compiled classes with their ``__init__`` written out
# (a NamedTuple's making, or a generated ``__init__``, runs interpreted Python).
@dataclass(slots=True, init=False)
class FaceoffCell:
    """A FACEOFFS chart cell (7.00): ``"C-H/A"`` is slot C, side code H, ace mark A."""

    slot: str
    side_code: str  # "H", "V", or "PP" for the power-play team (7.10)
    mark: str  # "", "A" or "AA" (7.20)

    def __init__(self, slot: str, side_code: str, mark: str) -> None:
        self.slot, self.side_code, self.mark = slot, side_code, mark


@dataclass(slots=True, init=False)
class FaceoffTaker:
    """Who takes a team's draws (7.20), and his ace level (0 none, 1 A, 2 AA)."""

    player: str | None
    level: int

    def __init__(self, player: str | None, level: int) -> None:
        self.player, self.level = player, level


# Each chart cell's parts by its text, read once (a cell is a value, never changed): the
# chart has at most 66 cells, and a face-off read its cell's text again at every draw.
_CELLS: Final[dict[str, FaceoffCell]] = {}


def parse_cell(cell: str) -> FaceoffCell:
    """``"C-H/A"`` -> slot C, side code H, mark A."""
    parsed = _CELLS.get(cell)
    if parsed is None:
        where, _, mark = cell.partition("/")
        slot, _, side = where.partition("-")
        parsed = _CELLS[cell] = FaceoffCell(slot, side, mark)
    return parsed


def best_taker(state: GameState, side: str) -> FaceoffTaker:
    """7.20: the on-ice skater with the best face-off rating takes the draw."""
    team = state.team(side)
    best, level = None, -1
    players = team.players
    for pid in team.skaters_on_ice():
        # His face-off level read from his card's facts (PlayerStatus.facts, read once a
        # card: 0 for a goalie as sixth attacker), not his card's mark looked up again.
        rating = players[pid].facts().ace
        if rating > level:
            best, level = pid, rating
    return FaceoffTaker(best, max(level, 0))


def ace_winner(state: GameState, mark: str) -> str | None:
    """7.20: which side an ``A`` or ``AA`` mark gives the draw to, if any."""
    if not mark:
        return None
    # Each side's level read into a local (no dict of the two made at every marked cell).
    home = best_taker(state, "home").level
    away = best_taker(state, "away").level
    if home == away:
        return None
    high, high_level, low_level = ("home", home, away) if home > away else ("away", away, home)
    if mark == "A":
        # An A cell goes to any ace facing an unrated taker; A against AA is unchanged.
        return high if low_level == 0 else None
    return high if high_level == 2 else None  # AA cells go to an AA against A or none


def power_play_side(state: GameState) -> str | None:
    for side in ("home", "away"):
        if state.strength(side) == "pp":
            return side
    return None


def decide_faceoff(state: GameState, step: Step, roll: Roll) -> list:
    cell = state.charts.faceoffs[roll.blue - 1][white(roll) - 2]
    parsed = parse_cell(cell)
    slot, side_code, mark = parsed.slot, parsed.side_code, parsed.mark
    rule = "7.00"
    if side_code == "PP":
        # 7.10: the power-play team's slot; with no power play the home team's.
        side = power_play_side(state) or "home"
        rule = "7.10"
    else:
        side = "home" if side_code == "H" else "away"
    player = state.team(side).slots.get(slot)
    ace = ace_winner(state, mark)
    if ace is not None and ace != side or (ace is not None and player is None):
        taker = best_taker(state, ace).player
        side, player, rule = ace, taker, "7.20"
        slot = state.slot_of(side, taker) or slot
    # Made positionally (compiled, a msgspec Struct made with keywords matches each
    # keyword by name): cell, side, slot, player, zone, roll, rule (cited: game.decide
    # passes it over).
    return [_FACEOFF_ROLLED(cell, side, slot, player, step.zone, state.rolls,
                            state.cite(rule))]


def apply_faceoff(state: GameState, event: FaceoffRolled) -> None:
    # Each field read once: compiled, every read of a msgspec event's attribute is a
    # generic look-up.
    player = event.player
    if player is None:
        return  # 7.00: an empty slot wins nothing; roll again
    side = event.side
    state.puck = (side, player)
    state.pp_passes = 0
    # 7.30: the attacking team that wins a draw in the other team's zone gets +2 next roll.
    state.dz_bonus = side if event.zone == other(side) else ""
    state.replace_step(ACTION_STEP)  # made once (a step is never changed)
