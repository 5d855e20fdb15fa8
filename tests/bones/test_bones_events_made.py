"""The events the Hockey Bones rules make most often are made positionally (a msgspec
Struct made by keyword matches each keyword to its field): the order the code passes
their fields in is the order they are declared in, and none is keyword-only. Were a
field moved in events/bones.py, these fail before any stored byte could move (as
tests/dicehockey/test_dicehockey_events_made.py for DICE Hockey)."""

from __future__ import annotations

import inspect

import msgspec
import pytest

from events import bones as ev

# the fields in the order engine/bones passes them (timing.play_sequence,
# actions.decide_action, faceoffs.decide_faceoff, passing.resolve_pass and
# resolve_interception, shots._shot, goalies._result and frozen, actions' stoppages)
PASSED_IN_ORDER = {
    ev.SequencePlayed: ("period", "sequence", "home", "away", "home_goalie", "away_goalie",
                        "home_short", "away_short"),
    ev.ActionResolved: ("side", "player", "slot", "cell", "result", "value", "target",
                        "modifiers", "time", "roll", "rule", "shooter", "shot", "injury"),
    ev.FaceoffRolled: ("cell", "side", "slot", "player", "zone", "roll", "rule"),
    ev.PuckPassed: ("side", "from_player", "to_player", "slot", "roll", "rule"),
    ev.PuckIntercepted: ("side", "from_player", "to_player", "slot", "roll", "rule"),
    ev.ShotTaken: ("side", "shooter", "kind", "range_name", "range", "in_range", "blockers",
                   "block", "roll", "rule"),
    ev.GoalieResult: ("side", "goalie", "cell", "outcome", "player", "roll", "rule"),
    ev.PlayStopped: ("reason", "zone"),
}


@pytest.mark.parametrize("cls", list(PASSED_IN_ORDER), ids=lambda cls: cls.__name__)
def test_fields_are_passed_in_their_declared_order(cls: type) -> None:
    assert cls.__struct_fields__ == PASSED_IN_ORDER[cls]
    kinds = {p.kind for p in inspect.signature(cls).parameters.values()}
    assert kinds == {inspect.Parameter.POSITIONAL_OR_KEYWORD}  # none keyword-only


def test_positional_and_keyword_make_the_same_bytes() -> None:
    fields = PASSED_IN_ORDER[ev.ActionResolved]
    values = ("home", "p1", "C", "8", "shot", 9, 7, ["+1 power play (8.10)"], True, 12,
              "9.00", "p1", "normal", False)
    made = ev.ActionResolved(*values)
    by_name = ev.ActionResolved(**dict(zip(fields, values, strict=True)))
    assert made == by_name
    assert msgspec.json.encode(made) == msgspec.json.encode(by_name)


def test_fields_read_by_their_place() -> None:
    """The places the rules read an event's fields at, in ``msgspec.structs.astuple``
    (actions.queue_after_action, timing.apply_sequence, shots.queue_after_shot,
    game.check_choice, penalties.apply_assessed), as named in the rules."""
    from engine.bones import actions, game, penalties, shots, timing

    action = ev.ActionResolved.__struct_fields__
    assert (action[actions.ACTION_SIDE], action[actions.ACTION_PLAYER],
            action[actions.ACTION_RESULT], action[actions.ACTION_SHOOTER],
            action[actions.ACTION_SHOT], action[actions.ACTION_INJURY]) == (
        "side", "player", "result", "shooter", "shot", "injury")
    sequence = ev.SequencePlayed.__struct_fields__
    assert (sequence[timing.SEQUENCE_NUMBER], sequence[timing.SEQUENCE_HOME],
            sequence[timing.SEQUENCE_AWAY], sequence[timing.SEQUENCE_HOME_GOALIE],
            sequence[timing.SEQUENCE_AWAY_GOALIE]) == (
        "sequence", "home", "away", "home_goalie", "away_goalie")
    shot = ev.ShotTaken.__struct_fields__
    assert (shot[shots.SHOT_SIDE], shot[shots.SHOT_SHOOTER], shot[shots.SHOT_KIND],
            shot[shots.SHOT_IN_RANGE], shot[shots.SHOT_BLOCK]) == (
        "side", "shooter", "kind", "in_range", "block")
    assessed = ev.PenaltyAssessed.__struct_fields__
    assert (assessed[penalties.ASSESSED_ID], assessed[penalties.ASSESSED_SIDE],
            assessed[penalties.ASSESSED_PLAYER], assessed[penalties.ASSESSED_SERVED_BY],
            assessed[penalties.ASSESSED_KIND], assessed[penalties.ASSESSED_BOX],
            assessed[penalties.ASSESSED_SHORT]) == (
        "id", "side", "player", "served_by", "kind", "box", "short")
    change = ev.LinesChanged.__struct_fields__
    assert (change[game.CHANGE_SIDE], change[game.CHANGE_SLOTS],
            change[game.CHANGE_ON_THE_FLY], change[game.CHANGE_RULE]) == (
        "side", "slots", "on_the_fly", "rule")
