"""The ``rinklog`` command line: thin commands over the library in replay/ (see app.py)."""

from replay.cli.app import app, main

__all__ = ["app", "main"]
