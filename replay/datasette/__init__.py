"""Datasette on a rinklog database (an optional extra: ``pip install 'rinklog[serve]'``).

The database opens immutable (read-only) with rinklog's metadata: canned queries for a
game's box score, goalies and scoring summary, a season's standings and a player's game
log, over the read models (run ``rinklog projections update`` first). See docs/datasette.md.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
from importlib.resources import files
from pathlib import Path

from events.errors import RinklogError

__all__ = ["TEMPLATE", "metadata_for", "serve"]

TEMPLATE = Path(str(files("replay.datasette").joinpath("metadata.json")))


def metadata_for(db: str | Path) -> dict:
    """rinklog's Datasette metadata for the database ``db`` (Datasette names a database by
    its file's stem, and canned queries belong to a database)."""
    template = json.loads(TEMPLATE.read_text(encoding="utf-8"))
    queries = template.pop("queries")
    return {**template, "databases": {Path(db).stem: {"queries": queries}}}


def serve(db: str | Path, *, host: str = "127.0.0.1", port: int = 8001) -> int:
    """Run Datasette on ``db`` (immutable: read-only) until it is stopped; its exit code."""
    if importlib.util.find_spec("datasette") is None:
        raise RinklogError("Datasette is not installed: pip install 'rinklog[serve]' "
                           "(or pip install datasette)")
    path = Path(db)
    if not path.is_file():
        raise RinklogError(f"{path}: no such database")
    if not host.strip():
        raise RinklogError("--host: empty (give an address, e.g. 127.0.0.1)")
    with tempfile.TemporaryDirectory(prefix="rinklog-serve-") as tmp:
        metadata = Path(tmp) / "metadata.json"
        metadata.write_text(json.dumps(metadata_for(path), indent=2), encoding="utf-8")
        command = [sys.executable, "-m", "datasette", "serve", "--immutable", str(path),
                   "--metadata", str(metadata), "--host", host, "--port", str(port)]
        try:
            return subprocess.run(command, check=False).returncode
        except KeyboardInterrupt:
            return 0
