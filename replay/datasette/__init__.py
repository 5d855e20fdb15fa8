"""Datasette on a rinklog database (an optional extra: ``pip install 'rinklog[serve]'``).

The database opens immutable (read-only) with rinklog's metadata: canned queries for a
game's box score, goalies and scoring summary, a season's standings and a player's game
log, over the read models (run ``rinklog projections update`` first). See docs/datasette.md.
A database that does not check out (replay/data/integrity.py) is served with a warning at
the top of every page (warnings.py, templates/base.html).
"""

from __future__ import annotations

import html
import importlib.util
import json
import tempfile
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from events.errors import RinklogError

__all__ = ["TEMPLATE", "TEMPLATES", "datasette_app", "metadata_for", "serve", "warnings_of"]

TEMPLATE = Path(str(files("replay.datasette").joinpath("metadata.json")))
TEMPLATES = Path(str(files("replay.datasette").joinpath("templates")))


def metadata_for(db: str | Path, warnings: Sequence[str] = ()) -> dict:
    """rinklog's Datasette metadata for the database ``db`` (Datasette names a database by
    its file's stem, and canned queries and table descriptions belong to a database). The
    front page lists the canned queries, each a link to its form, under the description;
    ``warnings`` (:func:`warnings_of`) are shown at the top of every page."""
    template = json.loads(TEMPLATE.read_text(encoding="utf-8"))
    queries, tables = template.pop("queries"), template.pop("tables")
    name = Path(db).stem
    links = "".join(
        f'<li><a href="/{_url_part(name)}/{_url_part(key)}">{html.escape(q["title"])}</a>'
        + (f": {html.escape(q['description'])}" if q.get("description") else "") + "</li>"
        for key, q in queries.items())
    front = (f"<p>{html.escape(template['description'])}</p>"
             f"<h2>Canned queries</h2><ul>{links}</ul>")
    return {**template, "description_html": front, "rinklog_warnings": list(warnings),
            "databases": {name: {"queries": queries, "tables": tables}}}


def warnings_of(db: str | Path) -> list[str]:
    """The warning line of a database that does not check out (every stream's chain, every
    stored read model held to its events), or none; read-only."""
    from events.catalogue import open_store
    from replay.data.integrity import database_breaks, warning

    with open_store(db, create=False) as store:
        found = database_breaks(store, read_models=False)
    return [warning(found)] if found else []


def _plugins() -> None:
    from datasette.plugins import pm

    from replay.datasette import read_only
    from replay.datasette import warnings as warned

    for plugin, name in ((read_only, "rinklog-read-only"), (warned, "rinklog-warnings")):
        if not pm.is_registered(plugin):
            pm.register(plugin, name=name)


def datasette_app(db: str | Path, warnings: Sequence[str] | None = None) -> Any:
    """The Datasette ``serve`` runs, as an object (its ``client`` answers requests in this
    process): ``db`` immutable, rinklog's metadata, templates and plugins."""
    from datasette.app import Datasette

    _plugins()
    found = warnings_of(db) if warnings is None else warnings
    return Datasette(immutables=[str(db)], metadata=metadata_for(db, found),
                     template_dir=str(TEMPLATES))


def _url_part(text: str) -> str:
    """A database or query name in a Datasette URL (its tilde encoding: letters, digits,
    ``_`` and ``-`` as they are, a space as ``+``, any other byte as ``~XX``)."""
    return "".join(c if c.isascii() and (c.isalnum() or c in "_-") else "+" if c == " "
                   else "".join(f"~{b:02X}" for b in c.encode()) for c in text)


def serve(db: str | Path, *, host: str = "127.0.0.1", port: int = 8001,
          warnings: Sequence[str] | None = None) -> int:
    """Run Datasette on ``db`` (immutable: read-only) in this process until it is stopped
    (Ctrl-C, or a SIGTERM from a service manager: the server stops with it, nothing is left
    listening); its exit code. Requests that would write are refused (read_only.py);
    ``warnings`` (None: :func:`warnings_of` the database) top every page."""
    if importlib.util.find_spec("datasette") is None:
        raise RinklogError("Datasette is not installed: pip install 'rinklog[serve]' "
                           "(or pip install datasette)")
    path = Path(db)
    if not path.is_file():
        raise RinklogError(f"{path}: no such database")
    if not host.strip():
        raise RinklogError("--host: empty (give an address, e.g. 127.0.0.1)")
    from datasette.cli import cli

    _plugins()
    found = warnings_of(path) if warnings is None else warnings
    with tempfile.TemporaryDirectory(prefix="rinklog-serve-") as tmp:
        metadata = Path(tmp) / "metadata.json"
        metadata.write_text(json.dumps(metadata_for(path, found), indent=2), encoding="utf-8")
        arguments = ["serve", "--immutable", str(path), "--metadata", str(metadata),
                     "--template-dir", str(TEMPLATES), "--host", host, "--port", str(port)]
        try:
            cli.main(args=arguments, prog_name="datasette", standalone_mode=False)
        except KeyboardInterrupt:
            return 0
        except SystemExit as stop:  # uvicorn could not start (the port is taken...)
            return stop.code if isinstance(stop.code, int) else 1
    return 0
