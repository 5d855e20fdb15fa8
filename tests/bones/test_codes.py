"""The action-cell grammar: skater codes (8.10, 8.20) and goalie codes (11.10)."""

from __future__ import annotations

import re

import pytest

from engine.bones.codes import GoalieCell, SkaterCell, parse_goalie_cell, parse_skater_cell


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1", SkaterCell("N", 1)),
        ("8", SkaterCell("N", 8)),
        ("14", SkaterCell("N", 14)),
        ("10S", SkaterCell("N", 10, pressure=True)),
        ("*", SkaterCell("*")),
        ("R", SkaterCell("R")),
        ("*H", SkaterCell("*H")),
        ("*H2", SkaterCell("*H", 2)),
        ("*H9", SkaterCell("*H", 9)),
        ("*D5", SkaterCell("*D", 5)),
        ("@", SkaterCell("@")),
        ("P", SkaterCell("P")),
        ("PP", SkaterCell("PP")),
        ("P1", SkaterCell("P", 1)),
        ("P5", SkaterCell("P", 5)),
        ("Pf3", SkaterCell("Pf", 3)),
        ("X", SkaterCell("X")),
        ("XH", SkaterCell("XH")),
        ("XV", SkaterCell("XV")),
        ("X4", SkaterCell("X", 4)),
        ("#", SkaterCell("#")),
        ("I", SkaterCell("I")),
        ("P3+", SkaterCell("P", 3, plus=True)),
        ("X?", SkaterCell("X", injury=True)),
        ("PS", SkaterCell("P", pressure=True)),  # a pass with the pressure marker
        ("8+?S", SkaterCell("N", 8, plus=True, injury=True, pressure=True)),
        ("8S?+", SkaterCell("N", 8, plus=True, injury=True, pressure=True)),
        ("#?", SkaterCell("#", injury=True)),
    ],
)
def test_skater_cells_parse(text: str, expected: SkaterCell) -> None:
    assert parse_skater_cell(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", "0", "15", "Q7", "8++", "8SS", "+8", "P6", "P0", "Pf", "Pf4", "*D", "*D1", "*D10",
     "*H1", "X6", "XH2", "R2", "#1", "I3", "8 ", " 8", "p", "*h", "F", "LW", "08"],
)
def test_skater_cells_rejected(text: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"not a skater action code: {text!r}")):
        parse_skater_cell(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("F", GoalieCell("F")),
        ("FG", GoalieCell("F", goal_if_in_range=True)),
        ("F?1", GoalieCell("F?", number=1)),
        ("LW", GoalieCell("OWN", "LW")),
        ("RD", GoalieCell("OWN", "RD")),
        ("C", GoalieCell("OWN", "C")),
        ("LDG", GoalieCell("OWN", "LD", True)),
        ("CG", GoalieCell("OWN", "C", True)),
        ("*lw", GoalieCell("*", "LW", True)),
        ("*c", GoalieCell("*", "C", True)),
        ("*rd", GoalieCell("*", "RD", True)),
        ("R", GoalieCell("R")),
        ("X", GoalieCell("X")),
        ("X1", GoalieCell("X", number=1)),
        ("X5", GoalieCell("X", number=5)),
        ("PS1", GoalieCell("PS", number=1)),
    ],
)
def test_goalie_cells_parse(text: str, expected: GoalieCell) -> None:
    assert parse_goalie_cell(text) == expected


@pytest.mark.parametrize(
    "text", ["", "G", "F?", "F?2", "FF", "*LW", "*g", "LWG2", "X6", "X0", "PS", "PS2", "8",
             "P", "f", "R+"],
)
def test_goalie_cells_rejected(text: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"not a goalie action code: {text!r}")):
        parse_goalie_cell(text)


def test_parsers_are_cached() -> None:
    assert parse_skater_cell("P3+") is parse_skater_cell("P3+")
    assert parse_goalie_cell("*rw") is parse_goalie_cell("*rw")


def test_rejects_non_text() -> None:
    with pytest.raises(ValueError):
        parse_skater_cell(8)  # type: ignore[arg-type]
