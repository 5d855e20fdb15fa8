"""Each system's tooling kit is one typed object declared in its own package, and the
system-blind tooling reaches a system only through KITS: ``cards validate`` asks each kit
whether a file is its own. A system's own commands live in the command line's layer
(replay/cli/<system>.py), which the root app names one line a system."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer

from replay.cli.app import app
from replay.leagues.validate import validate_path
from replay.systems import KITS, Kit, SeasonKit, SystemKit

TOY_FAULT = "toy.toml: field 'pucks': a toy fault"


def _toy_recognise(path: Path, data: Any) -> Any:
    return (lambda: [TOY_FAULT]) if "pucks" in data else None


def test_each_kit_is_declared_in_its_own_package() -> None:
    assert set(KITS) == {"bones", "dicehockey", "matrix"}
    for name, kit in KITS.items():
        assert kit.system == name
        assert importlib.import_module(f"replay.systems.{name}").KIT is kit
    assert isinstance(KITS["bones"], Kit) and isinstance(KITS["dicehockey"], Kit)
    assert isinstance(KITS["matrix"], SeasonKit)


def test_cards_validate_asks_each_kit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "toy.toml").write_text("pucks = 3\n", encoding="utf-8")
    [unknown] = validate_path(tmp_path)
    assert "neither a team" in unknown  # no kit knows a file with pucks
    monkeypatch.setitem(KITS, "toy", SystemKit(system="toy", recognise=_toy_recognise))
    assert validate_path(tmp_path) == [TOY_FAULT]


def test_the_root_adds_each_systems_commands() -> None:
    root = typer.main.get_command(app)
    commands = root.commands  # type: ignore[attr-defined]
    assert "matrix" in commands and "open" in commands["matrix"].commands
    # Hockey Bones' card generator joins the shared ``cards validate``
    assert list(commands["cards"].commands) == ["validate", "generate"]


@pytest.mark.parametrize("module", ["replay.cli.matrix", "replay.cli.bones"])
def test_a_kits_commands_import_first(module: str) -> None:
    """A system's cli module imports replay/cli's helpers, and the root app imports it:
    imported first, in a fresh interpreter, it still works and the root has every
    command."""
    code = (f"import {module}; import typer; from replay.cli.app import app; "
            "c = typer.main.get_command(app).commands; "
            "print(sorted(c['cards'].commands), len(c['matrix'].commands))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1], check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["['generate',", "'validate']", "11"]
