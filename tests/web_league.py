"""A test league of four teams for the league on the web (tests/test_web.py,
tests/test_web_browser.py): Hockey Bones' demo ALD, BRK, CDV and DRF, ten games each, the
season opened and no game played; a commissioner and a coach a team; games played at the
table (from seeded random dice typed in) as their export files; a forger of those files;
and a real server on a free port for the tests that need one.
"""

from __future__ import annotations

import random
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import msgspec

from events.catalogue import ALL_EVENTS
from events.checkpoints import GENESIS, chain_hash
from events.formats import decoder, encoder
from events.league import SeasonGameRecorded
from replay.cli.app import main
from replay.leagues.transfer import ExportFile, ExportRow
from replay.leagues.typed_games import typed_export

# Hockey Bones: a game carries nothing into the next (DICE Hockey's injuries and suspensions
# would make each team's games wait for its earlier ones), so any game may be sent first
DEMO = Path(__file__).parent.parent / "fixtures" / "bones" / "leagues" / "demo"
SEASON = "four-2026"
TEAMS = ("ALD", "BRK", "CDV", "DRF")
COMMISSIONER, PASSWORD = "ana", "commissioner-password"
COACHES = {"ALD": "alice", "BRK": "bruno", "CDV": "chloe", "DRF": "dmitri"}
LEAGUE_TOML = f"""name = "four"
games = 10

[[conferences]]
name = "Coastal"

[[conferences.divisions]]
name = "Harbour"
teams = {list(TEAMS)!r}

[web]
confirm_hours = 48
""".replace("'", '"')


def password_of(account: str) -> str:
    return f"{account}-password"


@dataclass(frozen=True)
class League:
    db: Path  # the season opened, the commissioner's account made; no coach yet
    links: dict[str, str]  # team -> its coach's one-time invitation path (/join/TOKEN)
    schedule: list[tuple[int, str, str]]


def build_league(folder: Path) -> League:
    league = folder / "four"
    (league / "teams").mkdir(parents=True)
    (league / "league.toml").write_text(LEAGUE_TOML)
    for team in TEAMS:
        shutil.copy(DEMO / "teams" / f"{team.lower()}.toml", league / "teams")
    db = folder / "league.db"
    assert main(["season", "--league", str(league), "--seed", "2026", "--games", "0",
                 "--workers", "1", "--db", str(db)]) == 0
    secret = folder / "password.txt"
    secret.write_text(PASSWORD + "\n")
    assert main(["league", "admin", COMMISSIONER, "--password-file", str(secret),
                 "--db", str(db)]) == 0
    links = {}
    for team in TEAMS:
        token = _invite(team, db)
        links[team] = f"/join/{token}"
    from events.catalogue import open_store
    from replay.leagues.results import season_state
    with open_store(db) as store:
        created = season_state(store, SEASON).created
    assert created is not None
    return League(db, links, [tuple(f) for f in created.schedule])


def _invite(team: str, db: Path) -> str:
    import contextlib
    import io
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["league", "invite", team, "--db", str(db)]) == 0
    match = re.search(r"/join/(\S+)", printed.getvalue())
    assert match, printed.getvalue()
    return match.group(1)


def dice(seed: str, n: int = 3000) -> list[str]:
    """Hockey Bones rolls as typed at the table (blue white white red, 1-6), from ``seed``."""
    rng = random.Random(seed)
    return [" ".join(str(rng.randint(1, 6)) for _ in range(4)) for _ in range(n)]


def played(db: Path, number: int, seed: str = "table") -> bytes:
    """Game ``number`` played at the table with dice from ``seed``: its export file."""
    return typed_export(db, SEASON, number, dice(f"{seed}/{number}"))


def rehashed(data: bytes, field: str = "scorer") -> bytes:
    """``data`` with the first event that has ``field`` changed to another value of its
    kind and the chain hashed again, the receipt's head moved with it: a forger who
    re-hashes everything (only the rules re-derived from the rolls can catch it)."""
    file = msgspec.msgpack.decode(data, type=ExportFile)
    read, write = decoder(ALL_EVENTS, file.payload_format).decode, encoder(file.payload_format)
    events = [read(row.payload) for row in file.rows]
    at = next(i for i, e in enumerate(events) if isinstance(getattr(e, field, None), str))
    values = {getattr(e, field) for e in events if isinstance(getattr(e, field, None), str)}
    values |= {getattr(e, "assist1", None) for e in events} - {None, ""}
    other = next(v for v in sorted(values) if v != getattr(events[at], field))
    events[at] = msgspec.structs.replace(events[at], **{field: other})
    rows, head = _chained(file.rows, events, write)
    # the season stream the file carries records the game's head: moved and hashed too
    season_read = decoder(ALL_EVENTS, file.season_payload_format).decode
    season = [season_read(row.payload) for row in file.season_rows]
    season = [msgspec.structs.replace(e, head=head) if isinstance(e, SeasonGameRecorded)
              and e.game == file.receipt.games[0].game else e for e in season]
    season_rows, _ = _chained(file.season_rows, season, encoder(file.season_payload_format))
    entry = msgspec.structs.replace(file.receipt.games[0], head_hash=head)
    receipt = msgspec.structs.replace(file.receipt, games=[entry])
    return msgspec.msgpack.encode(msgspec.structs.replace(
        file, rows=rows, season_rows=season_rows, receipt=receipt))


def _chained(old: list[ExportRow], events: list, write: object) -> tuple[list[ExportRow], str]:
    rows, prev = [], GENESIS
    for row, event in zip(old, events, strict=True):
        payload = write(event)  # type: ignore[operator]
        digest = chain_hash(prev, payload)
        rows.append(ExportRow(row.seq, row.type, payload, prev, digest))
        prev = digest
    return rows, prev


def tampered(data: bytes) -> bytes:
    """``data`` with one event's payload changed and nothing hashed again."""
    file = msgspec.msgpack.decode(data, type=ExportFile)
    rows = list(file.rows)
    middle = rows[len(rows) // 2]
    payload = bytearray(middle.payload)
    payload[-2] = payload[-2] ^ 1
    rows[len(rows) // 2] = ExportRow(middle.seq, middle.type, bytes(payload), middle.prev_hash,
                                     middle.hash)
    return msgspec.msgpack.encode(msgspec.structs.replace(file, rows=rows))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(app: object) -> Iterator[str]:
    """``app`` served by uvicorn on a free port of this machine, in a thread: its URL."""
    import uvicorn
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,  # type: ignore[arg-type]
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def invite_link(team: str, db: Path) -> str:
    """``rinklog league invite TEAM``'s link, as a path of the server."""
    return f"/join/{_invite(team, db)}"
