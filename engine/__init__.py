"""The rules engines, compiled or pure: which one this process plays is decided here.

The build (setup.py) compiles the rules modules of engine/bones, engine/dicehockey and
engine/matrix with mypyc when the machine has a C compiler; a compiled module is an
extension file beside its ``.py`` that Python imports instead. The same events either way
(tests/test_compiled.py). Importing ``engine`` plays the ``.py`` sources instead when:

- ``RINKLOG_PURE=1`` is set (``make test-pure``, a bisect, a profile of the Python), or
- the compiled engine is stale: a source it was built from (engine/**, events/**) no
  longer has the content recorded by the build (engine/compiled.json), because a developer
  edited it or checked out another commit. Then the whole engine plays pure (a compiled
  module calls the others of its build directly, so one stale module taints them all) and
  one line on stderr says so until ``make compile`` rebuilds it.

``BUILD`` says which, and why.
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

HERE = Path(__file__).parent
# The packages the build compiles (setup.py): every system's engine package.
COMPILED_PACKAGES = tuple(sorted(entry.name for entry in os.scandir(HERE)
                                 if os.path.isfile(os.path.join(entry.path, "system.py"))))
RECORD = HERE / "compiled.json"  # written by setup.py's build_ext
PURE_ENV = "RINKLOG_PURE"


@dataclass(frozen=True)
class EngineBuild:
    """Which engine this process plays: ``compiled`` when the mypyc-built modules run;
    ``why`` says why not (no compiled modules, RINKLOG_PURE, a stale build)."""

    compiled: bool
    why: str


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds a rules module's ``.py`` ahead of its compiled extension (pure mode)."""

    prefixes = tuple(f"{__name__}.{package}." for package in COMPILED_PACKAGES)

    def find_spec(self, fullname: str, path=None, target=None):  # noqa: ANN001 - finder protocol
        if not fullname.startswith(self.prefixes) or fullname.count(".") != 2:
            return None
        leaf = fullname.rpartition(".")[2]
        for folder in path or ():
            source = Path(folder) / f"{leaf}.py"
            if source.is_file():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def compiled_modules(here: Path = HERE) -> list[Path]:
    """The compiled modules installed in the engine packages, for this interpreter."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return [Path(entry.path) for package in COMPILED_PACKAGES if (here / package).is_dir()
            for entry in os.scandir(here / package) if entry.name.endswith(suffixes)]


def changed_sources(here: Path = HERE) -> list[str] | None:
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


def decide_build(here: Path = HERE, environ: Mapping[str, str] = os.environ) -> EngineBuild:
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


BUILD = decide_build()
if BUILD.why.startswith("stale"):
    print(f"rinklog: {BUILD.why}; playing the pure-Python engine (`make compile` rebuilds it)",
          file=sys.stderr)
if not BUILD.compiled and not BUILD.why.startswith("no compiled") and not any(
        isinstance(finder, SourceFinder) for finder in sys.meta_path):
    sys.meta_path.insert(0, SourceFinder())

__all__ = ["BUILD", "EngineBuild", "SourceFinder", "changed_sources", "compiled_modules",
           "decide_build"]
