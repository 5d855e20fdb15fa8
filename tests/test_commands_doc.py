"""The command reference's examples run: every ``sh`` block of docs/commands.md, in order,
after `make run`, in a shell that has activated ``.venv`` as the README says, by the same
rules as the README walk-through (tests/test_readme.py: shortened long runs, ``# TEXT``
lines are promised output). Its own module, so the two walk-throughs run on two workers."""

from __future__ import annotations

from pathlib import Path

from tests.test_readme import ROOT, sh_blocks, walk_through


def test_command_reference_blocks_run_in_order(tmp_path: Path) -> None:
    doc = ROOT / "docs" / "commands.md"
    assert len(sh_blocks(doc.read_text(encoding="utf-8"))) >= 15, "the reference lost its examples"
    assert walk_through(doc, tmp_path, session=[". .venv/bin/activate"]) >= 15
