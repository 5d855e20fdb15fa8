"""A write stopped by the disk: a file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored, as a
shell's ``ulimit -f`` or a full disk leaves it) makes SQLite fail the write with an I/O
error and roll the transaction back itself. Issue 33: "a write stopped by a file-size
limit prints 'cannot rollback - no transaction is active'"; the message must name the
database and say nothing was written, and nothing must be lost."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from replay.cli.app import main

LIMITED = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
from replay.cli.app import main
sys.exit(main(sys.argv[1:]))
"""


def _limited(limit: int, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", LIMITED.format(limit=limit), *argv],
                          capture_output=True, text=True, check=False, timeout=600)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")
@pytest.mark.parametrize("limit", [100_000, 600_000])
def test_a_season_stopped_by_a_file_size_limit_says_so_and_loses_nothing(
        tmp_path: Path, limit: int) -> None:
    db = tmp_path / "season.db"
    done = _limited(limit, "season", "--league", "demo", "--seed", "3", "--games", "3",
                    "--workers", "1", "--db", str(db))
    assert done.returncode == 1, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(db) in lines[0] and "nothing" in lines[0], done.stderr
    assert "Traceback" not in done.stderr and "cannot rollback" not in done.stderr
    if db.exists():  # what was stored before the write that failed is whole and audits
        raw = sqlite3.connect(db)
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        raw.close()
        assert main(["audit", "--all", "--db", str(db)]) == 0
    # and the same command, no limit, plays the season on
    assert main(["season", "--league", "demo", "--seed", "3", "--games", "3", "--workers", "1",
                 "--db", str(db)]) == 0


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")
def test_a_game_stopped_by_a_file_size_limit_is_not_stored_and_the_others_are_kept(
        tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    assert main(["sim", "--home", "HFX", "--away", "QUE", "--seed", "1", "--db", str(db)]) == 0
    raw = sqlite3.connect(db)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = raw.execute("SELECT stream, version, head_hash FROM streams").fetchall()
    raw.close()
    done = _limited(db.stat().st_size // 2, "sim", "--home", "WPG", "--away", "SAS",
                    "--seed", "3", "--db", str(db))
    assert done.returncode == 1, done
    line = done.stderr.strip()
    assert str(db) in line and "nothing of this write was stored" in line, line
    raw = sqlite3.connect(db)
    assert raw.execute("SELECT stream, version, head_hash FROM streams").fetchall() == before
    raw.close()
    assert main(["audit", "--all", "--db", str(db)]) == 0
