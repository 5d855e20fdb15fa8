"""Pages people look at: a game's printable summary, its shift chart, a season's site.

Each page is a view model built by a pure function of read-model values (game_page.py,
shift_chart.py, plots.py, season_site.py; a Matrix season's is matrix/site.py) and
rendered by a Jinja2 template shipped in ``templates/`` (SVG inline, no network, no
JavaScript; CSS inline on a game's page alone, one shared ``style.css`` in a season's
site).
pages.py reads the store (never writing to it) and writes the files.
"""

from replay.reports.pages import write_game_report, write_season_report

__all__ = ["write_game_report", "write_season_report"]
