"""A Dask cluster's workers as a crew (``--cluster tls://host:8786``, docs/cluster.md).

:class:`ClusterCrew` has :class:`replay.workers.Crew`'s interface: ``submit(key, job)``,
``result() -> (key, result)`` in the order jobs finish, ``stop()``, and ``size``. The jobs
go to a Dask scheduler (``distributed.Client.submit``), which hands them to its workers
on other machines; whatever the command writes stays in this process. Nothing here knows
what a job is: a command names its ``init``, ``task``, ``initargs`` and the type of a
task's result. The setup and every job go to the workers as plain pickles (never Dask's
fallback, which would copy a function's code): functions by their module's name, so a
worker runs them from its own rinklog install, and nothing may refer to this machine's
files. What does not pickle is one line naming it (a rinklog bug).

What comes back is never unpickled by rinklog: a worker sends its result as msgpack
(msgspec), and the crew decodes it as the type the command named; a result that does not
decode as that type is one line naming the job, and nothing of it is stored. The client
reads what the scheduler relays of a worker's result with Dask's msgpack deserializer
only, so a result Dask would have pickled is refused unread (docs/cluster.md says what
Dask itself still unpickles, and why TLS is the guard against a worker that is not one).

- ``init(*initargs)`` runs once in each worker process before its first task of this
  crew: the initargs go to the cluster once (a task every job depends on, not a copy
  with every job), and a worker remembers which crew it last set up (a token of the
  crew). A worker process runs one rinklog task at a time (module-level state set by
  ``init`` is per process), so its threads are no use to rinklog: start workers with
  ``--nthreads 1``.
- A task that raises comes back as one line, as from a local crew: ``game 12 failed in a
  worker: ValueError: ...``; nothing of the worker's traceback is printed.
- Every wait is bounded: connecting (``CONNECT_WAIT``), a scheduler with no worker
  (``WORKER_WAIT``), no job finishing (``RESULT_WAIT``, as a local crew). A lost scheduler
  cancels the jobs at once (one line); a job whose workers keep dying is given up by the
  scheduler (``KilledWorker``, one line).

Only ``replay.workers.open_crew`` imports this module, and only with a cluster: a command
run without ``--cluster`` imports nothing of Dask.
"""

from __future__ import annotations

import importlib.metadata
import logging
import pickle
import platform
import queue
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import distributed
import msgspec

from events.errors import RinklogError
from replay.cluster_access import Cluster, security

__all__ = ["ClusterCrew", "read_reply"]

CONNECT_WAIT = 10.0  # seconds to reach the scheduler
WORKER_WAIT = 30.0  # seconds for a scheduler with no worker to get one
LOOK_WAIT = 5.0  # how often a waiting crew asks the scheduler how many workers it has
# as a local crew's (replay/workers.py, which imports this module: not the other way)
RESULT_WAIT = 300.0  # seconds without a finished job before the crew gives up
POLL = 0.5  # how often a waiting crew looks whether the scheduler is still there
STOP_WAIT = 5.0  # seconds to cancel the jobs and close the connection

_HOW = "start one with `dask scheduler` and its workers with `dask worker ADDRESS` (docs/cluster.md)"


class ClusterCrew:
    """The workers of the Dask scheduler at ``address``, each running ``init(*initargs)``
    once, then ``task(job)`` for each ``(key, job)`` submitted; results come back as
    ``(key, result)`` in the order they finish. ``what`` names a job in messages."""

    def __init__(self, cluster: Cluster, init: Callable[..., None], task: Callable[[Any], Any],
                 initargs: tuple, what: str = "job", result: Any = Any) -> None:
        # the client's own logs (a lost connection, a retry) would print tracebacks: this
        # crew says what went wrong in one line instead
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        address = cluster.address
        self.address, self.what = address, what
        self.decoder = msgspec.msgpack.Decoder(result)
        self.token = uuid.uuid4().hex
        # by plain pickle, as every job: functions by their module's name, so a worker
        # runs its own rinklog's code, never a copy of this process's
        setup = _Setup(self.token, _pickled((init, task, initargs), f"{what}s' setup"))
        try:
            # results only through the scheduler, read with msgpack only: never a
            # worker's pickle (Dask's "pickle" and "dask" serializers unpickle)
            self.client = _Client(address, timeout=CONNECT_WAIT, set_as_default=False,
                                  security=security(cluster), deserializers=["msgpack"],
                                  direct_to_workers=False)
        except Exception as err:  # noqa: BLE001 - OSError, TimeoutError, ssl.SSLError...
            raise RinklogError(f"cannot reach a Dask scheduler at {address} ({_line(err)}); "
                               f"{_HOW}") from None
        try:
            try:
                self.client.wait_for_workers(1, timeout=WORKER_WAIT)
            except (OSError, TimeoutError):
                raise RinklogError(f"the Dask scheduler at {address} has no workers after "
                                   f"{WORKER_WAIT:.0f} s; {_HOW}") from None
            _same_rinklog(self.client, address)
            workers = self.client.nthreads()
            self.size = max(1, sum(workers.values()))  # jobs the cluster runs at once
            # a task of its own, not scattered data: the scheduler holds it and runs it
            # again where it is needed, even after every worker that had it has left
            self.setup = self.client.submit(_kept, setup, key=f"rinklog-setup-{self.token}",
                                            pure=False)
        except BaseException:
            self.client.close(timeout=STOP_WAIT)
            raise
        self.done: queue.Queue[Any] = queue.Queue()  # futures as they finish, any order
        self.keys: dict[str, Any] = {}  # each pending future's key, by the future's key
        self.futures: dict[str, Any] = {}
        self.count = 0

    def submit(self, key: Any, job: Any) -> None:
        self.count += 1
        name = f"rinklog-{self.what.replace(' ', '-')}-{self.count}-{self.token}"
        try:
            future = self.client.submit(_run, self.setup, _pickled(job, f"{self.what} {key}"),
                                        key=name, pure=False)
        except (OSError, RuntimeError, distributed.client.FutureCancelledError) as err:
            raise self._lost(err) from None
        self.keys[name], self.futures[name] = key, future
        future.add_done_callback(self.done.put)  # called in the client's thread

    def result(self) -> tuple[Any, Any]:
        waited = alone = 0.0  # seconds waited; of those, seconds the cluster had no worker
        look = LOOK_WAIT  # when to ask next
        while True:
            try:
                future = self.done.get(timeout=POLL)
            except queue.Empty:
                waited += POLL
                if self.client.status not in ("running", "connecting"):
                    raise self._lost(None) from None
                if waited >= look:  # every LOOK_WAIT s: is any worker left?
                    look += LOOK_WAIT
                    alone = 0.0 if self._workers() else alone + LOOK_WAIT
                    if alone >= WORKER_WAIT:
                        raise RinklogError(f"the Dask scheduler at {self.address} has had no "
                                           f"workers for {alone:.0f} s; start them again "
                                           "(docs/cluster.md), then run the command again "
                                           "to go on") from None
                if waited >= RESULT_WAIT:
                    raise RinklogError(f"no {self.what} finished in {RESULT_WAIT:.0f} s on "
                                       f"the Dask cluster at {self.address}; run the "
                                       "command again to go on") from None
                continue
            key = self.keys.pop(future.key)
            del self.futures[future.key]
            return key, read_reply(self._value(key, future), self.decoder, self.what, key)

    def worker_names(self) -> list[str]:
        """The cluster's workers as its scheduler lists them, ``name (address)`` each: who
        ran the jobs, for a verdict that says so (an empty list: the scheduler is gone)."""
        try:
            workers = self.client.scheduler_info(n_workers=-1)["workers"]
        except Exception:  # noqa: BLE001 - the scheduler may be gone already
            return []
        return sorted(f"{info.get('name', '?')} ({address})" for address, info in workers.items())

    def _workers(self) -> int:
        try:
            return len(self.client.nthreads())
        except (OSError, TimeoutError, distributed.client.FutureCancelledError) as err:
            raise self._lost(err) from None

    def _value(self, key: Any, future: Any) -> Any:
        if future.status == "cancelled":
            if self.client.status != "running":
                raise self._lost(None)
            raise RinklogError(f"the Dask scheduler at {self.address} cancelled {self.what} "
                               f"{key}; run the command again to go on")
        try:
            return future.result(timeout=RESULT_WAIT)
        except distributed.KilledWorker:
            raise RinklogError(f"{self.what} {key}: the Dask workers running it died "
                               "(out of memory, killed?); see the workers' logs, then run "
                               "the command again to go on") from None
        except (distributed.client.FutureCancelledError, OSError) as err:
            raise self._lost(err) from None
        except TimeoutError:
            raise RinklogError(f"{self.what} {key} finished on the Dask cluster at "
                               f"{self.address} but its result did not arrive in "
                               f"{RESULT_WAIT:.0f} s; run the command again to go on") from None
        except TypeError as err:  # Dask's msgpack-only read refused the reply
            raise RinklogError(f"{self.what} {key}: the worker's result is not plain data, "
                               f"refused unread ({_line(err)}); nothing of it was stored"
                               ) from None
        except Exception as err:  # noqa: BLE001 - anything else Dask raises
            raise RinklogError(f"{self.what} {key} failed on the Dask cluster: "
                               f"{type(err).__name__}: {_line(err)}") from None

    def _lost(self, err: BaseException | None) -> RinklogError:
        why = f" ({_line(err)})" if err is not None else ""
        return RinklogError(f"lost the Dask scheduler at {self.address}{why}; run the "
                            "command again to go on")

    def stop(self) -> None:
        futures = list(self.futures.values())
        self.futures.clear()
        self.keys.clear()
        try:
            if futures and self.client.status == "running":
                self.client.cancel(futures)
        except Exception:  # noqa: BLE001 - stopping: the scheduler may be gone already
            pass
        try:
            self.client.close(timeout=STOP_WAIT)
        except Exception:  # noqa: BLE001 - as above
            pass


def _same_rinklog(client: Any, address: str) -> None:
    """The scheduler and every worker run this rinklog version on this Python (minor)
    version: the jobs are pickles of rinklog's own classes and the results msgpack of its
    result types, each read by the other side's code (the scheduler reads the jobs' task
    specs too)."""
    want = _versions()
    try:
        found = {"scheduler": client.run_on_scheduler(_versions), **client.run(_versions)}
    except (OSError, TimeoutError) as err:
        raise RinklogError(f"lost the Dask scheduler at {address} ({_line(err)})") from None
    except Exception as err:  # noqa: BLE001 - e.g. a worker without rinklog installed
        raise RinklogError(f"the Dask scheduler at {address} or its workers cannot run "
                           f"rinklog ({_line(err)}); install it there with its cluster extra "
                           "(pip install '.[cluster]' in a rinklog checkout, docs/cluster.md)"
                           ) from None
    for where, got in found.items():
        if tuple(got) != want:
            who = "the Dask scheduler" if where == "scheduler" else f"Dask worker {where}"
            raise RinklogError(f"{who} runs rinklog {got[0]} on Python "
                               f"{got[1]}, this command rinklog {want[0]} on Python "
                               f"{want[1]}: install the same on both sides (docs/cluster.md)")


def _versions() -> tuple[str, str]:
    """This process's rinklog and Python (major.minor) versions."""
    try:
        rinklog = importlib.metadata.version("rinklog")
    except importlib.metadata.PackageNotFoundError:
        rinklog = "(not installed)"
    return rinklog, ".".join(platform.python_version_tuple()[:2])


def _pickled(value: Any, what: str) -> bytes:
    try:
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as err:  # noqa: BLE001 - a lambda, a local function, an open file...
        raise RinklogError(f"the {what} cannot be sent to a cluster ({type(err).__name__}: "
                           f"{_line(err)}); please report it as a rinklog bug") from None


@dataclass(frozen=True)
class _Setup:
    """A crew's ``(init, task, initargs)``, pickled, sent to the cluster once."""

    token: str
    pickled: bytes


def _kept(setup: _Setup) -> _Setup:
    return setup


class _Done(msgspec.Struct, frozen=True, array_like=True, tag="done"):
    """A worker's reply: its task's result (as sent)."""

    result: Any


class _Got(msgspec.Struct, frozen=True, array_like=True, tag="done"):
    """A worker's reply as read: its task's result still msgpack, decoded as the crew's
    result type."""

    result: msgspec.Raw


class _Failed(msgspec.Struct, frozen=True, array_like=True, tag="failed"):
    """A worker's reply: what its task raised, one line."""

    message: str


_replies = msgspec.msgpack.Decoder(_Got | _Failed)


def read_reply(value: Any, decoder: msgspec.msgpack.Decoder, what: str, key: Any) -> Any:
    """A worker's reply to job ``key``, decoded as plain data: its result as the type of
    ``decoder`` (the command's), or what its task raised; anything else is one line."""
    try:
        reply = _replies.decode(value)
        if isinstance(reply, _Failed):
            raise RinklogError(f"{what} {key} failed in a worker: {reply.message}")
        return decoder.decode(reply.result)
    except (msgspec.DecodeError, TypeError, RecursionError) as err:  # not msgpack, not the type
        a = "an" if what[:1] in "aeiou" else "a"
        raise RinklogError(f"{what} {key}: the worker's result is not {a} {what} result "
                           f"({_line(err)}); nothing of it was stored") from None
_encoder = msgspec.msgpack.Encoder()

_lock = threading.Lock()  # one rinklog task at a time in a worker process
_ready: str | None = None  # the token of the crew this process was last set up for
_task: Callable[[Any], Any] | None = None  # that crew's task


def _run(setup: _Setup, job: bytes) -> bytes:
    """In a Dask worker: the crew's ``init`` once (again when another crew's task ran
    meanwhile), then the task on the job; its result or what it raised, as msgpack."""
    global _ready, _task
    with _lock:
        try:
            if _ready != setup.token:
                _ready = None
                init, _task, initargs = pickle.loads(setup.pickled)
                init(*initargs)
                _ready = setup.token
            assert _task is not None
            return _encoder.encode(_Done(_task(pickle.loads(job))))
        except Exception as err:  # noqa: BLE001 - the command reports it in one line
            return _encoder.encode(_Failed(f"{type(err).__name__}: {_line(err)}"))


class _Client(distributed.Client):
    """Dask's client, which forgets a connection that never opened: Dask's own would try
    to close it when collected, at the interpreter's exit, and print a traceback after
    waiting 20 s for an event loop that had stopped."""

    def start(self, **kwargs: Any) -> None:
        try:
            super().start(**kwargs)
        except BaseException:
            self.status = "closed"
            self._loop_runner.stop()
            raise


def _line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return text or type(err).__name__
