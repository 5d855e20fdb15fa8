"""A game is played and re-checked with Python's cyclic garbage collector paused
(engine.loop.CollectorPaused, docs/benchmarks.md round 3). That is safe only while the
rules make no reference cycles: what a step makes must be freed by reference counting
alone, or a game would leave garbage behind until the collector ran again."""

from __future__ import annotations

import ast
import gc
import subprocess
import sys
from pathlib import Path

import pytest
from setups import setup_for

from engine.dice import SeededDice
from engine.loop import CollectorPaused
from engine.systems import system_of
from events.catalogue import ALL_EVENTS
from events.formats import FORMATS, decoder, encoder
from replay.games.game_streams import play_game
from replay.games.refold import recheck
from replay.systems import kit_for

PAIRS = {"bones": ("HFX", "QUE"), "faceoff2008": ("HFX", "QUE"), "dicehockey": ("ALD", "BRK")}


class _WatchedDice:
    """Seeded dice that note whether the collector was on at each roll."""

    def __init__(self, seeded: SeededDice) -> None:
        self.seeded = seeded
        self.collector_on: list[bool] = []

    def roll(self, n: int) -> object:
        self.collector_on.append(gc.isenabled())
        return self.seeded.roll(n)


def _inputs(ruleset: str, seed: str, dice: object = None):  # noqa: ANN202 (a test's own)
    """What a game is played from: its setup, teams, id and dice."""
    kit = kit_for(ruleset)
    home_id, away_id = PAIRS[ruleset]
    home, away = kit.find_team(home_id, None), kit.find_team(away_id, None)
    charts = kit.default_charts(None)
    setup = setup_for(home, away, charts, ruleset=ruleset)
    game_id = f"{home_id}-{away_id}-{seed}"
    dice = dice or SeededDice(seed, game_id, system_of(ruleset).derive_roll)
    return setup, home, away, charts, game_id, dice


def _game(ruleset: str, seed: str, dice: object = None):  # noqa: ANN202 (a test's own)
    setup, home, away, charts, game_id, dice = _inputs(ruleset, seed, dice)
    return play_game(setup, home, away, game_id=game_id, seed=seed, dice=dice), \
        (home, away, charts)


def cyclic_garbage() -> list[str]:
    """The types of what the collector finds in reference cycles now (and frees)."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = sorted({type(o).__qualname__ for o in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return found


def cycles_left(ruleset: str) -> list[str]:
    """The types of the objects in reference cycles a game of ``ruleset`` leaves, played
    and re-checked with the collector paused (none: the rules make no cycles)."""
    _game(ruleset, "warm-up")  # the kit's cards and charts, read once and kept
    setup, home, away, charts, game_id, dice = _inputs(ruleset, "memory-1")
    gc.collect()  # what the set-up left is not the rules'
    with CollectorPaused():
        game = play_game(setup, home, away, game_id=game_id, seed="memory-1", dice=dice)
        assert recheck(game.events, home, away, charts) is None
        assert len(game.events) > 500
        del game
        return cyclic_garbage()  # collect() works with the collector off


def test_a_game_played_and_rechecked_leaves_no_cyclic_garbage() -> None:
    # In a fresh process: the collector sees every thread's garbage, and a test run before
    # this one in the same process may leave threads (a Dask cluster's event loop) whose
    # cycles come apart at any time.
    assert cycles_in_a_fresh_process("test_loop_memory", "cycles_left") == {
        r: [] for r in sorted(PAIRS)}


def cycles_in_a_fresh_process(module: str, function: str) -> dict[str, list[str]]:
    """``function(ruleset)`` of the tests' ``module`` for every ruleset of its ``PAIRS``,
    run in a fresh Python process: what each leaves in reference cycles."""
    script = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
              f"from {module} import PAIRS, {function}; "
              f"print(repr({{r: {function}(r) for r in sorted(PAIRS)}}))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return ast.literal_eval(done.stdout.strip())


def test_the_collector_is_off_while_a_game_is_played_and_as_it_was_after() -> None:
    seeded = SeededDice("paused", "HFX-QUE-paused", system_of("bones").derive_roll)
    watched = _WatchedDice(seeded)
    assert gc.isenabled()
    game, _ = _game("bones", "paused", watched)
    assert len(watched.collector_on) > 100 and not any(watched.collector_on)
    assert gc.isenabled()
    assert len(game.events) > 500
    gc.disable()
    try:
        _game("bones", "paused-off")
        assert not gc.isenabled()  # a process that keeps it off keeps it off
    finally:
        gc.enable()


def test_the_collector_is_on_again_when_a_game_fails() -> None:
    class Failing:
        def roll(self, n: int) -> object:
            raise RuntimeError("dice lost")

    with pytest.raises(RuntimeError, match="dice lost"):
        _game("bones", "fails", Failing())
    assert gc.isenabled()


@pytest.mark.parametrize("ruleset", sorted(PAIRS))
def test_events_are_not_tracked_by_the_collector_played_or_decoded(ruleset: str) -> None:
    # events.base.Event is gc=False: no event is ever in a cycle, and an audit or an odds
    # run would otherwise have the collector walk every event it holds, again and again
    game, _ = _game(ruleset, "untracked")
    events = game.events
    assert len(events) > 500
    tracked = [type(e).__name__ for e in events if gc.is_tracked(e)]
    assert tracked == []
    for format_ in FORMATS:  # both payload formats a store writes, each decoded
        decode, encode = decoder(ALL_EVENTS, format_).decode, encoder(format_)
        decoded = [decode(encode(e)) for e in events]
        assert decoded == events
        assert not any(gc.is_tracked(e) for e in decoded)
