"""``--cluster ADDRESS`` (issue 23, docs/cluster.md): a Dask scheduler's workers instead of
local processes, the writer and the database staying in the command's process.

One real ``distributed.LocalCluster`` on localhost (two worker processes of one thread
each) serves the whole module. A short DICE Hockey season (dicedemo's eight teams, two
games each: its injuries and suspensions carry into later games, DICE Hockey 15, 17) and
its playoffs (the top four, single games) are played once on the cluster and once in this
process; every stream must end with the same head. ``audit --all --cluster`` must give the
local report, tampered database or not. A task that raises, and a scheduler that is not
there or goes away, are one line each, in bounded time.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from events.errors import RinklogError
from replay.cli.app import main
from replay.games.game_streams import open_store
from replay.workers import Cluster, Crew, open_crew
from tests import cluster_tasks

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[1]
DICEDEMO = ROOT / "fixtures/dicehockey/leagues/dicedemo"
SEED = "dask"
SEASON = f"tiny-{SEED}"


@pytest.fixture(scope="module")
def cluster():
    """The module's LocalCluster: its scheduler's address."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", host="127.0.0.1") as local:
        yield local.scheduler_address


def _league(where: Path) -> Path:
    folder = where / "tiny"
    shutil.copytree(DICEDEMO, folder)
    toml = folder / "league.toml"
    text = toml.read_text().replace("games = 82", "games = 2")
    text = text.replace('name = "dicedemo"', 'name = "tiny"')
    toml.write_text(text.split("[playoffs]")[0] + "[playoffs]\nteams = 4\nseries = [1, 1]\n")
    return folder


def _heads(db: Path) -> dict[str, str]:
    with open_store(db) as store:
        return {s: store.head_hash(s) for s in store.stream_ids()}


@pytest.fixture(scope="module")
def seasons(cluster: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The tiny season and its playoffs, played on the cluster and here."""
    where = tmp_path_factory.mktemp("cluster")
    folder = _league(where)
    dbs = {"cluster": where / "cluster.db", "local": where / "local.db"}
    for how, db in dbs.items():
        place = ["--cluster", cluster] if how == "cluster" else ["--workers", "1"]
        # the cluster's workers audit each game before it is stored; here the audit tests
        # below audit the whole database
        audit = [] if how == "cluster" else ["--no-audit"]
        assert main(["season", "--league", str(folder), "--seed", SEED, *place, *audit,
                     "--db", str(db)]) == 0
        assert main(["playoffs", SEASON, "--league", str(folder), *place,
                     "--db", str(db)]) == 0
    return dbs


def test_a_season_and_its_playoffs_on_a_cluster_end_with_the_local_heads(
        seasons: dict[str, Path]) -> None:
    cluster, local = _heads(seasons["cluster"]), _heads(seasons["local"])
    assert cluster == local
    games = [s for s in local if s.startswith(f"{SEASON}-")]
    assert len([g for g in games if "-p" not in g]) == 8  # 8 teams, 2 games each
    assert len([g for g in games if "-p" in g]) == 3  # 4 teams, two rounds of one game


@pytest.mark.parametrize("league", ["demo", "dicedemo"])
def test_a_leagues_setup_pickles_plainly_and_names_no_file(league: str, tmp_path: Path) -> None:
    """What a season sends a cluster once: the league's setup (teams, cards, charts,
    options, a coach file's habits), by plain pickle (what ClusterCrew sends). It unpickles
    to an equal setup whose system is this rinklog's registered one (functions by name),
    and names no file of this machine (the league folder, the coach file)."""
    import pickle

    from replay.games.game_setup import league_setup
    from replay.leagues.league import load_league

    coach = tmp_path / "coach.toml"
    coach.write_text("pull_goalie_at = 44\n")
    setup = league_setup(load_league(league), coach_file=coach if league == "demo" else None)
    sent = pickle.dumps(setup)
    back = pickle.loads(sent)
    assert back == setup and back.system is setup.system
    assert str(tmp_path).encode() not in sent and str(ROOT).encode() not in sent
    assert (setup.coach is not None) == (league == "demo")


def _audit(db: Path, capsys: pytest.CaptureFixture, *more: str) -> tuple[int, list[dict]]:
    capsys.readouterr()
    code = main(["audit", "--all", "--json", "--db", str(db), *more])
    return code, json.loads(capsys.readouterr().out)


def test_audit_all_on_a_cluster_reports_as_local(seasons: dict[str, Path], cluster: str,
                                                 capsys: pytest.CaptureFixture) -> None:
    code, reports = _audit(seasons["cluster"], capsys, "--cluster", cluster)
    assert (code, reports) == _audit(seasons["cluster"], capsys, "--workers", "1")
    assert code == 0 and len(reports) == 1 + 8 + 3  # the season, its games, playoff games


def _tamper(source: Path, where: Path, *sql: tuple[str, tuple]) -> Path:
    db = where / "tampered.db"
    shutil.copy(source, db)
    raw = sqlite3.connect(db)
    for statement, args in sql:
        assert raw.execute(statement, args).rowcount == 1
    raw.commit()
    raw.close()
    return db


def test_audit_all_on_a_cluster_catches_a_tampered_stream_as_local(
        seasons: dict[str, Path], cluster: str, tmp_path: Path,
        capsys: pytest.CaptureFixture) -> None:
    """A payload byte changed in one game (the hash chain), a seq made text in another
    (as a hand edit can leave it), and a goal added to a third game's stored scoresheet
    (the read models, shipped to the worker with the game)."""
    game, other, third = f"{SEASON}-0003", f"{SEASON}-0005", f"{SEASON}-0007"
    with open_store(seasons["cluster"]) as store:
        rows = store.raw_rows(game)
    seq = len(rows) // 2
    payload = bytearray(rows[seq - 1].payload)
    payload[-2] ^= 1
    db = _tamper(seasons["cluster"], tmp_path,
                 ("UPDATE events SET payload = ? WHERE seq = ? AND "
                  "stream_key = (SELECT key FROM streams WHERE stream = ?)",
                  (bytes(payload), seq, game)),
                 ("UPDATE rm_scoresheet_games SET home_goals = home_goals + 1 "
                  "WHERE game_id = ?", (other,)),
                 ("UPDATE events SET seq = 'five' WHERE seq = 5 AND "
                  "stream_key = (SELECT key FROM streams WHERE stream = ?)", (third,)))
    code, reports = _audit(db, capsys, "--cluster", cluster)
    assert (code, reports) == _audit(db, capsys, "--workers", "1")
    failed = {r["game_id"]: r["failure"]["check"] for r in reports if not r["ok"]}
    assert code == 1
    # game 0003's changed row is not one of its rulings: the injury it gave BRK's
    # ilya-ouellet (DICE Hockey 17) still reads as stored (replay/leagues/availability.py
    # reads a game's ruling rows alone), so the playoff game he sat out holds; only the
    # three changed streams fail, each at its own check
    assert failed == {game: "chain", other: "read models", third: "chain"}


@pytest.fixture
def patching(cluster: str):
    """The cluster's workers patched (tests/cluster_tasks.py: ``forge`` a game, ``lie``
    about an audit), put back after the test: ``patching(how, arg)``."""
    client = distributed.Client(cluster, set_as_default=False)
    try:
        yield lambda how, arg: client.run(how, arg)
    finally:
        client.run(cluster_tasks.unforge)
        client.run(cluster_tasks.unlie)
        client.close()


def test_audit_all_on_a_cluster_names_its_workers_and_verify_catches_a_lying_one(
        patching, seasons: dict[str, Path], cluster: str, tmp_path: Path,
        capsys: pytest.CaptureFixture) -> None:
    """Issue 33: "`audit --all --cluster` says in its verdict that the rules were re-run
    on the cluster's workers (named), and `--verify K` re-audits K games chosen by a seed
    the command prints, locally". A game's stored read-model rows changed to 9 goals, and
    a worker that says "passed" of it: the cluster's verdict alone passes it; re-audited
    here, it fails in one line."""
    game = f"{SEASON}-0005"
    db = _tamper(seasons["cluster"], tmp_path,
                 ("UPDATE rm_scoresheet_games SET home_goals = 9 WHERE game_id = ?", (game,)))
    patching(cluster_tasks.lie, game)
    client = distributed.Client(cluster, set_as_default=False)
    try:
        addresses = list(client.scheduler_info(n_workers=-1)["workers"])
    finally:
        client.close()
    capsys.readouterr()
    assert main(["audit", "--all", "--cluster", cluster, "--verify", "0",
                 "--db", str(db)]) == 0  # the lie, believed
    *_, said, summary = capsys.readouterr().out.splitlines()  # issue 34: the summary last
    assert summary.startswith("no findings in 12 streams checked (")
    assert said.startswith("cluster verdict: the rules of 11 games were re-run on the Dask "
                           f"cluster at {cluster} by its workers ")
    assert len(addresses) == 2 and all(a in said for a in addresses)
    assert said.endswith("none of them re-audited here (--verify 0): their reports are "
                         "their word (docs/trust.md)")
    # every game re-audited here: the lie is found, in one line
    assert main(["audit", "--all", "--cluster", cluster, "--verify", "11",
                 "--db", str(db)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if "FAILED" in line] == [
        f"{game}: FAILED at seq 834: verify check (rule docs/trust.md (audit --verify)): "
        "expected the cluster's report as this process audits it: FAILED at seq 834, read "
        "models check; recorded the cluster's worker reported: ok"]
    assert out[-2].endswith(f": {game} audit otherwise here (docs/trust.md)")
    assert out[-1].startswith("1 finding in 12 streams checked (")
    # the seed the verdict printed chooses the same games again
    seed = out[-2].split("--verify-seed ")[1].split(" ")[0]
    lines = []
    for _ in range(2):
        assert main(["audit", "--all", "--cluster", cluster, "--verify", "3",
                     "--verify-seed", seed, "--db", str(db)]) in (0, 1)
        lines.append(capsys.readouterr().out.splitlines()[-2])
    assert lines[0] == lines[1] and f"chosen by --verify-seed {seed} (" in lines[0]


def test_a_game_a_cluster_worker_forged_is_refused_and_nothing_of_it_stored(
        patching, cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Issue 33: a worker that returns "a forged but self-consistent game (a die changed,
    the chain re-hashed [...])" gets nothing stored and the command exits non-zero in one
    line (tests/test_returned.py: every forgery, through the same check)."""
    from tests.test_returned import nothing_stored_of

    folder = _league(tmp_path)
    db = tmp_path / "forged.db"
    patching(cluster_tasks.forge, "die")
    capsys.readouterr()
    code = main(["season", "--league", str(folder), "--seed", "forge", "--cluster", cluster,
                 "--db", str(db)])
    err = capsys.readouterr().err
    forged = f"tiny-forge-{cluster_tasks.FORGED:04d}"
    assert code == 1 and err.count("\n") == 1
    assert err.startswith(f"rinklog: error: {forged} as a worker returned it does not hold: "
                          "dice check at event"), err
    nothing_stored_of(db, forged)


def test_a_task_that_raises_is_one_line_as_from_local_workers(cluster: str) -> None:
    messages = []
    for crew in (open_crew(1, int, math.sqrt, (), "root", cluster=Cluster(cluster), result=float),
                 Crew(1, int, math.sqrt, (), "root")):
        try:
            crew.submit("four", 4.0)
            assert crew.result() == ("four", 2.0)
            crew.submit("minus one", -1.0)
            with pytest.raises(RinklogError) as raised:
                crew.result()
            messages.append(str(raised.value))
        finally:
            crew.stop()
    assert messages == ["root minus one failed in a worker: ValueError: math domain error"] * 2


def test_what_does_not_pickle_is_one_line_before_anything_is_sent(cluster: str) -> None:
    """A lambda would go to the workers as a copy of this process's code (Dask's
    fallback): a crew sends plain pickles only, and names what does not pickle."""
    with pytest.raises(RinklogError, match=r"^the roots' setup cannot be sent to a "
                       r"cluster \(\w+: .*<lambda>.*\); please report it as a rinklog bug$"):
        open_crew(1, int, lambda x: x, (), "root", cluster=Cluster(cluster), result=int)
    crew = open_crew(1, int, math.sqrt, (), "root", cluster=Cluster(cluster), result=float)
    try:
        with pytest.raises(RinklogError, match=r"^the root 7 cannot be sent to a cluster"):
            crew.submit(7, lambda: 7)
    finally:
        crew.stop()


def test_init_runs_once_in_each_worker_process_per_crew(cluster: str) -> None:
    """Twelve jobs of a crew, then twelve of another: a worker process is set up once
    for each crew whose jobs it runs (its count of set-ups goes up by one a crew)."""
    before: dict[int, int] = {}  # pid -> set-ups seen in it so far
    for _ in ("first crew", "second crew"):
        crew = open_crew(1, cluster_tasks.set_up, cluster_tasks.inits, ("a", "b"),
                         cluster=Cluster(cluster), result=tuple[int, int, tuple[str, ...]])
        seen: dict[int, set[int]] = {}
        try:
            assert crew.size == 2  # two workers of one thread
            for job in range(12):
                crew.submit(job, job)
            for _ in range(12):
                _, (pid, inits, initargs) = crew.result()
                assert initargs == ("a", "b")
                seen.setdefault(pid, set()).add(inits)
        finally:
            crew.stop()
        assert os.getpid() not in seen
        assert seen == {pid: {before.get(pid, 0) + 1} for pid in seen}
        before.update({pid: inits for pid, (inits,) in seen.items()})


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_no_scheduler_at_the_address_is_one_line_in_bounded_time(
        seasons: dict[str, Path]) -> None:
    """In a process of its own, to its end: Dask's client of a connection that never
    opened printed a traceback when the interpreter exited, after waiting 20 s for it
    (issue 33: "ends, after 21 s, in a traceback from the Dask client's close")."""
    address = f"tcp://127.0.0.1:{_closed_port()}"
    script = ("import sys\n"
              "from replay import cluster\n"
              "from replay.cli.app import main\n"
              "cluster.CONNECT_WAIT = 1.0\n"
              f"sys.exit(main(['audit', '--all', '--cluster', {address!r}, '--db', "
              f"{str(seasons['local'])!r}]))\n")
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1 and time.monotonic() - start < 15  # not 1 s + 20 s
    assert done.stderr.startswith(f"rinklog: error: cannot reach a Dask scheduler at {address}")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr


def test_a_scheduler_lost_mid_run_is_one_line() -> None:
    """A job running when the scheduler goes away: one line at once, not a wait for
    RESULT_WAIT (a cluster of threads in this process, closed from another thread)."""
    local = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                     protocol="tcp://", dashboard_address=":0",
                                     host="127.0.0.1")
    address = local.scheduler_address
    crew = open_crew(1, int, time.sleep, (), "nap", cluster=Cluster(address), result=None)
    closing = threading.Thread(target=local.close)
    try:
        crew.submit(1, 3)
        start = time.monotonic()
        closing.start()
        with pytest.raises(RinklogError) as raised:
            crew.result()
        assert time.monotonic() - start < 60  # not RESULT_WAIT (300 s): no hang
    finally:
        crew.stop()
        closing.join()
    assert str(raised.value) == (f"lost the Dask scheduler at {address}; run the command "
                                 "again to go on")


def test_a_cluster_whose_workers_all_left_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jobs waiting on a scheduler that has no worker left: one line once it has had none
    for WORKER_WAIT, not a wait for RESULT_WAIT (here 1 s, asked every half second)."""
    from replay import cluster as cluster_module

    monkeypatch.setattr(cluster_module, "WORKER_WAIT", 1.0)
    monkeypatch.setattr(cluster_module, "LOOK_WAIT", 0.5)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  protocol="tcp://", dashboard_address=":0",
                                  host="127.0.0.1") as local:
        crew = open_crew(1, int, math.sqrt, (), "root",
                         cluster=Cluster(local.scheduler_address), result=float)
        try:
            local.scale(0)
            deadline = time.monotonic() + 10
            while crew.client.nthreads() and time.monotonic() < deadline:
                time.sleep(0.1)
            crew.submit(1, 4.0)
            start = time.monotonic()
            with pytest.raises(RinklogError) as raised:
                crew.result()
            assert time.monotonic() - start < 60  # not RESULT_WAIT (300 s): no hang
        finally:
            crew.stop()
    assert str(raised.value) == (f"the Dask scheduler at {local.scheduler_address} has had no "
                                 "workers for 1 s; start them again (docs/cluster.md), then "
                                 "run the command again to go on")


def test_cluster_without_dask_installed_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # an import of it fails
    monkeypatch.delitem(sys.modules, "replay.cluster", raising=False)
    with pytest.raises(RinklogError, match=r"^--cluster needs Dask's distributed, which is "
                       r"not installed \(.*\): install rinklog's cluster extra \(pip install "
                       r"'\.\[cluster\]' in a rinklog checkout, docs/cluster\.md\)$"):
        open_crew(1, int, math.sqrt, (), cluster=Cluster("tcp://127.0.0.1:1"), result=float)


def test_cluster_and_workers_exclude_each_other_and_an_address_is_checked(
        capsys: pytest.CaptureFixture) -> None:
    for argv in (["season", "--workers", "2", "--cluster", "tcp://127.0.0.1:1"],
                 ["audit", "--all", "--workers", "2", "--cluster", "tcp://127.0.0.1:1"],
                 ["playoffs", "x-1", "--workers", "2", "--cluster", "tcp://127.0.0.1:1"]):
        capsys.readouterr()
        assert main([*argv, "--db", "never-written.db"]) == 1
        assert capsys.readouterr().err == ("rinklog: error: give --workers (local processes) "
                                           "or --cluster (a Dask scheduler's workers), not both\n")
    capsys.readouterr()
    assert main(["audit", "--all", "--cluster", "HFX-QUE-1", "--db", "never-written.db"]) == 1
    assert capsys.readouterr().err == (
        "rinklog: error: --cluster: 'HFX-QUE-1' is not a Dask scheduler's address; give one "
        "as `dask scheduler` prints it, e.g. --cluster tls://host:8786\n")
    assert not Path("never-written.db").exists()


def test_nothing_of_dask_is_imported_without_cluster(tmp_path: Path) -> None:
    """``rinklog --help`` and a season on two local workers, in a fresh interpreter: no
    ``dask`` or ``distributed`` module is loaded."""
    db = tmp_path / "s.db"
    script = (
        "import sys\n"
        "from replay.cli.app import main\n"
        "codes = [main(['--help']), main(['season', '--games', '2', '--workers', '2', "
        f"'--no-audit', '--db', {str(db)!r}])]\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed'))\n"
        "print(codes, loaded, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.stderr.splitlines()[-1] == "[0, 0] []"


@pytest.fixture(scope="module")
def half_played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The tiny season with 4 of its 8 games stored (played here)."""
    where = tmp_path_factory.mktemp("cluster-odds")
    folder = _league(where)
    db = where / "half.db"
    assert main(["season", "--league", str(folder), "--seed", SEED, "--games", "4",
                 "--workers", "1", "--no-audit", "--db", str(db)]) == 0
    return {"folder": folder, "db": db}


def _odds_json(capsys: pytest.CaptureFixture, *args: str) -> dict:
    capsys.readouterr()
    assert main(["odds", *args, "--runs", "4", "--seed", "7", "--json", "--per-run"]) == 0
    return json.loads(capsys.readouterr().out)


def test_odds_on_a_cluster_are_the_odds_of_two_local_workers(
        half_played: dict[str, Path], cluster: str, capsys: pytest.CaptureFixture) -> None:
    """docs/odds.md: the same season, seed and runs give the same odds wherever the runs
    are played (run r's dice derive from season, seed and r; counted in run order)."""
    where = ["--league", str(half_played["folder"]), "--db", str(half_played["db"])]
    on_cluster = _odds_json(capsys, SEASON, *where, "--cluster", cluster)
    local = _odds_json(capsys, SEASON, *where, "--workers", "2")
    assert on_cluster == local
    assert (on_cluster["games_played"], on_cluster["games_remaining"]) == (4, 4)
    assert len({json.dumps(r["points"], sort_keys=True) for r in local["runs"]}) > 1


def test_a_matrix_seasons_odds_on_a_cluster_are_the_local_ones(
        cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A Matrix Hockey season's odds (its kit's, docs/odds.md), cluster or local."""
    import replay.leagues.matrix.season as library  # noqa: PLC0415 - the Matrix writer
    from replay.leagues.matrix.demo import demo_picks  # noqa: PLC0415

    folder = tmp_path / "two"
    shutil.copytree(ROOT / "fixtures/matrix/leagues/demo", folder)
    toml = folder / "league.toml"
    text = toml.read_text()
    toml.write_text(text[:text.index('[[divisions]]\nid = "d2a"')])  # the Elite alone
    db = tmp_path / "matrix.db"
    with open_store(db) as store:
        season_id = library.open_league(store, folder, "t")
        season = library.load(store, season_id)
        library.record(store, season, season_id, demo_picks(season.state, 1, "t"))
        library.play(store, season_id, 1)
    on_cluster = _odds_json(capsys, season_id, "--db", str(db), "--cluster", cluster)
    local = _odds_json(capsys, season_id, "--db", str(db), "--workers", "2")
    assert on_cluster == local
    assert on_cluster["system"] == "matrix" and on_cluster["weeks_played"] == 1
    assert len({json.dumps(r["points"], sort_keys=True) for r in local["runs"]}) > 1
