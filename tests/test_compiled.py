"""`make compile` (mypyc) is opt-in: a compiled rules module must never outlive its source."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import engine.bones.game
from engine.bones import refuse_stale_compiled_modules


def test_a_compiled_module_older_than_its_source_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "rules.py"
    compiled = tmp_path / "rules.cpython-311-x86_64-linux-gnu.so"
    source.write_text("# rules\n")
    compiled.write_bytes(b"")
    os.utime(compiled, (1_000, 1_000))
    with pytest.raises(ImportError, match="make compile"):
        refuse_stale_compiled_modules(tmp_path)
    os.utime(compiled, None)  # compiled after the last edit: fine
    os.utime(source, (1_000, 1_000))
    refuse_stale_compiled_modules(tmp_path)


def test_the_engine_runs_compiled_or_from_source() -> None:
    """Either way the whole suite (whole-game snapshots, README head hashes) holds."""
    assert Path(engine.bones.game.__file__).suffix in (".py", ".so")
