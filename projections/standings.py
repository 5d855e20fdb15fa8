"""League standings from finished games: a pure fold over each game's first and last
events (GameCreated, GameEnded).

Two points for a win, one for a loss in overtime or a shootout (OTL), one each for a tie
(FaceOff 2008 has no shootout, 5.00: a game tied after overtime stands). Ties on points are broken by
the Hockey Bones league rules (Draft League Setup, rule 29): wins, road wins, the head-to-
head record among the tied teams, then goal difference (the league's "plus/minus").

Each record also carries the team's last ten games and its current streak, as NHL.com
prints them (issue 34): ``last10`` is W-L-OTL over the team's last ten games (and -T when a
FaceOff 2008 game among them ended tied), ``streak`` the result of its latest game and how
many games in a row it has had that result: ``W3``, ``L1``, ``OT2`` (an overtime or
shootout loss: NHL.com's "OT"), ``T1``. "Last" is the order the games are given in: a
season gives them in schedule order (its game ids, ``{season}-{number:04d}``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import msgspec

from events.common import GameCreated, GameEnded


class Record(msgspec.Struct, kw_only=True):
    team: str
    name: str = ""
    gp: int = 0
    w: int = 0
    l: int = 0  # noqa: E741 - the standings column is called L
    otl: int = 0
    t: int = 0  # ties (FaceOff 2008)
    points: int = 0
    road_wins: int = 0
    gf: int = 0
    ga: int = 0
    last10: str = ""  # W-L-OTL (-T) of the team's last ten games: "6-3-1"
    streak: str = ""  # its latest result and how many in a row: "W3", "L1", "OT2", "T1"

    @property
    def diff(self) -> int:
        return self.gf - self.ga

    def to_json(self) -> dict:
        return {**msgspec.to_builtins(self), "diff": self.diff}


def build_standings(games: Iterable[tuple[GameCreated, GameEnded]]) -> list[Record]:
    """Every team's record, best first."""
    records, h2h = _tally(games)
    return rank(list(records.values()), h2h)


def grouped_standings(games: Iterable[tuple[GameCreated, GameEnded]],
                      groups: Iterable[tuple[str, list[str]]]) -> list[tuple[str, list[Record]]]:
    """Standings of each group (a division or a conference), ranked within the group; head
    to head counts the games between the group's tied teams."""
    records, h2h = _tally(games)
    return [(title, rank([records[t] for t in teams if t in records], h2h))
            for title, teams in groups]


LAST_GAMES = 10  # NHL.com's "L10"
STREAK_CODES = {"W": "W", "L": "L", "OTL": "OT", "T": "T"}  # NHL.com's streak letters


def last_games(results: list[str]) -> str:
    """W-L-OTL (and -T when there is a tie) of the last ten of ``results`` (W, L, OTL, T;
    oldest first)."""
    last = results[-LAST_GAMES:]
    text = "-".join(str(last.count(r)) for r in ("W", "L", "OTL"))
    return text + (f"-{last.count('T')}" if "T" in last else "")


def streak(results: list[str], codes: dict[str, str] = STREAK_CODES) -> str:
    """The latest of ``results`` and how many games in a row ended so: "W3", "OT1";
    ``codes``: each result's letter (Matrix Hockey calls a tie a draw, "D")."""
    if not results:
        return ""
    latest, count = results[-1], 0
    for result in reversed(results):
        if result != latest:
            break
        count += 1
    return f"{codes[latest]}{count}"


def _tally(games: Iterable[tuple[GameCreated, GameEnded]]
           ) -> tuple[dict[str, Record], dict[tuple[str, str], int]]:
    records: dict[str, Record] = {}
    h2h: dict[tuple[str, str], int] = defaultdict(int)  # (team, opponent) -> points won
    results: dict[str, list[str]] = defaultdict(list)  # team -> W, L, OTL, T in order

    def record(team_id: str, name: str) -> Record:
        return records.setdefault(team_id, Record(team=team_id, name=name))

    for created, ended in games:
        home = record(created.home.team_id, created.home.name)
        away = record(created.away.team_id, created.away.name)
        overtime = ended.decided != "REG"
        for rec, gf, ga, side in ((home, ended.home_goals, ended.away_goals, "home"),
                                  (away, ended.away_goals, ended.home_goals, "away")):
            rec.gp += 1
            rec.gf += gf
            rec.ga += ga
            opponent = away.team if rec is home else home.team
            if ended.winner == side:
                rec.w += 1
                rec.points += 2
                h2h[(rec.team, opponent)] += 2
                if side == "away":
                    rec.road_wins += 1
                results[rec.team].append("W")
            elif ended.decided == "TIE":
                rec.t += 1
                rec.points += 1
                h2h[(rec.team, opponent)] += 1
                results[rec.team].append("T")
            elif overtime:
                rec.otl += 1
                rec.points += 1
                h2h[(rec.team, opponent)] += 1
                results[rec.team].append("OTL")
            else:
                rec.l += 1
                results[rec.team].append("L")
    for team, rec in records.items():
        rec.last10, rec.streak = last_games(results[team]), streak(results[team])
    return records, h2h


def rank(records: list[Record], h2h: dict[tuple[str, str], int]) -> list[Record]:
    """Sort by points, then the rule-29 tiebreakers."""
    def first_keys(r: Record) -> tuple:
        return (-r.points, -r.w, -r.road_wins)

    records.sort(key=first_keys)
    ranked: list[Record] = []
    i = 0
    while i < len(records):
        j = i
        while j < len(records) and first_keys(records[j]) == first_keys(records[i]):
            j += 1
        tied = records[i:j]
        names = {r.team for r in tied}

        def head_to_head(r: Record, names: set[str] = names) -> int:
            return sum(h2h.get((r.team, other), 0) for other in names if other != r.team)

        ranked += sorted(tied, key=lambda r: (-head_to_head(r), -r.diff, -r.gf, r.team))
        i = j
    return ranked
