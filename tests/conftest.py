"""What the whole suite shares: the ``slow`` marker, and keeping expensive fixtures built once
when the suite runs on several processes (``make test`` runs ``pytest -n 2``, pytest-xdist).

- A module- or session-scoped fixture is built once per process that runs one of its tests.
  Under ``--dist loadgroup`` (the Makefile) the tests that use a session fixture of this file
  are sent to one process together (an ``xdist_group`` named after the fixture), and so are
  the tests of a module that uses a module-scoped fixture (a group named after the module):
  each is built once, as in a one-process run; the other tests are spread one by one.
- Session fixtures here are what several modules build alike (``pages_db``); they are
  only read, never written.
- A test is ``slow`` when it is marked so, or uses a fixture named in ``SLOW_FIXTURES``
  (each takes seconds to build: whole seasons, many seeded games). ``pytest -m "not slow"``
  is the quick loop; ``make test`` runs everything.
"""

from __future__ import annotations

from pathlib import Path

import pytest

# Fixtures that play many games or a whole season; a test that uses one is slow.
SLOW_FIXTURES = frozenset({
    "many_games",  # tests/rules/test_whole_games.py: 144 seeded games (6.00)
})

_SHARED_SCOPES = frozenset({"module", "class", "package", "session"})


@pytest.fixture(scope="session")
def pages_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/pages_data.py's database (games of each system, a Bones season, a Matrix
    league): test_pages.py and test_pages_browser.py read it (a report never writes)."""
    from tests.pages_data import build_db

    return build_db(tmp_path_factory.mktemp("pages") / "pages.db")


def _group(item: pytest.Item) -> str | None:
    """The xdist group of ``item``: the session fixtures of this file it uses, else its
    module when it uses a fixture of the suite's own built once for several tests (not
    pytest's or a plugin's, whose base id is empty: tmp_path_factory...), else none."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    shared = {name: defs[-1] for name, defs in info.name2fixturedefs.items()
              if defs and defs[-1].baseid and defs[-1].scope in _SHARED_SCOPES}
    here = sorted(name for name, d in shared.items() if d.baseid == "tests" and d.scope == "session")
    if here:
        return "+".join(here)
    return item.nodeid.split("::")[0] if shared else None


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the xdist_group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    xdist = config.pluginmanager.hasplugin("xdist")
    for item in items:
        if SLOW_FIXTURES.intersection(item.fixturenames):
            item.add_marker(pytest.mark.slow)
        group = _group(item) if xdist and not any(item.iter_markers("xdist_group")) else None
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
