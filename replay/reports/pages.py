"""Read a store (never writing to it), build the pages' view models and write the files:
:func:`write_game_report` (``rinklog report GAME -o FILE``) and :func:`write_season_report`
(``rinklog report --season SEASON -o DIR``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from events.errors import RinklogError
from events.store import EventStore
from replay.data.integrity import STORED, Broken, breaks, warning
from replay.reports.games import game_page
from replay.reports.render import render
from replay.reports.season_site import Site, game_href, season_files


def refuse_overwrite(path: Path, force: bool) -> None:
    """A file, or a folder that is not empty, is kept unless ``force``."""
    if force or not path.exists():
        return
    if path.is_dir() and not any(path.iterdir()):
        return
    what = "folder" if path.is_dir() else "file"
    raise RinklogError(f"{path}: the {what} exists; give --force to overwrite it")


def refuse_missing_parent(path: Path) -> None:
    """The page or site is written into a folder that exists: a mistyped -o is refused,
    never made into a tree of folders (issue 34)."""
    parent = path.parent
    if not parent.is_dir():
        raise RinklogError(f"{path}: the folder {parent} does not exist; -o writes into a "
                           "folder that exists (create it first)")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_game_report(store: EventStore, game_id: str, output: Path, *, force: bool = False,
                      shift_chart: bool = False) -> Path:
    """Write a game's page (or, with ``shift_chart``, only its shift chart) to ``output``."""
    output = Path(output)
    store.refuse_as_output(output)
    refuse_missing_parent(output)
    refuse_overwrite(output, force)
    if output.is_dir():
        raise RinklogError(f"{output}: is a folder; -o takes a file for a game's page")
    if store.exists(game_id) and store.info(game_id).kind != "game":
        raise RinklogError(f"{game_id} is a {store.info(game_id).kind}, not a game: "
                           f"write its site with --season {game_id} -o DIR")
    page = game_page(store, game_id)
    if shift_chart:
        text = render("shift_chart.html.j2", chart=page.chart)
    else:
        text = render("game.html.j2", page=page, nav=[])
    _write(output, _with_warning(text, breaks(store, [game_id], STORED)))
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
    refuse_missing_parent(output)
    refuse_overwrite(output, force)
    if output.exists() and not output.is_dir():
        raise RinklogError(f"{output}: is a file; -o takes a folder for a season's site")
    store.refuse_as_output(output)
    files = season_pages(store, season_id, progress, sites=sites)
    for name in files:
        store.refuse_as_output(output / name)
    for name, text in files.items():
        _write(output / name, text)
    return [output / name for name in files]


def season_pages(store: EventStore, season_id: str,
                 progress: Callable[[int, int], None] | None = None,
                 sites: Mapping[str, Site] | None = None) -> dict[str, str]:
    """Every page of a season's site by its path, each showing a stream that does not
    check out with the warning at its top: what :func:`write_season_report` writes (and
    the web league serves, replay/web/public.py)."""
    return _warned(season_files(store, season_id, progress, sites=sites),
                   breaks(store, _season_streams(store, season_id)))


def _season_streams(store: EventStore, season_id: str) -> list[str]:
    """The streams a season's site shows: the season's own and its games' (not branches)."""
    return [season_id, *(info.stream for info in store.streams(kind="game")
                         if info.meta.get("season") == season_id
                         and info.meta.get("parent") is None)]


def _warned(files: dict[str, str], found: list[Broken]) -> dict[str, str]:
    """Every page showing a stream that does not check out carries the warning at its top
    (issue 33): a game's page its own game's, every other page (standings, leaders, teams,
    players: sums over the games) all of them."""
    if not found:
        return files
    games = {game_href(b.stream): [b] for b in found}
    return {path: _with_warning(text, games.get(path, []) if path.startswith("games/")
                                else found) if path.endswith(".html") else text
            for path, text in files.items()}


def _with_warning(page: str, found: list[Broken]) -> str:
    """The page with the banner right after the ``<body>`` base.html.j2 opens once."""
    if not found:
        return page
    banner = render("_banner.html.j2", notes=[f"Warning: {warning(found)}"])
    return page.replace("<body>\n", f"<body>\n{banner}", 1)
