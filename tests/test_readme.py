"""The README walk-through runs: every ```sh block of README.md, in order, after `make run`.

The blocks run as a user types them in one shell, in a fresh temporary folder holding a
``.venv`` (a link to the virtual environment running the tests, where ``make`` installs
rinklog), one ``bash -e -o pipefail`` per block, so any failing command fails the test (a
new block added to the README is run too). ``rinklog`` is on no ``PATH`` the test
gives: a block finds it only the way the README says (``. .venv/bin/activate``, carried
into every later block as the user's shell keeps it, or ``.venv/bin/rinklog``). What the
test changes, and why:

- `make run` is done first, from the Makefile's own ``run`` recipe (with ``$(BIN)/``
  ``.venv/bin/``, as the Makefile sets it); the README's ``make ...`` lines are not run
  again (``make test`` would run this test inside itself).
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


def venv() -> Path:
    """The virtual environment running the tests (``make test``: the checkout's ``.venv``)."""
    here = Path(sys.prefix)
    if not (here / "bin" / "activate").exists() or not (here / "bin" / "rinklog").exists():
        pytest.skip("not run from a virtual environment with rinklog installed "
                    "(make test runs it from .venv)")
    return here


def user_env() -> dict[str, str]:
    """The environment of a fresh shell: no rinklog on PATH, no database or fixtures set."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("RINKLOG_DB", "RINKLOG_FIXTURES", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join(
        d for d in env.get("PATH", "").split(os.pathsep)
        if d and not (Path(d) / "rinklog").exists())
    return env


# A line that changes the user's shell for the rest of the session (activating .venv).
SHELL_STATE = re.compile(r"^\s*(\.|source)\s+\S*activate\b")


def walk_through(doc: Path, tmp_path: Path, session: list[str] | None = None) -> int:
    """Run every ``sh`` block of ``doc`` in order after ``make run``'s recipe, as the test
    above describes; ``session`` is what the user's shell already holds (for a page that
    follows the README: its activation). Returns the number of blocks run."""
    blocks = sh_blocks(doc.read_text(encoding="utf-8"))
    env = user_env()  # only what the page says to type finds rinklog
    (tmp_path / ".venv").symlink_to(venv(), target_is_directory=True)
    (tmp_path / "fixtures").symlink_to(ROOT / "fixtures")

    def run(script: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=tmp_path,
                              env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=900, check=False)

    setup = "\n".join(line.replace("$(BIN)/", ".venv/bin/").replace("$$", "$")
                      for line in make_run_recipe())
    done = run(setup)
    assert done.returncode == 0, f"make run's recipe failed:\n{done.stderr}"
    assert "game HFX-QUE-2026" in done.stdout
    ran, session = 0, list(session or [])
    for block in blocks:
        commands = [shorten(line) for line in block.splitlines()
                    if not re.match(r"\s*make\b", line)]
        if not any(line.strip() and not line.lstrip().startswith("#") for line in commands):
            continue
        done = run("\n".join(session + commands))
        shown = (f"{doc.name} block:\n{block}\nstdout:\n{done.stdout[-2000:]}\n"
                 f"stderr:\n{done.stderr[-2000:]}")
        assert done.returncode == 0, shown
        assert "Traceback" not in done.stderr, shown
        for text in promised(block):
            assert text in done.stdout, f"{doc.name} promises {text!r}\n{shown}"
        session += [line for line in commands if SHELL_STATE.match(line)]
        ran += 1
    assert session, f"{doc.name}: no block says how to reach rinklog after make run"
    return ran


def test_readme_blocks_run_in_order(tmp_path: Path) -> None:
    assert len(sh_blocks((ROOT / "README.md").read_text(encoding="utf-8"))) >= 8, \
        "the README lost its walk-through"
    assert walk_through(ROOT / "README.md", tmp_path) >= 7


def test_the_walk_through_fails_without_activating(tmp_path: Path) -> None:
    """What the issue saw: after `make run`, ``rinklog`` as typed is not found until the
    shell activates .venv (so the test above can fail)."""
    env = user_env()
    (tmp_path / ".venv").symlink_to(venv(), target_is_directory=True)

    def run(script: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=60, check=False)

    assert run("rinklog --version").returncode == 127
    assert run(". .venv/bin/activate\nrinklog --version").stdout.startswith("rinklog ")
