"""What every CLI module shares: the --db option, output helpers, opening a store."""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from engine.systems import SYSTEMS
from events.catalogue import open_store
from events.errors import RinklogError
from events.store import EventStore
from replay.cluster_access import Cluster, cluster_at

RULESETS = {name: rules for system in SYSTEMS.values() for name, rules in system.rulesets.items()}
"""Every ruleset of every registered game system, by name (each has a ``title``, a
``version`` and its ``optional_rules``)."""
OPTIONAL_RULES = sorted({rule for rules in RULESETS.values() for rule in rules.option_names})

DB_HELP = "SQLite event store (default: $RINKLOG_DB, else ./rinklog.db)."


class CliError(RinklogError):
    """A command-line option or value that cannot be used (an empty ``--db``, a count
    below one, options that exclude each other): the one error class of the CLI."""


@dataclass(frozen=True)
class SystemParts:
    """What the root app (app.py, the one place that names every system's parts above
    its kit) hands each command in ``ctx.obj``: each season system's odds (``rinklog
    odds``) and its own season site (``rinklog report --season``), and its league on the
    web (``rinklog league serve``, the web extra), by system name, each imported when a
    command asks (the CLI starts fast)."""

    season_odds: Callable[[], Mapping[str, Any]]
    sites: Callable[[], Mapping[str, Any]]
    web: Callable[[], Mapping[str, Any]]


def system_parts(ctx: typer.Context) -> SystemParts:
    parts = ctx.find_root().obj
    assert isinstance(parts, SystemParts), "the root app hands every command its parts"
    return parts


def _db_path(value: str) -> str:
    if not value.strip():
        raise CliError("--db: empty path (SQLite would write to a throwaway "
                       "database); give a file, e.g. --db rinklog.db")
    return value


DbOption = Annotated[str, typer.Option("--db", envvar="RINKLOG_DB", help=DB_HELP,
                                      show_envvar=False, callback=_db_path)]

ClusterOption = Annotated[str | None, typer.Option(
    "--cluster", help="a Dask scheduler's address (tls://host:8786, with --tls-*; plain "
    "tcp:// only on this machine): its workers do the work instead of local processes, "
    "the database stays here; needs rinklog's cluster extra (docs/cluster.md); not with "
    "--workers")]
TlsCaOption = Annotated[str | None, typer.Option(
    "--tls-ca-file", help="with --cluster tls://: the cluster's certificate authority (PEM); "
    "default: Dask's configuration (distributed.comm.tls.ca-file)")]
TlsCertOption = Annotated[str | None, typer.Option(
    "--tls-cert", help="with --cluster tls://: this command's certificate (PEM), signed by "
    "the cluster's authority; default: distributed.comm.tls.client.cert")]
TlsKeyOption = Annotated[str | None, typer.Option(
    "--tls-key", help="with --cluster tls://: that certificate's key (PEM), unless the "
    "certificate file holds it; default: distributed.comm.tls.client.key")]
InsecureClusterOption = Annotated[bool, typer.Option(
    "--insecure-cluster", help="allow --cluster tcp:// to another machine: not encrypted, "
    "and any machine that can reach the scheduler can join it as a worker")]


def workers_or_cluster(workers: int | None, cluster: str | None,
                       tls: tuple[str | None, str | None, str | None] = (None, None, None),
                       insecure: bool = False, default: int = 2
                       ) -> tuple[int, Cluster | None]:
    """The local worker processes a command runs (``--workers``, else ``default``) and the
    cluster it runs on instead (``--cluster``, with ``tls``: ``--tls-ca-file``,
    ``--tls-cert``, ``--tls-key``, and ``--insecure-cluster``: who may join it,
    replay/cluster_access.py), after checking they are not both given."""
    found = None
    if cluster is not None:
        if workers is not None:
            raise CliError("give --workers (local processes) or --cluster (a Dask "
                           "scheduler's workers), not both")
        found = cluster_at(cluster, tls_ca_file=tls[0], tls_cert=tls[1], tls_key=tls[2],
                           insecure=insecure)
    elif any(tls) or insecure:
        raise CliError("--tls-ca-file, --tls-cert, --tls-key and --insecure-cluster go "
                       "with --cluster")
    workers = default if workers is None else workers
    if workers < 1:
        raise CliError(f"--workers must be at least 1, got {workers}")
    return workers, found


RulesetOption = Annotated[str, typer.Option(
    "--ruleset", help="the rules played: " + ", ".join(
        f"{name} ({rules.title})" for name, rules in RULESETS.items()))]
OptionalRuleOption = Annotated[list[str] | None, typer.Option(
    "--optional-rule", help="an optional rule of the ruleset to turn on, repeatable: "
    f"{', '.join(OPTIONAL_RULES)} (recorded in the game's first event)")]


def optional_rules(names: list[str] | None, ruleset: str) -> tuple[str, ...]:
    """The optional rules named by --optional-rule, checked against the ruleset (a game
    setup records them as the system's kit says)."""
    names = [n.replace("-", "_") for n in names or []]
    rules = RULESETS.get(ruleset)
    if rules is None:
        raise CliError(f"--ruleset: unknown {ruleset!r} (known: {', '.join(RULESETS)})")
    unknown = [n for n in names if n not in OPTIONAL_RULES]
    if unknown:
        raise CliError(f"--optional-rule: unknown {', '.join(unknown)} "
                       f"(known: {', '.join(OPTIONAL_RULES)})")
    wrong = [n for n in names if n not in rules.option_names]
    if wrong:
        owners = [name for name, other in RULESETS.items()
                  if set(wrong) <= set(other.option_names)]
        raise CliError(f"--optional-rule: {ruleset} has no {', '.join(wrong)}"
                       + (f" (an optional rule of --ruleset {', '.join(owners)})"
                          if owners else ""))
    return tuple(sorted(set(names)))


def out(text: str = "") -> None:
    typer.echo(text)


def odds_runs_first(notes: list[str], machine: bool) -> None:
    """A database written by ``rinklog odds --replay`` says what it is before anything
    else (issue 32): the first lines of a listing, or warnings on stderr before its JSON
    or CSV (which stay parseable)."""
    for note in notes:
        if machine:
            typer.echo(f"rinklog: warning: {note}", err=True)
        else:
            out(f"NOTE: {note}")


def dump(obj: Any) -> None:
    """Pretty JSON for people and machines."""
    out(json.dumps(obj, indent=2, ensure_ascii=False))


CsvOption = Annotated[bool, typer.Option(
    "--csv", help="the rows as CSV (a header line, then one line a row) for a spreadsheet")]


def one_format(as_json: bool, as_csv: bool) -> None:
    if as_json and as_csv:
        raise CliError("give --json or --csv, not both")


def dump_csv(rows: Iterable[Mapping[str, Any]]) -> None:
    """Rows as CSV: the columns of every row in first-seen order; a nested object's fields
    become ``key.field`` columns and a list one JSON cell (docs/json.md names the keys)."""
    flat = [_flatten(row) for row in rows]
    columns = list(dict.fromkeys(key for row in flat for key in row))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(flat)
    out(buffer.getvalue().rstrip("\n"))


def _flatten(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(_flatten(value, f"{name}."))
        elif isinstance(value, (list, tuple)):
            flat[name] = json.dumps(value, ensure_ascii=False)
        else:
            flat[name] = "" if value is None else value
    return flat


def progress_bar(*columns: Any, transient: bool = False) -> Any:
    """A rich progress bar on stderr, drawn only when stderr is a terminal (never into a
    pipe, a log file or the output of ``--json``)."""
    from rich.console import Console
    from rich.progress import Progress

    return Progress(*columns, console=Console(stderr=True), transient=transient,
                    disable=not sys.stderr.isatty())


def read_store(db: str, *, checked: bool = True) -> EventStore:
    """An existing store (a read command never creates a database). ``checked`` (all but
    the audit, which reports breaks itself): every stream the command reads is held to its
    hash chain first, and a break is one warning line on stderr before the command prints
    (replay/data/integrity.py; :func:`check_shown` for what it shows without reading)."""
    store = open_store(db, create=False)
    if checked:
        from replay.data.integrity import watch
        watch(store, lambda line: typer.echo(f"rinklog: warning: {line}", err=True))
    return store


def check_shown(store: EventStore, streams: list[str], projections: tuple[str, ...] = (), *,
                stored: bool = False) -> None:
    """Check streams a command shows without reading their events (a listing, read
    models): their chains, and the stored ``projections`` it shows, held to the events.
    ``stored``: every stored read model of the streams too (a game's, a season's standings:
    what SQL tools and ``serve`` would show of them; cheap for a game or two)."""
    from replay.data.integrity import STORED, breaks
    breaks(store, streams, (*projections, *(STORED if stored else ())))


def table(headers: list[str], rows: list[list[Any]], right: set[int] = frozenset()) -> list[str]:
    """Aligned text columns, a rule under the headers; ``right`` aligns columns right."""
    cells = [[str(c) for c in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def fmt(r: list[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
    return ["  " + fmt(headers), "  " + fmt(["-" * w for w in widths])] + \
        ["  " + fmt(r) for r in cells]
