"""Who may join a cluster, and what comes back from it (issue 33, docs/cluster.md).

"A cluster worker is trusted with the result and with the verdict. [...] A worker's reply
can also run a command on the commissioner's machine: results travel as pickles, and a
reply whose ``__reduce__`` is ``os.system`` ran" (the issue). So:

- ``--cluster tls://...`` uses Dask's own TLS, mutual: a real ``distributed.LocalCluster``
  under TLS (certificates made here with ``openssl``) plays a short season and audits it,
  and the database is the local one, head for head; a certificate of another authority
  does not get in;
- a plain ``tcp://`` address that is not this machine is refused in one line unless
  ``--insecure-cluster`` is given;
- a worker's result is decoded as the type the command names, never unpickled: a result
  of another shape, and a reply that is a pickle whose ``__reduce__`` is ``os.system``,
  each end the command in one line (exit 1) with nothing stored and nothing run.

The cluster runs its one worker in this process (``processes=False``, over TLS sockets:
every reply is serialized as from another machine), so a test can patch what the worker
runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from replay.cli.app import main
from replay.games.game_streams import open_store
from tests.test_cluster import SEASON, SEED, _heads, _league

distributed = pytest.importorskip("distributed")


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)


def _authority(where: Path, name: str) -> dict[str, str]:
    """A certificate authority ``name`` and one certificate it signed (for every role of
    the cluster, as Dask allows), as PEM files in ``where``."""
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    ca, ca_key = where / f"{name}-ca.pem", where / f"{name}-ca.key"
    cert, key, request = where / f"{name}.pem", where / f"{name}.key", where / f"{name}.csr"
    _openssl("req", "-x509", *ec, "-keyout", str(ca_key), "-out", str(ca), "-days", "2",
             "-subj", f"/CN={name}-ca")
    _openssl("req", *ec, "-keyout", str(key), "-out", str(request), "-subj", f"/CN={name}")
    _openssl("x509", "-req", "-in", str(request), "-CA", str(ca), "-CAkey", str(ca_key),
             "-CAcreateserial", "-out", str(cert), "-days", "2")
    return {"ca": str(ca), "cert": str(cert), "key": str(key)}


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    where = tmp_path_factory.mktemp("certs")
    return {"cluster": _authority(where, "cluster"), "other": _authority(where, "other")}


@pytest.fixture(scope="module")
def tls_cluster(certs: dict[str, dict[str, str]]) -> str:
    """A LocalCluster under mutual TLS (one worker of one thread, in this process)."""
    from distributed.security import Security

    c = certs["cluster"]
    security = Security(require_encryption=True, tls_ca_file=c["ca"],
                        tls_scheduler_cert=c["cert"], tls_scheduler_key=c["key"],
                        tls_worker_cert=c["cert"], tls_worker_key=c["key"],
                        tls_client_cert=c["cert"], tls_client_key=c["key"])
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  protocol="tls://", security=security, host="127.0.0.1",
                                  dashboard_address=":0") as local:
        yield local.scheduler_address


def _tls(certs: dict[str, dict[str, str]], who: str = "cluster") -> list[str]:
    c = certs[who]
    return ["--tls-ca-file", c["ca"], "--tls-cert", c["cert"], "--tls-key", c["key"]]


def _one_line(capsys: pytest.CaptureFixture) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_season_on_a_tls_cluster_is_the_local_one_and_audits_on_it(
        tls_cluster: str, certs: dict[str, dict[str, str]], tmp_path: Path,
        capsys: pytest.CaptureFixture) -> None:
    """The certificates from the options for the season; from Dask's configuration
    (``distributed.comm.tls.*``, what ``Security()`` reads) for the audit."""
    import dask

    folder = _league(tmp_path)
    on_cluster, local = tmp_path / "cluster.db", tmp_path / "local.db"
    assert main(["season", "--league", str(folder), "--seed", SEED, "--cluster", tls_cluster,
                 *_tls(certs), "--db", str(on_cluster)]) == 0
    assert main(["season", "--league", str(folder), "--seed", SEED, "--workers", "1",
                 "--db", str(local)]) == 0
    heads = _heads(on_cluster)
    assert heads == _heads(local)
    assert len([s for s in heads if s.startswith(f"{SEASON}-")]) == 8  # 8 teams, 2 games each
    c = certs["cluster"]
    with dask.config.set({"distributed.comm.tls.ca-file": c["ca"],
                          "distributed.comm.tls.client.cert": c["cert"],
                          "distributed.comm.tls.client.key": c["key"]}):
        assert main(["audit", "--all", "--cluster", tls_cluster, "--db", str(on_cluster)]) == 0


def test_a_certificate_of_another_authority_does_not_get_in(
        tls_cluster: str, certs: dict[str, dict[str, str]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """Mutual TLS: the scheduler takes only certificates its authority signed (and this
    command only a scheduler whose certificate it did)."""
    from replay import cluster as cluster_module

    monkeypatch.setattr(cluster_module, "CONNECT_WAIT", 2.0)
    folder = _league(tmp_path)
    capsys.readouterr()
    theirs = ["--tls-ca-file", certs["cluster"]["ca"], "--tls-cert", certs["other"]["cert"],
              "--tls-key", certs["other"]["key"]]
    assert main(["season", "--league", str(folder), "--seed", SEED, "--cluster", tls_cluster,
                 *theirs, "--db", str(tmp_path / "s.db")]) == 1
    assert _one_line(capsys).startswith(
        f"rinklog: error: cannot reach a Dask scheduler at {tls_cluster} (")


@pytest.mark.parametrize("address", ["tcp://10.0.0.5:8786", "10.0.0.5:8786",
                                     "tcp://scheduler.example.org:8786", "tcp://[fd00::5]:8786"])
def test_plain_tcp_to_another_machine_is_refused_without_insecure_cluster(
        address: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Refused before anything is read or written (the database is not created)."""
    db = tmp_path / "never.db"
    for argv in (["season", "--cluster", address], ["playoffs", "x-1", "--cluster", address],
                 ["odds", "x-1", "--cluster", address], ["audit", "--all", "--cluster", address]):
        capsys.readouterr()
        assert main([*argv, "--db", str(db)]) == 1
        assert _one_line(capsys) == (
            f"rinklog: error: --cluster {address} is not encrypted and not this machine: any "
            "machine that can reach it can join as a worker; use tls:// (docs/cluster.md) or "
            "give --insecure-cluster\n")
    assert not db.exists()


def test_plain_tcp_on_this_machine_or_with_insecure_cluster_is_let_through() -> None:
    from replay.cluster_access import cluster_at

    for address in ("tcp://127.0.0.1:8786", "localhost:8786", "tcp://[::1]:8786",
                    "tcp://127.8.0.1:8786"):
        assert cluster_at(address).address == address
    assert cluster_at("tcp://10.0.0.5:8786", insecure=True).address == "tcp://10.0.0.5:8786"


def test_tls_without_certificates_or_with_a_missing_file_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture, certs: dict[str, dict[str, str]]
) -> None:
    import dask

    db = tmp_path / "never.db"
    with dask.config.set({"distributed.comm.tls.ca-file": None,
                          "distributed.comm.tls.client.cert": None,
                          "distributed.comm.tls.client.key": None}):
        capsys.readouterr()
        assert main(["audit", "--all", "--cluster", "tls://10.0.0.5:8786", "--db", str(db)]) == 1
        assert _one_line(capsys) == (
            "rinklog: error: --cluster tls://10.0.0.5:8786 is tls:// but has no certificates: "
            "give --tls-ca-file (or distributed.comm.tls.ca-file in Dask's configuration) and "
            "--tls-cert (or distributed.comm.tls.client.cert in Dask's configuration), and "
            "--tls-key unless the certificate file holds its key (docs/cluster.md)\n")
    missing = tmp_path / "no-such-key.pem"
    assert main(["audit", "--all", "--cluster", "tls://10.0.0.5:8786",
                 "--tls-ca-file", certs["cluster"]["ca"], "--tls-cert", certs["cluster"]["cert"],
                 "--tls-key", str(missing), "--db", str(db)]) == 1
    assert _one_line(capsys) == (f"rinklog: error: --tls-key: cannot read {missing} (No such "
                                 "file or directory)\n")
    assert main(["audit", "--all", "--cluster", "tcp://127.0.0.1:8786",
                 "--tls-cert", certs["cluster"]["cert"], "--db", str(db)]) == 1
    assert _one_line(capsys) == ("rinklog: error: --tls-cert is for a tls:// cluster, and "
                                 "--cluster tcp://127.0.0.1:8786 is not one\n")
    assert not db.exists()


def _malformed(fixture: tuple) -> dict:
    """A worker's game that is not a game: a game id and a number where its rows go."""
    return {"game_id": f"{SEASON}-{fixture[0]:04d}", "rows": 12, "meta": {},
            "read_models": {}, "failure": None}


def _games(db: Path) -> list[str]:
    with open_store(db) as store:
        return [s.stream for s in store.streams(kind="game")]


def test_a_malformed_result_is_one_line_and_nothing_is_stored(
        tls_cluster: str, certs: dict[str, dict[str, str]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    from replay.leagues import runner

    monkeypatch.setattr(runner, "_play", _malformed)  # what the worker runs
    folder, db = _league(tmp_path), tmp_path / "s.db"
    capsys.readouterr()
    assert main(["season", "--league", str(folder), "--seed", SEED, "--cluster", tls_cluster,
                 *_tls(certs), "--db", str(db)]) == 1
    err = _one_line(capsys)
    assert err.startswith("rinklog: error: game ") and err.endswith(
        ": the worker's result is not a game result (Expected `object`, got `int` - at "
        "`$.rows`); nothing of it was stored\n"), err
    assert _games(db) == []


class _Bomb:
    """A pickle that runs a command where it is unpickled."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


_marker: Path | None = None


def _bomb_run(setup, job):  # noqa: ANN001, ANN202 - replay.cluster._run's, patched
    assert _marker is not None
    return _Bomb(_marker)


def test_a_reply_that_is_a_pickle_is_refused_unread(
        tls_cluster: str, certs: dict[str, dict[str, str]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """The worker's rinklog patched to hand Dask an object whose ``__reduce__`` is
    ``os.system``, not its encoded result: Dask would pickle it, and the command reads
    what a worker sends with Dask's msgpack deserializer only. The command ends in one
    line, nothing is stored, and the marker the command would write is not there."""
    from replay import cluster as cluster_module

    marker = tmp_path / "ran"
    monkeypatch.setattr(sys.modules[__name__], "_marker", marker)
    monkeypatch.setattr(cluster_module, "_run", _bomb_run)
    folder, db = _league(tmp_path), tmp_path / "s.db"
    capsys.readouterr()
    assert main(["season", "--league", str(folder), "--seed", SEED, "--cluster", tls_cluster,
                 *_tls(certs), "--db", str(db)]) == 1
    err = _one_line(capsys)
    assert err.startswith("rinklog: error: game ") and (
        ": the worker's result is not plain data, refused unread (" in err), err
    assert not marker.exists()
    assert _games(db) == []
