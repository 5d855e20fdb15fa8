"""``rinklog league serve | invite | admin``: a league on the web (docs/web.md), commands
of the ``league`` group. Each needs the ``web`` extra (``pip install 'rinklog[web]'``):
without it, one line says so. Thin: one library call each (replay/web/)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from replay.cli.common import CliError, DbOption, out, system_parts

app = typer.Typer(rich_markup_mode=None)

SeasonOption = Annotated[str | None, typer.Option(
    "--season", help="the league season (default: the database's one league season)")]


def _web(ctx: typer.Context) -> tuple[Any, Any, dict[str, Any]]:
    """The web extra's modules, and each season system's league on the web."""
    try:
        from replay.web import accounts
        from replay.web import app as web_app
        systems = dict(system_parts(ctx).web())
    except ImportError as err:
        raise CliError(f"rinklog league needs the web extra: pip install 'rinklog[web]' "
                       f"({err.name} is missing)") from None
    return accounts, web_app, systems


def _people(store: Any, season: str | None, systems: dict[str, Any]) -> tuple[str, Any]:
    from replay.leagues.people import league_season, people_of
    season_id = league_season(store, season, systems)
    return season_id, people_of(store, season_id, {n: s.people for n, s in systems.items()})


def _existing(db: str) -> None:
    if not Path(db).is_file():
        raise CliError(f"{db}: no such database (rinklog season --games 0 opens a season)")


@app.command("serve")
def serve(
    ctx: typer.Context,
    db: DbOption = "rinklog.db",
    season: SeasonOption = None,
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port to listen on")] = 8000,
    behind_tls: Annotated[bool, typer.Option(
        "--behind-tls", help="a TLS reverse proxy is in front (cookies Secure)")] = False,
    sign_key: Annotated[Path | None, typer.Option(
        "--sign-key", help="the league's signing key (rinklog keygen): the commissioner "
        "publishes signed season receipts")] = None,
) -> None:
    """Serve the league on the web: its season's pages for everyone, coaches' submissions,
    confirmations and disputes, the commissioner's settlements (docs/web.md).

    Example: rinklog league serve --db league.db --port 8000
    """
    if not 1 <= port <= 65535:
        raise CliError(f"--port must be 1 to 65535, got {port}")
    _existing(db)
    _, web_app, systems = _web(ctx)
    import uvicorn

    from replay.leagues.receipts import load_signing_key
    key = load_signing_key(sign_key) if sign_key is not None else None
    application = web_app.league_app(Path(db), season, secure=behind_tls, sign_key=key,
                                     systems=systems)
    out(f"serving {db} on http://{host}:{port}/ (Ctrl-C stops)")
    uvicorn.run(application, host=host, port=port, log_level="warning",
                proxy_headers=behind_tls)


@app.command("invite")
def invite(
    ctx: typer.Context,
    team: Annotated[str, typer.Argument(help="the team whose coach is invited")],
    db: DbOption = "rinklog.db",
    season: SeasonOption = None,
    url: Annotated[str, typer.Option(
        "--url", help="the league's address, as coaches reach it")] = "http://127.0.0.1:8000",
) -> None:
    """Print a one-time link for the coach of TEAM to join (and set a password).

    Example: rinklog league invite ALD --db league.db --url https://league.example.org
    """
    _existing(db)
    accounts, _, systems = _web(ctx)
    from replay.games.game_streams import open_store
    with open_store(db) as store:
        season_id, people = _people(store, season, systems)
        token = accounts.invite(store, season_id, people, "coach", team)
    out(f"{url.rstrip('/')}/join/{token}")


@app.command("admin")
def admin(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="the commissioner's account name")],
    db: DbOption = "rinklog.db",
    season: SeasonOption = None,
    password_file: Annotated[Path | None, typer.Option(
        "--password-file", help="read the password from this file's first line "
        "(default: asked twice, not shown)")] = None,
) -> None:
    """Make the commissioner's account NAME (its password asked for, twice).

    Example: rinklog league admin ana --db league.db
    """
    _existing(db)
    accounts, _, systems = _web(ctx)
    if password_file is not None:
        try:
            password = password_file.read_text().splitlines()[0] if password_file.stat().st_size \
                else ""
        except OSError as err:
            raise CliError(f"{password_file}: cannot read: {err.strerror or err}") from None
    else:
        password = typer.prompt("password", hide_input=True, confirmation_prompt=True, err=True)
    from replay.games.game_streams import open_store
    with open_store(db) as store:
        season_id, people = _people(store, season, systems)
        token = accounts.invite(store, season_id, people, "commissioner")
        accounts.accept(store, token, name, password, people)
    out(f"{name} is the commissioner of {season_id}")
