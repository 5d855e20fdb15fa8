"""``rinklog matrix``: Matrix Hockey, a league played by mail, refereed by rinklog.

Matrix Hockey's own commands, on its sub-app ``app`` (the root app, app.py, names it).
Thin commands over
:mod:`replay.leagues.matrix.season`: each opens the store, makes one library call and
prints. Read commands (results, standings, teams, cups) never write.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from events.plurals import counted
from replay.cli.common import CsvOption, DbOption, dump, dump_csv, one_format, out, read_store, table

app = typer.Typer(
    help="Matrix Hockey: picks by mail, rinklog the referee (one stream a season).\n\n"
    "Example: rinklog matrix open --league demo --seed 2026 --db league.db",
    rich_markup_mode=None,
    no_args_is_help=True,
)
"""``rinklog matrix``."""

SeasonArg = Annotated[str, typer.Argument(help="season id (printed by matrix open)")]
WeekOption = Annotated[int, typer.Option("--week", help="the week (1-11, a row of the matrix)")]
JsonOption = Annotated[bool, typer.Option("--json", help="JSON instead of text")]


@app.command("open")
def open_cmd(
    league: Annotated[str, typer.Option(
        "--league", help="a league.toml, its folder, or a bundled league (demo, example)")],
    seed: Annotated[str, typer.Option("--seed", help="the season's dice seed")] = "1",
    db: DbOption = "rinklog.db",
) -> None:
    """Open a league's first season: draw its schedule and cups; print the season id.

    Example: rinklog matrix open --league demo --seed 2026 --db league.db
    """
    import replay.leagues.matrix.season as library
    from replay.games.game_streams import open_store
    with open_store(db) as store:
        out(library.open_league(store, league, seed))


@app.command("picks")
def picks_cmd(
    season: SeasonArg,
    file: Annotated[Path, typer.Argument(help="the week's picks (TOML, a table per team)")],
    week: WeekOption,
    db: DbOption = "rinklog.db",
) -> None:
    """Record a week's picks (sending again replaces a team's earlier picks).

    Example: rinklog matrix picks matrix-demo-2026-s1 --week 1 week1.toml
    """
    import replay.leagues.matrix.season as library
    from replay.games.game_streams import open_store
    with open_store(db) as store:
        done = library.send_picks(store, season, week, file)
    out(f"{season}: week {week}: picks of {counted(done.teams, 'team')} recorded")
    for r in done.repeated:
        where = "already played" if not r.other_week else f"also sent for week {r.other_week}"
        typer.echo(f"rinklog: warning: {file}: week {week}, team {r.team}: {r.competition} "
                   f"column {r.column} is {where}; a pick already played is replaced at play "
                   "by a die among the columns left, no penalty, and counts on the column "
                   "(4)", err=True)
    if done.owing:
        typer.echo(f"rinklog: warning: {file}: championship picks only while the cups are on; "
                   f"week {week} still owes picks: " + "; ".join(
                       f"{c}: {', '.join(teams)}" for c, teams in done.owing.items()), err=True)


def _result_line(r: dict[str, Any]) -> str:
    where = r["competition"] + (f" {r['stage']}" if r["stage"] else "")
    return (f"  week {r['week']:>2} {where:<24} {r['home']} {r['score']['home']} - "
            f"{r['score']['away']} {r['away']} {r['decided']}")


@app.command("play")
def play_cmd(season: SeasonArg, week: WeekOption, db: DbOption = "rinklog.db") -> None:
    """Work out every game of a week, once (a week played is refused).

    Example: rinklog matrix play matrix-demo-2026-s1 --week 1
    """
    import replay.leagues.matrix.season as library
    from replay.games.game_streams import open_store
    with open_store(db) as store:
        played = library.play(store, season, week)
    out(f"{season}: week {week}: {counted(len(played.games), 'game')}")
    for game in played.games:
        out(_result_line(library.result_row(game)))
    for competition, teams in played.onr.items():
        out(f"  no picks (ONR, 3.1.3) in the {competition}: {', '.join(teams)}")
    for r in played.replaced:
        changes = [f"{what} {old} replaced by {new}" for what, old, new in (
            ("column", r.sent.column, r.played.column),
            ("extra time", r.sent.extra_time, r.played.extra_time)) if old != new]
        out(f"  pick already played ({r.played.rule}), {r.competition}, {r.team}: "
            f"{', '.join(changes)} (die, no penalty)")


@app.command("results")
def results_cmd(season: SeasonArg,
                week: Annotated[int | None, typer.Option("--week", help="one week only")] = None,
                db: DbOption = "rinklog.db", as_json: JsonOption = False,
                as_csv: CsvOption = False) -> None:
    """The results: competition, week, home, away, score and how it was decided
    (REG, AP, DRAW, SO, GROUP, DIE, FORFEIT).

    Example: rinklog matrix results matrix-demo-2026-s1 --week 1 --json
    """
    import replay.leagues.matrix.season as library
    one_format(as_json, as_csv)
    with read_store(db) as store:
        rows = library.results(store, season, week)
    if as_json:
        dump(rows)
        return
    if as_csv:
        dump_csv(rows)
        return
    for r in rows:
        out(_result_line(r))


@app.command("standings")
def standings_cmd(season: SeasonArg,
                  division: Annotated[str | None, typer.Option("--division",
                                                               help="one division")] = None,
                  db: DbOption = "rinklog.db", as_json: JsonOption = False,
                  as_csv: CsvOption = False) -> None:
    """The championship standings (3.1.5 points and tiebreakers).

    Example: rinklog matrix standings matrix-demo-2026-s1 --division elite
    """
    import replay.leagues.matrix.season as library
    one_format(as_json, as_csv)
    with read_store(db) as store:
        rows = library.standings(store, season, division)
    if as_json:
        dump(rows)
        return
    if as_csv:
        dump_csv(rows)
        return
    headers = ["div", "#", "team", "GP", "W", "RegW", "D", "L", "OTL", "GF", "GA", "PTS", "L10", "STRK"]
    keys = ["division", "rank", "name", "played", "wins", "regular_wins", "draws", "losses",
            "extra_time_losses", "goals_for", "goals_against", "points", "last10", "streak"]
    for line in table(headers, [[r[k] for k in keys] for r in rows], right=set(range(3, 14))):
        out(line)


@app.command("teams")
def teams_cmd(season: SeasonArg, db: DbOption = "rinklog.db", as_json: JsonOption = False
              ) -> None:
    """Each team's columns and extra-time values left, extra goals and great saves left,
    ONR count ("infos équipes").

    Example: rinklog matrix teams matrix-demo-2026-s1 --json
    """
    import replay.leagues.matrix.season as library
    with read_store(db) as store:
        rows = library.teams(store, season)
    if as_json:
        dump(rows)
        return
    for r in rows:
        champ = r["left"].get("championship", {})
        et = " ".join(f"{v}x{n}" for v, n in champ.get("extra_time", {}).items() if n)
        out(f"  {r['division']:<6} {r['name']:<22} columns {''.join(champ.get('columns', []))}"
            f"  extra time {et}  +{r['extra_goals']} #{r['great_saves']}  ONR {r['onr']}"
            + ("  (dummy)" if r["dummy"] else ""))


@app.command("cups")
def cups_cmd(season: SeasonArg, db: DbOption = "rinklog.db", as_json: JsonOption = False
             ) -> None:
    """The KDH rounds and the WG groups and knock-out games.

    Example: rinklog matrix cups matrix-demo-2026-s1 --json
    """
    import replay.leagues.matrix.season as library
    with read_store(db) as store:
        cups = library.cups(store, season)
    if as_json:
        dump(cups)
        return
    for r in cups["kdh"]:
        out(f"KDH round {r['round']} (week {r['week']}): {counted(len(r['games']), 'game')}"
            + (f", lucky losers {', '.join(r['lucky_losers'])}" if r["lucky_losers"] else ""))
        for g in r["results"]:
            out(_result_line(g))
    wg = cups["wg"]
    for i, group in enumerate(wg["ranking"] or wg["groups"]):
        out(f"WG group {'ABC'[i]}: {', '.join(group)}")
    for r in wg["knockout"]:
        for g in r["results"]:
            out(_result_line(g))
    if cups["closed"]:
        out(f"KDH winner {cups['closed']['kdh_winner']}; WG {', '.join(cups['closed']['wg_order'])}")


@app.command("wait")
def wait_cmd(
    season: SeasonArg,
    team_id: Annotated[str, typer.Option("--id", help="the team's id (a-z, 0-9, -)")],
    name: Annotated[str, typer.Option("--name", help="the team's name")],
    db: DbOption = "rinklog.db",
) -> None:
    """Name a team on the waiting list (3.1.3): it takes the slot of a D3 team kicked out,
    of a new team ONR in week 1 (matrix replace) or of a dummy at the close, with the 3
    points of 2.1.2.1.

    Example: rinklog matrix wait matrix-demo-2026-s1 --id late-comers --name "Late Comers"
    """
    import replay.leagues.matrix.season as library
    from replay.games.game_streams import open_store
    with open_store(db) as store:
        place = library.join_waiting_list(store, season, team_id, name)
    out(f"{season}: {team_id} is number {place} on the waiting list")


@app.command("replace")
def replace_cmd(
    season: SeasonArg,
    team: Annotated[str, typer.Argument(help="a new team ONR in week 1")],
    db: DbOption = "rinklog.db",
) -> None:
    """Replace a new team ONR in week 1 by the next team of the waiting list (3.1.3),
    after week 1 and before week 2; it keeps the slot's record.

    Example: rinklog matrix replace matrix-demo-2026-s1 sleigh-dogs
    """
    import replay.leagues.matrix.season as library
    from replay.games.game_streams import open_store
    with open_store(db) as store:
        new_name = library.replace_new_team(store, season, team)
    out(f"{season}: {team} is now played by {new_name}")


@app.command("close")
def close_cmd(season: SeasonArg, db: DbOption = "rinklog.db") -> None:
    """Close a season (final standings, promotion and relegation, next season's extra
    goals and great saves, WG entrants) and open the next; print its id.

    Example: rinklog matrix close matrix-demo-2026-s1
    """
    import replay.leagues.matrix.season as library
    from replay.games.game_streams import open_store
    with open_store(db) as store:
        out(library.close(store, season))


@app.command("demo")
def demo_cmd(season: SeasonArg, db: DbOption = "rinklog.db",
             close: Annotated[bool, typer.Option(help="close the season at the end")] = True,
             seed: Annotated[str, typer.Option("--seed", help="the managers' seed")] = "1",
             ) -> None:
    """Play a whole season with seeded picks from a simple manager policy (a demo: the
    managers are not the referee), then close it.

    Example: rinklog matrix demo matrix-demo-2026-s1 --db league.db
    """
    from replay.games.game_streams import open_store
    from replay.leagues.matrix.demo import run_demo_season
    with open_store(db) as store:
        out(run_demo_season(store, season, seed, close=close))
