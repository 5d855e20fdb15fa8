"""Reading a chart or a card section written as rising bands (4, 7, 8, 15-19, 21C): the
band that holds a number. Apart from the cards' data models (cards.py) so that it is
compiled (setup.py): the rules read a band at almost every roll, and an interpreted call
from compiled code costs more than the answer."""

from __future__ import annotations

from typing import Any, Final

# Each chart or card section read, as a table of its band for every number 0 up to its
# last band's end, by the list's id (with the list itself, so a reused id never
# matches). A band's ``upto`` is a msgspec field: compiled code reads it through a
# generic attribute look-up, and walking a passing column to its band read a dozen of
# them at every pass; the table reads none. A card's bands never change once loaded.
_TABLES: Final[dict[int, tuple[list, list]]] = {}


def band(bands: list, value: int) -> Any:
    """The band holding ``value`` (bands rise and end at the chart's last number)."""
    seen = _TABLES.get(id(bands))
    if seen is None or seen[0] is not bands:
        if len(_TABLES) > 4096:  # a league's every card and chart: never reached in practice
            _TABLES.clear()
        seen = _TABLES[id(bands)] = (bands, _table(bands))
    table = seen[1]
    if 0 <= value < len(table):
        return table[value]
    return _walk(bands, value)


def _table(bands: list) -> list:
    table: list = []
    for entry in bands:
        upto: int = entry.upto
        while len(table) <= upto:
            table.append(entry)
    return table


def _walk(bands: list, value: int) -> Any:
    for entry in bands:
        if value <= entry.upto:
            return entry
    return bands[-1]
