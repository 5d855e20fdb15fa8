"""Team Defense (9.00-9.70): the number a numeric or *Hn code must reach for a shot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.bones.cards import Skater, TeamDefenseRow
from engine.bones.state import FORWARD_SLOTS, GameState, TeamState, other
from engine.bones.timing import fatigue_defense


def defensive_rating(state: GameState, side: str, slot: str) -> int:
    """One player's defensive rating where he stands, after 9.10 and fatigue (17.00)."""
    return _rating(state.team(side), slot, state.strength(side) == "pp",
                   state.uses("fatigue"))


def _rating(team: TeamState, slot: str, pp: bool, fatigue: bool) -> int:
    """``defensive_rating``, given whether the team is on the power play and whether
    fatigue is in play: Team Defense reads them once for its two to five ratings."""
    pid = team.slots.get(slot)
    if pid is None:
        return 0
    status = team.players[pid]
    # The card's kind and rating read once with it (PlayerStatus.facts): a card's field
    # is a generic look-up, and its positions are not scanned.
    facts = status.facts()
    assert facts.skater
    rating = facts.defense
    if slot in ("LD", "RD") and not facts.defenseman:
        # 9.10: a forward on the blue line is worth at most 1 on the power play, else 0.
        rating = min(1, rating) if pp else 0
    elif slot in FORWARD_SLOTS and facts.defenseman and rating == 5:
        rating = 4  # 9.10: a 5-rated defenseman up front counts 4
    tired = fatigue_defense(status) if fatigue else 0
    return max(0, rating - tired)


def adjusted_center(rating: int) -> int:
    """9.21: at 5 on 5 a centre rated 3 or 4 counts 2, rated 2 counts 1."""
    if rating >= 3:
        return 2
    if rating == 2:
        return 1
    return rating


def chart_defense(state: GameState, total: int) -> int:
    """The TEAM DEFENSE chart: the row with the largest total not above ``total``."""
    totals, defenses = _chart_read(state.charts.team_defense)
    value = defenses[0]
    for i in range(len(totals)):
        if total >= totals[i]:
            value = defenses[i]
    return value


# The last TEAM DEFENSE chart read, kept with its rows: their totals and defense values as
# lists of ints (compiled, each field of a msgspec row is a generic look-up, and a chart
# was about 2,400 instructions a read walking twelve rows). A chart pack's rows are never
# changed in place (a test that wants others replaces the list), so the rows object names
# what was read; one entry, replaced whole.
_CHART_READ: Final[list[tuple[object, list[int], list[int]]]] = [(None, [0], [0])]


def _chart_read(rows: list[TeamDefenseRow]) -> tuple[list[int], list[int]]:
    read = _CHART_READ[0]
    if read[0] is not rows:
        read = (rows, [row.total for row in rows], [row.defense for row in rows])
        _CHART_READ[0] = read
    return read[1], read[2]


class _Told:
    """How a total of two or three ratings was found (``DefenseTotal.how``): the template
    with the ratings in it, each text made the first time it is given and handed out again
    after (formatted at every numeric code it was about 900 instructions; read from a list
    by the ratings' index, a few dozen). Indexed by three ratings of 0-7 (a rating is 0-5:
    9.10); a number out of that range is formatted as before."""

    __slots__ = ("template", "texts")

    def __init__(self, template: str) -> None:
        self.template = template
        self.texts: list[str | None] = [None] * 512

    def told(self, a: int, b: int, c: int = 0) -> str:
        if 0 <= a < 8 and 0 <= b < 8 and 0 <= c < 8:
            at = (a * 8 + b) * 8 + c
            text = self.texts[at]
            if text is None:
                text = self.texts[at] = self.template.format(a, b, c)
            return text
        return self.template.format(a, b, c)


_ACROSS_LEFT: Final = _Told("9.20: RW {} + RD {} + C {} (9.21)")
_ACROSS_RIGHT: Final = _Told("9.20: LW {} + LD {} + C {} (9.21)")
_ACROSS_CENTRE: Final = _Told("9.20: LD {} + RD {} + C {} - 2")
_POWER_PLAY: Final = _Told("9.60: LD {} + RD {} + 2")
_BLUE_LINE: Final = _Told("8.10: LD {} + RD {}")


@dataclass(slots=True, init=False)
class DefenseTotal:
    """A total an attacker's number is compared with (9.00, 8.10 *Dn), and how it was
    found, e.g. ``"9.20: RW 3 + RD 4 + C 2"``. A value, never changed; a compiled class,
    not a NamedTuple, whose making runs interpreted Python (about 2,700 instructions),
    with its ``__init__`` written out (compiled, a generated one stays interpreted)."""

    target: int
    how: str

    def __init__(self, target: int, how: str) -> None:
        self.target, self.how = target, how


def team_defense(state: GameState, defending: str, attacker_slot: str,
                 five_slots: bool | None = None) -> DefenseTotal:
    """Team Defense that ``defending`` puts up against an attacker in ``attacker_slot``;
    ``five_slots``: whether both teams fill their five skater slots, when the caller has
    read it.

    Returns the number and how it was found, e.g. ``"9.20: RW 3 + RD 4 + C 2"``.
    """
    # The team, its strength and whether fatigue is in play read once for every rating
    # (compiled, each was asked again for each of the two to five players).
    team = state.team(defending)
    strength = state.strength(defending)
    fatigue = state.uses("fatigue")
    if strength == "pp":
        ld = _rating(team, "LD", True, fatigue)
        rd = _rating(team, "RD", True, fatigue)
        value, how = ld + rd + 2, _POWER_PLAY.told(ld, rd)
    elif strength == "sh":
        total = _skaters_total(team, fatigue)
        aces = sum(
            1 for pid in team.skaters_on_ice()
            if isinstance(team.card(pid), Skater) and team.card(pid).ace_pk
        )
        value = chart_defense(state, total) + aces
        how = f"9.50: chart for total {total}" + (f" + {aces} ace PK (9.51)" if aces else "")
    elif _both_five(state, team, defending, five_slots):
        across = _five_on_five_defense(team, attacker_slot, fatigue)
        value, how = across.target, across.how
    else:
        total = _skaters_total(team, fatigue)
        value, how = chart_defense(state, total), f"9.30/9.40: chart for total {total}"
    if team.pulled:
        value, how = value + 1, how + " + 1 goalie pulled (9.70)"
    return DefenseTotal(value, how)


def _both_five(state: GameState, team: TeamState, defending: str,
               five_slots: bool | None) -> bool:
    """Both teams fill their five skater slots (9.20): as the caller read it, or read."""
    if five_slots is not None:
        return five_slots
    return team.five_skater_slots() and state.team(other(defending)).five_skater_slots()


def _skaters_total(team: TeamState, fatigue: bool) -> int:
    """9.30-9.50: the defensive ratings of every skater slot added up (not on the power
    play: 9.60 is asked first)."""
    return (_rating(team, "LW", False, fatigue) + _rating(team, "C", False, fatigue)
            + _rating(team, "RW", False, fatigue) + _rating(team, "LD", False, fatigue)
            + _rating(team, "RD", False, fatigue))


def _five_on_five_defense(team: TeamState, attacker_slot: str, fatigue: bool) -> DefenseTotal:
    """9.20: the two defenders across from the attacker and the centre (9.21); even
    strength, so no power play."""
    if attacker_slot in ("LW", "LD"):
        rw = _rating(team, "RW", False, fatigue)
        rd = _rating(team, "RD", False, fatigue)
        centre = adjusted_center(_rating(team, "C", False, fatigue))
        return DefenseTotal(rw + rd + centre,
                            _ACROSS_LEFT.told(rw, rd, centre))
    if attacker_slot in ("RW", "RD"):
        lw = _rating(team, "LW", False, fatigue)
        ld = _rating(team, "LD", False, fatigue)
        centre = adjusted_center(_rating(team, "C", False, fatigue))
        return DefenseTotal(lw + ld + centre,
                            _ACROSS_RIGHT.told(lw, ld, centre))
    # The centre, and a sixth attacker (quick reference: defended as the centre).
    ld = _rating(team, "LD", False, fatigue)
    rd = _rating(team, "RD", False, fatigue)
    c = _rating(team, "C", False, fatigue)
    return DefenseTotal(ld + rd + c - 2, _ACROSS_CENTRE.told(ld, rd, c))


def blue_line_total(state: GameState, defending: str) -> DefenseTotal:
    """*Dn codes (8.10): the LD and RD defensive ratings of the defending team."""
    team, fatigue = state.team(defending), state.uses("fatigue")
    pp = state.strength(defending) == "pp"
    ld, rd = _rating(team, "LD", pp, fatigue), _rating(team, "RD", pp, fatigue)
    return DefenseTotal(ld + rd, _BLUE_LINE.told(ld, rd))
