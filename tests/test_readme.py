"""The README walk-through runs: every ```sh block of README.md, in order, after `make run`.

The blocks run with the installed ``rinklog`` in a fresh temporary folder, one
``bash -e -o pipefail`` per block, so any failing command fails the test (a new block added
to the README is run too). What the test changes, and why:

- `make run` is done first, from the Makefile's own ``run`` recipe (with ``$(BIN)/`` the
  installed ``rinklog``'s folder); the README's ``make ...`` lines are not run again
  (``make test`` would run this test inside itself).
- ``fixtures`` in the temporary folder is a link to the repository's, for the commands that
  name files in it (``cards validate fixtures/bones``), as in a checkout.
- Long runs are shortened unless ``RINKLOG_README_FULL=1``: a ``season`` with no
  ``--games`` gets ``--games 20`` (the README's plays all 1,312 games) and ``calibrate
  --games 400`` becomes ``--games 20``.
- Input is empty, so ``rinklog play`` stops at its first prompt (end of input keeps
  the game, as the README says).

A comment line ``# TEXT`` that starts a line right after a command is output the README
promises: TEXT must appear in that block's output.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FULL = os.environ.get("RINKLOG_README_FULL") == "1"


def sh_blocks(text: str) -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M)


def make_run_recipe() -> list[str]:
    """The shell lines of the Makefile's ``run`` target."""
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    start = lines.index(next(line for line in lines if line.startswith("run:")))
    recipe = []
    for line in lines[start + 1:]:
        if not line.startswith("\t"):
            break
        recipe.append(line[1:])
    return recipe


def shorten(command: str) -> str:
    if FULL:
        return command
    if re.search(r"\brinklog season\b", command) and "--games" not in command:
        command = re.sub(r"\brinklog season\b", "rinklog season --games 20", command)
    return re.sub(r"(\brinklog calibrate\b.*--games )400\b", r"\g<1>20", command)


def promised(block: str) -> list[str]:
    """``# TEXT`` lines right after a command line: output the README shows."""
    out, previous = [], ""
    for line in block.splitlines():
        if line.startswith("# ") and previous and not previous.startswith("#"):
            out.append(line[2:].strip())
        previous = line
    return out


def bin_dir() -> Path:
    here = Path(sys.executable).parent
    if (here / "rinklog").exists():
        return here
    found = shutil.which("rinklog")
    if found is None:
        pytest.skip("rinklog is not installed (make test installs it)")
    return Path(found).parent


def test_readme_blocks_run_in_order(tmp_path: Path) -> None:
    blocks = sh_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(blocks) >= 8, "the README lost its walk-through"
    bindir = bin_dir()
    env = {k: v for k, v in os.environ.items() if k not in ("RINKLOG_DB", "RINKLOG_FIXTURES")}
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")

    def run(script: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=tmp_path,
                              env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=900, check=False)

    setup = "\n".join(line.replace("$(BIN)/", f"{bindir}/").replace("$$", "$")
                      for line in make_run_recipe())
    done = run(setup)
    assert done.returncode == 0, f"make run's recipe failed:\n{done.stderr}"
    assert "game HFX-QUE-2026" in done.stdout
    ran = 0
    for block in blocks:
        commands = [shorten(line) for line in block.splitlines()
                    if not re.match(r"\s*make\b", line)]
        if not any(line.strip() and not line.lstrip().startswith("#") for line in commands):
            continue
        done = run("\n".join(commands))
        shown = f"block:\n{block}\nstdout:\n{done.stdout[-2000:]}\nstderr:\n{done.stderr[-2000:]}"
        assert done.returncode == 0, shown
        assert "Traceback" not in done.stderr, shown
        for text in promised(block):
            assert text in done.stdout, f"the README promises {text!r}\n{shown}"
        ran += 1
    assert ran >= 7
