"""The postseason on the season site (issue 22, replay/reports/bracket.py): the bracket
drawn as SVG, each series' games linked to the game pages, the draft lottery.

The brackets are played by the engine's pure rules and read through
projections.postseason; the expected boxes and lines are worked by hand from rule 9's
text (the six-team bracket) and from the fixed bracket of sixteen (1v8, 4v5, 2v7, 3v6 in
each conference, neighbours' winners meet).
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.league.formats import divisions_of, parse_playoff_format
from engine.league.playoffs import fold, next_games, open_playoffs, record_game
from projections.postseason import bracket_view, lottery_view
from replay.reports.bracket import (
    BOX_HEIGHT,
    BOX_WIDTH,
    bracket_drawing,
    bracket_svg,
    game_page_href,
    lottery_html,
    postseason_page,
    series_games_html,
)
from replay.reports.season_site import game_href
from tests.test_postseason_read import brackets, lottery_events, places, play, rule_9_played

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    """The bracket fragment as XML: the <figure> around one <svg>."""
    root = ET.fromstring(svg)
    assert root.tag == "figure" and "chart" in root.get("class", "").split()
    return root


def boxes(root: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == kind]


def texts(g: ET.Element, bold: bool | None = None) -> list[str]:
    return [t.text or "" for t in g.iter(f"{SVG}text")
            if bold is None or (t.get("font-weight") == "bold") == bold]


def connectors(root: ET.Element) -> list[tuple[str, str]]:
    return [(p.get("data-from"), p.get("data-to")) for p in root.iter(f"{SVG}path")
            if p.get("class") == "connector"]


def rect_x(root: ET.Element, box_id: str) -> float:
    g = next(g for g in root.iter(f"{SVG}g") if g.get("id") == box_id)
    return float(next(g.iter(f"{SVG}rect")).get("x"))


def rect_y(root: ET.Element, box_id: str) -> float:
    g = next(g for g in root.iter(f"{SVG}g") if g.get("id") == box_id)
    return float(next(g.iter(f"{SVG}rect")).get("y"))


def test_rule_9_six_team_bracket_drawn() -> None:
    """Rule 9 worked by hand (test_postseason_read.rule_9_played): 1st and 2nd have a bye;
    6 beats 3, 4 beats 5; 1 beats 6, 4 beats 2; 1 beats 4 in the final."""
    events, _ = rule_9_played()
    root = parse(bracket_svg(bracket_view("2026", events), {"P1": "Boreal Tamaracks"}))
    series = boxes(root, "series")
    assert len(series) == 5  # 2 + 2 + the final
    assert [(g.get("data-round"), g.get("data-slot")) for g in series] == [
        ("1", "1"), ("1", "2"), ("2", "1"), ("2", "2"), ("3", "1")]
    byes = boxes(root, "bye")
    assert [texts(g) for g in byes] == [["1", "Boreal Tamaracks", "bye"], ["2", "P2", "bye"]]
    # one box per series: seeds, teams, wins; the winner (and his wins) in bold
    r1s1 = next(g for g in series if g.get("id") == "box-r1s1")
    assert texts(r1s1) == ["3", "P3", "2", "6", "P6", "4"]
    assert texts(r1s1, bold=True) == ["P6", "4"]
    final = next(g for g in series if g.get("id") == "box-r3s1")
    assert texts(final, bold=True) == ["Boreal Tamaracks", "4"]
    champion = boxes(root, "champion")
    assert len(champion) == 1 and "Boreal Tamaracks" in texts(champion[0])
    # the connectors: each box to the series its winner plays next, the final to the champion
    assert sorted(connectors(root)) == sorted([
        ("bye-r1-P1", "box-r2s1"), ("box-r1s1", "box-r2s1"),  # 1 v 6
        ("bye-r1-P2", "box-r2s2"), ("box-r1s2", "box-r2s2"),  # 2 v 4
        ("box-r2s1", "box-r3s1"), ("box-r2s2", "box-r3s1"),  # the final
        ("box-r3s1", "champion")])
    headers = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "round-title"]
    assert headers == ["Round 1", "Round 2", "Final", "Champion"]


def test_rounds_are_columns_and_connectors_join_box_edges() -> None:
    events, _ = rule_9_played()
    root = parse(bracket_svg(bracket_view("2026", events)))
    assert rect_x(root, "box-r1s1") == rect_x(root, "bye-r1-P1") < rect_x(root, "box-r2s1")
    assert rect_x(root, "box-r2s1") == rect_x(root, "box-r2s2") < rect_x(root, "box-r3s1")
    assert rect_x(root, "box-r3s1") < rect_x(root, "champion")
    for path in root.iter(f"{SVG}path"):
        start, end = re.match(r"M(\S+) \S+ H\S+ V\S+ H(\S+)$", path.get("d")).groups()
        assert float(start) == rect_x(root, path.get("data-from")) + BOX_WIDTH
        assert float(end) == rect_x(root, path.get("data-to"))
    # a round-2 box sits between the two that feed it
    assert rect_y(root, "bye-r1-P1") < rect_y(root, "box-r2s1") < rect_y(root, "box-r1s1")


def sixteen() -> list:
    """The demo league's shape: 8 per conference, a fixed bracket, four rounds."""
    boreal, tide = [f"B{i}" for i in range(1, 17)], [f"T{i}" for i in range(1, 17)]
    divisions = divisions_of([("Boreal", "Tamarack", boreal[:8]),
                              ("Boreal", "Lantern", boreal[8:]),
                              ("Tidewater", "Saltmarsh", tide[:8]),
                              ("Tidewater", "Cinder", tide[8:])])
    standings = [t for pair in zip(tide, boreal, strict=True) for t in pair]
    fmt = parse_playoff_format({"per_conference": 8, "reseed": False,
                                "series": [7, 7, 7, 7]}, divisions)
    events = open_playoffs(fmt, standings, divisions)
    bracket = fold(events)
    results = itertools.cycle(["HHHH", "LHLHLL", "HLHLHLH", "LLLL"])
    for round in (1, 2, 3, 4):
        for s in bracket.rounds[-1].series:
            bracket = play(events, bracket, round, s.slot, next(results))
    return events


def test_sixteen_team_fixed_bracket_drawn() -> None:
    events = sixteen()
    view = bracket_view("2027", events)
    root = parse(bracket_svg(view))
    assert len(boxes(root, "series")) == 8 + 4 + 2 + 1
    assert boxes(root, "bye") == []
    assert len(connectors(root)) == 14 + 1  # every series but the final feeds one; + champion
    assert texts(boxes(root, "champion")[0])[1] == view.champion
    # a fixed bracket keeps its positions top to bottom: 1v8, 4v5, 2v7, 3v6 in each conference
    first = sorted((g for g in boxes(root, "series") if g.get("data-round") == "1"),
                   key=lambda g: rect_y(root, g.get("id")))
    assert [(texts(g)[1], texts(g)[4]) for g in first] == [
        ("B1", "B8"), ("B4", "B5"), ("B2", "B7"), ("B3", "B6"),
        ("T1", "T8"), ("T4", "T5"), ("T2", "T7"), ("T3", "T6")]
    headers = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "round-title"]
    assert headers == ["Round 1", "Round 2", "Round 3", "Final", "Champion"]
    # a conference's series are named by their bracket in the series tables
    html = series_games_html(view)
    assert "(1) B1 v (8) B8: B1 won 4-0, best of 7 (Boreal)" in html
    assert "best of 7 (league)" not in html


def test_each_conference_half_is_named_above_its_first_boxes() -> None:
    """Issue 34: "conference labels on the bracket halves" (two seed-1 teams, each
    conference's): the sixteen's Boreal half under "Boreal Conference", its Tidewater half
    under "Tidewater Conference"; rule 9's one bracket of the league has no label."""
    events = sixteen()
    drawing = bracket_drawing(bracket_view("2027", events))
    labels = sorted(drawing.pools, key=lambda p: p.y)
    assert [(p.pool, p.text) for p in labels] == [("Boreal", "Boreal Conference"),
                                                  ("Tidewater", "Tidewater Conference")]
    first = sorted((b for b in drawing.boxes if b.round == 1), key=lambda b: b.y)
    boreal, tide = first[:4], first[4:]
    assert all(t.team.startswith("B") for b in boreal for t in b.lines)
    assert labels[0].y < boreal[0].y and boreal[-1].y + BOX_HEIGHT < labels[1].y < tide[0].y
    root = parse(bracket_svg(bracket_view("2027", events)))
    assert [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "pool-label"] == [
        "Boreal Conference", "Tidewater Conference"]
    assert bracket_drawing(bracket_view("2026", rule_9_played()[0])).pools == []


def test_a_bracket_being_played_has_no_champion_box() -> None:
    """Round 1 of sixteen under way: its boxes, no connector yet, every round's title."""
    events = sixteen()
    cut = next(i for i, e in enumerate(events) if type(e).__name__ == "RoundOpened"
               and e.round == 2)
    drawing = bracket_drawing(bracket_view("2027", events[:cut]))
    assert [b.kind for b in drawing.boxes] == ["series"] * 8
    assert drawing.connectors == [] and drawing.champion is None
    assert [h.text for h in drawing.headers] == ["Round 1", "Round 2", "Round 3", "Final"]
    parse(bracket_svg(bracket_view("2027", events[:cut])))


def test_names_are_escaped_and_long_ones_cut() -> None:
    events, _ = rule_9_played()
    long = "The Very Long Named Hockey Club of Somewhere"
    root = parse(bracket_svg(bracket_view("2026", events), {"P1": "A&B <Rink>", "P4": long}))
    assert "A&B <Rink>" in texts(boxes(root, "champion")[0])
    cut = [t for g in boxes(root, "series") for t in g.iter(f"{SVG}text")
           if (t.text or "").startswith("The Very")]
    assert cut and all(len(t.text) <= 22 and t.text.endswith("…") for t in cut)
    assert all(t.find(f"{SVG}title").text == long for t in cut)  # the whole name on hover


def test_series_games_link_the_season_sites_game_pages() -> None:
    events, _ = rule_9_played()
    html = series_games_html(bracket_view("2026", events), scores={"S-r1s1g1": "3-2 OT"})
    hrefs = re.findall(r'<a href="([^"]+)">', html)
    assert len(hrefs) == 6 + 4 + 5 + 5 + 7  # every game of every series
    assert hrefs[0] == game_href("S-r1s1g1") == game_page_href("S-r1s1g1") == \
        "games/S-r1s1g1.html"
    assert re.findall(r'<table class="series-games" id="([^"]+)"', html) == [
        "games-r1s1", "games-r1s2", "games-r2s1", "games-r2s2", "games-r3s1"]
    assert "(3) P3 v (6) P6: P6 won 4-2, best of 7" in html
    assert "<td class=\"text\">3-2 OT</td>" in html
    # the bracket's boxes link to these tables
    svg = bracket_svg(bracket_view("2026", events))
    assert '<a href="#games-r1s1">' in svg


def test_lottery_tables_show_each_draw_and_the_order() -> None:
    """Rule 31 in eight teams: P7's ball drawn with a roll of 1 of 3; P8 last; then the
    playoff teams in reverse order."""
    html = lottery_html(lottery_view(lottery_events(places(8), places(6), "", [1])))
    draws = re.search(r'<table id="lottery-draws">.*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", draws)]
    assert rows == [["1", "1 of 3", "7", "P7", "drawn"], ["2", "", "8", "P8", "last team"]]
    order = re.search(r'<table id="draft-order">(.*?)</table>', html, re.S).group(1)
    assert re.findall(r'<td class="text">(.*?)</td>', order) == [
        "P7", "P8", "P6", "P5", "P4", "P3", "P2", "P1"]


def test_the_page_prints_without_a_script() -> None:
    events, _ = rule_9_played()
    page = postseason_page(bracket_view("2026", events),
                           lottery_view(lottery_events(places(8), places(6), "", [1])),
                           css="style.css", nav=[("index.html", "Season 2026")])
    assert "<script" not in page
    assert '<link rel="stylesheet" href="style.css">' in page
    assert '<div class="status" id="champion">Champion: P1</div>' in page
    assert re.findall(r"<h2>(.*?)</h2>", page) == [
        "Bracket", "Series", "Draft lottery"]
    alone = postseason_page(bracket_view("2026", events))
    assert "Draft lottery" not in alone and "@media print" in alone  # inline style


@settings(max_examples=40, deadline=None)
@given(brackets(), st.data())
def test_every_format_draws_one_box_a_series_and_no_box_over_another(case, data) -> None:
    """Whatever the format (byes, reseeded or fixed, by conference or division): one box
    per series and per bye, every box but the final feeds one line (and the final the
    champion's), and no two boxes of a column overlap."""
    per_division, table = case
    teams = places(4 * per_division)
    divisions = divisions_of([(f"C{i // 2}", f"D{i}", teams[i * per_division:
                                                            (i + 1) * per_division])
                              for i in range(4)])
    events = open_playoffs(parse_playoff_format(table, divisions),
                           list(data.draw(st.permutations(teams))), divisions)
    bracket = fold(events)
    while bracket.champion is None:
        game = data.draw(st.sampled_from(next_games(bracket)))
        new = record_game(bracket, game.round, game.slot, f"g{len(events)}",
                          data.draw(st.sampled_from([game.home, game.away])))
        events += new
        bracket = fold(new, bracket)
    view = bracket_view("S", events)
    root = parse(bracket_svg(view))
    series = sum(len(r.series) for r in view.rounds)
    byes = sum(len(r.byes) for r in view.rounds)
    assert len(boxes(root, "series")) == series and len(boxes(root, "bye")) == byes
    assert len(connectors(root)) == series + byes
    drawing = bracket_drawing(view)
    for column in {b.x for b in drawing.boxes}:
        ys = sorted(b.y for b in drawing.boxes if b.x == column)
        assert all(b - a >= BOX_HEIGHT for a, b in itertools.pairwise(ys))
    assert all(0 <= b.y and b.y + BOX_HEIGHT <= drawing.height for b in drawing.boxes)
    assert all(b.x + BOX_WIDTH <= drawing.width for b in drawing.boxes)


def test_a_season_without_playoffs_says_so() -> None:
    page = postseason_page(bracket_view("2026", []))
    assert '<p id="no-playoffs">The playoffs of season 2026 have not begun.</p>' in page
    assert "<svg" not in page
