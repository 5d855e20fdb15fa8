"""Read a store (never writing to it), build the pages' view models and write the files:
:func:`write_game_report` (``rinklog report GAME -o FILE``) and :func:`write_season_report`
(``rinklog report --season SEASON -o DIR``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from events.errors import RinklogError
from events.store import EventStore
from replay.reports.games import game_page
from replay.reports.render import render
from replay.reports.season_site import Site, season_files


def refuse_overwrite(path: Path, force: bool) -> None:
    """A file, or a folder that is not empty, is kept unless ``force``."""
    if force or not path.exists():
        return
    if path.is_dir() and not any(path.iterdir()):
        return
    what = "folder" if path.is_dir() else "file"
    raise RinklogError(f"{path}: the {what} exists; give --force to overwrite it")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_game_report(store: EventStore, game_id: str, output: Path, *, force: bool = False,
                      shift_chart: bool = False) -> Path:
    """Write a game's page (or, with ``shift_chart``, only its shift chart) to ``output``."""
    output = Path(output)
    store.refuse_as_output(output)
    refuse_overwrite(output, force)
    if output.is_dir():
        raise RinklogError(f"{output}: is a folder; -o takes a file for a game's page")
    if store.exists(game_id) and store.info(game_id).kind != "game":
        raise RinklogError(f"{game_id} is a {store.info(game_id).kind}, not a game: "
                           f"write its site with --season {game_id} -o DIR")
    page = game_page(store, game_id)
    if shift_chart:
        _write(output, render("shift_chart.html.j2", chart=page.chart))
    else:
        _write(output, render("game.html.j2", page=page, nav=[]))
    return output


def write_season_report(store: EventStore, season_id: str, output: Path, *,
                        force: bool = False,
                        progress: Callable[[int, int], None] | None = None,
                        sites: Mapping[str, Site] | None = None) -> list[Path]:
    """Write a season's site into the folder ``output``: index.html, a page per team,
    player and game, and the style sheet they share (a Matrix Hockey season: its results
    and standings, from its own site in ``sites``, season_site.py). ``progress(done,
    total)`` hears of each game's and player's page. Returns the files."""
    output = Path(output)
    refuse_overwrite(output, force)
    if output.exists() and not output.is_dir():
        raise RinklogError(f"{output}: is a file; -o takes a folder for a season's site")
    store.refuse_as_output(output)
    files = season_files(store, season_id, progress, sites=sites)
    for name in files:
        store.refuse_as_output(output / name)
    for name, text in files.items():
        _write(output / name, text)
    return [output / name for name in files]
