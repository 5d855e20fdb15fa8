"""Reading a chart or a card section written as rising bands (4, 7, 8, 15-19, 21C): the
band that holds a number. Apart from the cards' data models (cards.py) so that it is
compiled (setup.py): the rules read a band at almost every roll, and an interpreted call
from compiled code costs more than the answer."""

from __future__ import annotations

from typing import Any


def band(bands: list, value: int) -> Any:
    """The band holding ``value`` (bands rise and end at the chart's last number)."""
    for entry in bands:
        if value <= entry.upto:
            return entry
    return bands[-1]
