"""A skater card's numbers the rules read at every pass (7, 21C), as compiled fields.

A card is a msgspec Struct (cards.py, not compiled): compiled code reads each of its
fields through a generic attribute look-up, about 350 instructions for a rating of a
``Skater`` (its class's bases are searched first), and a passing column's band through
``bands.band`` and two more look-ups for its ``to`` and ``shot``. A pass reads the
carrier's passer rating and passing column and the defense pair's ratings: here each is
read once a card, kept in the team's state (``TeamState.facts``, by player id, with the
card it was read from: read again when the team's card is another) and read natively
after.
"""

from __future__ import annotations

from typing import Final

from engine.dicehockey.cards import PASS_LAST, Skater


class PassCell:
    """Where a passing column sends the puck for one number 00-89 (7, 21C): ``to`` a
    slot, with ``shot`` ("", "PS", "GS", "GS*", "GS**"). Every argument has a default so
    that a state holding one deep-copies compiled (as ``state.Turns``)."""

    __slots__ = ("to", "shot")

    def __init__(self, to: str = "", shot: str = "") -> None:
        self.to = to
        self.shot = shot


class SkaterFacts:
    """One skater card's passer and defense ratings (7) and its passing column as a cell
    for every number 00-89 (the text's 90-99 are every card's: 21C)."""

    __slots__ = ("card", "passer", "defense", "passing")

    def __init__(self, card: Skater | None = None, passer: int = 0, defense: int = 0,
                 passing: list[PassCell] | None = None) -> None:
        self.card = card  # the card read
        self.passer = passer
        self.defense = defense
        self.passing: list[PassCell] = [] if passing is None else passing


# Every card read, by its id, with the card itself (so a reused ``id`` never matches): a
# team's cards are loaded once and played game after game, and reading a card's column
# is about 15,000 instructions (a team's every card read at each game was more than its
# passes gained). A card is frozen: its facts never change.
_READ: Final[dict[int, SkaterFacts]] = {}


def read_card(card: Skater) -> SkaterFacts:
    """``card``'s facts, read once."""
    found = _READ.get(id(card))
    if found is None or found.card is not card:
        if len(_READ) > 65536:  # a league's every card: never reached in practice
            _READ.clear()
        found = _READ[id(card)] = _read(card)
    return found


def _read(card: Skater) -> SkaterFacts:
    """Its column's bands rise and end at 89 (cards.Skater checks it), so the band for
    each number is the first whose ``upto`` reaches it."""
    column: list[PassCell] = []
    for band in card.passing:
        cell = PassCell(band.to, band.shot)
        upto: int = band.upto
        while len(column) <= upto:
            column.append(cell)
    while len(column) <= PASS_LAST:  # (never: the last band ends at 89)
        column.append(column[-1])
    return SkaterFacts(card, card.passer, card.defense, column)
