"""CLI commands for seasons (issue #5): ``season``, ``seasons``, ``standings``, ``leaders``,
``calibrate``, ``league check``.

Module-level commands of :data:`app` (the root, replay/cli/app.py, takes them in) and the
``league`` sub-app :data:`league_app`. Errors are
:class:`RinklogError` subclasses, printed on one line by ``replay.cli.main``.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from events.plurals import counted
from replay.cli.common import (
    RULESETS,
    CliError,
    ClusterOption,
    CsvOption,
    DbOption,
    InsecureClusterOption,
    TlsCaOption,
    TlsCertOption,
    TlsKeyOption,
    check_shown,
    dump_csv,
    odds_runs_first,
    one_format,
    progress_bar,
    read_store,
    workers_or_cluster,
)
from replay.systems import kit_for

app = typer.Typer(rich_markup_mode=None)
"""The season commands; the root app takes them in (``add_typer`` without a name)."""

SeasonOption = Annotated[str | None, typer.Option(
    "--season", help="season id (default: the newest season in the database)")]

IncludeBranches = Annotated[bool, typer.Option(
    "--include-branches", help="count branches of the season's games (what-ifs) too")]

LeagueOption = Annotated[str, typer.Option(
    "--league", help="a league folder (with league.toml) or a bundled league's name (demo)")]


_VERIFY = ("re-run the rules here on this many of the games the workers return, chosen by "
           "a seed the summary prints, before they are stored (default: 8 with --cluster, "
           "else 0; docs/trust.md)")
_SEED = "with --verify: choose the games by this seed (repeats a run's choice)"


def _ticker(bar: Any, task: Any) -> Callable[[int, int], None]:
    """The progress bar's update after each game stored: games done, and games a second
    since the first one this run stored."""
    started: dict[str, Any] = {"at": None, "from": 0}

    def tick(done: int, total: int) -> None:
        import time

        if started["at"] is None:
            started["at"], started["from"] = time.perf_counter(), done
        elapsed = time.perf_counter() - started["at"]
        rate = (done - started["from"]) / elapsed if elapsed > 0 else 0.0
        bar.update(task, completed=done, rate=f"{rate:.1f}")
    return tick


@app.command()
def season(
    league: Annotated[str | None, typer.Option(
        "--league", help="a league folder (with league.toml) or a bundled league's name; "
        "default: the season of this --seed stored in --db (which plays on with the league "
        "it stored; --league, if given, must be that same league), else demo")] = None,
    seed: Annotated[str, typer.Option("--seed", help="season seed: schedule and every game's dice")] = "1",
    games: Annotated[int | None, typer.Option(
        "--games", help="play the schedule's first N games (0: open the season, play none; "
        "run again with more, or without "
        "--games, to play on)")] = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", help="worker processes (default 2)")] = None,
    cluster: ClusterOption = None, tls_ca_file: TlsCaOption = None,
    tls_cert: TlsCertOption = None, tls_key: TlsKeyOption = None,
    insecure_cluster: InsecureClusterOption = False,
    coach: Annotated[Path | None, typer.Option(
        "--coach", help="coach file for every team (docs/coach.md)")] = None,
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="the run's summary as JSON")] = False,
    audit: Annotated[bool, typer.Option(
        "--audit/--no-audit", help="audit each game in the worker that played it before it "
        "is stored (the checks of rinklog audit); --no-audit plays about a third faster")
    ] = True,
    verify: Annotated[int | None, typer.Option("--verify", help=_VERIFY)] = None,
    verify_seed: Annotated[int | None, typer.Option("--verify-seed", help=_SEED)] = None,
) -> None:
    """Simulate a league season, every game its own stream; stop and rerun to resume.

    The same seed gives the same season with any number of workers. Every game is
    audited before it is stored and stored with every read model, so standings,
    leaders, toi and the pages read it at once.

    A season of that seed already in --db plays on with the league it stored (its
    league.toml, cards and charts): --league may be left out, and a --league that differs
    from it is refused (docs/postseason.md, "A season keeps its league").

    Example: rinklog season --league demo --seed 2026 --workers 2 --db season.db
    """
    from replay.games.game_streams import open_store
    from replay.leagues.runner import run_season
    from replay.leagues.season_league import season_to_play
    workers, cluster = workers_or_cluster(workers, cluster, tls=(tls_ca_file, tls_cert, tls_key),
                                          insecure=insecure_cluster)
    if games is not None and games < 0:
        raise CliError(f"--games must be 0 or more, got {games}")
    if verify is not None and verify < 0:
        raise CliError(f"--verify must be 0 or more, got {verify}")
    if Path(db).is_file():  # a season of this seed already begun plays on with its league
        with read_store(db) as stored:
            plan = season_to_play(stored, league, seed, coach)
    else:
        plan = season_to_play(None, league, seed, coach)
    total = len(plan.schedule) if games is None else min(games, len(plan.schedule))
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    columns = (TextColumn("season"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn())
    with open_store(db) as store, progress_bar(*columns, transient=as_json) as bar:
        tick = _ticker(bar, bar.add_task("games", total=total, rate="-"))
        try:
            run = run_season(store, plan.setup, league=plan.name, schedule=plan.schedule,
                             seed=seed, workers=workers, progress=tick,
                             divisions=plan.divisions, games=games, audit=audit,
                             cluster=cluster,
                             verify=(8 if cluster else 0) if verify is None else verify,
                             verify_seed=verify_seed, league_file=plan.league_file)
        except KeyboardInterrupt:
            stored = sum(1 for s in store.streams(kind="game")
                         if s.meta.get("season") == f"{plan.name}-{seed}")
            typer.echo(f"rinklog: interrupted: {stored} of {counted(total, 'game')} stored; "
                       "run the same command again to play the rest", err=True)
            raise typer.Exit(130) from None
    _season_summary(run, as_json)


def _season_summary(run: Any, as_json: bool) -> None:
    summary = {"season": run.season_id, "games": run.games, "played": run.played,
               "already_stored": run.skipped, "events": run.events,
               "audited": run.audited, "read_models": list(run.read_models),
               "seconds": round(run.seconds, 2),
               "games_per_second": round(run.played / run.seconds, 1) if run.seconds else 0.0,
               **({"verified": list(run.verified), "verify_seed": run.verify_seed}
                  if run.verify_seed is not None else {})}
    if as_json:
        typer.echo(json.dumps(summary))
        return
    audited = ("" if not run.played else " and audited" if run.audited
               else " (not audited: --no-audit)")
    verified = (f"; {len(run.verified)} re-audited here, chosen by --verify-seed "
                f"{run.verify_seed}" if run.verify_seed is not None else "")
    typer.echo(f"season {run.season_id}: {counted(run.played, 'game')} played{audited}, "
               f"{run.skipped} already stored, {counted(run.events, 'event')} in {run.seconds:.1f}s; "
               f"read models and standings current{verified}")


STANDINGS_KEY = (
    "GP games played; W wins; L losses in regulation; OTL losses in overtime or a shootout "
    "(1 point); T ties (FaceOff 2008, 1 point); PTS points (2 a win); RdW road wins; GF, GA "
    "goals for and against; DIFF GF - GA; L10 W-L-OTL of the last ten games; STRK the "
    "streak: W wins, L regulation losses, OT overtime or shootout losses (T ties) in a row, "
    "to the latest game. Rank: points, then wins, road wins, head to head, goal difference "
    "(league rule 29).")


@app.command()
def standings(
    season_id: SeasonOption = None,
    by: Annotated[str, typer.Option(
        "--by", help="league, conference, division, or all (the league, then each "
        "conference, then each division)")] = "league",
    include_branches: IncludeBranches = False,
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="a JSON list of team records")] = False,
    as_csv: CsvOption = False,
) -> None:
    """League standings: points (2 a win, 1 an overtime or shootout loss), then wins, road
    wins, head to head and goal difference (Hockey Bones league rule 29); each team's last
    ten games (L10, W-L-OTL) and streak (STRK: W3, L1, OT2).

    Example: rinklog standings --by conference --db season.db
    """
    from replay.leagues.ledger import odds_runs
    from replay.leagues.stored_seasons import GROUPINGS, load_season, standings_tables
    one_format(as_json, as_csv)
    if by not in GROUPINGS:
        raise CliError(f"--by takes league, conference, division or all, not {by!r}")
    with read_store(db) as store:
        found = load_season(store, season_id, include_branches)
        check_shown(store, [found.created.season_id], stored=True)  # its rm_standings
        odds_runs_first(odds_runs(store, found.created.season_id), as_json or as_csv)
        tables = standings_tables(store, found, by)
    if as_csv:
        dump_csv({"group": t.group, "kind": t.kind, "rank": i, **r.to_json()} for t in tables
                 for i, r in enumerate(t.records, start=1))
    elif as_json:
        typer.echo(json.dumps([r.to_json() for r in tables[0].records] if by == "league" else
                              [{"group": t.group, "kind": t.kind,
                                "teams": [r.to_json() for r in t.records]} for t in tables]))
    else:
        _print_standings(tables)


def _print_standings(tables: list[Any]) -> None:
    ties = any(r.t for t in tables for r in t.records)  # FaceOff: ties stand (5.00)
    for table in tables:
        typer.echo(table.title)
        typer.echo(f"{'#':>2}  {'Team':<34} {'GP':>3} {'W':>3} {'L':>3} {'OTL':>3} "
                   + (f"{'T':>3} " if ties else "") + f"{'PTS':>4} "
                   f"{'RdW':>3} {'GF':>4} {'GA':>4} {'DIFF':>5}  {'L10':<8} STRK")
        for i, r in enumerate(table.records, start=1):
            typer.echo(f"{i:>2}  {r.team + ' ' + r.name:<34} {r.gp:>3} {r.w:>3} {r.l:>3} "
                       f"{r.otl:>3} " + (f"{r.t:>3} " if ties else "") + f"{r.points:>4} "
                       f"{r.road_wins:>3} {r.gf:>4} {r.ga:>4} {r.diff:>+5}  {r.last10:<8} "
                       f"{r.streak:<5}".rstrip())
    for line in textwrap.wrap(STANDINGS_KEY, 92):
        typer.echo(line)


@app.command("seasons")
def seasons_cmd(
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="a JSON list of seasons")] = False,
    as_csv: CsvOption = False,
) -> None:
    """List the seasons of the database: id, game system, league, games played and left
    (a Matrix Hockey season draws its games week by week: none counted as left), and its
    postseason: not started, playoffs round N of M, champion X; lottery drawn.

    Example: rinklog seasons --db season.db
    """
    from replay.cli.common import table as text_table
    from replay.leagues.stored_seasons import season_summaries
    one_format(as_json, as_csv)
    with read_store(db) as store:  # each season stream read is held to its chain
        rows = [s.to_json() for s in season_summaries(store)]
        check_shown(store, [r["season"] for r in rows])
    if as_json:
        typer.echo(json.dumps(rows))
    elif as_csv:
        dump_csv(rows)
    elif not rows:
        typer.echo(f"{db}: no seasons (rinklog season plays one)")
    else:
        for line in text_table(["season", "system", "league", "played", "left", "postseason"],
                               [[r["season"], r["system"], r["league"], r["games_played"],
                                 "-" if r["games_left"] is None else r["games_left"],
                                 r["postseason"]] for r in rows], right={3, 4}):
            typer.echo(line)


MOST_TOP = 10_000  # more than any league's players


@app.command()
def leaders(
    season_id: SeasonOption = None,
    top: Annotated[int, typer.Option("--top", help="how many per board")] = 10,
    include_branches: IncludeBranches = False,
    playoffs: Annotated[bool, typer.Option(
        "--playoffs", help="the postseason's leaders (rinklog playoffs) instead of the "
        "regular season's")] = False,
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="boards as JSON")] = False,
    as_csv: CsvOption = False,
) -> None:
    """Season leaders by G, A, P, +/-, PIM, SV% and GAA (goalies with 5 games or more, or
    the most while none has 5; GAA: goals against per regulation game, as the pages show it).

    Players equal on a board's figure share its rank (1, 2, 2, 4), listed fewer games
    played first, then by name.

    Playoff games never count here; --playoffs shows the postseason's leaders alone.

    Example: rinklog leaders --top 5 --db season.db
    """
    from replay.leagues.stored_seasons import leaders as season_leaders
    from replay.leagues.stored_seasons import load_season
    one_format(as_json, as_csv)
    if not 1 <= top <= MOST_TOP:  # SQLite's LIMIT takes no number past 2**63
        raise CliError(f"--top must be 1 to {MOST_TOP:,}, got {top}")
    with read_store(db) as store:
        found = load_season(store, season_id, include_branches, playoffs=playoffs)
        check_shown(store, found.game_ids)  # their chains (audit holds the stats rows)
        boards = season_leaders(store, found, top=top)
    if as_json:
        typer.echo(json.dumps(boards))
        return
    if as_csv:
        dump_csv({"board": title, **row} for title, rows in boards.items() for row in rows)
        return
    shown = {"SV%": lambda v: f"{v:.3f}".lstrip("0"), "GAA": lambda v: f"{v:.2f}"}
    for title, rows in boards.items():
        typer.echo(f"{title}")
        show = shown.get(title, str)  # the goalies' rates as the season's pages show them
        for row in rows:  # equal figures share a rank: 1, 2, 2, 4
            typer.echo(f"  {row['rank']:>2}. {row['name']:<24} {row['team']:<5} {row['gp']:>3} GP  "
                       f"{show(row['value'])}")


@app.command()
def calibrate(
    league: LeagueOption = "demo",
    games: Annotated[int, typer.Option("--games", help="games of the schedule to play")] = 400,
    seed: Annotated[str, typer.Option("--seed", help="schedule and dice seed")] = "1",
    as_json: Annotated[bool, typer.Option("--json", help="the table as JSON")] = False,
    ruleset: Annotated[str | None, typer.Option(
        "--ruleset", help="play under this ruleset (bones, faceoff2008) instead of the "
        "league's")] = None,
) -> None:
    """Simulate N games of a league and compare per team-game averages with the NHL's.

    Nothing is written to a database. Example: rinklog calibrate --league demo --games 400
    (--ruleset faceoff2008 plays them under FaceOff Hockey 2008)
    """
    from replay.leagues.calibrate import calibrate as run_calibration
    if games < 1:
        raise CliError(f"--games must be at least 1, got {games}")
    if ruleset is not None and ruleset not in RULESETS:
        raise CliError(f"--ruleset: unknown {ruleset!r} (known: {', '.join(RULESETS)})")
    table = run_calibration(league, games, seed, ruleset=ruleset)
    if as_json:
        typer.echo(json.dumps(table.to_json(), indent=2, ensure_ascii=False))
    else:
        typer.echo(table.render())


league_app = typer.Typer(
    help="Leagues: check a league against the draft league rules; a league on the web "
    "(serve, invite, admin: docs/web.md).\n\n"
    "Example: rinklog league check --league demo",
    rich_markup_mode=None,
    no_args_is_help=True,
)


@league_app.command("check")
def league_check(
    league: LeagueOption = "demo",
    as_json: Annotated[bool, typer.Option(
        "--json", help='{"league", "ok", "teams", "draft_rules", "violations"} as JSON')] = False,
) -> None:
    """Check a league's teams against the draft league rules of the Hockey Bones text
    (roster sizes, shift-rating totals, positions, goalie games), whether or not its
    league.toml turns them on. Prints ok or one violation a line; exit 1 on any.

    Example: rinklog league check --league demo
    """
    from replay.leagues.league import load_league
    loaded = load_league(league, draft_rules=False)
    rules = kit_for(loaded.league.ruleset).draft_rules(loaded.league.ruleset)
    if rules is None:
        title = RULESETS[loaded.league.ruleset].title
        typer.echo(f"league {loaded.name}: {title} has no draft league rules to check "
                   "(those of the Hockey Bones text do not apply)")
        return
    broken = rules.check(loaded.teams, loaded.league.games)
    state = "on" if loaded.league.draft_rules else "off"
    if as_json:
        typer.echo(json.dumps({
            "league": loaded.name, "ok": not broken, "teams": len(loaded.teams),
            "draft_rules": loaded.league.draft_rules, "rules": list(rules.checked),
            "violations": [{"team": v.team, "rule": v.rule, "message": v.message}
                           for v in broken]}, indent=2, ensure_ascii=False))
    elif not broken:
        checked = ", ".join(str(r) for r in rules.checked)
        typer.echo(f"league {loaded.name}: ok: {counted(len(loaded.teams), 'team')} pass the draft "
                   f"league rules ({checked}); draft_rules is {state} in its league.toml")
    else:
        for v in broken:
            typer.echo(str(v))
        typer.echo(f"league {loaded.name}: {counted(len(broken), 'draft-rule violation')} in "
                   f"{len({v.team for v in broken})} of {counted(len(loaded.teams), 'team')}; draft_rules "
                   f"is {state} in its league.toml")
    if broken:
        raise typer.Exit(1)
