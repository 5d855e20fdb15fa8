"""The rules engines, compiled or pure: which one this process plays is decided on import.

The build (setup.py) compiles the rules modules of every system's engine package, the
shared seeded dice and game loop (engine/dice.py, engine/loop.py) and the read-model
folds (projections/) with mypyc when the machine has a C compiler. The check that a
compiled build is current, and plays the ``.py`` sources when it is not (or when
``RINKLOG_PURE=1``), lives in events/build.py: the one check of the one build record
(engine/compiled.json), run here and by ``projections`` (which never imports the engine).

``BUILD`` says which engine this process plays, and why.
"""

from __future__ import annotations

from pathlib import Path

from events.build import (
    COMPILED_PACKAGES,
    PURE_ENV,
    EngineBuild,
    SourceFinder,
    changed_sources,
    compiled_modules,
    decide_build,
    guard,
)

BUILD = guard(Path(__file__).parent)

__all__ = ["BUILD", "COMPILED_PACKAGES", "PURE_ENV", "EngineBuild", "SourceFinder",
           "changed_sources", "compiled_modules", "decide_build"]
