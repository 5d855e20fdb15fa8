"""CLI commands over the projections: ``toi``, ``penalties``, ``stats``, ``projections``.

Module-level commands of :data:`app` (the root, replay/cli/app.py, takes them in) and the
``projections`` sub-app :data:`projections_app`. Errors are
:class:`RinklogError` subclasses, printed on one line by ``replay.cli.main``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import msgspec
import typer

from events.plurals import counted
from events.store import EventStore
from replay.cli.common import CliError, CsvOption, DbOption, check_shown, dump_csv, one_format
from replay.cli.common import dump as _dump
from replay.cli.common import read_store as _store
from replay.cli.common import table as _table

if TYPE_CHECKING:
    from projections.stats import GameStats

app = typer.Typer(rich_markup_mode=None)
"""The projection commands; the root app takes them in (``add_typer`` without a name)."""

EventsOption = Annotated[bool, typer.Option(
    "--events", help="also keep every game event as JSON in rm_events, for SQL tools and "
    "Datasette (json_extract(event, '$.scorer')); about doubles the file")]


def _chosen(events: bool) -> tuple[str, ...]:
    from projections import store as rm
    return (*rm.PROJECTIONS, rm.EVENTS_JSON) if events else rm.PROJECTIONS


GameArg = Annotated[str, typer.Argument(help="game id (see rinklog games --ids)")]


def _per(n: int | None) -> str:
    # 1, 2, 3, OT, then a playoff game's 2OT, 3OT... (DICE Hockey 13, ruling R-6.00c)
    return "-" if n is None else str(n) if n <= 3 else "OT" if n == 4 else f"{n - 3}OT"


@app.command()
def toi(game: GameArg, db: DbOption = "rinklog.db",
        as_json: Annotated[bool, typer.Option("--json", help="players and shifts as JSON")
                           ] = False, as_csv: CsvOption = False) -> None:
    """Time on ice and shift charges per player (6.40, 17.00), and every shift.

    --csv gives the players' rows. Example: rinklog toi HFX-QUE-2026 --json
    """
    from projections.systems import game_read_models
    from replay.games.game_streams import read_game
    one_format(as_json, as_csv)
    with _store(db) as store:
        events = read_game(store, game)
        check_shown(store, [game], stored=True)
        models = game_read_models(store, game)
        report = msgspec.structs.replace(models.toi(events), game_id=game)
    clock = models.show_time
    if as_json:
        _dump(report.to_json())
        return
    if as_csv:
        dump_csv({"game_id": game, **p} for p in report.to_json()["players"])
        return
    lines = [f"Time on ice  game {report.game_id}", ""]
    lines += _table(["Team", "Player", "Pos", "Seq", "Shifts", "Excess", "TOI", "EV", "PP",
                     "SH"],
                    [[p.team, p.name, p.position, p.sequences, p.shifts, p.excess,
                      clock(p.toi), clock(p.toi_ev), clock(p.toi_pp), clock(p.toi_sh)]
                     for p in report.players])
    lines += ["", "Shifts"]
    lines += _table(["Team", "Player", "#", "Per", "Start", "End", "Dur"],
                    [[s.team, s.player, s.shift, _per(s.period), clock(s.start), clock(s.end),
                      clock(s.duration)] for s in report.shifts])
    typer.echo("\n".join(lines))


@app.command()
def penalties(game: GameArg, db: DbOption = "rinklog.db",
              at: Annotated[int | None, typer.Option(
                  "--at", help="show the state right after event SEQ", metavar="SEQ")] = None,
              as_json: Annotated[bool, typer.Option("--json", help="the report as JSON")
                                 ] = False, as_csv: CsvOption = False) -> None:
    """Penalty timers (14.10): each penalty's start, scheduled and actual end, the box,
    and with --at SEQ the penalties running and the strength after event SEQ.

    --csv gives the penalties' rows. Example: rinklog penalties HFX-QUE-2026 --at 600 --json
    """
    from projections.systems import game_read_models
    from replay.games.game_streams import read_game
    one_format(as_json, as_csv)
    with _store(db) as store:
        events = read_game(store, game)
        check_shown(store, [game], stored=True)
        models = game_read_models(store, game)
    build, clock = models.penalties, models.show_time
    if at is not None and not 1 <= at <= len(events):
        raise CliError(f"--at {at} is out of range: game {game} has events 1..{len(events)}")
    report = msgspec.structs.replace(build(events, at=at), game_id=game)
    if as_json:
        _dump(report.to_json())
        return
    if as_csv:
        dump_csv({"game_id": game, **p} for p in report.to_json()["penalties"])
        return
    lines = [f"Penalties  game {report.game_id}" +
             (f"  after event {at} (period {_per(report.period)}, sequence {report.sequence})"
              if at is not None else ""), ""]
    lines += _table(["#", "Per", "Start", "Team", "Player", "Served by", "Type", "Min",
                     "Sched end", "End", "Why"],
                    [[p.id, _per(p.period), clock(p.start), p.team, p.player,
                      p.served_by or "-", p.kind, p.minutes,
                      f"{_per(p.scheduled_end_period)} {clock(p.scheduled_end)}",
                      f"{_per(p.end_period)} {clock(p.end)}" if p.end is not None else "-",
                      p.why or "running"] for p in report.penalties]) \
        if report.penalties else ["  none"]
    if at is not None:
        lines += ["", f"Strength: home {report.strength['home']}, "
                      f"away {report.strength['away']}", "Running"]
        lines += _table(["#", "Team", "Player", "Type", "Box left", "Short left"],
                        [[r.id, r.team, r.player, r.kind, clock(r.time_left),
                          clock(r.short_left)] for r in report.running]) \
            if report.running else ["  none"]
    typer.echo("\n".join(lines))


def _game_stats(store: EventStore, game: str) -> GameStats:
    from projections.systems import game_read_models
    from replay.games.game_streams import read_game
    events = read_game(store, game)
    stats = game_read_models(store, game).stats(events)
    stats.games[:] = [game]  # the stream's id: a branch's own, not its parent's
    return stats


IncludeBranches = Annotated[bool, typer.Option(
    "--include-branches", help="count branches (what-ifs made by rinklog branch) too")]


@app.command()
def stats(games: Annotated[list[str] | None, typer.Argument(help="game ids")] = None,
          all_games: Annotated[bool, typer.Option(
              "--all", help="every game in the database (not branches)")] = False,
          include_branches: IncludeBranches = False,
          playoffs: Annotated[bool, typer.Option(
              "--playoffs", help="the postseason's games (rinklog playoffs) instead of the "
              "regular season's")] = False,
          db: DbOption = "rinklog.db",
          as_json: Annotated[bool, typer.Option("--json", help="the stats as JSON")] = False,
          as_csv: CsvOption = False) -> None:
    """Skater, goalie and team stats for one game or summed over several.

    --all sums every game but branches (what-ifs), unless --include-branches, and but
    playoff games: a regular season and a postseason are never summed together;
    --playoffs sums the postseason's games alone.

    --csv gives one row per player: skaters, then goalies (``role``).

    Example: rinklog stats --all --json
    """
    from projections.stats import combine
    from replay.leagues.stored_seasons import stats_games
    one_format(as_json, as_csv)
    if bool(games) == all_games:
        raise CliError("give game ids or --all (not both)")
    if include_branches and not all_games:
        raise CliError("--include-branches goes with --all")
    with _store(db) as store:
        ids = stats_games(store, list(games or []), all_games=all_games,
                          include_branches=include_branches, playoffs=playoffs)
        if not all_games:  # a game or two: their stored read models too
            check_shown(store, ids, stored=True)
        total = combine(_game_stats(store, g) for g in ids)
    out = total.to_json()
    if as_json:
        _dump(out)
        return
    if as_csv:
        dump_csv([*({"role": "skater", **r} for r in out["skaters"]),
                  *({"role": "goalie", **r} for r in out["goalies"])])
        return
    if playoffs:  # no OTL in the playoffs (issue 34): a loss in overtime is in L
        out = {**out, **{k: [{**r, "l": r["l"] + r["otl"]} for r in out[k]]
                         for k in ("teams", "goalies")}}
    otl = [] if playoffs else ["OTL"]
    lines = [f"Stats over {len(out['games'])} " + ("playoff " if playoffs else "") + "game(s)",
             "", "Teams"]
    ties = ["T"] if any(t["t"] for t in out["teams"]) else []  # FaceOff 2008: ties stand
    lines += _table(["Team", "GP", "W", "L", *otl, *ties, "GF", "GA", "PP%", "PK%"],
                    [[t["team"], t["gp"], t["w"], t["l"], *[t["otl"] for _ in otl],
                      *[t["t"] for _ in ties],
                      t["gf"], t["ga"], t["pp_pct"] if t["pp_pct"] is not None else "-",
                      t["pk_pct"] if t["pk_pct"] is not None else "-"] for t in out["teams"]])
    lines += ["", "Goalies"]
    lines += _table(["Team", "Goalie", "GP", "W", "L", *otl, "SA", "SV", "GA", "SV%", "GAA",
                     "SO", "A", "PTS", "PIM"],
                    [[g["team"], g["name"], g["gp"], g["w"], g["l"], *[g["otl"] for _ in otl],
                      g["sa"], g["sv"],
                      g["ga"], g["sv_pct"] if g["sv_pct"] is not None else "-",
                      g["gaa"] if g["gaa"] is not None else "-", g["so"], g["a"], g["p"],
                      g["pim"]]
                     for g in out["goalies"]])
    lines += ["", "Skaters"]
    lines += _table(["Team", "Player", "GP", "G", "A", "P", "+/-", "PIM", "SOG", "BLK'd",
                     "FOW", "PPP", "SHP"],
                    [[s["team"], s["name"], s["gp"], s["g"], s["a"], s["p"], s["plus_minus"],
                      s["pim"], s["sog"], s["shots_blocked"], s["fow"], s["ppp"], s["shp"]]
                     for s in out["skaters"] if s["gp"] or s["p"] or s["pim"]])
    if playoffs:
        lines += ["", "W-L: a playoff game lost in overtime or a shootout is a loss (no OTL; "
                  "--json keeps it apart as otl)"]
    typer.echo("\n".join(lines))


projections_app = typer.Typer(
    help="Stored read models (rm_ tables in the database): rebuild or update them.\n\n"
    "Example: rinklog projections update --db rinklog.db",
    rich_markup_mode=None,
    no_args_is_help=True,
)


@projections_app.command("rebuild")
def projections_rebuild(db: DbOption = "rinklog.db", events: EventsOption = False) -> None:
    """Drop the rm_ tables and rebuild every read model from the streams alone.

    Example: rinklog projections rebuild --db rinklog.db
    """
    from projections import store as rm
    with _store(db) as store:
        count = rm.rebuild(store, projections=_chosen(events))
    typer.echo(f"rebuilt: {counted(count, 'event')} folded")


@projections_app.command("update")
def projections_update(db: DbOption = "rinklog.db", events: EventsOption = False) -> None:
    """Fold only the events past each projection's checkpoint into the rm_ tables.

    Example: rinklog projections update --db rinklog.db
    """
    from projections import store as rm
    with _store(db) as store:
        count = rm.update(store, projections=_chosen(events))
    typer.echo(f"updated: {counted(count, 'event')} folded")
