"""Module-level init and task for tests/test_cluster.py: a Dask worker imports them by
name (tests/ is on its path, as on the test process's)."""

from __future__ import annotations

import os

_inits = 0  # how often this process was set up
_initargs: tuple = ()


def set_up(*initargs: str) -> None:
    global _inits, _initargs
    _inits += 1
    _initargs = initargs


def inits(_job: int) -> tuple[int, int, tuple]:
    """This worker process, how often it was set up so far, and with what."""
    return os.getpid(), _inits, _initargs
