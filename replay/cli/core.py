"""The first commands: ``teams``, ``sim``, and a stored game's ``games``, ``events`` and
``scoresheet``. Module-level commands of :data:`app`, which the root (replay/cli/app.py)
takes in with the other modules' commands.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
import typer

from events.errors import RollError
from events.plurals import counted
from projections.models.times import clock
from replay.cli.common import (
    CliError,
    CsvOption,
    DbOption,
    OptionalRuleOption,
    RulesetOption,
    check_shown,
    dump_csv,
    odds_runs_first,
    one_format,
    optional_rules,
)
from replay.cli.common import dump as _dump
from replay.cli.common import out as _out
from replay.cli.common import read_store as _read_store
from replay.cli.common import table as _table
from replay.games.registry import DEFAULT_RULESET
from replay.systems import kit_for

if TYPE_CHECKING:
    from projections.scoresheet import Scoresheet
    from replay.games.game_setup import GameSetup

app = typer.Typer(rich_markup_mode=None)
"""The first commands; the root app takes them in (``add_typer`` without a name)."""

_json_line = msgspec.json.Encoder()


# --- teams, sim, games -------------------------------------------------------------------

LeagueTeams = Annotated[str | None, typer.Option(
    "--league", help="take the teams from a league: a folder with league.toml and teams/, "
    "or a bundled league's name (demo); default: the fixture teams")]


@app.command()
def teams(
    league: LeagueTeams = None,
    ruleset: RulesetOption = DEFAULT_RULESET,
    as_json: Annotated[bool, typer.Option("--json", help="a JSON list of {id, name}")] = False,
) -> None:
    """List the teams in the fixtures (or a league), one id per line.

    Example: rinklog teams --league demo --json
    """
    from replay.leagues.league import load_league
    found = kit_for(ruleset).list_teams(None if league is None else load_league(league).root)
    if as_json:
        _dump([{"id": t.id, "name": t.name} for t in found])
    else:
        for team in found:
            _out(team.id)


class PromptDice:
    """Dice a person rolls at the table and types in, read as the game system reads them;
    a typo is asked again, not kept."""

    def __init__(self, setup: GameSetup) -> None:
        self.parse = setup.system.parse_roll
        self.how = setup.kit.roll_prompt

    def roll(self, n: int) -> Any:
        while True:
            try:
                text = typer.prompt(f"roll {n} ({self.how})", err=True)
            except typer.Abort:  # end of input or Ctrl-C: the game is stored only whole
                typer.echo("", err=True)  # end the prompt's line
                raise RollError(f"-: input ended at roll {n}, before the game ended; "
                                "no game stored (use rinklog play to stop and resume)") from None
            try:
                return self.parse(text)
            except RollError as err:
                typer.echo(f"  {err}", err=True)


@app.command()
def sim(
    home: Annotated[str, typer.Option("--home", help="home team id, e.g. HFX")],
    away: Annotated[str, typer.Option("--away", help="away team id, e.g. QUE")],
    seed: Annotated[str | None, typer.Option("--seed", help="seed for seeded dice")] = None,
    rolls: Annotated[Path | None, typer.Option(
        "--rolls", help="file of typed rolls, one 'blue white white red' per line; "
        "'-' to type each roll at a prompt")] = None,
    game_id: Annotated[str | None, typer.Option(
        "--game-id", help="stream id (default derived from the inputs)")] = None,
    coach: Annotated[Path | None, typer.Option(
        "--coach", help="coach file (docs/coach.md): pulling the goalie, tactics, shooters")] = None,
    late_penalty_house_rule: Annotated[bool, typer.Option(
        "--late-penalty-house-rule", help="the quick reference's house rule: in the last five "
        "minutes of the third and in overtime an X is a penalty only on red 1")] = False,
    league: LeagueTeams = None,
    ruleset: RulesetOption = DEFAULT_RULESET,
    optional_rule: OptionalRuleOption = None,
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
) -> None:
    """Simulate a whole game and store it as one stream.

    Example: rinklog sim --home HFX --away QUE --seed 2026 --db rinklog.db
    (league teams: rinklog sim --league demo --home ALD --away BRK --seed 1)
    (FaceOff 2008: add --ruleset faceoff2008 [--optional-rule fatigue ...])
    """
    from replay.games.game_setup import Dice, game_setup
    from replay.games.game_streams import open_store, simulate
    from replay.leagues.league import load_league
    names = optional_rules(optional_rule, ruleset)
    if (seed is None) == (rolls is None):
        raise CliError("give exactly one of --seed S or --rolls FILE")
    prompt = rolls is not None and str(rolls) == "-"
    dice = Dice(seed=seed)
    if rolls is not None and not prompt:
        try:
            dice = Dice(rolls=tuple(rolls.read_text(encoding="utf-8").splitlines()),
                        origin=str(rolls))
        except (OSError, UnicodeDecodeError) as err:
            raise CliError(f"{rolls}: cannot read rolls: {getattr(err, 'strerror', '') or err}"
                           ) from None
    with open_store(db) as store:
        setup = game_setup(ruleset, home, away, league=league and load_league(league),
                           optional_rules=names,
                           late_penalty_house_rule=late_penalty_house_rule, coach_file=coach,
                           dice=dice)
        if prompt:  # a person types each roll, read as the game's system reads them
            setup = replace(setup, dice=Dice(source=PromptDice(setup)))
        result = simulate(store, setup, game_id=game_id)
    if as_json:
        _dump(result.to_json())
    else:
        _out(f"{result.home} {result.home_goals} - {result.away_goals} {result.away} "
             f"({result.decided})  game {result.game_id}  {counted(result.events, 'event')}  "
             f"head {result.head_hash[:8]}…")


@app.command()
def games(
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="a JSON list of games")] = False,
    ids: Annotated[bool, typer.Option("--ids", help="only the game ids, one per line")] = False,
    as_csv: CsvOption = False,
) -> None:
    """List the games in the database, with branches' parents and games in progress.

    Example: rinklog games --db rinklog.db --ids
    """
    from replay.games.game_streams import stream_list
    from replay.leagues.ledger import odds_runs
    one_format(as_json, as_csv)
    with _read_store(db) as store:
        rows = stream_list(store)
        check_shown(store, [r["game_id"] for r in rows])  # each listed stream's chain
        odds_runs_first(odds_runs(store), as_json or as_csv or ids)
    if as_json:
        _dump(rows)
        return
    if as_csv:
        dump_csv(rows)
        return
    for r in rows:
        if ids:
            _out(r["game_id"])
        elif "kind" in r:
            _out(f"{r['game_id']:<24} {r['league']} season {r['season']}: week "
                 f"{r['weeks_played']} played, {counted(r['games'], 'game')} "
                 f"({'in progress' if r['in_progress'] else 'closed'})  {counted(r['events'], 'event')}  "
                 f"head {r['head_hash'][:8]}…")
        else:
            status = "in progress" if r["in_progress"] else r["decided"]
            lineage = (f"  branch of {r['parent']} at {r['parent_seq']}"
                       if r["parent"] is not None else "")
            _out(f"{r['game_id']:<24} {r['home']} {r['score']['home']} - {r['score']['away']} "
                 f"{r['away']} ({status})  {counted(r['events'], 'event')}  "
                 f"head {r['head_hash'][:8]}…{lineage}")


# --- events, scoresheet -----------------------------------------------------------------

def _compact(value: Any) -> str:
    if isinstance(value, str):
        return value if value and " " not in value else json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool | int | float) or value is None:
        return json.dumps(value)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@app.command()
def events(
    game: Annotated[str, typer.Argument(help="game id (see rinklog games --ids)")],
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
) -> None:
    """Print a game's events, one per line: seq type key=value...

    Example: rinklog events HFX-QUE-2026 --json
    """
    from replay.games.game_streams import read_stream
    with _read_store(db) as store:
        read_stream(store, game)  # UnknownGame with the ids there are
        check_shown(store, [game], stored=True)
        for row in store.iter_events(game):
            payload = msgspec.to_builtins(row.event)
            if as_json:
                sys.stdout.write(_json_line.encode(
                    {"seq": row.seq, "type": row.type, "hash": row.hash, **payload}
                ).decode() + "\n")
            else:
                fields = " ".join(f"{k}={_compact(v)}" for k, v in payload.items()
                                  if k != "type")
                _out(f"{row.seq} {row.type} {fields}".rstrip())


def _period_name(n: int) -> str:
    """1, 2, 3, OT, then a playoff game's 2OT, 3OT... (DICE Hockey 13, ruling R-6.00c)."""
    return str(n) if n <= 3 else "OT" if n == 4 else f"{n - 3}OT"


def render_scoresheet(sheet: Scoresheet, show_time: Callable[[int], str] = clock) -> str:
    """The scoresheet as aligned plain text (names, not ids); ``show_time`` shows a goalie's
    time on ice in the game system's unit."""
    h, a = sheet.home, sheet.away
    out = [f"{h.name} ({h.team}) {h.goals} - {a.goals} {a.name} ({a.team})  "
           f"[{sheet.decided or 'in progress'}]", f"game {sheet.game_id}", ""]
    periods = [_period_name(i + 1) for i in range(len(h.shots))]
    so = ["SO"] if sheet.decided == "SO" else []
    out.append("Score by period")
    out += _table(["Team", *periods, *so, "T"],
                  [[t.team, *t.goals_by_period,
                    *([t.goals - sum(t.goals_by_period)] if so else []), t.goals]
                   for t in (h, a)], right=set(range(1, len(periods) + 3)))
    out += ["", "Shots on goal"]
    out += _table(["Team", *periods, "T"], [[t.team, *t.shots, sum(t.shots)] for t in (h, a)],
                  right=set(range(1, len(periods) + 2)))
    out += ["", "Goals"]
    out += _table(["Per", "Time", "Team", "Scorer", "Assists", "Str"],
                  [[_period_name(g.period), g.time, g.team, g.scorer_name,
                    ", ".join(g.assist_names) or "unassisted", g.strength]
                   for g in sheet.goals]) if sheet.goals else ["  none"]
    out += ["", "Penalties"]
    out += _table(["Per", "Time", "Team", "Player", "Type", "Min"],
                  [[_period_name(p.period), p.time, p.team, p.player_name, p.type, p.minutes]
                   for p in sheet.penalties], right={5}) if sheet.penalties else ["  none"]
    out += ["", "Power play / PIM"]
    out += _table(["Team", "PP", "PIM"],
                  [[t.team, f"{t.pp.goals}/{t.pp.opportunities}", t.pim] for t in (h, a)],
                  right={1, 2})
    out += ["", "Goalies"]
    out += _table(["Team", "Goalie", "TOI", "SA", "SV", "GA"],
                  [[g.team, g.name, show_time(g.toi), g.shots_against, g.saves, g.goals_against]
                   for g in sheet.goalies], right={2, 3, 4, 5})
    if sheet.shootout:
        out += ["", "Shootout"]
        out += _table(["#", "Team", "Shooter", "Result"],
                      [[i, s.team, s.shooter_name, "goal" if s.scored else "miss"]
                       for i, s in enumerate(sheet.shootout, start=1)], right={0})
    return "\n".join(out)


@app.command()
def scoresheet(
    game: Annotated[str, typer.Argument(help="game id (see rinklog games --ids)")],
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="the scoresheet as JSON")] = False,
) -> None:
    """Print a game's scoresheet: score, goals, penalties, shots, goalies.

    Example: rinklog scoresheet HFX-QUE-2026 --db rinklog.db
    """
    from projections.systems import game_read_models
    from replay.games.game_streams import read_game
    with _read_store(db) as store:
        # the stream's id in the header: a branch's own, not its parent's in GameCreated
        events = read_game(store, game)
        check_shown(store, [game], stored=True)  # its stored scoresheet too (SQL shows it)
        models = game_read_models(store, game)
        sheet = msgspec.structs.replace(models.scoresheet(events), game_id=game)
    if as_json:
        _dump(sheet.to_json())
    else:
        _out(render_scoresheet(sheet, models.show_time))
