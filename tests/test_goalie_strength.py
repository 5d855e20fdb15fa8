"""A goalie's saves and shots against by strength (issue 34 item 5): EV, PP and SH on the
game page's goaltenders table and on his player page (season line and game log), as
NHL.com's box score splits a goalie's: by the strength of the shooters' side when the shot
was taken, as the scoresheet labels a goal, so a power-play goal is a PP goal against.

The splits are checked against counts made here from the events alone (penalties starting
and ending, the men short they leave, shots on goal, goals), never the fold under test."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from events import bones, dicehockey
from events.catalogue import open_store
from events.common import GameCreated, PeriodStarted
from replay.cli.app import main
from replay.games.game_streams import read_game
from replay.reports.games import load_game
from tests.pages_data import DICE_SEASON, GAMES, SEASON
from tests.test_playoff_split import SEASON as SPLIT
from tests.test_playoff_split import play_split_season

OTHER = {"home": "away", "away": "home"}
RELEASABLE = ("minor", "double_minor", "bench_minor")


@pytest.fixture(scope="module")
def db(pages_db: Path) -> Path:
    return pages_db


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DICE Hockey league season and its playoffs (tests/test_playoff_split.py's)."""
    return play_split_season(tmp_path_factory.mktemp("split"))


def _label(short: dict[str, int], shooters: str) -> str:
    """The strength of a shot by ``shooters``, as its goal's would be: fewer men short than
    the other side, a power play."""
    mine, theirs = short[shooters], short[OTHER[shooters]]
    return "PP" if mine < theirs else "SH" if mine > theirs else "EV"


class _Counts:
    """Shots and goals against each team's goalies by strength, and each goal's strength
    on the scoresheet beside the one counted here at its shot."""

    def __init__(self, created: GameCreated) -> None:
        self.team = {s: getattr(created, s).team_id for s in ("home", "away")}
        self.split: Counter[tuple[str, str, str]] = Counter()  # (team, strength, sa|ga)
        self.goals: list[tuple[str, str]] = []  # (event's strength, counted here)
        self.pending: tuple[str, str] | None = None  # (shooting side, strength)

    def shot(self, side: str, strength: str, goalie: bool, scored: bool) -> None:
        """A shot on goal (``goalie``: a goalie in net); ``scored``: a goal may follow it."""
        if goalie:
            self.split[(self.team[OTHER[side]], strength, "sa")] += 1
        self.pending = (side, strength) if scored else None

    def goal(self, e: Any, short: dict[str, int]) -> None:
        if self.pending is None or self.pending[0] != e.side:  # no shot before it
            self.shot(e.side, _label(short, e.side), e.goalie is not None, True)
        assert self.pending is not None
        strength = self.pending[1]
        if e.goalie is not None:
            self.split[(self.team[OTHER[e.side]], strength, "ga")] += 1
        self.goals.append((e.strength, strength))
        self.pending = None


def _bones_counts(events: list[Any]) -> _Counts:
    """Hockey Bones 14.10: a penalty makes its team a man short for ``short`` sequences,
    at most two at once, the first two counting down (ruling R-14.10a), until it is served
    (``PenaltyEnded``); a power-play goal ends a minor (14.20: its ``PenaltyEnded``), or a
    double minor's first minor. A shot on goal is a ``ShotTaken`` neither blocked nor an
    empty-net shot out of range (10.50), a goal without one counting one."""
    counts = _Counts(events[0])
    clocks: dict[str, list[list[Any]]] = {"home": [], "away": []}  # [id, kind, short, left]

    def men_short() -> dict[str, int]:
        return {s: min(2, sum(1 for c in clocks[s] if c[3] > 0)) for s in clocks}

    for e in events:
        short = men_short()
        if isinstance(e, bones.SequencePlayed):
            counts.pending = None
            for side in clocks:
                for c in [c for c in clocks[side] if c[3] > 0][:2]:
                    c[3] -= 1
        elif isinstance(e, PeriodStarted):
            counts.pending = None
        elif isinstance(e, bones.PenaltyAssessed) and e.short > 0:
            clocks[e.side].append([e.id, e.kind, e.short, e.short])
        elif isinstance(e, bones.PenaltyEnded):
            for side in clocks:
                clocks[side] = [c for c in clocks[side] if c[0] != e.id]
        elif isinstance(e, bones.ShotTaken):
            counts.pending = None
            if e.block != "blocked" and not (e.kind == "empty_net" and not e.in_range):
                counts.shot(e.side, _label(short, e.side), e.kind != "empty_net", True)
        elif isinstance(e, bones.GoalScored):
            counts.goal(e, short)
            if e.strength == "PP":  # 14.20 D: a double minor's first minor ends
                running = [c for c in clocks[OTHER[e.side]] if c[3] > 0 and c[1] in RELEASABLE]
                if running and running[0][1] == "double_minor" and running[0][3] > 5:
                    running[0][3] = 5
    return counts


def _dice_counts(events: list[Any]) -> _Counts:
    """DICE Hockey 15: a minor, double minor or major makes its team a man short ("If
    another penalty occurs and you are now 5-3") until it is killed, served or ended by a
    goal (``PenaltyEnded`` with no clears left). Every ``ShotTaken`` and penalty shot is a
    shot on goal (8, 15), a goal without one counting one (22)."""
    counts = _Counts(events[0])
    running: dict[str, set[int]] = {"home": set(), "away": set()}
    for e in events:
        short = {s: min(2, len(running[s])) for s in running}
        if isinstance(e, PeriodStarted):
            counts.pending = None
        elif isinstance(e, dicehockey.PenaltyAssessed) and e.short:
            running[e.side].add(e.id)
        elif isinstance(e, dicehockey.PenaltyEnded) and e.clears_left == 0:
            running[e.side].discard(e.id)
        elif isinstance(e, dicehockey.ShotTaken):
            counts.shot(e.side, _label(short, e.side), e.goalie is not None, e.goal)
        elif isinstance(e, dicehockey.ShootoutAttempt) and e.kind == "penalty_shot":
            counts.shot(e.side, _label(short, e.side), e.goalie is not None, e.scored)
        elif isinstance(e, dicehockey.GoalScored):
            counts.goal(e, short)
    return counts


def _cells(split: str) -> tuple[int, int]:
    saves, shots = split.split("/")
    return int(saves), int(shots)


def _games(db: Path) -> list[str]:
    with open_store(db, create=False) as store:
        return [i.stream for i in store.streams(kind="game")
                if i.stream in GAMES.values() or i.stream.startswith((SEASON, DICE_SEASON))]


def test_every_goalies_ev_pp_sh_add_up_to_his_sa_and_sv(db: Path) -> None:
    """Each goaltenders' row: EV + PP + SH saves are his SV, their shots his SA."""
    games = _games(db)
    assert len(games) > 3
    with open_store(db, create=False) as store:
        for game_id in games:
            game = load_game(store, game_id)
            rows = game.page().goalies
            assert len(rows) == len(game.sheet.goalies)
            for row in rows:
                split = [_cells(c) for c in (row.ev, row.pp, row.sh)]
                assert sum(s for s, _ in split) == row.saves, (game_id, row)
                assert sum(a for _, a in split) == row.shots_against, (game_id, row)
                assert all(0 <= s <= a for s, a in split), (game_id, row)


def _page_split(rows: list[Any]) -> Counter[tuple[str, str, str]]:
    split: Counter[tuple[str, str, str]] = Counter()
    for row in rows:
        for strength, cell in (("EV", row.ev), ("PP", row.pp), ("SH", row.sh)):
            saves, shots = _cells(cell)
            split[(row.team, strength, "sa")] += shots
            split[(row.team, strength, "ga")] += shots - saves
    return +split


def test_the_split_is_the_one_counted_from_the_events(db: Path) -> None:
    """Every game of each system (Hockey Bones, FaceOff 2008, DICE Hockey): the page's
    split, each team's goalies added, is the count made here from the penalties and the
    shots; each goal is filed as the scoresheet labels it ("PP" for the team with the man
    advantage), so a power-play goal is a PP goal against."""
    seen: Counter[str] = Counter()
    with open_store(db, create=False) as store:
        for game_id in _games(db):
            events = read_game(store, game_id)
            dice = any(isinstance(e, dicehockey.ShotTaken) for e in events)
            counts = _dice_counts(events) if dice else _bones_counts(events)
            page = load_game(store, game_id).page()
            assert _page_split(page.goalies) == +counts.split, game_id
            # each goal's strength counted here is the engine's label of it
            assert [(s, c) for s, c in counts.goals if s in ("EV", "PP", "SH")] == \
                [(s, s) for s, _ in counts.goals if s in ("EV", "PP", "SH")], game_id
            seen.update(k[1] for k in counts.split if counts.split[k])
            seen.update(f"{s} goal" for s, _ in counts.goals)
    # the games hold shots at every strength and a power-play goal
    assert {"EV", "PP", "SH", "PP goal"} <= set(seen), seen


def test_a_short_handed_teams_shots_are_the_goalies_sh_shots(db: Path) -> None:
    """Hockey Bones 10.30: "ALL players, regardless of position, use this shooting range
    when playing on the SHORT-HANDED team killing a power-play": every shot on goal taken
    from the S range is one of the goalie's SH shots (his team on the power play), and
    no other shot is: 10.10 gives the N range to "all NON POWER-PLAY, NON SHORT-HANDED
    situations", 10.20 the P range to the power play."""
    checked = 0
    with open_store(db, create=False) as store:
        for game_id in _games(db):
            events = read_game(store, game_id)
            if not any(isinstance(e, bones.ShotTaken) for e in events):
                continue
            team = {s: getattr(events[0], s).team_id for s in ("home", "away")}
            s_range: Counter[str] = Counter()  # shots on goal from the S range, by goalie team
            for e in events:
                if isinstance(e, bones.ShotTaken) and e.block != "blocked" and \
                        e.kind not in ("empty_net", "penalty_shot"):
                    s_range[team[OTHER[e.side]]] += e.range_name == "S"
            split = _page_split(load_game(store, game_id).page().goalies)
            for t in team.values():
                assert split[(t, "SH", "sa")] == s_range[t], (game_id, t)
                checked += s_range[t]
    assert checked > 0


def _table(text: str, table: str) -> list[list[str]]:
    body = re.search(rf'<table id="{table}".*?<tbody>(.*?)</tbody>', text, re.S)
    assert body, table
    return [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body.group(1), re.S)]


@pytest.mark.parametrize("season", [SEASON, DICE_SEASON])
def test_a_goalies_player_page_shows_his_split_game_by_game_and_summed(
        db: Path, tmp_path: Path, season: str) -> None:
    """His game log's EV, PP, SH are each game's page's; the season line adds them up."""
    assert main(["report", "--season", season, "-o", str(tmp_path / "site"),
                 "--db", str(db)]) == 0
    rows = _page_rows(db, [g for g in _games(db) if g.startswith(season)])
    assert rows
    for (team, player), games in rows.items():
        text = (tmp_path / "site" / "players" / f"{team}-{player}.html").read_text("utf-8")
        log = _table(text, "player-games")
        assert sorted(tuple(r[-3:]) for r in log) == sorted(games), (team, player)
        line = _table(text, "player-season")[0]
        for i, shown in enumerate(line[-3:]):
            assert _cells(shown) == (sum(_cells(g[i])[0] for g in games),
                                     sum(_cells(g[i])[1] for g in games))
        assert "EV, PP, SH: saves/shots" in text


def _page_rows(db: Path, game_ids: list[str]) -> dict[tuple[str, str], list[tuple[str, ...]]]:
    """Each goalie's (EV, PP, SH) cells of the game pages of ``game_ids``, by (team, id)."""
    rows: dict[tuple[str, str], list[tuple[str, ...]]] = {}
    with open_store(db, create=False) as store:
        for game_id in game_ids:
            game = load_game(store, game_id)
            names = {(g.team, g.name): g.player for g in game.sheet.goalies}
            for row in game.page().goalies:
                rows.setdefault((row.team, names[(row.team, row.name)]), []).append(
                    (row.ev, row.pp, row.sh))
    return rows


def test_a_goalies_playoff_section_shows_his_playoff_games_split(played: Path,
                                                                 tmp_path: Path) -> None:
    """The playoff section's line and log (issue 34 item 2) carry EV, PP, SH too: a row per
    playoff game (its game page's), the line their sum, none of the regular season's."""
    db, site = played, tmp_path / "site"
    assert main(["report", "--season", SPLIT, "-o", str(site), "--db", str(db)]) == 0
    with open_store(db, create=False) as store:
        playoff_games = [i.stream for i in store.streams(kind="game")
                         if i.stream.startswith(f"{SPLIT}-p")]
    rows = _page_rows(db, playoff_games)
    assert rows
    for (team, player), games in rows.items():
        text = (site / "players" / f"{team}-{player}.html").read_text("utf-8")
        assert sorted(tuple(r[-3:]) for r in _table(text, "playoff-games")) == sorted(games)
        line = _table(text, "playoff-season")[0][-3:]
        assert [_cells(c) for c in line] == [
            (sum(_cells(g[i])[0] for g in games), sum(_cells(g[i])[1] for g in games))
            for i in range(3)]
