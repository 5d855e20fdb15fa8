"""What the whole suite shares: the ``slow`` marker, fixtures several modules build alike,
and the order the tests are handed out when the suite runs on several processes (``make
test`` runs ``pytest -n 2 --dist loadscope``, pytest-xdist).

- ``--dist loadscope`` sends each test module whole to one process, so a module- or
  session-scoped fixture is built once per module, as in a one-process run (``--dist load``
  would build a module's fixture on every process that runs one of its tests).
  (``loadgroup`` would let other tests spread one by one, but pytest-xdist 3.8 cannot
  rename the test ids of pytest 9.2, which it needs for it: the groups are ignored.)
- Session fixtures here are what several modules build alike (``pages_db``); they are
  only read, never written.
- A test is ``slow`` when it is marked so, or uses a fixture named in ``SLOW_FIXTURES``
  (each takes seconds to build: whole seasons, many seeded games). ``pytest -m "not slow"``
  is the quick loop; ``make test`` runs everything. On an xdist worker the modules that
  hold a slow test are handed out first (``--no-loadscope-reorder`` keeps this order), so
  that no long module starts last while the other process has nothing left to do.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Fixtures that play many games or a whole season; a test that uses one is slow.
SLOW_FIXTURES = frozenset({
    "many_games",  # tests/rules/test_whole_games.py: 144 seeded games (6.00)
})


@pytest.fixture(scope="session")
def pages_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/pages_data.py's database (games of each system, a Bones season, a Matrix
    league): test_pages.py and test_pages_browser.py read it (a report never writes)."""
    from tests.pages_data import build_db

    return build_db(tmp_path_factory.mktemp("pages") / "pages.db")


@pytest.hookimpl(tryfirst=True)  # before pytest's -m deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if SLOW_FIXTURES.intersection(item.fixturenames):
            item.add_marker(pytest.mark.slow)
    if os.environ.get("PYTEST_XDIST_WORKER"):  # collecting on an xdist worker
        slow = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}
        items.sort(key=lambda item: item.nodeid.split("::")[0] not in slow)  # stable
