"""`make compile`: build the Hockey Bones rules engine with mypyc, in place (opt-in).

The ``.py`` files stay the source of truth: a compiled module is an extension file beside
its source that Python imports instead, and ``make uncompile`` removes them all.
``engine/bones/__init__.py`` refuses a compiled module older than its source, so an edit
never plays stale rules. Compiled or not, a game's events are the same bytes: run
``make compile && make test`` (the whole-game snapshots and the README's head hashes).

Not compiled: the package itself (it holds that check), the explainer (words, not play),
the registration object (system.py)
and every module that defines msgspec data models (cards, coach settings, code cells):
mypyc would build their classes with plain annotations, and msgspec would stop checking
the constraints a card or coach file must meet.

Run: ``make compile`` (installs the ``compile`` extra, mypy with mypyc; needs a C compiler).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # tests/bench/ -> the checkout
SKIP = {"__init__.py", "explain.py", "system.py"}  # system.py: the registration object
# A class with keyword options (msgspec's ``frozen=True``...) or a Struct base.
_DATA_MODEL = re.compile(r"^class \w+\([^)]*(\bStruct\b|=)", re.MULTILINE)


def modules() -> list[str]:
    """The rules modules to compile, as paths from the repository root."""
    chosen = []
    for path in sorted((ROOT / "engine" / "bones").glob("*.py")):
        if path.name in SKIP or _DATA_MODEL.search(path.read_text(encoding="utf-8")):
            continue
        chosen.append(str(path.relative_to(ROOT)))
    return chosen


def main() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    os.chdir(ROOT)
    print("compiling:", " ".join(Path(m).stem for m in modules()))
    setup(
        name="rinklog-compiled-engine",
        ext_modules=mypycify(["--config-file", "tests/bench/mypyc.ini", *modules()],
                             opt_level="3", group_name="engine.bones.compiled"),
        script_args=["build_ext", "--inplace", "--build-temp", "build/mypyc"],
    )


if __name__ == "__main__":
    main()
