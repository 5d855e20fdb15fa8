"""The suite itself: every test can fail (issue 21).

A test that asserts nothing passes whatever the code does, and ``pytest.raises(Exception)``
passes on any bug that happens to raise (a ``TypeError`` in the code under test included),
so both are refused here, reading the test files' syntax trees (no test is imported).

A test "checks" when its body has an ``assert`` (a snapshot comparison ``assert x ==
snapshot`` included), a ``raise``, ``pytest.raises``/``fail``/``warns``/``skip``,
``snapshot.assert_match(...)``, or calls a function defined in tests/ that checks (a
helper such as ``assert_one_line_error``), found by name, transitively.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PYTEST_CHECKS = {"raises", "fail", "warns", "skip", "importorskip", "xfail"}
BROAD = {"Exception", "BaseException"}


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "bench" not in p.relative_to(root).parts)


@cache  # both checks read the same trees: the suite's files parsed once a run
def _trees(root: Path) -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for path in _files(root)}


def _functions(root: Path) -> dict[Path, list[ast.FunctionDef | ast.AsyncFunctionDef]]:
    return {path: [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
            for path, tree in _trees(root).items()}


def _pytest_attr(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "pytest":
        return node.attr
    return None


def _checks_itself(function: ast.AST) -> bool:
    return any(isinstance(n, ast.Assert | ast.Raise) or _pytest_attr(n) in PYTEST_CHECKS
               or (isinstance(n, ast.Attribute) and n.attr == "assert_match")  # syrupy
               for n in ast.walk(function))


def _called(function: ast.AST) -> set[str]:
    names = set()
    for n in ast.walk(function):
        if isinstance(n, ast.Call):
            if isinstance(n.func, ast.Name):
                names.add(n.func.id)
            elif isinstance(n.func, ast.Attribute):
                names.add(n.func.attr)
    return names


def unchecked_tests(root: Path = TESTS) -> list[str]:
    """``path:line name`` of every test function under ``root`` that checks nothing."""
    functions = _functions(root)
    by_name: dict[str, list[ast.AST]] = {}
    for defs in functions.values():
        for d in defs:
            by_name.setdefault(d.name, []).append(d)
    checking = {name for name, defs in by_name.items() if any(_checks_itself(d) for d in defs)}
    # each function's calls found once (the fixpoint below reads them at every pass)
    calls = {name: set().union(*map(_called, defs)) for name, defs in by_name.items()
             if name not in checking}
    grown = True
    while grown:  # a helper that calls a checking helper checks too
        grown = False
        for name, called in calls.items():
            if name not in checking and called & checking:
                checking.add(name)
                grown = True
    return [f"{path.relative_to(root)}:{d.lineno} {d.name}"
            for path, defs in functions.items() for d in defs
            if d.name.startswith("test") and d.name not in checking]


def broad_raises(root: Path = TESTS) -> list[str]:
    """``path:line`` of every ``pytest.raises(Exception)`` under ``root`` (match= or not)."""
    found = []
    for path, tree in _trees(root).items():
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and _pytest_attr(n.func) == "raises" and n.args:
                caught = n.args[0].elts if isinstance(n.args[0], ast.Tuple) else [n.args[0]]
                if any(isinstance(c, ast.Name) and c.id in BROAD for c in caught):
                    found.append(f"{path.relative_to(root)}:{n.lineno}")
    return found


def test_every_test_checks_something() -> None:
    assert unchecked_tests() == []


def test_no_test_accepts_any_exception() -> None:
    assert broad_raises() == []


def test_the_checks_catch_what_they_refuse(tmp_path: Path) -> None:
    """The two checks above fail on the faults they name (so they can fail)."""
    (tmp_path / "helpers.py").write_text(
        "def assert_ok(x):\n    assert x\n\ndef via(x):\n    assert_ok(x)\n", encoding="utf-8")
    (tmp_path / "test_faults.py").write_text(
        "import pytest\n\n"
        "def test_parses():\n    parse('8')\n\n"  # the test_library.py fault
        "def test_helped():\n    via(1)\n\n"
        "def test_snapshot(snapshot):\n    snapshot.assert_match(parse('8'))\n\n"
        "def test_refused():\n    with pytest.raises(ValueError, match='8'):\n        parse('?')\n\n"
        "def test_any_error():\n    with pytest.raises(Exception, match='x'):\n        parse('?')\n"
        "\ndef test_any_of():\n    with pytest.raises((KeyError, BaseException)):\n        parse('?')\n",
        encoding="utf-8")
    assert unchecked_tests(tmp_path) == ["test_faults.py:3 test_parses"]
    assert broad_raises(tmp_path) == ["test_faults.py:17", "test_faults.py:21"]


def test_whole_game_playthroughs_are_json_lines_seq_and_type_first() -> None:
    """Each whole-game snapshot is one event a line (tests/playthrough.py), numbered from 1."""
    import json

    files = sorted(TESTS.rglob("__snapshots__/*/*.jsonl"))
    assert len(files) >= 3  # Hockey Bones, FaceOff 2008, DICE Hockey
    for path in files:
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        assert [list(line)[:2] for line in lines] == [["seq", "type"]] * len(lines), path
        assert [line["seq"] for line in lines] == list(range(1, len(lines) + 1)), path
        assert lines[0]["type"] == "GameCreated" and lines[-1]["type"] == "GameEnded", path
