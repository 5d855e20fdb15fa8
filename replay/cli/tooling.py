"""Replay tooling commands: audit, branch, diff, export, import, explain, play.

Each is a module-level command of :data:`app`, which the root (replay/cli/app.py) adds
with the other modules' commands. Each is a thin shell over a library call in
replay/leagues/audit.py, replay/games/session.py, replay/leagues/transfer.py or
replay/games/explain.py; errors a user can cause are RinklogErrors (a wrong option: a
CliError), one line and exit 1.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
import typer

from engine.systems import system_of
from events.base import Event, tag_of
from events.plurals import counted
from replay.cli.common import (
    CliError,
    ClusterOption,
    DbOption,
    InsecureClusterOption,
    OptionalRuleOption,
    RulesetOption,
    TlsCaOption,
    TlsCertOption,
    TlsKeyOption,
    check_shown,
    optional_rules,
    workers_or_cluster,
)
from replay.cli.common import dump as _dump
from replay.cli.common import out as _out
from replay.cli.common import read_store as _read_store
from replay.cli.common import system_parts as _system_parts
from replay.cluster_access import Cluster
from replay.games.registry import DEFAULT_RULESET
from replay.systems import Prompter, kit_for

if TYPE_CHECKING:
    from replay.games.refold import SeasonRerun
    from replay.leagues.audit import AuditReport

app = typer.Typer(rich_markup_mode=None)
"""The replay tooling commands; the root app takes them in (``add_typer`` without a name)."""


def _event_line(event: Any) -> str:
    if event is None:
        return "(end of stream)"
    if isinstance(event, dict):
        return json.dumps(event, default=str)
    payload = msgspec.to_builtins(event)
    fields = " ".join(f"{k}={json.dumps(v, ensure_ascii=False, separators=(',', ':'))}"
                      for k, v in payload.items() if k != "type")
    return f"{tag_of(type(event))} {fields}".rstrip()


def _event_json(event: Any, type_name: str) -> dict[str, Any] | None:
    if event is None:
        return None
    payload = event if isinstance(event, dict) else msgspec.to_builtins(event)
    return {"type": type_name or tag_of(type(event)), **payload}


def _audit_text(r: AuditReport) -> str:
    if r.failure is None:
        status = "in progress, " if r.in_progress else ""
        if r.kind == "season":
            return (f"{r.game_id}: ok (season; {counted(r.events, 'event')}; hash chain, blobs, index)  "
                    f"head {r.head_hash[:16]}…"
                    + "".join(f"\n  warning: {w}" for w in r.warnings))
        return (f"{r.game_id}: ok ({status}{counted(r.events, 'event')}; hash chain, "
                f"{counted(r.seeded_rolls, 'seeded roll')}, every decision re-checked)  "
                f"head {r.head_hash[:16]}…" + "".join(f"\n  warning: {w}" for w in r.warnings))
    f = r.failure
    return (f"{r.game_id}: FAILED at seq {f.seq}: {f.check} check (rule {f.rule}): "
            f"expected {f.expected}; recorded {f.recorded}")


def _all_reports(store: Any, workers: int, cluster: Cluster | None, odds_run: bool,
                 verify: int | None, seed: int | None) -> tuple[list[AuditReport], Any]:
    """``audit --all``: here, or on a cluster (with its verdict, --verify's games
    re-audited here)."""
    from replay.leagues.audit import audit_all, audit_all_verdict
    from replay.leagues.audit_verify import DEFAULT_VERIFY
    if cluster is None:
        return audit_all(store, workers=workers, odds_run=odds_run), None
    return audit_all_verdict(store, cluster=cluster, odds_run=odds_run, verify_seed=seed,
                             verify=DEFAULT_VERIFY if verify is None else verify)


_VERIFY = ("with --cluster: re-audit this many of the games the cluster's workers audited "
           "here, chosen by a seed the verdict prints (default 8; 0: none)")
_SEED = "with --verify: choose the games by this seed (repeats a verdict's choice)"


def _check_cluster(all_games: bool, verify: int | None, seed: int | None,
                   cluster: Cluster | None, odds_runs: int) -> None:
    if odds_runs < 0:
        raise CliError(f"--odds-runs must be 0 or more, got {odds_runs}")
    if cluster is not None and not all_games:
        raise CliError("--cluster audits with --all (game ids are audited here)")
    if (verify is not None or seed is not None) and cluster is None:
        raise CliError("--verify and --verify-seed re-audit a cluster's reports here: "
                       "give --cluster (without it every game is audited here)")
    if verify is not None and verify < 0:
        raise CliError(f"--verify must be 0 or more, got {verify}")


def _audit_season(receipt: Path, public_key: str | None, all_games: bool, games: bool,
                  db: str, as_json: bool, workers: int, cluster: Cluster | None,
                  odds: tuple[bool, int, Any]) -> None:
    """``audit [--all] --receipt SEASON-RECEIPT``: the database held to a season's receipt
    (``odds``: --odds-run, --odds-runs, the season systems' odds)."""
    from replay.leagues.receipts import load_verify_key
    from replay.leagues.season_receipts import audit_season_receipt
    if games:
        raise CliError(f"{receipt} is a season's receipt: give --all or no game ids")
    pinned = load_verify_key(public_key) if public_key is not None else None
    with _read_store(db, checked=False) as store:  # the audit reports every break itself
        found = audit_season_receipt(store, receipt, pinned, all_streams=all_games,
                                     workers=workers, cluster=cluster, odds_run=odds[0],
                                     odds_replays=odds[1], odds_systems=odds[2])
    if as_json:
        _dump([r.to_json() for r in found.reports])
    else:
        for r in found.reports:
            _out(_audit_text(r))
        for line in found.notes:
            _out(line)
        if found.signer is not None:
            _out(f"receipt {receipt}: signature ok, key {found.signer[:16]}…"
                 + (" (the league key)" if pinned is not None else " (key not pinned: "
                    "give --public-key to require the league's)"))
    _summary(found.reports, all_games, as_json)


class Quit(Exception):
    """The player typed q at a prompt."""


def ask_at_table(text: str) -> str:
    """One answer typed at the table; q (or the end of input, or Ctrl-C) stops the game."""
    try:
        answer = typer.prompt(text, default="", show_default=False).strip()
    except typer.Abort:  # end of input or Ctrl-C at the prompt: stop, keep everything
        raise Quit from None
    if answer.lower() in ("q", "quit"):
        raise Quit
    return answer


@app.command()
def replay(game: Annotated[str, typer.Argument(help="game id")],
           db: DbOption = "rinklog.db",
           as_json: Annotated[bool, typer.Option("--json", help="the result as JSON")] = False,
           ) -> None:
    """Fold a game's stream through the rules, rebuild every projection and confirm it
    equals the stored read models (if stored); print the final state. Writes nothing.

    Example: rinklog replay HFX-QUE-2026 --db rinklog.db
    """
    from replay.games.game_streams import season_kinds
    from replay.games.refold import rerun, rerun_season
    with _read_store(db) as store:
        if store.exists(game) and store.info(game).kind in season_kinds():
            _replay_season(rerun_season(store, game), as_json)
            return
        result = rerun(store, game)
    summary = result.to_json()
    if as_json:
        _dump(summary)
    else:
        stored, differences = result.differences, result.differences or []
        verdict = ("not stored (rinklog projections update stores them)" if stored is None
                   else "DIFFER" if differences else "identical to the stored read models")
        _out(f"{game}: {counted(result.events, 'event')}; rules {summary['rules']}; projections {verdict}")
        for line in differences:
            _out(f"  {line}")
        state, (home, away) = result.state, result.teams
        where = (f"final, {result.decided}" if result.decided is not None
                 else "final" if state["finished"]
                 else f"period {state['period']}, sequence {state['sequence']}")
        _out(f"{home} {state['score']['home']} - {state['score']['away']} {away} ({where})")
        for side, team in (("home", home), ("away", away)):
            slots = " ".join(f"{k}={v}" for k, v in state["on_ice"][side].items() if v)
            box = ", ".join(f"#{p['id']} {p['player']} {p['kind']}"
                            for p in state["penalties"][side]) or "none"
            _out(f"  {team}: {slots}; penalties: {box}")
    if result.differences or result.mismatch is not None:
        raise typer.Exit(1)


def _replay_season(result: SeasonRerun, as_json: bool) -> None:
    """``replay`` of a refereed season: the referee re-run over the recorded picks and draws."""
    summary = result.to_json()
    if as_json:
        _dump(summary)
    else:
        state = result.summary
        _out(f"{result.season_id}: {counted(result.events, 'event')}; rules {summary['rules']}")
        _out(f"{state['league']}: weeks played {state['weeks_played']}, "
             f"{counted(state['games'], 'game')}, {counted(state['dice'], 'die', 'dice')}"
             + (", closed" if state["closed"] else ""))
        if result.mismatch is not None:
            m = result.mismatch
            _out(f"  event {m.seq} ({m.rule}): expected {m.expected}, recorded {m.recorded}")
    if result.mismatch is not None:
        raise typer.Exit(1)



@app.command()
def audit(
    ctx: typer.Context,
    game: Annotated[list[str] | None, typer.Argument(help="game ids")] = None,
    all_games: Annotated[bool, typer.Option(
        "--all", help="audit every stream and blob in the database")] = False,
    receipt: Annotated[Path | None, typer.Option(
        "--receipt", help="hold the games to this receipt (its games, if none named)")
    ] = None,
    public_key: Annotated[str | None, typer.Option(
        "--public-key", help="the league's public key (hex or file): the receipt must "
        "be signed by it")] = None,
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="a JSON list of reports")] = False,
    workers: Annotated[int | None, typer.Option(
        "--workers", help="with --all: processes auditing a big database's streams "
        "(default 2)")] = None,
    cluster: ClusterOption = None, tls_ca_file: TlsCaOption = None,
    tls_cert: TlsCertOption = None, tls_key: TlsKeyOption = None,
    insecure_cluster: InsecureClusterOption = False,
    odds_run: Annotated[bool, typer.Option(
        "--odds-run", help="audit a database `rinklog odds --replay` wrote as the odds run "
        "it is (without it, its season fails: it is not the season as played)")] = False,
    odds_runs: Annotated[int, typer.Option(
        "--odds-runs", help="runs of each recorded odds table played again against its "
        "leaves, chosen from the record's hash (0: its figures checked against its leaves "
        "only)")] = 20,
    verify: Annotated[int | None, typer.Option("--verify", help=_VERIFY)] = None,
    verify_seed: Annotated[int | None, typer.Option("--verify-seed", help=_SEED)] = None,
) -> None:
    """Verify games: hash chain, identity, blobs, seeded dice, every decision and coach
    choice, the stream index and stored read models; with --receipt, that each game is
    the one the receipt names; a season's recorded odds against their runs. With --cluster
    the rules are re-run by the cluster's workers: the verdict names them, and --verify K
    re-audits K of their games here.

    Exit 0 when every game checks out; otherwise 1, naming the first failing seq,
    what was expected, what was recorded and the rule.

    Example: rinklog audit HFX-QUE-2026 --receipt results.json --db rinklog.db
    """
    from replay.leagues.audit import audit_games, mark_odds_runs
    from replay.leagues.audit_odds_runs import check_odds_records
    from replay.leagues.receipts import held_to, load_receipt, load_verify_key, verify_signature
    from replay.leagues.season_receipts import is_season_receipt
    workers, cluster = workers_or_cluster(workers, cluster, tls=(tls_ca_file, tls_cert, tls_key),
                                          insecure=insecure_cluster)
    _check_cluster(all_games, verify, verify_seed, cluster, odds_runs)
    systems = _system_parts(ctx).season_odds()  # a season system's odds records' check
    if receipt is not None and is_season_receipt(receipt):  # a season's receipt
        _audit_season(receipt, public_key, all_games, bool(game), db, as_json, workers,
                      cluster, (odds_run, odds_runs, systems))
        return
    kept = load_receipt(receipt) if receipt is not None else None
    pinned = load_verify_key(public_key) if public_key is not None else None
    if pinned is not None and kept is None:
        raise CliError("--public-key verifies a --receipt: give one")
    if all_games and game:
        raise CliError("give game ids or --all (not both)")
    if not all_games and not game and kept is None:
        raise CliError("give game ids, --all or --receipt FILE")
    signer = verify_signature(kept, str(receipt), pinned) if kept is not None else None
    verdict = None
    with _read_store(db, checked=False) as store:  # the audit reports every break itself
        if all_games:
            reports, verdict = _all_reports(store, workers, cluster, odds_run, verify,
                                            verify_seed)
            reports = check_odds_records(store, reports, odds_runs, systems)
        else:
            ids = list(game or []) or [e.game for e in kept.games]  # type: ignore[union-attr]
            reports = check_odds_records(store, mark_odds_runs(
                store, audit_games(store, ids), odds_run), odds_runs, systems)
    if kept is not None:
        reports = [held_to(kept, r, str(receipt)) for r in reports]
    _print_audit(reports, db, as_json, (receipt, signer, pinned is not None), verdict)
    _summary(reports, all_games, as_json)


def _summary(reports: list[AuditReport], all_games: bool, as_json: bool) -> None:
    """``audit --all``'s last line, under its cluster verdict so that ``| tail -n 1`` shows
    it (with --json on stderr: the JSON is the reports); exit 1 if any report failed."""
    from replay.leagues.audit_report import summary_line
    if all_games and reports:  # none: "nothing to audit" said so
        typer.echo(summary_line(reports), err=as_json)
    if any(not r.ok for r in reports):
        raise typer.Exit(1)


def _print_audit(reports: list[AuditReport], db: str, as_json: bool,
                 signed: tuple[Path | None, str | None, bool], verdict: Any) -> None:
    """``audit``'s reports (``signed``: the receipt, its signer, whether the key was
    pinned) and the cluster's verdict."""
    from replay.leagues.audit_verify import verdict_line
    receipt, signer, pinned = signed
    if as_json:
        _dump([r.to_json() for r in reports])
    else:
        for r in reports:
            _out(_audit_text(r))
        if not reports:
            _out(f"{db}: no games, seasons or blobs in the database: nothing to audit")
        if signer is not None:
            _out(f"receipt {receipt}: signature ok, key {signer[:16]}…"
                 + (" (the league key)" if pinned else " (key not pinned: "
                    "give --public-key to require the league's)"))
    if verdict is not None:  # with --json on stderr: the JSON is the reports, as locally
        typer.echo(verdict_line(verdict), err=as_json)


@app.command()
def receipt(
    game: Annotated[list[str] | None, typer.Argument(help="game ids")] = None,
    all_games: Annotated[bool, typer.Option("--all", help="every game")] = False,
    season: Annotated[str | None, typer.Option(
        "--season", help="one receipt for this whole season: its games as a Merkle tree "
        "(RFC 6962), its stream's head and standings (docs/trust.md)")] = None,
    proof: Annotated[str | None, typer.Option(
        "--proof", help="with --season: this game's inclusion proof in the season")] = None,
    sign_key: Annotated[Path | None, typer.Option(
        "--sign-key", "--key", help="the league's secret key file: sign the receipt")
    ] = None,
    output: Annotated[Path | None, typer.Option(
        "-o", "--output", help="write to this file (refused if it exists)")] = None,
    db: DbOption = "rinklog.db",
) -> None:
    """Print what a commissioner keeps of games: id, events, head hash, ruleset and
    result, as JSON; each game is audited first and a failing one gets no receipt.
    With --season, one receipt for a season (--proof GAME: a game's inclusion proof).

    Example: rinklog receipt HFX-QUE-2026 --sign-key league.key -o results.json
    Example: rinklog receipt --season demo-2026 --key league.key -o week1.json
    """
    from replay.games.game_streams import season_kinds
    from replay.leagues.audit import audit_games
    from replay.leagues.receipts import encode_receipt, entry_for, load_signing_key, make_receipt
    from replay.leagues.season_receipts import encode as encode_season
    from replay.leagues.season_receipts import season_proof, season_receipt
    if season is not None and (game or all_games):
        raise CliError("--season takes no game ids or --all (its games are in it)")
    if proof is not None and season is None:
        raise CliError("--proof GAME goes with --season SEASON")
    if season is None and bool(game) == all_games:
        raise CliError("give game ids, --all or --season SEASON")
    if proof is not None and sign_key is not None:
        raise CliError("--proof takes no --key (the receipt it is checked against is "
                       "signed)")
    key = load_signing_key(sign_key) if sign_key is not None else None
    if output is not None and output.exists():
        raise CliError(f"{output} already exists; nothing written")
    with _read_store(db) as store:
        if output is not None:
            store.refuse_as_output(output)
        if season is not None:
            check_shown(store, [season], ("standings",))  # the receipt signs rm_standings
            made = (season_proof(store, season, proof) if proof is not None
                    else season_receipt(store, season, key))
        else:
            kinds = ["game", *sorted(season_kinds())]  # games, and refereed seasons
            ids = ([s.stream for kind in kinds for s in store.streams(kind=kind)]
                   if all_games else list(game or []))
            entries = [entry_for(report) for report in audit_games(store, ids)]
    if season is not None:
        data = encode_season(made)
        entries = made.games if proof is None else []  # type: ignore[union-attr]
    else:
        data = encode_receipt(make_receipt(entries, key))
    if output is None:
        typer.echo(data.decode(), nl=False)
        return
    try:
        output.write_bytes(data)
    except OSError as err:
        raise CliError(f"{output}: cannot write: {err.strerror or err}") from None
    _out((f"inclusion proof of {proof} in season {season}" if proof is not None else
          f"receipt for {counted(len(entries), 'game')}" + (f" of season {season}" if season else ""))
         + f" written to {output}" + (" (signed)" if key is not None else ""))


@app.command("keygen")
def keygen(
    output: Annotated[Path, typer.Argument(help="secret key file to create (and FILE.pub)")],
    force: Annotated[bool, typer.Option(
        "--force", help="write FILE in a git work tree even where git would commit it")] = False,
) -> None:
    """Create a league signing key: the secret key in FILE (mode 0600, keep it out of
    any database) and the public key in FILE.pub, to publish. In a git work tree, FILE must
    be one git ignores (else `git add .` commits the secret key), or give --force.

    Example: rinklog keygen league.key
    """
    from replay.leagues.receipts import generate_key
    public = generate_key(output, force=force)
    _out(f"secret key {output}, public key {output}.pub: {public}")


@app.command()
def branch(
    game: Annotated[str, typer.Argument(help="parent game id")],
    at: Annotated[int, typer.Option("--at", help="keep the parent's events 1..SEQ")],
    seed: Annotated[str | None, typer.Option("--seed", help="new seed after the fork")] = None,
    rolls: Annotated[Path | None, typer.Option(
        "--rolls", help="file of typed rolls for after the fork")] = None,
    game_id: Annotated[str | None, typer.Option(
        "--game-id", help="the branch's id (default PARENT-bN)")] = None,
    choice: Annotated[str | None, typer.Option(
        "--choice", help="replace the coach decision right after --at: what you would "
        "type at play's coach prompt there ('; ' between answers), e.g. 'home C=ID', "
        "'away G=ID' (Hockey Bones), 'pull home', 'lines away 2 1' (DICE Hockey)")
    ] = None,
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
) -> None:
    """Branch a game at an event and play on to the end with the default coach.

    With no --seed/--rolls the parent's dice continue, so the branch repeats it.
    With --choice, the coach decision after --at is yours (checked by the rules,
    recorded, audited): what if the coach had pulled the goalie there?

    Example: rinklog branch HFX-QUE-2026 --at 400 --seed other
    Example: rinklog branch HFX-QUE-2026 --at 1000 --choice 'away G=ID'
    """
    from replay.games.session import branch_game
    lines = None
    if rolls is not None:
        try:
            lines = rolls.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as err:
            raise CliError(f"{rolls}: cannot read rolls: {err}") from None
    with _read_store(db) as store:
        result = branch_game(store, game, at, seed=seed, rolls=lines,
                             rolls_origin=str(rolls) if rolls else "rolls", game_id=game_id,
                             choice=choice)
    if as_json:
        _dump({"game_id": result.game_id, "parent": result.parent,
               "parent_seq": result.parent_seq, "events": result.events,
               "head_hash": result.head_hash, "decided": result.decided,
               "score": {"home": result.home_goals, "away": result.away_goals},
               "reseed": result.reseed,
               "choices": [_event_json(c, "") for c in result.choices]})
    else:
        _out(f"branch {result.game_id} of {result.parent} at {result.parent_seq}: "
             f"{result.meta.get('home')} {result.home_goals} - {result.away_goals} "
             f"{result.meta.get('away')} ({result.decided})  {counted(result.events, 'event')}  "
             f"head {result.head_hash[:8]}…")
        for chosen in result.choices:  # --choice: what the coach did instead
            _out(f"  coach: {_event_line(chosen)}")


@app.command()
def diff(
    game_a: Annotated[str, typer.Argument(help="first game id")],
    game_b: Annotated[str, typer.Argument(help="second game id")],
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="the difference as JSON")] = False,
) -> None:
    """The first event where two games part, with both events (or 'identical'), and
    how the outcome changed: both finals, the goals lost and the goals added.

    Exit 0 when the games are identical, 1 when they differ (like diff(1)).

    Example: rinklog diff HFX-QUE-2026 HFX-QUE-2026-b1
    """
    from replay.leagues.transfer import diff_games, goal_words, outcome_diff
    with _read_store(db) as store:
        d = diff_games(store, game_a, game_b)
        outcome = outcome_diff(store, game_a, game_b) if d.seq is not None else None
    if as_json:
        _dump({"a": game_a, "b": game_b, "identical": d.seq is None, "seq": d.seq,
               "event_a": _event_json(d.a, d.a_type), "event_b": _event_json(d.b, d.b_type),
               "outcome": outcome.to_json() if outcome is not None else None})
    elif d.seq is None:
        _out("identical")
    else:
        _out(f"first difference at seq {d.seq}"
             + (f" ({game_b}: seq {d.b_seq})" if d.b_seq != d.seq else ""))
        _out(f"  {game_a}: {_event_line(d.a)}")
        _out(f"  {game_b}: {_event_line(d.b)}")
        assert outcome is not None
        _out(f"outcome: A {game_a}: {outcome.final_a}; B {game_b}: {outcome.final_b}")
        for title, goals in (("goals lost", outcome.goals_lost),
                             ("goals added", outcome.goals_added)):
            _out(f"  {title} ({len(goals)}): "
                 + ("; ".join(goal_words(g) for g in goals) or "none"))
    if d.seq is not None:
        raise typer.Exit(1)


@app.command("export")
def export_cmd(
    game: Annotated[str, typer.Argument(help="game id, or a season id: the whole season")],
    output: Annotated[Path, typer.Option("-o", "--output", help="file to write")],
    sign_key: Annotated[Path | None, typer.Option(
        "--sign-key", help="the league's secret key file: sign the file's receipt")] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite an existing file")
                     ] = False,
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
) -> None:
    """Write one audited game, or a whole season (a season id: its stream and every game),
    to a portable, self-verifying file (events, cards, charts and its receipt, signed with
    --sign-key).

    Example: rinklog export HFX-QUE-2026 -o game.rinklog --sign-key league.key
    Example: rinklog export demo-2026 -o season.rinklog --db season.db
    """
    from replay.leagues.receipts import load_signing_key
    from replay.leagues.season_transfer import export_file
    key = load_signing_key(sign_key) if sign_key is not None else None
    with _read_store(db, checked=False) as store:  # the export audits what it writes
        size = export_file(store, game, output, force=force, key=key)
    if as_json:
        _dump({"game_id": game, "file": str(output), "bytes": size, "signed": key is not None})
    else:
        _out(f"exported {game} to {output} ({counted(size, 'byte')}{', signed' if key else ''})")


@app.command("import")
def import_cmd(
    file: Annotated[Path, typer.Argument(help="an export file")],
    receipt: Annotated[Path | None, typer.Option(
        "--receipt", help="the game must match this receipt")] = None,
    public_key: Annotated[str | None, typer.Option(
        "--public-key", help="the league's public key (hex or file): the file must be "
        "signed by it")] = None,
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
) -> None:
    """Verify an export file completely, then add its game (refused if present; a game of
    a season only into the database holding that season, recorded there) or its whole
    season (refused if the database holds it).

    Example: rinklog import game.rinklog --public-key league.key.pub --db commissioner.db
    """
    from replay.games.game_streams import open_store
    from replay.leagues.receipts import load_verify_key
    from replay.leagues.season_transfer import ImportedSeason, import_file, verify_file
    try:
        data = file.read_bytes()
    except OSError as err:
        raise CliError(f"{file}: cannot read: {err.strerror or err}") from None
    verified = verify_file(data, str(file), receipt=receipt,  # before the database is opened
                           public_key=load_verify_key(public_key) if public_key else None)
    with open_store(db) as store:
        done = import_file(store, verified)
    signed = f", signed by {done.signed_by[:16]}…" if done.signed_by else ""
    if isinstance(done, ImportedSeason):
        if as_json:
            _dump({"season": done.season, "games": done.games, "events": done.events,
                   "head_hash": done.head, "signed_by": done.signed_by})
        else:
            _out(f"imported season {done.season}: {counted(done.games, 'game')}, "
                 f"{counted(done.events, 'event')}, audit ok, head {done.head[:16]}…{signed}")
        return
    report = done.report
    if as_json:
        _dump({**report.to_json(), "signed_by": done.signed_by})
    else:
        _out(f"imported {report.game_id}: {counted(report.events, 'event')}, audit ok, "
             f"head {report.head_hash[:16]}…{signed}")


@app.command()
def explain(
    game: Annotated[str, typer.Argument(help="game id")],
    seq: Annotated[int | None, typer.Argument(help="event seq")] = None,
    goal: Annotated[int | None, typer.Option(
        "--goal", help="how the game's Nth goal came about: the play that led to it")
    ] = None,
    penalty: Annotated[int | None, typer.Option(
        "--penalty", help="how the game's Nth penalty came about")] = None,
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="the event and why, as JSON")
                       ] = False,
) -> None:
    """Why an event happened: roll, card cell, modifiers, totals and rule section.
    With --goal N or --penalty N: how that goal or penalty came about, every roll and
    rule of the play that led to it, from its face-off or change of possession.

    Example: rinklog explain HFX-QUE-2026 120
    Example: rinklog explain HFX-QUE-2026 --goal 2
    """
    from replay.games.explain import explain as explain_seq
    from replay.games.explain import explain_play
    if [seq, goal, penalty].count(None) != 2:
        raise CliError("give one of: an event SEQ, --goal N or --penalty N")
    with _read_store(db) as store:
        check_shown(store, [game], stored=True)
        if seq is not None:
            found: Any = explain_seq(store, game, seq)
        else:
            kind, number = ("goal", goal) if goal is not None else ("penalty", penalty)
            found = explain_play(store, game, kind, int(number or 0))
    if as_json:
        _dump(found.to_json())
    else:
        _out(found.text)


def _season_table_game(store: Any, season: str, game: str) -> str:
    """``play --season S --game N``: scheduled game N, or a ready playoff game by its id."""
    from replay.leagues.naming import is_playoff_game
    from replay.leagues.runner import table_game
    if game.isdigit():
        return table_game(store, season, int(game))
    if not is_playoff_game(season, game):
        raise CliError(f"--game {game!r}: a schedule number of {season}, or a playoff game "
                       f"id {season}-pR-S-G (rinklog playoffs {season} --ready lists them)")
    from replay.leagues.playoff_table import playoff_table_game  # the postseason's, here only

    return playoff_table_game(store, season, game)


def _check_play_options(new: bool, home: str | None, away: str | None, resume: str | None,
                        season: str | None, number: str | None, db: str) -> None:
    """``rinklog play``'s three ways (a new game, a season's, a resumed one), one at a time."""
    if (season is None) != (number is None):
        raise CliError("--season SEASON and --game N go together")
    if season is not None and (new or resume):
        # The season's game takes its teams, cards and options from the season.
        raise CliError("--season/--game take no --home/--away/--game-id/--league/"
                       "--late-penalty-house-rule/--ruleset/--optional-rule/--resume")
    if resume is None and season is None and (home is None or away is None):
        raise CliError("give --home TEAM --away TEAM, --season S --game N, "
                       "or --resume GAME")
    if resume is not None and new:
        # A game's options are fixed when it is created (GameCreated).
        raise CliError("--resume takes no --home/--away/--game-id/--league/"
                       "--late-penalty-house-rule/--ruleset/--optional-rule")
    if (resume or season) and not Path(db).exists():
        # A game to resume (or a stored season's) is in an existing database: a wrong
        # --db is refused, not answered with a new empty one.
        raise CliError(f"{db}: no such database (give the --db the game is in)")



def _new_table_game(store: Any, ruleset: str, home: str, away: str, league: str | None,
                    rules: tuple[str, ...], late_penalty_house_rule: bool,
                    game_id: str | None) -> str:
    """A new game to play at the table, stored (its GameCreated) before the first roll."""
    from replay.games.game_setup import game_setup
    from replay.games.session import new_live_game
    from replay.leagues.league import load_league
    setup = game_setup(ruleset, home, away, league=league and load_league(league),
                       optional_rules=rules, late_penalty_house_rule=late_penalty_house_rule)
    return new_live_game(store, setup, game_id=game_id)

@app.command("play")
def play_cmd(
    home: Annotated[str | None, typer.Option("--home", help="home team id")] = None,
    away: Annotated[str | None, typer.Option("--away", help="away team id")] = None,
    resume: Annotated[str | None, typer.Option("--resume", help="continue this game")] = None,
    game_id: Annotated[str | None, typer.Option(
        "--game-id", help="id of a new game (default HOME-AWAY-liveN)")] = None,
    late_penalty_house_rule: Annotated[bool, typer.Option(
        "--late-penalty-house-rule", help="a new game with the quick reference's house "
        "rule: late in the third and in overtime an X is a penalty only on red 1")] = False,
    league: Annotated[str | None, typer.Option(
        "--league", help="a new game's teams from a league folder or bundled league "
        "(demo); default: the fixture teams")] = None,
    ruleset: RulesetOption = DEFAULT_RULESET,
    optional_rule: OptionalRuleOption = None,
    season: Annotated[str | None, typer.Option(
        "--season", help="play a scheduled game of this stored season at the table "
        "(with --game N): it counts in the season's standings and leaders; or a playoff "
        "game the bracket has made ready (--game ID, see rinklog playoffs S --ready)")
    ] = None,
    number: Annotated[str | None, typer.Option(
        "--game", help="the scheduled game's number, or a ready playoff game's id "
        "(SEASON-pR-S-G), with --season")] = None,
    db: DbOption = "rinklog.db",
) -> None:
    """Play at the table: type each roll, answer the coach prompts (q quits, kept).

    Every step is stored as it happens; resume a stopped game with --resume. A league
    game of a stored season: --season SEASON --game N (a season run then skips it), or a
    playoff game ready to play: --season SEASON --game SEASON-pR-S-G (rinklog playoffs
    then records its result in its turn).

    Example: rinklog play --home HFX --away QUE --db league.db
    Example: rinklog play --season dicedemo-2026 --game dicedemo-2026-p1-1-1 --db season.db
    """
    from replay.games.explain import describe
    from replay.games.game_streams import open_store
    from replay.games.session import continue_game, resume_point
    from replay.leagues.ledger import table_committer
    new = bool(home or away or game_id or league or late_penalty_house_rule
               or ruleset != DEFAULT_RULESET or optional_rule)
    _check_play_options(new, home, away, resume, season, number, db)
    names = optional_rules(optional_rule, ruleset)
    with open_store(db) as store:
        scheduled = (_season_table_game(store, season, number) if season and number
                     else None)
        gid = resume or scheduled or _new_table_game(
            store, ruleset, str(home), str(away), league, names, late_penalty_house_rule,
            game_id)
        folded = resume_point(store, gid)
        words = system_of(folded.created.ruleset).status
        coach = kit_for(folded.created.ruleset).prompt_coach(
            Prompter(ask_at_table, _out, words))
        coach.watch(folded.state)  # each roll's prompt says what it decides
        if folded.state.finished and not folded.pending:
            _out(f"game {gid} is already over")
            return
        _out(f"game {gid}" + (f" resumed after event {folded.events}" if resume else
                              f", playoff game of season {season}" if scheduled
                              and not number.isdigit() else  # type: ignore[union-attr]
                              f", game {number} of season {season}" if scheduled else ""))
        _out(f"  {words(folded.state)}")  # where it stands: period, clock, score, strength
        state = folded.state

        def show(batch: list[Event]) -> None:
            for event in batch:
                line = describe(folded.created, state, event)
                if line:
                    _out(line)

        commit = table_committer(store, gid, show)
        try:
            continue_game(folded, coach, coach, commit)
        except (Quit, typer.Abort, KeyboardInterrupt, EOFError):
            _out("")
            _out(f"stopped: {counted(store.version(gid), 'event')} of {gid} kept; "
                 f"resume with: rinklog play --resume {shlex.quote(gid)} "
                 f"--db {shlex.quote(str(db))}")
            return
        _out(f"game over: {gid}  {counted(store.version(gid), 'event')}  "
             f"head {store.head_hash(gid)[:8]}…")
