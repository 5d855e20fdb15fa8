"""CLI commands of a season's postseason reads and its draft lottery (issue 22):
``lottery`` and ``bracket``.

``rinklog lottery SEASON`` only reads (it prints the drawn lottery, or says it is not
drawn yet); ``rinklog lottery SEASON --draw`` draws it once, the one call that writes
(replay/leagues/postseason.py). ``rinklog bracket SEASON`` reads the playoffs the season
stream records. Module-level commands of :data:`app`, which the root takes in.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from events.plurals import counted
from replay.cli.common import CliError, DbOption, dump, odds_runs_first, out, read_store

if TYPE_CHECKING:
    from projections.postseason import BracketView, LotteryView

app = typer.Typer(rich_markup_mode=None)
"""The postseason read commands and the lottery; the root app takes them in."""

SeasonArgument = Annotated[str, typer.Argument(help="season id (see rinklog seasons)")]


def _typed_rolls(source: str) -> list[int]:
    """The numbers of ``--rolls`` (a file, or - for standard input): whitespace or commas
    between them."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text()
    except OSError as err:
        raise CliError(f"--rolls {source}: {err.strerror or err}") from None
    words = [w for w in re.split(r"[\s,]+", text) if w]
    # ASCII digits only: str.isdigit() also holds for '⑦' or '²', which int() refuses
    bad = next((w for w in words if not (w.isascii() and w.isdigit())), None)
    if bad is not None:
        raise CliError(f"--rolls {source}: {bad!r} is not a whole number (one roll per "
                       "draw, 1 to the balls in the drum)")
    return [int(w) for w in words]


def _print_lottery(season_id: str, view: LotteryView) -> None:
    if not view.opened:
        out(f"season {season_id}: the draft lottery is not drawn yet "
                   f"(rinklog lottery {season_id} --draw)")
        return
    out(f"Draft lottery of season {season_id} (rule 31)")
    balls = sum(e.opportunities for e in view.entries)
    out(f"  {counted(len(view.entries), 'team')}, {counted(balls, 'ball')}"
               + (f"; {view.previous_first} drafted first last season"
                  if view.previous_first else ""))
    for d in view.draws:
        roll = f"ball {d.roll} of {d.sides}" if d.sides else "no roll"
        out(f"  pick {d.pick:>2}: {d.team:<6} (place {d.place}) {d.how}, {roll}")
    out("  first round: " + " ".join(f"{i}.{t}" for i, t in enumerate(view.order, 1)))


@app.command("lottery")
def lottery(
    season_id: SeasonArgument,
    draw: Annotated[bool, typer.Option(
        "--draw", help="draw the lottery (once, after the regular season) and record it in "
        "the season; without --draw the command only reads")] = False,
    rolls: Annotated[str | None, typer.Option(
        "--rolls", help="with --draw: dice typed at the table, a file (or - for standard "
        "input) of one number per draw that needs a roll; default: seeded from the "
        "season's seed")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help='{"order": [...], "draws": [...]} as JSON')] = False,
    league: Annotated[str | None, typer.Option(
        "--league", help="optional, with --draw: the league folder or bundled name whose "
        "[playoffs] format gives the playoff teams (default: the league the season stored; "
        "a season stored before seasons kept it: its bundled league, by name); refused if "
        "it differs from the stored one")] = None,
    db: DbOption = "rinklog.db",
) -> None:
    """The draft lottery of Hockey Bones draft league rule 31: the non-playoff teams draw
    for the first round's order (7th place 1 ball ... 13th 7, a team falls two spots at
    most, no team drafts first two years in a row), the playoff teams draft after them in
    reverse order. Without --draw it only prints a drawn lottery.

    Example: rinklog lottery dicedemo-2026 --draw --db season.db
    """
    from projections.postseason import lottery_json
    from replay.games.game_streams import open_store
    from replay.leagues.ledger import odds_runs
    from replay.leagues.postseason import read_lottery
    if rolls is not None and not draw:
        raise CliError("--rolls goes with --draw (dice for drawing the lottery)")
    if league is not None and not draw:
        raise CliError("--league goes with --draw (the format the lottery is drawn by)")
    if draw:
        from replay.leagues.playoffs import draw_season_lottery  # the one call that writes

        typed = _typed_rolls(rolls) if rolls is not None else None
        with open_store(db) as store:
            view = draw_season_lottery(store, season_id, typed, league).view
    else:
        with read_store(db) as store:
            view = read_lottery(store, season_id)
            odds_runs_first(odds_runs(store, season_id), as_json)
    if as_json:
        dump(lottery_json(view))
    else:
        _print_lottery(season_id, view)


def _print_bracket(view: BracketView) -> None:
    from engine.league.formats import LEAGUE_POOL
    from replay.reports.bracket import pool_title
    if not view.opened:
        out(f"season {view.season}: no playoffs played yet (rinklog playoffs "
                   f"{view.season})")
        return
    out(f"Playoffs of season {view.season}")
    for r in view.rounds:
        final = r.round == view.round_count
        out(f"{'Final' if final else f'Round {r.round}'}"
                   + (f" (bye: {', '.join(r.byes)})" if r.byes else ""))
        pool = LEAGUE_POOL
        for s in r.series:  # a conference's (division's) series under its name (issue 34)
            if s.pool != pool:
                out(f"  {pool_title(s.pool)}" if s.pool != LEAGUE_POOL else "  League")
                pool = s.pool
            state = f"{s.winner} wins" if s.winner else "in progress"
            out(f"{'    ' if pool != LEAGUE_POOL else '  '}{s.high} ({s.high_seed}) "
                f"{s.wins[s.high]}-{s.wins[s.low]} {s.low} ({s.low_seed}): {state}")
    out(f"Champion: {view.champion}" if view.champion else "Champion: not decided yet")


@app.command("bracket")
def bracket(
    season_id: SeasonArgument,
    as_json: Annotated[bool, typer.Option(
        "--json", help='{"season", "champion", "rounds": [...]} as JSON')] = False,
    db: DbOption = "rinklog.db",
) -> None:
    """The season's playoff bracket: each round's series (high seed first, with the
    wins), their winners and the champion, then the games ready to play (the ids rinklog
    play --season S --game ID takes). A season with no playoffs yet says so (exit 0;
    --json: no rounds).

    Example: rinklog bracket dicedemo-2026 --db season.db
    """
    from projections.postseason import bracket_json
    from replay.leagues.ledger import odds_runs
    from replay.leagues.playoffs import ready_games  # the wave, read only
    from replay.leagues.postseason import read_bracket

    with read_store(db) as store:
        view = read_bracket(store, season_id)
        ready = ready_games(store, season_id) if not as_json else []
        odds_runs_first(odds_runs(store, season_id), as_json)
    if as_json:
        dump(bracket_json(view))
    else:
        _print_bracket(view)
        if ready:  # what rinklog play --season S --game ID takes
            out("Ready to play: " + ", ".join(g.game_id + ("" if g.status == "ready" else
                                                          f" ({g.status})") for g in ready))
