"""Team Defense (9.00-9.70): the number a numeric or *Hn code must reach for a shot."""

from __future__ import annotations

from dataclasses import dataclass

from engine.bones.cards import Skater
from engine.bones.state import FORWARD_SLOTS, SKATER_SLOTS, GameState, other
from engine.bones.timing import fatigue_defense


def defensive_rating(state: GameState, side: str, slot: str) -> int:
    """One player's defensive rating where he stands, after 9.10 and fatigue (17.00)."""
    team = state.team(side)
    pid = team.slots.get(slot)
    if pid is None:
        return 0
    status = team.players[pid]
    # The card's kind read once with it (PlayerStatus.facts), not its positions scanned.
    facts = status.facts()
    card = facts.card
    assert isinstance(card, Skater)
    rating = card.defense
    if slot in ("LD", "RD") and not facts.defenseman:
        # 9.10: a forward on the blue line is worth at most 1 on the power play, else 0.
        rating = min(1, rating) if state.strength(side) == "pp" else 0
    elif slot in FORWARD_SLOTS and facts.defenseman and rating == 5:
        rating = 4  # 9.10: a 5-rated defenseman up front counts 4
    tired = fatigue_defense(status) if state.uses("fatigue") else 0
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
    rows = state.charts.team_defense
    value = rows[0].defense
    for row in rows:
        if total >= row.total:
            value = row.defense
    return value


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


def team_defense(state: GameState, defending: str, attacker_slot: str) -> DefenseTotal:
    """Team Defense that ``defending`` puts up against an attacker in ``attacker_slot``.

    Returns the number and how it was found, e.g. ``"9.20: RW 3 + RD 4 + C 2"``.
    """
    # Each rating read with defensive_rating directly: compiled, a closure is an object
    # made at every call and each call of it goes through Python's calling convention.
    team = state.team(defending)
    strength = state.strength(defending)
    if strength == "pp":
        ld = defensive_rating(state, defending, "LD")
        rd = defensive_rating(state, defending, "RD")
        value, how = ld + rd + 2, f"9.60: LD {ld} + RD {rd} + 2"
    elif strength == "sh":
        total = _skaters_total(state, defending)
        aces = sum(
            1 for pid in team.skaters_on_ice()
            if isinstance(team.card(pid), Skater) and team.card(pid).ace_pk
        )
        value = chart_defense(state, total) + aces
        how = f"9.50: chart for total {total}" + (f" + {aces} ace PK (9.51)" if aces else "")
    elif team.five_skater_slots() and state.team(other(defending)).five_skater_slots():
        across = _five_on_five_defense(state, defending, attacker_slot)
        value, how = across.target, across.how
    else:
        total = _skaters_total(state, defending)
        value, how = chart_defense(state, total), f"9.30/9.40: chart for total {total}"
    if team.pulled:
        value, how = value + 1, how + " + 1 goalie pulled (9.70)"
    return DefenseTotal(value, how)


def _skaters_total(state: GameState, defending: str) -> int:
    """9.30-9.50: the defensive ratings of every skater slot added up."""
    total = 0
    for slot in SKATER_SLOTS:
        total += defensive_rating(state, defending, slot)
    return total


def _five_on_five_defense(state: GameState, defending: str, attacker_slot: str) -> DefenseTotal:
    """9.20: the two defenders across from the attacker and the centre (9.21)."""
    if attacker_slot in ("LW", "LD"):
        rw = defensive_rating(state, defending, "RW")
        rd = defensive_rating(state, defending, "RD")
        centre = adjusted_center(defensive_rating(state, defending, "C"))
        return DefenseTotal(rw + rd + centre, f"9.20: RW {rw} + RD {rd} + C {centre} (9.21)")
    if attacker_slot in ("RW", "RD"):
        lw = defensive_rating(state, defending, "LW")
        ld = defensive_rating(state, defending, "LD")
        centre = adjusted_center(defensive_rating(state, defending, "C"))
        return DefenseTotal(lw + ld + centre, f"9.20: LW {lw} + LD {ld} + C {centre} (9.21)")
    # The centre, and a sixth attacker (quick reference: defended as the centre).
    ld = defensive_rating(state, defending, "LD")
    rd = defensive_rating(state, defending, "RD")
    c = defensive_rating(state, defending, "C")
    return DefenseTotal(ld + rd + c - 2, f"9.20: LD {ld} + RD {rd} + C {c} - 2")


def blue_line_total(state: GameState, defending: str) -> DefenseTotal:
    """*Dn codes (8.10): the LD and RD defensive ratings of the defending team."""
    ld, rd = defensive_rating(state, defending, "LD"), defensive_rating(state, defending, "RD")
    return DefenseTotal(ld + rd, f"8.10: LD {ld} + RD {rd}")
