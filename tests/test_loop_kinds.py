"""What the one loop asks of a system at every step (engine/loop.py): the system's own
compiled ``next_kind`` and ``rollless_steps`` must say what the state itself says (its
``finished``, its queue's first step's ``kind`` and ``needs_roll``), at every event of a
whole game of each ruleset."""

from __future__ import annotations

import pytest
from setups import setup_for

from engine import loop
from engine.dice import SeededDice
from engine.systems import system_of
from replay.games.game_streams import play_game
from replay.systems import kit_for

PAIRS = {"bones": ("HFX", "QUE"), "faceoff2008": ("HFX", "QUE"), "dicehockey": ("ALD", "BRK")}


@pytest.mark.parametrize("ruleset", ["bones", "faceoff2008", "dicehockey"])
def test_next_kind_and_rollless_steps_agree_with_the_state(ruleset: str) -> None:
    system = system_of(ruleset)
    assert system.next_kind is not loop.next_kind  # each system's own, compiled
    kit = kit_for(ruleset)
    home_id, away_id = PAIRS[ruleset]
    home, away = kit.find_team(home_id, None), kit.find_team(away_id, None)
    charts = kit.default_charts(None)
    game_id = f"{home_id}-{away_id}-kinds-1"
    game = play_game(setup_for(home, away, charts, ruleset=ruleset), home, away,
                     game_id=game_id, seed="kinds-1",
                     dice=SeededDice("kinds-1", game_id, system.derive_roll))
    state = system.initial_state(game.events[0], home, away, charts)
    kinds = set()
    for event in game.events[1:]:
        kind = system.next_kind(state)
        assert kind == loop.next_kind(state)
        if kind:
            kinds.add(kind)
            assert (kind in system.rollless_steps) == (not state.queue[0].needs_roll), kind
        system.evolve(state, event)
    assert system.next_kind(state) == "" and state.finished
    assert len(kinds) >= 6  # the game's many kinds of step, not one


def test_the_default_next_kind_reads_the_state() -> None:
    """A system that registers none (the toy system) is asked through LoopState."""

    class Step:
        kind = "period"

    class State:
        finished = False
        queue = [Step()]

    assert loop.next_kind(State()) == "period"
    State.finished = True
    assert loop.next_kind(State()) == ""
