"""The build: the rules engines and the read-model folds compiled with mypyc when this
machine can, else pure Python.

``pip install .`` and ``pip install -e .`` (``make run``'s editable install) both run this.
Every rules module of engine/bones, engine/dicehockey and engine/matrix, the engine's
shared seeded dice and game loop (engine/dice.py, engine/loop.py) and the read-model
folds (projections/bones, projections/dicehockey, the stream index and the stats' sums)
are compiled by mypyc to C and built with the C compiler, in one build; a compiled module
is an extension file beside its source that Python imports instead. When mypyc or the
compiler is missing, or anything in the build fails, the install still succeeds pure
(one note says why). Compiled or pure, a game's events and its read-model rows are the
same bytes: tests/test_compiled.py plays and folds one seeded game of every system and
option both ways.

``RINKLOG_PURE=1`` runs the sources even where compiled modules are installed, and a
build older than its sources (an edit, a checkout) never runs: events/build.py checks the
build record this writes (engine/compiled.json) when ``engine`` or ``projections`` is
imported. ``RINKLOG_COMPILE=0`` builds pure Python on purpose.

Not compiled: each package's ``__init__``, the explainers (words, not play), the
registration objects (system.py), the read models' registry and store, and every module
that defines msgspec data models (cards, coach settings, code cells, dice rolls, the
read-model types): mypyc would build their classes with plain annotations, and msgspec
would stop checking the constraints a card or coach file must meet.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# Every system's engine package (engine/<system>/ with a system.py), a compiled group each.
PACKAGES = tuple(sorted(path.parent.name for path in (ROOT / "engine").glob("*/system.py")))
SKIP = {"__init__.py", "explain.py", "system.py"}
# The engine's shared modules a game's play and audit run through: the seeded dice's
# derivation (every roll of a seeded game) and the one game loop (every step).
ENGINE_SHARED = ("engine/dice.py", "engine/loop.py")
# The read-model folds (projections/<system>/, each system's scoresheet, toi, penalties and
# stats) and the shared modules a rebuild and an audit fold every event through (the
# stream index, the stats' sums): one group, projections/compiled. Not the registry, the
# store (SQLite's time, not Python's), the standings or any module of msgspec data models.
FOLD_PACKAGES = tuple(sorted(path.parent.name for path in
                            (ROOT / "projections").glob("*/__init__.py")
                            if path.parent.name != "models"))  # the shared types: msgspec
FOLD_SHARED = ("projections/index.py", "projections/models/stats.py")
# A class with keyword options (msgspec's ``frozen=True``...) or a Struct base.
_DATA_MODEL = re.compile(r"^class \w+\([^)]*(\bStruct\b|=)", re.MULTILINE)
# The build record events/build.py reads: which sources the compiled modules came from.
RECORD = "compiled.json"
# The sources a compiled module may depend on (mypyc inlines Final constants and reads the
# types of the modules it imports): an edit to any of them makes the build stale.
RECORDED = ("engine", "events", "projections")


def _compilable(folder: Path) -> list[str]:
    """The modules of ``folder`` to compile, as paths from the root: not a package's
    ``__init__``, an explainer, a registration or a module of msgspec data models."""
    chosen = []
    for path in sorted(folder.glob("*.py")):
        if path.name in SKIP or _DATA_MODEL.search(path.read_text(encoding="utf-8")):
            continue
        chosen.append(str(path.relative_to(ROOT)))
    return chosen


def rules_modules(package: str) -> list[str]:
    """The rules modules of ``engine/<package>`` to compile, as paths from the root."""
    return _compilable(ROOT / "engine" / package)


def fold_modules() -> list[str]:
    """The read-model modules to compile: every system's folds and the shared ones."""
    return [*(m for system in FOLD_PACKAGES for m in _compilable(ROOT / "projections" / system)),
            *FOLD_SHARED]


def compiled_groups() -> list[tuple[list[str], str]]:
    """Every module the build compiles, in groups (a shared library each, built side by
    side): a group a system's rules, the engine's shared modules, the read-model folds."""
    return [*((rules_modules(package), f"engine.{package}.compiled") for package in PACKAGES),
            (list(ENGINE_SHARED), "engine.compiled"),
            (fold_modules(), "projections.compiled")]


def source_digests() -> dict[str, str]:
    """sha256 of every source a compiled module may depend on, by path from engine/."""
    digests = {}
    for top in RECORDED:
        for path in sorted((ROOT / top).rglob("*.py")):
            name = Path(os.path.relpath(path, ROOT / "engine")).as_posix()  # ../events/...
            digests[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests


def note(message: str) -> None:
    """One line on stderr: pip shows it with -v, and in its log when the build fails."""
    print(f"rinklog build: {message}", file=sys.stderr, flush=True)


# The setup.py commands that build; pip also runs setup.py for metadata (egg_info,
# dist_info), which needs no mypyc pass.
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}


def compiled_extensions() -> list:
    """mypyc's extensions for the rules modules, or none (pure Python) when it can't."""
    if not BUILDS.intersection(sys.argv[1:]):
        return []
    if os.environ.get("RINKLOG_COMPILE", "1") == "0":
        note("RINKLOG_COMPILE=0: pure-Python engine")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        note(f"mypyc is not installed ({error}): pure-Python engine")
        return []
    groups = compiled_groups()
    start = time.perf_counter()
    cwd = os.getcwd()
    os.chdir(ROOT)  # mypyc writes its C under build/ and names modules from the paths
    try:
        extensions = mypycify(
            ["--config-file", str(ROOT / "mypyc.ini"), *(m for files, _ in groups for m in files)],
            # -O1: half of -O3's compile time, the same play speed within noise
            # (docs/compiled.md); -O0 plays no faster than pure Python.
            opt_level=os.environ.get("RINKLOG_OPT", "1"),
            separate=groups,  # a shared library a package, built in parallel
        )
        for ext in extensions:  # Matrix Hockey plays a season in milliseconds: -Og compiles
            if ext.name.startswith("engine.matrix.") and "RINKLOG_OPT" not in os.environ:
                ext.extra_compile_args = ["-Og" if arg == "-O1" else arg  # in half the time
                                          for arg in ext.extra_compile_args]
    except BaseException as error:  # mypy's own errors end in SystemExit
        note(f"mypyc failed ({type(error).__name__}: {error}): pure-Python engine")
        return []
    finally:
        os.chdir(cwd)
    note(f"mypyc: {sum(len(files) for files, _ in groups)} modules to C in "
         f"{time.perf_counter() - start:.1f}s")
    return extensions


class BuildEngine(build_ext):
    """build_ext that compiles the extensions in parallel and, when one fails, drops them
    all (the engine plays pure, never half compiled) instead of failing the install."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        if not self.extensions:
            return
        start = time.perf_counter()
        try:
            super().run()
        except BaseException as error:  # the compiler's failures end in SystemExit
            if isinstance(error, KeyboardInterrupt):
                raise
            note(f"the C build failed ({type(error).__name__}: {error}): pure-Python engine")
            self.remove_built()
            return
        self.write_record()
        note(f"C build: {len(self.extensions)} extensions in {time.perf_counter() - start:.1f}s")

    def package_dir(self) -> Path:
        """Where engine/ is built: the checkout (editable, --inplace) or build/lib."""
        return Path(self.get_ext_fullpath("engine.x")).parent

    def remove_built(self) -> None:
        for ext in self.extensions:
            Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)

    def write_record(self) -> None:
        record = self.package_dir() / RECORD
        record.write_text(json.dumps({"sources": source_digests()}, indent=0, sort_keys=True))

    def get_outputs(self) -> list[str]:
        # the build record goes into the wheel with the extensions
        outputs = super().get_outputs()
        return [*outputs, str(self.package_dir() / RECORD)] if outputs else outputs


if __name__ == "__main__":  # as pip's build runs it (tests/test_compiled.py imports it)
    setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": BuildEngine})
