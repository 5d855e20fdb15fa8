"""The pages' registry: each season system's own site (what ``rinklog report`` writes for
its season stream: file name -> text), one line a system."""

from __future__ import annotations

from collections.abc import Callable

from events.store import EventStore
from replay.reports.matrix.site import matrix_files

SITES: dict[str, Callable[[EventStore, str], dict[str, str]]] = {
    "matrix": matrix_files,
}
