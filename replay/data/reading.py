"""Reading data files, shared by every system's kit and the league loader: where the
fixtures are, a TOML file read with one-line errors, msgspec's validation errors turned
into ``field 'x': what was wrong``, and a parse-once cache of a file's loaded value.

The shipped fixtures live in the top-level ``fixtures/`` package; ``RINKLOG_FIXTURES``
names another root laid out the same way (``<system>/teams/*.toml``,
``<system>/charts/standard.toml``), e.g. a user's own chart pack and teams.
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

import msgspec

from events.errors import CardError

__all__ = ["FIXTURES", "cached", "convert", "describe", "fixtures_root", "read_toml",
           "show_path"]


def _shipped_fixtures() -> Path:
    """The ``fixtures`` package folder, found as a resource, else beside this package."""
    try:
        path = Path(str(files("fixtures").joinpath("bones"))).parent
        if (path / "bones" / "charts").is_dir():
            return path
    except (ImportError, OSError, TypeError, ValueError):  # e.g. an editable namespace path
        pass
    return Path(__file__).resolve().parent.parent / "fixtures"


FIXTURES: Path = _shipped_fixtures()


def fixtures_root(root: str | Path | None = None) -> Path:
    """The fixtures root: ``root`` if given, else ``$RINKLOG_FIXTURES``, else FIXTURES."""
    if root is not None:
        return Path(root)
    env = os.environ.get("RINKLOG_FIXTURES")
    return Path(env) if env else FIXTURES

def show_path(path: Path) -> str:
    """The path as a person typed it, or relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)

# --- msgspec errors as one line --------------------------------------------------------

_AT = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_STEP = re.compile(r"\.(\w+)|\[(\d+)\]")


def _value_at(data: Any, path: str) -> Any:
    for key, index in _STEP.findall(path):
        try:
            data = data[key] if key else data[int(index)]
        except (KeyError, IndexError, TypeError):
            return None
    return data


Refine = Callable[[str, Any], "str | None"]
"""A system's own words for a fault: (msgspec's message, the value) -> a better message, or
None (Hockey Bones' dice ranges: replay/systems/bones/library.py)."""


def describe(err: msgspec.ValidationError, data: Any, fields: tuple[str, ...],
             refine: Refine | None = None) -> str:
    """Turn msgspec's message into ``field 'x': what was wrong``."""
    match = _AT.match(str(err))
    assert match is not None
    msg, path = match["msg"].replace("`", ""), (match["path"] or "")
    missing = re.match(r"Object (missing required|contains unknown) field (\w+)", msg)
    if missing:
        path = f"{path}.{missing[2]}"
        msg = "missing" if missing[1].startswith("missing") else "not a known field"
    value = _value_at(data, path) if path else None
    refined = refine(msg, value) if refine is not None else None
    if refined is not None:
        msg = refined
    elif msg.startswith("Expected") and ", got" not in msg and path:
        msg += f", got {len(value)}" if isinstance(value, list) else f", got {value!r}"
    if not path:  # a check in __post_init__: name the field it quotes, if any
        quoted = [f for f in re.findall(r"`(\w+)`", str(err)) if f in fields]
        path = f".{quoted[0]}" if quoted else ""
    where = f"field '{path.lstrip('.')}': " if path else ""
    return where + msg


def convert(data: Any, kind: type, where: str, refine: Refine | None = None) -> Any:
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as err:
        fields = tuple(getattr(kind, "__struct_fields__", ()))
        raise CardError(f"{where}{describe(err, data, fields, refine)}") from None


def read_toml(path: Path) -> dict[str, Any]:
    shown = show_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise CardError(f"{shown}: cannot read: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise CardError(f"{shown}: not UTF-8 text (byte {err.object[err.start]:#04x} at "
                        f"offset {err.start}); save it as UTF-8") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line = re.search(r"\(at line (\d+), column (\d+)\)", str(err))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(err)) or "invalid TOML"
        where = f"line {line[1]}: " if line else ""
        raise CardError(f"{shown}: {where}TOML syntax error: {msg}") from None


def cached(path: Path, build: Callable[[dict[str, Any], Path], Any]) -> Any:
    """Parse a file once per version of it (path, size and mtime): a season loads the
    same teams thousands of times, and TOML parsing dominated a simulated game."""
    try:
        stat = path.stat()
    except OSError:
        return build(read_toml(path), path)  # read_toml names the file in its error
    return _load_once(str(path), stat.st_size, stat.st_mtime_ns, build)


@functools.lru_cache(maxsize=256)
def _load_once(path: str, size: int, mtime_ns: int,
               build: Callable[[dict[str, Any], Path], Any]) -> Any:
    return build(read_toml(Path(path)), Path(path))
