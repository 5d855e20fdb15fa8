"""The compiled build, or the pure-Python sources: which one this process runs.

The build (setup.py) compiles with mypyc, when the machine has a C compiler, the rules
modules of every system's engine package (engine/<system>/), the shared seeded dice and
game loop (engine/dice.py, engine/loop.py) and the read-model folds (projections/,
projections/<system>/); a compiled module is an extension file beside its ``.py`` that
Python imports instead. The same events and the same read-model rows either way
(tests/test_compiled.py). The ``.py`` sources run instead when:

- ``RINKLOG_PURE=1`` is set (``make test-pure``, a bisect, a profile of the Python), or
- the build is stale: a source it was built from (engine/**, events/**, projections/**) no
  longer has the content recorded by the build (engine/compiled.json), because a developer
  edited it or checked out another commit. Then every compiled module runs pure (a
  compiled module calls the others of its build directly, so one stale module taints them
  all) and one line on stderr says so until ``make compile`` rebuilds it.

This is the one check of the one record, here in events/ (which both import) because
``engine`` and ``projections`` each run it on import (:func:`guard`) and projections never
import the engine: a compiled module of either can only be imported after its package's
``__init__``, hence after the check. ``engine.BUILD`` says which build runs, and why.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

# The engine package (beside events/): its compiled.json is the build record.
ENGINE = Path(__file__).resolve().parent.parent / "engine"
# The top-level packages the build compiles modules of (setup.py), and their subpackages.
COMPILED_ROOTS = ("engine", "projections")
# Every system's engine package (engine/<system>/ with a system.py).
COMPILED_PACKAGES = tuple(sorted(entry.name for entry in os.scandir(ENGINE)
                                 if os.path.isfile(os.path.join(entry.path, "system.py"))))
RECORD = ENGINE / "compiled.json"  # written by setup.py's build_ext
PURE_ENV = "RINKLOG_PURE"


@dataclass(frozen=True)
class EngineBuild:
    """Which build this process runs: ``compiled`` when the mypyc-built modules run;
    ``why`` says why not (no compiled modules, RINKLOG_PURE, a stale build)."""

    compiled: bool
    why: str


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds a module's ``.py`` ahead of its compiled extension (pure mode), in the packages
    the build compiles (engine, projections and their subpackages)."""

    prefixes = tuple(f"{root}." for root in COMPILED_ROOTS)

    def find_spec(self, fullname: str, path=None, target=None):  # noqa: ANN001 - finder protocol
        if not fullname.startswith(self.prefixes) or path is None:
            return None
        leaf = fullname.rpartition(".")[2]
        for folder in path:
            source = Path(folder) / f"{leaf}.py"
            if source.is_file():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def _folders(root: Path) -> list[Path]:
    """A compiled package's folder and its subpackages' (one level: engine/bones...)."""
    if not root.is_dir():
        return []
    return [root, *(Path(entry.path) for entry in os.scandir(root) if entry.is_dir()
                    and os.path.isfile(os.path.join(entry.path, "__init__.py")))]


def compiled_modules(here: Path = ENGINE) -> list[Path]:
    """The compiled modules installed beside the engine at ``here`` (engine/ and its
    system packages, projections/ and its system packages), for this interpreter."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    roots = [here, here.parent / "projections"]
    return [Path(entry.path) for root in roots for folder in _folders(root)
            for entry in os.scandir(folder) if entry.name.endswith(suffixes)]


def changed_sources(here: Path = ENGINE) -> list[str] | None:
    """The sources whose content differs from the build record, by path from engine/; None
    when there is no record. A file is hashed only when its mtime is newer than the
    record's (a checkout that changed nothing keeps the build)."""
    record = here / RECORD.name
    try:
        built, sources = record.stat().st_mtime, json.loads(record.read_bytes())["sources"]
    except (OSError, ValueError, KeyError):
        return None
    changed = []
    for name, digest in sources.items():
        path = here / name
        try:
            if path.stat().st_mtime > built and hashlib.sha256(
                    path.read_bytes()).hexdigest() != digest:
                changed.append(name)
        except OSError:
            changed.append(name)
    return changed


def decide_build(here: Path = ENGINE, environ: Mapping[str, str] = os.environ) -> EngineBuild:
    if not compiled_modules(here):
        return EngineBuild(False, "no compiled modules installed")
    if environ.get(PURE_ENV, "") not in ("", "0"):
        return EngineBuild(False, f"{PURE_ENV}={environ[PURE_ENV]}")
    changed = changed_sources(here)
    if changed is None:
        return EngineBuild(False, "stale: compiled modules without a build record "
                                  "(engine/compiled.json)")
    if changed:
        more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
        first = Path(os.path.normpath(Path("engine") / changed[0])).as_posix()  # ../events/
        return EngineBuild(False, f"stale: {first}{more} changed since the engine was compiled")
    return EngineBuild(True, "compiled modules installed and current")


_decided: dict[Path, EngineBuild] = {}


def guard(here: Path = ENGINE) -> EngineBuild:
    """The build of the engine at ``here``, decided once a process (``engine`` and
    ``projections`` both ask on import): when it is not to run compiled, the sources are
    imported instead from now on, and a stale build says so once on stderr."""
    here = here.resolve()
    build = _decided.get(here)
    if build is not None:
        return build
    build = _decided[here] = decide_build(here)
    if build.why.startswith("stale"):
        print(f"rinklog: {build.why}; playing the pure-Python engine (`make compile` "
              "rebuilds it)", file=sys.stderr)
    if not build.compiled and not build.why.startswith("no compiled") and not any(
            isinstance(finder, SourceFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder())
    return build
