"""The compiled build (setup.py, mypyc) and the pure-Python one play the same bytes and fold
the same read-model rows, and a compiled build older than its sources never runs
(events/build.py, run by engine/__init__.py and projections/__init__.py)."""

from __future__ import annotations

import copy
import hashlib
import importlib.machinery
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

from engine_digest import digests

import engine
import engine.bones.game
import projections.bones.toi

ROOT = Path(__file__).resolve().parents[1]
# One seeded game of every system, ruleset and option (tests/engine_digest.py), taken from
# the pure-Python engine. It changes only when a rule changes: then take the new one from
# `RINKLOG_PURE=1 .venv/bin/python tests/engine_digest.py`, in the rule's commit.
DIGEST = "10999f7af54498d379aa18ead37e0fbfe3292dab70c2aba7c35e233530ae9fda"
# The read models of those games (every stored table's rows) and every stream's index,
# folded by the pure-Python folds before they were compiled (the commit that compiled
# them changed no row). It changes when a rule or a read model's counting changes: take
# the new one from the same command, in that commit. (Issue 35 stored a player's shifts
# in one row: the rows unpacked a shift a row still give the digest before, 9ea3557e.)
READ_MODELS_DIGEST = "67b1ac5b5e2e6f3980c0d5f345f87c5b1a9d8d14936c74659709c39631bad592"


def run_digest(**env: str) -> list[str]:
    """tests/engine_digest.py in a fresh process: the build it ran, its two digests and the
    files Bones' game module and time-on-ice fold came from."""
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "engine_digest.py")],
                          capture_output=True, text=True, check=True, cwd=ROOT,
                          env={**os.environ, **env})
    return done.stdout.split()


def test_the_pure_engine_plays_the_recorded_digest() -> None:
    played, pure_digest, pure_read_models, module, fold = run_digest(RINKLOG_PURE="1")
    assert (played, pure_digest, pure_read_models) == ("pure", DIGEST, READ_MODELS_DIGEST)
    # RINKLOG_PURE runs the sources, compiled or not
    assert module.endswith("game.py") and fold.endswith("toi.py")


def test_this_process_plays_the_same_digest_compiled_when_it_can() -> None:
    """``make test`` runs compiled where the build compiled (``make test-pure``: pure)."""
    both = digests()
    assert (both.engine, both.read_models) == (DIGEST, READ_MODELS_DIGEST)
    installed = bool(engine.compiled_modules())
    modules = (engine.bones.game, projections.bones.toi)
    if installed and not os.environ.get("RINKLOG_PURE"):
        assert engine.BUILD.compiled, f"{engine.BUILD.why}: `make compile` rebuilds it"
        assert not any(m.__file__.endswith(".py") for m in modules)
    else:
        assert all(m.__file__.endswith(".py") for m in modules)


def fake_build(tmp_path: Path) -> Path:
    """A copy of engine/ whose Bones game module has a compiled twin (an empty file: it can
    only fail to import) and a build record of game.py as it is now."""
    copy = tmp_path / "engine"
    shutil.copytree(ROOT / "engine", copy, ignore=shutil.ignore_patterns(
        "*.so", "*.pyd", "compiled.json", "__pycache__"))
    game = copy / "bones" / "game.py"
    (copy / "bones" / f"game{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    (copy / "compiled.json").write_text(json.dumps({"sources": {
        "bones/game.py": hashlib.sha256(game.read_bytes()).hexdigest()}}))
    return copy


def import_game(copy: Path, **env: str) -> subprocess.CompletedProcess[str]:
    code = "import engine, engine.bones.game as g; print(engine.BUILD.compiled, g.__file__)"
    environ = {k: v for k, v in os.environ.items() if k != "RINKLOG_PURE"}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=copy.parent, env={**environ, "PYTHONPATH": str(copy.parent), **env})


def test_a_stale_compiled_engine_plays_the_sources_and_says_so_once(tmp_path: Path) -> None:
    copy = fake_build(tmp_path)
    game = copy / "bones" / "game.py"
    current = import_game(copy)  # the record matches: the (empty) compiled module is tried
    assert current.returncode != 0 and "ImportError" in current.stderr
    os.utime(game, (game.stat().st_mtime + 10,) * 2)  # touched, not changed: still current
    assert import_game(copy).returncode != 0
    game.write_text(game.read_text() + "\n# edited\n")
    os.utime(game, (game.stat().st_mtime + 10,) * 2)
    stale = import_game(copy)
    assert stale.returncode == 0, stale.stderr
    assert stale.stdout.split() == ["False", str(game)]
    assert stale.stderr.splitlines() == [
        "rinklog: stale: engine/bones/game.py changed since the engine was compiled; playing the "
        "pure-Python engine (`make compile` rebuilds it)"]


def test_rinklog_pure_plays_the_sources_past_a_current_build(tmp_path: Path) -> None:
    copy = fake_build(tmp_path)
    pure = import_game(copy, RINKLOG_PURE="1")
    assert pure.returncode == 0, pure.stderr
    assert pure.stdout.split() == ["False", str(copy / "bones" / "game.py")]
    assert pure.stderr == ""


def test_a_stale_compiled_fold_runs_its_source_without_the_engine(tmp_path: Path) -> None:
    """The read models check the same record on import (projections never import the
    engine): an edited fold runs its source, one line says so, and no engine is loaded."""
    for top in ("engine", "projections"):
        shutil.copytree(ROOT / top, tmp_path / top, ignore=shutil.ignore_patterns(
            "*.so", "*.pyd", "compiled.json", "__pycache__"))
    toi = tmp_path / "projections" / "bones" / "toi.py"
    (toi.parent / f"toi{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    (tmp_path / "engine" / "compiled.json").write_text(json.dumps({"sources": {
        "../projections/bones/toi.py": hashlib.sha256(toi.read_bytes()).hexdigest()}}))
    code = "import sys, projections.bones.toi as t; print('engine' in sys.modules, t.__file__)"
    environ = {k: v for k, v in os.environ.items() if k != "RINKLOG_PURE"}

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=tmp_path, env={**environ, "PYTHONPATH": str(tmp_path)})

    current = run()  # the record matches: the (empty) compiled fold is tried
    assert current.returncode != 0 and "ImportError" in current.stderr
    toi.write_text(toi.read_text() + "\n# edited\n")
    os.utime(toi, (toi.stat().st_mtime + 10,) * 2)
    stale = run()
    assert stale.returncode == 0, stale.stderr
    assert stale.stdout.split() == ["False", str(toi)]
    assert stale.stderr.splitlines() == [
        "rinklog: stale: projections/bones/toi.py changed since the engine was compiled; "
        "playing the pure-Python engine (`make compile` rebuilds it)"]


def test_compiled_modules_without_a_build_record_are_stale(tmp_path: Path) -> None:
    copy = fake_build(tmp_path)
    (copy / "compiled.json").unlink()
    build = engine.decide_build(copy, {})
    assert not build.compiled and build.why == (
        "stale: compiled modules without a build record (engine/compiled.json)")
    assert engine.decide_build(tmp_path, {}).why == "no compiled modules installed"


def test_the_compiled_classes_keep_what_python_code_does_with_them() -> None:
    """mypyc builds a native class, which Python code may not subclass and which cannot be
    copied or pickled when frozen: each frozen dataclass of a compiled module is built as
    a plain Python class, and the default coaches stay open to subclasses (a test's coach)."""
    import setup

    frozen, coaches = [], []
    for modules, _ in setup.compiled_groups():
        for module in modules:
            text = (ROOT / module).read_text(encoding="utf-8")
            frozen += [(module, m.start()) for m in re.finditer(
                r"^@dataclass\(frozen=True", text, re.MULTILINE)
                if not text[:m.start()].endswith("@mypyc_attr(native_class=False)\n")]
            coaches += [module for m in re.finditer(r"^class DefaultCoach\b", text, re.MULTILINE)
                        if not text[:m.start()].endswith(
                            "@mypyc_attr(allow_interpreted_subclasses=True)\n")]
    assert (frozen, coaches) == ([], [])
    from engine.bones.state import Retaliation
    from engine.dicehockey.rulesets import DICEHOCKEY
    from projections.models.stats import goalie_figures

    for value in (Retaliation("MI", "minor", 2), DICEHOCKEY, goalie_figures(30, 28, 2, 3600)):
        assert copy.deepcopy(value) == value == pickle.loads(pickle.dumps(value))
