"""Worker processes with every wait bounded: a season's games are played, and an
``audit --all``'s streams audited, by a :class:`Crew`.

``multiprocessing.Pool`` could hang in ``terminate`` (a season test stopped there in 3 of
12 runs of one configuration), and a queue shared by the workers is left with a half-
written message when one of them dies mid-write, so the reader would wait for the rest
forever. A crew gives each worker a pipe of its own (only that worker holds the other end,
so its death reads as the end of the pipe), polls with a bound and gives up with one line
when a worker dies or no job finishes in ``RESULT_WAIT``; stopping asks each worker to
end, then kills what is left. A worker whose parent is gone (killed with SIGKILL) notices
within ``POLL`` seconds and ends.
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn, Protocol

from events.errors import RinklogError
from replay.cluster_access import Cluster

__all__ = ["Crew", "Workers", "open_crew", "quiet_collector"]

RESULT_WAIT = 300.0  # seconds without a finished job before the crew gives up
POLL = 0.5  # how often a waiting side looks whether the other is still there
STOP_WAIT = 5.0  # seconds a worker has to stop before it is killed


class Crew:
    """``workers`` forked processes, each running ``init(*initargs)`` once, then
    ``task(job)`` for each ``(key, job)`` it is sent; results come back as ``(key,
    result)`` in the order they finish. ``what`` names a job in messages ("game")."""

    def __init__(self, workers: int, init: Callable[..., None], task: Callable[[Any], Any],
                 initargs: tuple, what: str = "job") -> None:
        context = multiprocessing.get_context("fork")
        self.what = what
        self.size = workers
        self.procs: list[Any] = []
        self.conns: list[Any] = []
        self.load: list[int] = []  # jobs sent to each worker and not yet back
        for _ in range(workers):
            ours, theirs = context.Pipe()
            proc = context.Process(target=_work, daemon=True, args=(
                theirs, list(self.conns), init, task, initargs, os.getpid()))
            proc.start()
            theirs.close()  # the worker's end lives only in the worker
            self.procs.append(proc)
            self.conns.append(ours)
            self.load.append(0)

    def submit(self, key: Any, job: Any) -> None:
        i = min(range(len(self.conns)), key=self.load.__getitem__)
        try:
            self.conns[i].send((key, job))
        except OSError:  # the worker's end is closed: it died
            self._stopped(i)
        self.load[i] += 1

    def _stopped(self, i: int) -> NoReturn:
        self.procs[i].join(timeout=STOP_WAIT)
        raise RinklogError(f"a worker stopped (exit code {self.procs[i].exitcode}); "
                           "run the command again to go on") from None

    def result(self) -> tuple[Any, Any]:
        waited = 0.0
        while True:
            ready = multiprocessing.connection.wait(self.conns, timeout=POLL)
            if not ready:
                waited += POLL
                if waited >= RESULT_WAIT:
                    raise RinklogError(f"no {self.what} finished in {RESULT_WAIT:.0f} s; "
                                       "run the command again to go on")
                continue
            conn = ready[0]
            i = self.conns.index(conn)
            try:
                key, value = conn.recv()
            except (EOFError, OSError):
                self._stopped(i)
            self.load[i] -= 1
            if isinstance(value, _WorkerError):
                raise RinklogError(f"{self.what} {key} failed in a worker: {value.message}")
            return key, value

    def stop(self) -> None:
        for conn in self.conns:
            try:
                conn.send(None)
            except (OSError, ValueError):
                pass  # that worker is gone already
        deadline = time.monotonic() + STOP_WAIT
        for proc in self.procs:
            proc.join(timeout=max(0.0, deadline - time.monotonic()))
        for proc in self.procs:
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=STOP_WAIT)
        for conn in self.conns:
            conn.close()


class Workers(Protocol):
    """What a command uses of its workers: a :class:`Crew`, or a Dask cluster's
    (``replay.cluster.ClusterCrew``)."""

    size: int

    def submit(self, key: Any, job: Any) -> None: ...

    def result(self) -> tuple[Any, Any]: ...

    def stop(self) -> None: ...


def open_crew(workers: int, init: Callable[..., None], task: Callable[[Any], Any],
              initargs: tuple, what: str = "job", cluster: Cluster | None = None, *,
              result: Any) -> Workers:
    """The workers a command asked for: ``workers`` local processes (a :class:`Crew`), or,
    with ``cluster`` (``--cluster tls://host:8786``), a Dask scheduler's workers with the
    same ``submit``/``result``/``stop``/``size`` (replay/cluster.py). ``result``: the type
    of what ``task`` returns, which a cluster's results are decoded as (msgspec: a Struct,
    a dataclass...); never unpickled. Dask is imported only here, only with a cluster;
    ``--cluster`` and ``--workers`` are exclusive (the commands say so:
    :func:`workers_or_cluster`)."""
    if cluster is None:
        return Crew(workers, init, task, initargs, what)
    try:
        from replay.cluster import ClusterCrew  # noqa: PLC0415 - nothing of Dask without --cluster
    except ModuleNotFoundError as err:
        if (err.name or "").split(".")[0] not in ("dask", "distributed"):
            raise
        raise RinklogError(f"--cluster needs Dask's distributed, which is not installed "
                           f"({err}): install rinklog's cluster extra (pip install '.[cluster]' in "
                           "a rinklog checkout, docs/cluster.md)") from None

    return ClusterCrew(cluster, init, task, initargs, what, result)


@dataclass(frozen=True)
class _WorkerError:
    message: str


def _quiet_collector() -> None:
    """A worker's garbage collector, set for many like jobs: what ``init`` built (the
    season, cards, charts, the compiled modules' objects) is moved out of its reach, and
    it runs after 10,000 new objects instead of 700. A game allocates hundreds of thousands
    of short-lived objects; at the defaults the collector took about 7% of a season
    worker's CPU (bench_season: 36.1-37.0 -> 33.9-34.4 ms a game, the same peak memory).
    Collection still runs, so a cycle is still freed."""
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


@contextmanager
def quiet_collector() -> Iterator[None]:
    """The workers' collector (:func:`_quiet_collector`) in this process while a season's
    writer takes its games in, then the collector as it was: the writer decodes, checks
    and folds every game a worker returns (replay/leagues/returned.py), as many short-lived
    objects a game as a worker makes."""
    before = gc.get_threshold()
    _quiet_collector()
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def _work(conn: Any, others: list[Any], init: Callable[..., None], task: Callable[[Any], Any],
          initargs: tuple, parent: int) -> None:
    """A worker: run each job it is sent until told to stop or its parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    for other in others:
        other.close()  # the parent's ends of the other workers' pipes are not ours
    init(*initargs)
    _quiet_collector()
    try:
        while os.getppid() == parent:
            if not conn.poll(POLL):
                continue
            message = conn.recv()
            if message is None:
                return
            key, job = message
            try:
                conn.send((key, task(job)))
            except Exception as err:  # noqa: BLE001 - the parent reports it in one line
                conn.send((key, _WorkerError(f"{type(err).__name__}: {err}")))
    except (EOFError, OSError):  # the parent is gone
        return
