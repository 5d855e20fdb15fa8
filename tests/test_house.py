"""Issue 21's "done when", counted from the source so it stays true: no shared module
imports a system's package (the registries aside), no function over 80 lines, no reach
into another module's private names, and FaceOff's options read only through the Bones
system. Each count is checked on a planted tree too, so the check itself can fail."""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from events.catalogue import SYSTEM_EVENTS

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("engine", "events", "projections", "replay")  # the code the counts cover
MAX_LINES = 80

# The registries: one line a system each, so they import every system's package.
REGISTRIES = frozenset({"events/catalogue.py", "engine/systems.py", "projections/systems.py",
                        "replay/systems/__init__.py", "replay/cli/app.py"})


def system_packages(systems: list[str]) -> tuple[str, ...]:
    """Each system's package in every layer (a module or a package, by dotted name)."""
    return tuple(f"{layer}.{name}" for name in systems
                 for layer in ("engine", "events", "projections", "replay.systems",
                               "replay.leagues", "replay.reports", "replay.web", "replay.cli"))


# Where Hockey Bones' options may be read by name: its own packages. DICE Hockey's rules
# read a card's ``faceoff`` rating (DICE Hockey 6), a field of its own of the same name.
BONES_PACKAGES = system_packages(["bones"])
OWN_FACEOFF = ("engine/dicehockey/",)


def _is_system_file(rel: str, packages: tuple[str, ...]) -> bool:
    return any(rel.startswith(p.replace(".", "/") + "/") or rel == p.replace(".", "/") + ".py"
               for p in packages)


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    return [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@dataclass
class HouseCount:
    shared_imports: list[str] = field(default_factory=list)
    long_functions: list[str] = field(default_factory=list)
    private_reaches: list[str] = field(default_factory=list)
    faceoff_reads: list[str] = field(default_factory=list)


def _count_file(count: HouseCount, rel: str, tree: ast.AST, packages: tuple[str, ...]) -> None:
    shared = not _is_system_file(rel, packages)
    bones = _is_system_file(rel, BONES_PACKAGES)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            hit = next((n for n in _imported(node)
                        if any(n == p or n.startswith(p + ".") for p in packages)), None)
            if hit and shared and rel not in REGISTRIES:
                count.shared_imports.append(f"{rel}:{node.lineno} {hit}")
            if isinstance(node, ast.ImportFrom):
                count.private_reaches += [f"{rel}:{node.lineno} from {node.module} import "
                                          f"{a.name}" for a in node.names if _private(a.name)]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > MAX_LINES:
                count.long_functions.append(f"{rel}:{node.lineno} {node.name} {lines}")
        elif isinstance(node, ast.Attribute):
            value = node.value
            if (_private(node.attr) and isinstance(value, ast.Name)
                    and value.id not in ("self", "cls") and value.id[0].islower()):
                count.private_reaches.append(f"{rel}:{node.lineno} {value.id}.{node.attr}")
            # Hockey Bones' options (FaceOff's GameCreated fields, a league's and a
            # season's [faceoff] table) are read through the system (options_of,
            # season_fields, league_options), never by name outside its packages
            if not bones and (node.attr.startswith("faceoff_") or (
                    node.attr == "faceoff" and not rel.startswith(OWN_FACEOFF))):
                count.faceoff_reads.append(f"{rel}:{node.lineno} .{node.attr}")


def count_house(root: Path, systems: list[str]) -> HouseCount:
    """The counts of the source under ``root`` (its engine, events, projections, replay)."""
    packages, count = system_packages(systems), HouseCount()
    for layer in LAYERS:
        for path in sorted((root / layer).glob("**/*.py")):
            rel = path.relative_to(root).as_posix()
            _count_file(count, rel, ast.parse(path.read_text(encoding="utf-8")), packages)
    return count


SYSTEMS = sorted(SYSTEM_EVENTS)


@cache  # the four counts below read one parse of the source (each took seconds alone)
def house() -> HouseCount:
    return count_house(ROOT, SYSTEMS)


def test_the_counts_cover_every_registered_system() -> None:
    assert {"bones", "dicehockey", "matrix"} <= set(SYSTEMS)
    assert all((ROOT / r).is_file() for r in REGISTRIES)


def test_no_shared_module_imports_a_system_package() -> None:
    assert house().shared_imports == []


def test_no_function_is_over_80_lines() -> None:
    assert house().long_functions == []


def test_no_module_reaches_into_another_modules_private_names() -> None:
    assert house().private_reaches == []


def test_faceoff_options_are_read_only_through_the_bones_system() -> None:
    assert house().faceoff_reads == []


PLANTED = {
    "engine/loop2.py": "from engine.bones.game import decide\nimport projections.dicehockey\n",
    "engine/bones/game.py": "from engine.dice import roll\n",  # a system's own: fine
    "engine/systems.py": "from engine import bones\n",  # a registry: fine
    "replay/tooling/long.py": "def f():\n" + "    x = 1\n" * MAX_LINES,
    "replay/tooling/short.py": "def f():\n" + "    x = 1\n" * (MAX_LINES - 1),
    "projections/reach.py": ("from projections.index import _step\nimport projections.store as"
                             " store\nstore._conn\nself._own\n"),
    "replay/cli/opts.py": "created.faceoff_fatigue\nleague.faceoff\ncard.faceoff_rating2 = 1\n",
    "replay/systems/bones/opts.py": "created.faceoff_fatigue\n",  # the Bones kit's own
    "replay/systems/dicehockey/opts.py": "league.faceoff\n",  # another system's kit: not
    "engine/dicehockey/cards.py": "card.faceoff\n",  # DICE Hockey's own card rating
}


def test_each_count_fails_on_a_planted_case(tmp_path: Path) -> None:
    for rel, text in PLANTED.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    count = count_house(tmp_path, ["bones", "dicehockey"])
    assert count.shared_imports == ["engine/loop2.py:1 engine.bones.game",
                                    "engine/loop2.py:2 projections.dicehockey"]
    assert count.long_functions == [f"replay/tooling/long.py:1 f {MAX_LINES + 1}"]
    assert count.private_reaches == ["projections/reach.py:1 from projections.index import _step",
                                     "projections/reach.py:3 store._conn"]
    assert count.faceoff_reads == ["replay/cli/opts.py:1 .faceoff_fatigue",
                                   "replay/cli/opts.py:2 .faceoff",
                                   "replay/cli/opts.py:3 .faceoff_rating2",
                                   "replay/systems/dicehockey/opts.py:1 .faceoff"]


# A repository path a doc names (``engine/loop.py``, ``projections/bones/``); a placeholder
# (``engine/<system>/``) names none.
DOC_PATH = re.compile(r"(?<![\w./-])((?:engine|events|projections|replay|tests|fixtures|docs)"
                      r"/[a-z_][\w./-]*)")


# A module or a name in one, dotted (``replay.games.game_streams.simulate``).
DOTTED = re.compile(r"(?<![\w./-])((?:engine|events|projections|replay)(?:\.[A-Za-z_]\w*)+)")
# A layout line that opens a folder: ``engine/`` at the left, ``  tooling/`` inside one.
FOLDER = re.compile(r"^( {0,2})([a-z_]+)/\s")
BARE = re.compile(r"(?<![\w./-])([a-z_]+\.py)\b")  # a module named without its folder


def missing_paths(text: str, root: Path) -> list[str]:
    """The repository paths ``text`` names that are not there."""
    named = (m.group(1).rstrip(".,") for m in DOC_PATH.finditer(text))
    return [p for p in named if not (root / p).exists()]


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for name in parts[i:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


def missing_names(text: str) -> list[str]:
    """The dotted modules and names ``text`` names that do not import."""
    dotted = (m.group(1) for m in DOTTED.finditer(text))
    return [d for d in dotted if not d.endswith(".py") and not _resolves(d)]


def missing_in_layout(layout: str, root: Path) -> list[str]:
    """The modules a layout block names bare (``games.py`` under ``  tooling/``) that are
    nowhere under the folder it describes."""
    top, folder, out = Path(), Path(), []
    for line in layout.splitlines():
        opens = FOLDER.match(line)
        if opens:
            if opens.group(1):
                folder = top / opens.group(2)
            else:
                top = folder = Path(opens.group(2))
        out += [f"{folder.as_posix()}/{name}" for name in BARE.findall(line)
                if not any((root / folder).rglob(name))]
    return out


def _layout(readme: str) -> str:
    return readme.split("\n## Layout", 1)[1].split("\n## ", 1)[0]


def test_the_layout_docs_name_only_paths_that_exist() -> None:
    """docs/systems.md and the README's layout describe the code as it is."""
    systems = (ROOT / "docs" / "systems.md").read_text(encoding="utf-8")
    layout = _layout((ROOT / "README.md").read_text(encoding="utf-8"))
    assert missing_paths(systems, ROOT) == missing_names(systems) == []
    assert missing_paths(layout, ROOT) == missing_names(layout) == []
    assert missing_in_layout(layout, ROOT) == []


def test_the_path_check_finds_a_path_that_is_gone() -> None:
    said = ("`engine/loop.py` the loop; `replay/tooling/games.py` (gone); "
            "`engine/<system>/system.py`; fixtures → replay/CLI.")
    assert missing_paths(said, ROOT) == ["replay/tooling/games.py"]
    assert missing_names("`replay.tooling.games.simulate`, `engine.loop.steps`, "
                         "`engine.registration.GameSystem.nothing`, cli/projections.py.") == [
        "replay.tooling.games.simulate", "engine.registration.GameSystem.nothing"]
    layout = ("replay/       tooling\n  games/      games.py (gone), refold.py\n"
              "  leagues/    league.py, gone.py\ntests/        playthrough.py, nothere.py\n")
    assert missing_in_layout(layout, ROOT) == ["replay/games/games.py",
                                               "replay/leagues/gone.py", "tests/nothere.py"]


# --- no import cycles, and replay/ in layers ----------------------------------------------


def _targets(node: ast.AST, package: str) -> list[str]:
    """The modules one node imports: ``import a.b``; ``from a.b import c`` imports ``a.b``
    and, when ``c`` is a module, ``a.b.c``; ``importlib.import_module("a.b")`` imports
    ``a.b`` (wiring by an import string is an import all the same)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        parts = package.split(".")
        base = ".".join([*(parts[:len(parts) - node.level + 1] if node.level else []),
                         *([node.module] if node.module else [])])
        return [base, *(f"{base}.{a.name}" for a in node.names)]
    if (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"):
        return [node.args[0].value]
    return []


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the project modules it imports, every import counted (inside a function
    or ``TYPE_CHECKING`` too, and an ``import_module`` string): see :func:`_targets`."""
    modules: dict[str, Path] = {}
    for path in sorted(root.glob("*/**/*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] in LAYERS:
            name = ".".join(rel.with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            graph[name] |= {t for t in _targets(node, package) if t in modules and t != name}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group = []
            while (top := stack.pop()) != module:
                group.append(top)
            if group:
                cycles.append(sorted([module, *group]))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return cycles


# replay/'s folders (and its three loose modules), lowest first: each imports only what
# stands before it (README "Layout"). A folder not named here is refused until placed.
REPLAY_LAYERS = ("cluster_access", "cluster", "workers", "data", "systems", "games", "leagues", "reports",
                 "datasette", "web", "cli")


def _replay_folder(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "replay" and len(parts) > 1 else None


def arrows_up(graph: dict[str, set[str]]) -> list[str]:
    """Every import from one of replay/'s folders into its own level or above it (another
    folder's), and every module in a folder :data:`REPLAY_LAYERS` does not place."""
    rank = {name: i for i, name in enumerate(REPLAY_LAYERS)}
    found = []
    for module, targets in sorted(graph.items()):
        here = _replay_folder(module)
        if here is None:
            continue
        if here not in rank:
            found.append(f"{module}: replay/{here} is in no layer")
            continue
        found += [f"{module} -> {t}" for t in sorted(targets)
                  if (there := _replay_folder(t)) not in (None, here)
                  and rank.get(there, len(rank)) >= rank[here]]
    return found


@cache  # both checks below read one graph of the source
def house_graph() -> dict[str, set[str]]:
    return import_graph(ROOT)


def test_no_import_cycles() -> None:
    assert import_cycles(house_graph()) == []


def test_no_folder_of_replay_imports_one_above_it() -> None:
    assert arrows_up(house_graph()) == []


def test_the_cycle_check_finds_a_planted_cycle(tmp_path: Path) -> None:
    (tmp_path / "engine" / "toy").mkdir(parents=True)
    (tmp_path / "engine" / "toy" / "__init__.py").write_text("from engine.toy.system import SYSTEM\n")
    (tmp_path / "engine" / "toy" / "system.py").write_text("from engine.toy import rules\n")
    (tmp_path / "engine" / "toy" / "rules.py").write_text("X = 1\n")
    assert import_cycles(import_graph(tmp_path)) == [["engine.toy", "engine.toy.system"]]


PLANTED_CIRCLES = {
    # ``from pkg import module`` imports the module: a circle through it
    "from": {"replay/games/a.py": "from replay.games import b\n",
             "replay/games/b.py": "def f():\n    from replay.games.a import X\n"},
    # an import string is an import: a circle through one
    "string": {"replay/systems/__init__.py": "import importlib\n"
                                             "def cli():\n"
                                             "    return importlib.import_module('replay.cli.x')\n",
               "replay/cli/__init__.py": "",
               "replay/cli/x.py": "from replay.systems import KITS\n"},
}


def _plant(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_cycle_check_sees_from_imports_and_import_strings(tmp_path: Path) -> None:
    _plant(tmp_path / "from", PLANTED_CIRCLES["from"])
    assert import_cycles(import_graph(tmp_path / "from")) == [["replay.games.a", "replay.games.b"]]
    _plant(tmp_path / "string", PLANTED_CIRCLES["string"])
    assert import_cycles(import_graph(tmp_path / "string")) == [["replay.cli.x", "replay.systems"]]


def test_the_layer_check_finds_an_arrow_up(tmp_path: Path) -> None:
    _plant(tmp_path, {"replay/games/a.py": "from replay.leagues.ledger import X\n",
                      "replay/leagues/ledger.py": "from replay.games.a import Y\n",
                      "replay/leagues/odds.py": "from replay.leagues import ledger\n",
                      "replay/misc/z.py": "",
                      "replay/reports/page.py": "from replay.data import reading\n",
                      "replay/data/reading.py": ""})
    assert arrows_up(import_graph(tmp_path)) == [
        "replay.games.a -> replay.leagues.ledger", "replay.misc.z: replay/misc is in no layer"]
