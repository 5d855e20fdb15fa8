"""Who may join the cluster a command runs on (``--cluster``, docs/cluster.md).

A Dask worker is trusted with a command's work, and whatever can reach a scheduler can
join it as a worker. So a command goes to a scheduler by ``tls://`` (Dask's own TLS,
mutual: only holders of the cluster's certificates connect, as client, scheduler or
worker), or by plain ``tcp://`` only on this machine, or with ``--insecure-cluster``
said out loud. :func:`cluster_at` checks that before anything is read or written;
:func:`security` builds Dask's ``Security`` when the crew connects.

Nothing here imports Dask at module level: the commands build a :class:`Cluster` only
with ``--cluster``, and Dask's configuration is read only for a ``tls://`` address.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from typing import Any

from events.errors import RinklogError

__all__ = ["Cluster", "cluster_at", "security"]

# a scheduler's address: [protocol://]host:port (an IPv6 host in brackets)
_ADDRESS = re.compile(r"^(?:(?P<scheme>tcp|tls|ws|wss|ucx)://)?"
                      r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):[0-9]{1,5}$")
_ENCRYPTED = ("tls", "wss")  # Dask's schemes that carry its TLS security
_LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")


@dataclass(frozen=True)
class Cluster:
    """A Dask scheduler to run a command's work on: its address and, for ``tls://``, the
    certificate files to connect with (None: Dask's configuration's, ``distributed.comm.
    tls.ca-file`` and ``distributed.comm.tls.client.cert``/``.key``)."""

    address: str
    tls_ca_file: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None

    @property
    def encrypted(self) -> bool:
        return _scheme(self.address) in _ENCRYPTED


def cluster_at(address: str, *, tls_ca_file: str | None = None, tls_cert: str | None = None,
               tls_key: str | None = None, insecure: bool = False) -> Cluster:
    """The cluster at ``address``, once it is one a command may use: an address as
    ``dask scheduler`` prints it; ``tls://`` with certificates (given, or in Dask's
    configuration) whose files can be read; plain ``tcp://`` only on this machine, unless
    ``insecure``. Each refusal is one line."""
    found = _ADDRESS.match(address)
    if found is None:
        raise RinklogError(f"--cluster: {address!r} is not a Dask scheduler's address; give "
                           "one as `dask scheduler` prints it, e.g. --cluster "
                           "tls://host:8786")
    cluster = Cluster(address, tls_ca_file, tls_cert, tls_key)
    given = [name for name, value in (("--tls-ca-file", tls_ca_file), ("--tls-cert", tls_cert),
                                      ("--tls-key", tls_key)) if value is not None]
    if not cluster.encrypted:
        if given:
            raise RinklogError(f"{given[0]} is for a tls:// cluster, and --cluster {address} "
                               "is not one")
        if not insecure and not _this_machine(found["host"].strip("[]")):
            raise RinklogError(f"--cluster {address} is not encrypted and not this machine: "
                               "any machine that can reach it can join as a worker; use "
                               "tls:// (docs/cluster.md) or give --insecure-cluster")
        return cluster
    _certificates(cluster)
    return cluster


def security(cluster: Cluster) -> Any:
    """Dask's ``Security`` for connecting to ``cluster`` as a client: mutual TLS with the
    given files over Dask's configuration's (None for a plain address)."""
    if not cluster.encrypted:
        return None
    from distributed.security import Security  # noqa: PLC0415 - Dask only with --cluster

    given = {name: value for name, value in (("tls_ca_file", cluster.tls_ca_file),
                                             ("tls_client_cert", cluster.tls_cert),
                                             ("tls_client_key", cluster.tls_key))
             if value is not None}
    return Security(require_encryption=True, **given)


def _certificates(cluster: Cluster) -> None:
    """A tls:// cluster's certificate authority and certificate, from the options or Dask's
    configuration, each an existing readable file (or PEM text, as Dask's config allows)."""
    found = security(cluster)
    where = {"tls_ca_file": ("--tls-ca-file", "distributed.comm.tls.ca-file"),
             "tls_client_cert": ("--tls-cert", "distributed.comm.tls.client.cert"),
             "tls_client_key": ("--tls-key", "distributed.comm.tls.client.key")}
    missing = [f"{option} (or {key} in Dask's configuration)"
               for field, (option, key) in where.items()
               if field != "tls_client_key" and not getattr(found, field)]
    if missing:
        raise RinklogError(f"--cluster {cluster.address} is tls:// but has no certificates: "
                           f"give {' and '.join(missing)}, and --tls-key unless the "
                           "certificate file holds its key (docs/cluster.md)")
    for field, (option, _key) in where.items():
        value = getattr(found, field)
        if not value or "\n" in value:  # absent (the key in the cert file), or PEM text
            continue
        try:
            with open(value, "rb") as file:
                file.read(1)
        except OSError as err:
            raise RinklogError(f"{option}: cannot read {value} ({err.strerror or err})"
                               ) from None


def _scheme(address: str) -> str:
    return address.split("://", 1)[0] if "://" in address else "tcp"


def _this_machine(host: str) -> bool:
    """``host`` names this machine for certain without asking DNS: a loopback name or
    address, this host's name, or an address of one of its network interfaces. Any other
    name counts as another machine."""
    if host.lower() in _LOCAL_NAMES or host.lower() == socket.gethostname().lower():
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified or str(ip) in _interface_addresses()


def _interface_addresses() -> set[str]:
    """This machine's own addresses, read from its network interfaces (psutil, which Dask's
    distributed needs), never from DNS."""
    import psutil  # noqa: PLC0415 - installed with Dask, imported only with --cluster

    return {str(ipaddress.ip_address(a.address.split("%")[0]))
            for addrs in psutil.net_if_addrs().values() for a in addrs
            if a.family in (socket.AF_INET, socket.AF_INET6)}
