"""The events the rules make most often are made positionally (a msgspec Struct made by
keyword matches each keyword to its field): the order the code passes their fields in
is the order they are declared in, and none is keyword-only. Were a field moved in
events/dicehockey.py, these fail before any stored byte could move."""

from __future__ import annotations

import inspect

import msgspec
import pytest

from events import dicehockey as ev

# the fields in the order engine/dicehockey passes them (passing.Rolled.event, the coach's
# change and dump, puck.count_space and whistle, shots.decide_shot, turnovers.decide_dump,
# faceoffs.decide_faceoff), and reads them by their place in ``msgspec.structs.astuple``
# (game._passed, passing.apply_pass, game._shot, shots.apply_shot, lines.change_fault,
# lines.apply_change)
PASSED_IN_ORDER = {
    ev.PassRolled: ("side", "passer", "raw", "modifier", "value", "modifiers", "result",
                    "shot", "to_side", "to_player", "slot", "roll", "rule"),
    ev.LinesChanged: ("side", "forwards", "defense", "slots", "rule"),
    ev.DumpDeclared: ("side", "player", "rule"),
    ev.TimingSpaceCounted: ("period", "space", "reason", "home_on_ice", "away_on_ice",
                            "roll", "rule"),
    ev.PlayStopped: ("reason", "side", "roll", "rule"),
    ev.ShotTaken: ("side", "shooter", "goalie", "kind", "upto", "raw", "modifier",
                   "modifiers", "goal", "rebound", "puck_side", "puck_to", "slot", "penalty",
                   "roll", "rule"),
    ev.PuckDumped: ("side", "player", "reason", "outcome", "to_side", "to_player", "roll",
                    "rule"),
    ev.FaceoffWon: ("side", "winner", "loser", "home_upto", "value", "to_player", "slot",
                    "roll", "rule"),
}


@pytest.mark.parametrize("cls", list(PASSED_IN_ORDER), ids=lambda cls: cls.__name__)
def test_fields_are_passed_in_their_declared_order(cls: type) -> None:
    assert cls.__struct_fields__ == PASSED_IN_ORDER[cls]
    kinds = {p.kind for p in inspect.signature(cls).parameters.values()}
    assert kinds == {inspect.Parameter.POSITIONAL_OR_KEYWORD}  # none keyword-only
    assert not cls.__struct_defaults__  # every field given, none left to a default


def test_fields_read_by_their_place() -> None:
    """The places the evolvers read an event's fields at, as named in the rules."""
    from engine.dicehockey import game, shots

    passed = ev.PassRolled.__struct_fields__
    assert (passed[game._PASS_RESULT], passed[game._PASS_TO_SIDE],
            passed[game._PASS_TO_PLAYER], passed[game._PASS_SLOT]) == (
        "result", "to_side", "to_player", "slot")
    shot = ev.ShotTaken.__struct_fields__
    assert (shot[shots.SHOT_SIDE], shot[shots.SHOT_SHOOTER], shot[shots.SHOT_GOAL],
            shot[shots.SHOT_PUCK_SIDE], shot[shots.SHOT_PUCK_TO], shot[shots.SHOT_SLOT],
            shot[shots.SHOT_PENALTY]) == (
        "side", "shooter", "goal", "puck_side", "puck_to", "slot", "penalty")


def test_positional_and_keyword_make_the_same_bytes() -> None:
    fields = PASSED_IN_ORDER[ev.FaceoffWon]
    values = ("home", "c1", "c2", 54, 37, "d1", "RD", 12, "6")
    made = ev.FaceoffWon(*values)
    assert made == ev.FaceoffWon(**dict(zip(fields, values, strict=True)))
    assert msgspec.json.encode(made) == msgspec.json.encode(
        ev.FaceoffWon(**dict(zip(fields, values, strict=True))))
    assert made.to_player == "d1" and made.home_upto == 54
