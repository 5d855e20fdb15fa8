"""Hockey Bones penalties on the game page: the type the card's penalty column gives, in
the words of 14.20 ("Penalty Types"), since the text rates penalties by type and names
no infraction (14.00: "the number and TYPES of penalties the player received"). The
expected names are the text's, written here; the expected code of each penalty is read
here from the events (the ``PenaltyCalled`` before it), never from the fold under test.
"""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from events.bones import PenaltyAssessed, PenaltyCalled, SpecialOccurrenceRolled
from events.catalogue import open_store
from replay.cli.app import main
from replay.reports.games import load_game

# 14.20 Penalty Types, as the text gives each code:
TEXT = {
    "-": "2 Minute Minor",  # "blank (-): 2 Minute Minor penalty."
    "A": "Coincidental 2 Minute Minors",  # "A: Coincidental 2 Minute Minor penalties."
    "B": "Coincidental 5 Minute Majors",  # "B: Coincidental 5 Minute Major penalties."
    "C": "Coincidental 7 Minute Minor/Majors",  # "C: Coincidental 7 Minute Minor/Major penalties."
    "D": "4 Minute Double Minor",  # "D: 4 Minute Double Minor penalty."
    # "F: 4 Minute Double Minor penalty/2 Minute Minor Penalty in retaliation."
    "F": "4 Minute Double Minor/2 Minute Minor in retaliation",
    "G": "Coincidental 4 Minute Double Minors",  # "G: Coincidental 4 Minute Double Minor penalties."
    "M": "5 Minute Major",  # "M: 5 Minute Major penalty."
    "#": "SPECIAL Penalty",  # "#: SPECIAL Penalty."
}


@pytest.fixture(scope="module")
def db(pages_db: Path) -> Path:
    return pages_db


def _expected_codes(events: list) -> dict[tuple, list[str]]:
    """Each penalty's code by (period, time, player, kind): the latest PenaltyCalled's,
    "#" after a special occurrence; none for a misconduct, a game misconduct or a bench
    minor (their own kinds)."""
    code, out = "", {}
    for e in events:
        if isinstance(e, PenaltyCalled):
            code = e.code
        elif isinstance(e, SpecialOccurrenceRolled):
            code = "#"
        elif isinstance(e, PenaltyAssessed):
            typed = e.kind in ("minor", "double_minor", "major", "minor_major")
            out.setdefault((e.period, e.time, e.player, e.kind), []).append(code if typed else "")
    return out


def test_14_20_each_penalty_shows_its_type_and_the_page_names_it(db: Path, tmp_path: Path) -> None:
    seen: set[str] = set()
    with open_store(db, create=False) as store:
        games = [i.stream for i in store.streams(kind="game") if i.system == "bones"]
        assert games
        for game_id in games:
            events = [row.event for row in store.read(game_id)]
            page = load_game(store, game_id).page()
            codes = _expected_codes(events)
            sheet = load_game(store, game_id).sheet  # the page's rows are its lines, in order
            expected = [(codes.get((line.period, line.at.value, line.player, line.type)) or [""]
                         ).pop(0) for line in sheet.penalties]
            assert [p.infraction for p in page.penalties] == expected, game_id
            used = [c for c in dict.fromkeys(expected) if c]
            assert [line.split(": ")[0] for line in page.penalty_legend] == used
            for line in page.penalty_legend:
                code, name = line.split(": ", 1)
                assert name.startswith(TEXT[code]), line
            seen.update(used)
    assert len(seen) >= 2, seen  # more than the plain minor among the seeded games
    game = games[0]
    out = tmp_path / "game.html"
    assert main(["report", game, "-o", str(out), "--db", str(db)]) == 0
    text = html.unescape(out.read_text(encoding="utf-8"))
    assert "<th class=\"text\">Type (14.20)</th>" in text
    assert "The text rates penalties by type, not infraction (14.20): -: 2 Minute Minor" in text
