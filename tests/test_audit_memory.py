"""A stored stream is audited with Python's cyclic garbage collector paused (replay/leagues/
audit.py ``audit_game``, audit_stream.py ``_audited``, as a game is played and re-checked:
tests/test_loop_memory.py). That is safe only while the audit makes no reference cycles:
its rows, events, checks and read models must be freed by reference counting alone."""

from __future__ import annotations

import gc
import tempfile
from pathlib import Path

from setups import simulate
from test_loop_memory import cycles_in_a_fresh_process, cyclic_garbage

from engine.loop import CollectorPaused
from replay.games.game_streams import open_store
from replay.leagues.audit import audit_game

PAIRS = {"bones": ("HFX", "QUE"), "dicehockey": ("ALD", "BRK")}


def audit_cycles_left(ruleset: str) -> list[str]:
    """The types of the objects in reference cycles that the audit of a stored game of
    ``ruleset`` leaves, audited with the collector paused (none)."""
    home, away = PAIRS[ruleset]
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "a.db") as store:
        simulate(store, home, away, seed="warm-up", game_id="warm-up", ruleset=ruleset)
        simulate(store, home, away, seed="memory", game_id="memory", ruleset=ruleset)
        assert audit_game(store, "warm-up").ok  # what is read once and kept, read
        gc.collect()
        with CollectorPaused():
            report = audit_game(store, "memory")
            assert report.ok and report.events > 500
            del report
            return cyclic_garbage()  # collect() works with the collector off


def test_a_stored_game_audited_leaves_no_cyclic_garbage() -> None:
    # in a fresh process, as tests/test_loop_memory.py's own (other tests' threads)
    assert cycles_in_a_fresh_process("test_audit_memory", "audit_cycles_left") == {
        r: [] for r in sorted(PAIRS)}


def test_the_collector_is_as_it_was_after_an_audit() -> None:
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "a.db") as store:
        simulate(store, "HFX", "QUE", seed="paused", game_id="paused")
        assert gc.isenabled()
        assert audit_game(store, "paused").ok
        assert gc.isenabled()
        gc.disable()
        try:
            assert audit_game(store, "paused").ok
            assert not gc.isenabled()  # a process that keeps it off keeps it off
        finally:
            gc.enable()
