"""The Hockey Bones rules engine: pure Python, which ``make compile`` may build with mypyc
(tests/bench/compile_engine.py, opt-in; the same events either way).

``SYSTEM`` is the system's registration object (engine/bones/system.py), which
engine/systems.py lists."""

from __future__ import annotations

from pathlib import Path


def refuse_stale_compiled_modules(here: Path = Path(__file__).parent) -> None:
    """A module compiled by ``make compile`` is imported instead of its source: refuse one
    older than its ``.py`` (edited or checked out since), which would play stale rules."""
    for compiled in here.glob("*.so"):
        source = here / (compiled.name.split(".", 1)[0] + ".py")
        if source.exists() and source.stat().st_mtime > compiled.stat().st_mtime:
            raise ImportError(f"{compiled} is older than {source.name}: run `make compile` "
                              "again, or `make uncompile` to play the pure-Python engine")


refuse_stale_compiled_modules()

__all__ = ["refuse_stale_compiled_modules"]
