"""What the whole suite shares: the ``slow`` marker, fixtures several modules build alike,
and the order the tests are handed out when the suite runs on several processes (``make
test`` runs ``pytest -n 2 --dist loadscope``, pytest-xdist).

- ``--dist loadscope`` sends each test module whole to one process, so a module- or
  session-scoped fixture is built once per module, as in a one-process run (``--dist load``
  would build a module's fixture on every process that runs one of its tests).
  (``loadgroup`` would let other tests spread one by one, but pytest-xdist 3.8 cannot
  rename the test ids of pytest 9.2, which it needs for it: the groups are ignored.)
- Fixtures here are what several modules use alike: ``store`` (a new database),
  ``playthrough`` (a whole game as a JSON Lines snapshot, tests/playthrough.py) and the
  session-scoped ``pages_db``, only read, never written. A module that writes to an
  expensive database builds it once (module scope) and gives each test a copy of the
  file (tests/test_season.py's ``straight``).
- Tests live beside what they test: tests/bones/, tests/dicehockey/, tests/matrix/ hold
  each system's rules and tools (helpers ``bones_support.py``, ``dicehockey_support.py``,
  ``matrix_helpers.py``); the shared code's tests are at the top.
- A test is ``slow`` when it is marked so, or uses a fixture named in ``SLOW_FIXTURES``
  (each takes seconds to build: whole seasons, many seeded games). ``pytest -m "not slow"``
  is the quick loop; ``make test`` runs everything. On an xdist worker the modules that
  hold a slow test are handed out first (``--no-loadscope-reorder`` keeps this order), so
  that no long module starts last while the other process has nothing left to do.
- The tests' temporary folders are on a RAM file system (``/dev/shm``) where the machine
  has one with room (4 GiB free or more; a container's 64 MB one is not used): the suite
  writes thousands of small SQLite databases, each commit a sync to disk, and
  tests/test_trust.py spent a quarter of its time copying and syncing files. ``--basetemp``
  or ``TMPDIR`` given by hand win.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

RAM_TMP = Path("/dev/shm")
RAM_TMP_ROOM = 4 << 30  # bytes free for the suite's temporary folders on it


def pytest_configure(config: pytest.Config) -> None:
    """Temporary folders on a RAM file system with room, where there is one (docstring)."""
    if config.option.basetemp is not None or "TMPDIR" in os.environ:
        return
    try:
        room = os.statvfs(RAM_TMP)
    except OSError:
        return  # no /dev/shm: the system's temporary folder
    if room.f_bavail * room.f_frsize >= RAM_TMP_ROOM and os.access(RAM_TMP, os.W_OK):
        tempfile.tempdir = str(RAM_TMP)  # pytest's tmp_path_factory roots there

# Fixtures that play many games or a whole season; a test that uses one is slow.
SLOW_FIXTURES = frozenset({
    "many_games",  # tests/bones/test_whole_games.py: 144 seeded games (6.00)
})
# Tests (a module, or a test with all its parameters) that took 15 s or more in a one-process
# run of `--durations` on the shared 2-core machine (about 4 s or more on a quiet one).
# Kept here, not on each test, so that one list says what the quick loop leaves out; an
# entry that names no collected test of a collected module stops the run (renamed test).
SLOW_TESTS = frozenset({
    "tests/test_readme.py::test_readme_blocks_run_in_order",  # the README walk-through
    "tests/test_trust.py::test_1000_random_single_mutations_of_the_database_are_caught",
    "tests/test_trust.py::test_rehashed_mutations_of_any_event_field_are_caught",
    "tests/test_season.py::test_a_killed_season_resumes_to_the_same_database",
    "tests/test_season.py::test_two_hundred_league_games_play_to_the_end",
    "tests/test_season.py::test_a_season_keeps_every_read_model_current",
    "tests/test_season.py::test_a_stopped_season_resumes_to_the_same_database",
    "tests/dicehockey/test_season_games_missed.py::test_15_17_workers_and_a_resumed_run_give_the_same_season",
    "tests/test_pages_browser.py",  # headless Chromium
    "tests/test_fuzz_inputs.py",  # hypothesis over every input file and command
    "tests/matrix/test_matrix_season.py::test_events_explain_replay_games_export_import_on_a_season",
    "tests/test_migration.py::test_opening_schema_3_for_writing_migrates_every_stream_as_format_1",
    "tests/test_formats.py::test_every_event_round_trips_in_both_formats",
    "tests/test_projections.py::test_strength_labels_follow_a_three_on_three_overtime",
    "tests/test_receipts_season.py::test_a_rewritten_week_is_named_by_the_receipt_published_that_week",
    "tests/test_postseason_table.py",  # a league's season, playoffs and lottery, at the table
    "tests/test_cluster.py",  # a real Dask LocalCluster, a season and its playoffs on it
    "tests/test_odds.py",  # seasons played on and replayed
    "tests/test_season_races.py",  # a season, and two commands at once on copies of it
    "tests/test_standings_views.py",  # a season and its playoffs, pages in Chromium
    "tests/dicehockey/test_dicehockey_rotation.py::test_r_9b_property_no_rotation_line_is_skipped",
})


def _slow_entry(item: pytest.Item) -> str | None:
    module, _, rest = item.nodeid.partition("::")
    for entry in (module, f"{module}::{rest.split('[')[0]}"):
        if entry in SLOW_TESTS:
            return entry
    return None


@pytest.fixture
def store(tmp_path: Path):
    """A new, empty database of the test's own (``open_store``), open for writing."""
    from replay.games.game_streams import open_store

    with open_store(tmp_path / "games.db") as db:
        yield db


@pytest.fixture(scope="session")
def pages_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/pages_data.py's database (games of each system, a Bones season, a Matrix
    league): test_pages.py and test_pages_browser.py read it (a report never writes)."""
    from tests.pages_data import build_db

    return build_db(tmp_path_factory.mktemp("pages") / "pages.db")


@pytest.fixture
def playthrough(snapshot):
    """A whole-game snapshot as JSON Lines (tests/playthrough.py): ``assert events ==
    playthrough``, one event a line, so a rule change reads as a line diff."""
    from tests.playthrough import JSONLinesSnapshotExtension

    return snapshot.use_extension(JSONLinesSnapshotExtension)


@pytest.hookimpl(tryfirst=True)  # before pytest's -m deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    used = set()
    for item in items:
        entry = _slow_entry(item)
        used.add(entry)
        if entry or SLOW_FIXTURES.intersection(item.fixturenames):
            item.add_marker(pytest.mark.slow)
    modules = {item.nodeid.split("::")[0] for item in items}
    whole = not any("::" in arg for arg in config.args)  # whole modules were collected
    stale = sorted(e for e in SLOW_TESTS - used if whole and e.split("::")[0] in modules)
    if stale:
        raise pytest.UsageError(f"tests/conftest.py SLOW_TESTS names no test: {', '.join(stale)}")
    if os.environ.get("PYTEST_XDIST_WORKER"):  # collecting on an xdist worker
        slow = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}
        items.sort(key=lambda item: item.nodeid.split("::")[0] not in slow)  # stable
