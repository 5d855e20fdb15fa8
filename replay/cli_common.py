"""What every CLI module shares: the --db option, output helpers, opening a store."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from engine.bones.rulesets import OPTIONAL_RULES, RULESETS
from events.bones import BonesEvent
from events.common import FaceoffOptions
from events.errors import RinklogError
from events.store import EventStore

DB_HELP = "SQLite event store (default: $RINKLOG_DB, else ./rinklog.db)."
DbOption = Annotated[str, typer.Option("--db", envvar="RINKLOG_DB", help=DB_HELP,
                                      show_envvar=False)]

RulesetOption = Annotated[str, typer.Option(
    "--ruleset", help=f"the rules played: {', '.join(RULESETS)} (Hockey Bones, FaceOff Hockey 2008)")]
OptionalRuleOption = Annotated[list[str] | None, typer.Option(
    "--optional-rule", help="a FaceOff 2008 optional rule to turn on, repeatable: "
    f"{', '.join(OPTIONAL_RULES)} (recorded in the game's first event)")]


def faceoff_options(names: list[str] | None, ruleset: str) -> FaceoffOptions:
    """The FaceOff options named on the command line, checked against the ruleset."""
    names = [n.replace("-", "_") for n in names or []]
    unknown = [n for n in names if n not in OPTIONAL_RULES]
    if unknown:
        raise RinklogError(f"--optional-rule: unknown {', '.join(unknown)} "
                           f"(known: {', '.join(OPTIONAL_RULES)})")
    rules = RULESETS.get(ruleset)
    if rules is None:
        raise RinklogError(f"--ruleset: unknown {ruleset!r} (known: {', '.join(RULESETS)})")
    if names and not rules.optional_rules:
        raise RinklogError(f"--optional-rule needs --ruleset faceoff2008 ({ruleset} has none)")
    return FaceoffOptions(**dict.fromkeys(names, True))


def out(text: str = "") -> None:
    typer.echo(text)


def dump(obj: Any) -> None:
    """Pretty JSON for people and machines."""
    out(json.dumps(obj, indent=2, ensure_ascii=False))


def read_store(db: str) -> EventStore:
    """An existing store (a read command never creates a database)."""
    return EventStore(db, event_type=BonesEvent, create=False)


def table(headers: list[str], rows: list[list[Any]], right: set[int] = frozenset()) -> list[str]:
    """Aligned text columns, a rule under the headers; ``right`` aligns columns right."""
    cells = [[str(c) for c in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def fmt(r: list[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
    return ["  " + fmt(headers), "  " + fmt(["-" * w for w in widths])] + \
        ["  " + fmt(r) for r in cells]
