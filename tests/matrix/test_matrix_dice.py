"""The referee's dice: seeded like the other systems' (docs/matrix.md), or typed."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.bones.dice import derive_roll
from engine.matrix.dice import Dice, SeededDie, derive_die
from events.errors import RollError


def test_a_six_sided_die_is_the_first_die_of_the_same_derivation() -> None:
    for n in range(1, 50):
        assert derive_die("s", "season", n, 6) == derive_roll("s", "season", n).blue


def test_every_face_is_reachable_and_about_even() -> None:
    counts = Counter(derive_die("seed", "x", n, 11) for n in range(1, 5501))
    assert set(counts) == set(range(1, 12))
    assert all(400 < c < 600 for c in counts.values())


def test_a_die_picks_an_option_and_is_recorded() -> None:
    out = []
    dice = Dice(SeededDie("s", "x"), 7, out.append)
    value, n = dice.pick("a test", ["A", "B", "C"])
    assert n == 8 and out[0].n == 8 and out[0].value == value and out[0].seeded
    value, n = dice.pick("typed", ["A", "B", "C"], "C")
    assert (value, out[1].face, out[1].seeded) == ("C", 3, False)
    with pytest.raises(RollError, match="'Z' is not one of A, B, C"):
        dice.pick("typed", ["A", "B", "C"], "Z")
