"""Calibration: simulate part of a league's season and set its averages beside the NHL's.

``calibrate(league, games, seed)`` plays the first ``games`` fixtures of the league's
schedule (replay/leagues/schedule.py) with seeded dice, each into its own in-memory store via
``simulate`` (the same path as ``rinklog sim``), folds each stream into its scoresheet
(projections/scoresheet.py) and averages per team-game:

- goals: the final score (a shootout winner's +1 included, as the NHL's GF counts it);
- shots on goal: ``ShotTaken`` not blocked and not an empty-net miss (the scoresheet's);
- shooting %: goals scored in play (no shootout bonus) / shots on goal;
- save %: saves / shots against, over every goalie line;
- power-play opportunities and PP %: the scoresheet's (coincidental calls cancel);
- penalty minutes;
- shares of games to overtime (decided OT or SO, or a tie that stands after overtime:
  FaceOff 2008 has no shootout) and to a shootout (a ruleset without one has no NHL
  judgement on that row: it cannot reach the NHL's share, and the text expects 0).

Where the text, not the cards, sets a figure, the row also carries the text's own
expectation (``Row.text``, with its standard deviation) and why (``Row.note``):

- games to overtime: how often two regulation scores drawn independently from the
  observed home and away score distributions would tie (the sum over k of
  P(home k) x P(away k)). The rules score each team's goals on its own dice with no
  score effects beyond the pulled goalie, so this, not the NHL's share (whose trailing
  teams push), is the game's level;
- games to a shootout under a ruleset without one: 0.

Extra rows without an NHL figure help tuning: game-ending injuries, majors and game
misconducts per team-game, the goalies' share of the penalty minutes, and blocked shots.
Blocked shots are not set beside the NHL's: the 10.70 table, as transcribed, blocks at
most about 9% of shots with three blockers, and that is the game. Instead the blocks
observed (``ShotTaken.block == "blocked"``) stand beside the number the table implies for
the blockers counted on the ice at each shot (``ShotTaken.blockers``): the sum over shots
of ``shots.block_chance``, with its binomial standard deviation. The NHL figures are in
``NHL_2023_24``; docs/calibration.md gives their source and how the charts and cards move
each figure.
"""

from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from events.plurals import counted
from projections.systems import read_models
from replay.games.game_setup import league_setup
from replay.games.game_streams import open_store, read_game
from replay.leagues.league import LoadedLeague, load_league
from replay.leagues.runner import run_season, season_game_id
from replay.leagues.schedule import make_schedule
from replay.systems import kit_for_system

__all__ = ["NHL_2023_24", "NHL_SEASON", "Blocks", "Row", "Table", "calibrate", "game_figures",
           "independent_tie"]

NHL_SEASON = "2023-24 NHL regular season"
# key: (label, NHL per team-game, tolerance, "rel" within a fraction | "abs" points)
NHL_2023_24: dict[str, tuple[str, float, float, str]] = {
    "goals": ("goals", 3.10, 0.10, "rel"),
    "shots": ("shots on goal", 30.0, 0.10, "rel"),
    "shooting_pct": ("shooting %", 10.2, 0.10, "rel"),
    "save_pct": ("save %", 90.3, 1.0, "abs"),  # 10% of the goal rate, not of .903
    "pp_opportunities": ("power-play opportunities", 3.0, 0.10, "rel"),
    "pp_pct": ("power-play %", 21.0, 0.10, "rel"),
    "pim": ("penalty minutes", 8.5, 0.10, "rel"),
    "overtime_pct": ("games to overtime %", 23.0, 5.0, "abs"),
    "shootout_pct": ("games to a shootout %", 7.5, 5.0, "abs"),
}
_EXTRA = {
    "injuries": "game-ending injuries",
    "majors": "majors",
    "game_misconducts": "game misconducts",
    "goalie_pim": "goalies' penalty minutes",
    "blocked": "blocked shots",
    "blocked_implied": "blocked, 10.70 expects",
}


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    ours: float
    nhl: float | None  # None: no NHL figure (a tuning aid)
    tolerance: float = 0.0
    mode: str = "rel"
    text: float | None = None  # the text's own expectation, where the text sets the figure
    text_sd: float | None = None  # its standard deviation for this many games
    note: str = ""  # why the row has a text expectation, or no NHL judgement

    @property
    def within(self) -> bool | None:
        if self.nhl is None:
            return None
        if self.mode == "abs":
            return abs(self.ours - self.nhl) <= self.tolerance
        return abs(self.ours - self.nhl) <= self.tolerance * abs(self.nhl)

    @property
    def band(self) -> str:
        if self.nhl is None:
            return ""
        return (f"±{self.tolerance:g} pts" if self.mode == "abs"
                else f"±{self.tolerance * 100:g}%")

    @property
    def text_z(self) -> float | None:
        """Ours less the text's expectation, in standard deviations (None: none)."""
        if self.text is None or not self.text_sd:
            return None
        return (self.ours - self.text) / self.text_sd

    def to_json(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 4)

        return {"key": self.key, "label": self.label, "ours": round(self.ours, 4),
                "nhl": self.nhl, "band": self.band, "within": self.within,
                "text": r(self.text), "text_sd": r(self.text_sd), "text_z": r(self.text_z),
                "note": self.note}


@dataclass(frozen=True)
class Blocks:
    """Blocked shots observed beside the 10.70 table's expectation for the same shots."""

    observed: int  # shots blocked (ShotTaken.block == "blocked")
    implied: float  # sum over checked shots of block_chance(blockers on the ice)
    sd: float  # binomial standard deviation of that sum
    checked: int  # shots checked for a block (at least one blocker counted)

    @property
    def z(self) -> float | None:
        """Observed less implied, in standard deviations; None when no shot could be
        blocked (no blocker on the ice at any shot: the table implies exactly 0)."""
        return (self.observed - self.implied) / self.sd if self.sd else None

    def to_json(self) -> dict[str, Any]:
        return {"observed": self.observed, "implied": round(self.implied, 4),
                "sd": round(self.sd, 4), "z": None if self.z is None else round(self.z, 4),
                "shots_checked": self.checked}


@dataclass(frozen=True)
class Table:
    league: str
    games: int
    seed: str
    rows: list[Row]
    blocks: Blocks | None  # None: the game system has no blocked shots (DICE Hockey)

    @property
    def all_within(self) -> bool:
        return all(r.within for r in self.rows if r.nhl is not None)

    def row(self, key: str) -> Row:
        return next(r for r in self.rows if r.key == key)

    def to_json(self) -> dict[str, Any]:
        return {"league": self.league, "games": self.games, "seed": self.seed,
                "team_games": 2 * self.games, "reference": NHL_SEASON,
                "all_within": self.all_within, "rows": [r.to_json() for r in self.rows],
                "blocks": None if self.blocks is None else self.blocks.to_json()}

    def render(self) -> str:
        head = (f"league {self.league}: {counted(self.games, 'game')} ({2 * self.games} team-games), "
                f"seed {self.seed}; per team-game, NHL = {NHL_SEASON}")
        lines = [head, f"  {'figure':<26} {'ours':>8} {'NHL':>8}  {'band':<10} {'ok':<3} "
                       f"text expects"]
        notes = []
        for r in self.rows:
            nhl = "" if r.nhl is None else f"{r.nhl:8.2f}"
            ok = "" if r.within is None else ("yes" if r.within else "NO")
            text = ""
            if r.text is not None:
                text = f"{r.text:.2f}" + (f" ± {r.text_sd:.2f} (z {r.text_z:+.2f})"
                                          if r.text_z is not None else "")
            lines.append(f"  {r.label:<26} {r.ours:8.2f} {nhl:>8}  {r.band:<10} {ok:<3} "
                         f"{text}".rstrip())
            if r.note:
                notes.append(f"    {r.label}: {r.note}")
        lines += notes
        b = self.blocks
        if b is None:
            return "\n".join(lines)
        lines.append(f"  blocked shots: {b.observed} observed, {b.implied:.1f} ± {b.sd:.1f} "
                     + (f"expected (z {b.z:+.2f})" if b.z is not None else
                        "expected (no shot had a blocker on the ice)"))
        lines.append(f"    (the 10.70 table for the blockers on the ice at each of the "
                     f"{b.checked} shots checked; not set beside the NHL's)")
        return "\n".join(lines)


def game_figures(events: list[Any], charts: Any, system: str) -> dict[str, float]:
    """What one game adds to the totals (its system's own figures included)."""
    sheet = read_models(system).scoresheet(events)
    sides = (sheet.home, sheet.away)
    out = {
        "goals": sum(t.goals for t in sides),
        "goals_in_play": sum(sum(t.goals_by_period) for t in sides),
        "shots": sum(sum(t.shots) for t in sides),
        "saves": sum(g.saves for g in sheet.goalies),
        "shots_against": sum(g.shots_against for g in sheet.goalies),
        "pp_opportunities": sum(t.pp.opportunities for t in sides),
        "pp_goals": sum(t.pp.goals for t in sides),
        "pim": sum(t.pim for t in sides),
        # a FaceOff tie stands after its overtime: the game went to overtime all the same
        "overtime": float(sheet.decided in ("OT", "SO", "TIE")),
        "shootout": float(sheet.decided == "SO"),
        "home_regulation": sum(sheet.home.goals_by_period[:3]),
        "away_regulation": sum(sheet.away.goals_by_period[:3]),
        **kit_for_system(system).calibration_figures(events, charts),
    }
    return out


def independent_tie(regulation: dict[str, dict[int, int]], games: int) -> float:
    """The chance that a home and an away regulation score, drawn independently from the
    scores observed, are equal."""
    home, away = regulation["home"], regulation["away"]
    return sum(home[k] * away.get(k, 0) for k in home) / games ** 2 if games else math.nan


def _ratio(a: float, b: float) -> float:
    return a / b if b else math.nan


def calibrate(league: str | LoadedLeague, games: int, seed: str | int = 1,
              workers: int = 2, ruleset: str | None = None) -> Table:
    """Play the first ``games`` fixtures of the league's season for ``seed`` exactly as
    ``rinklog season`` would (goalie rotation, the league's overtime), in a throw-away
    database, and average them per team-game beside the NHL's figures."""
    loaded = league if isinstance(league, LoadedLeague) else load_league(league)
    # --ruleset plays the league under another
    setup = league_setup(loaded, ruleset=ruleset or loaded.league.ruleset)
    system, ruleset = setup.system, setup.ruleset
    fixtures = make_schedule(loaded, seed, games=games)
    totals: dict[str, float] = {}
    regulation: dict[str, dict[int, int]] = {"home": {}, "away": {}}  # score -> games
    charts = setup.kit.default_charts(loaded.root)  # the league's pack, as the figures read it
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "calibrate.db") as store:
        run = run_season(store, setup, league=loaded.name,
                         schedule=[(f.number, f.home, f.away) for f in fixtures], seed=str(seed),
                         workers=workers,
                         # figures are read from the games themselves: no audit, no read models
                         audit=False, projections=())
        for fx in fixtures:
            events = read_game(store, season_game_id(run.season_id, fx.number))
            figures = game_figures(events, charts, system.name)
            for key, value in figures.items():
                totals[key] = totals.get(key, 0.0) + value
            for side in ("home", "away"):
                score = int(figures[f"{side}_regulation"])
                regulation[side][score] = regulation[side].get(score, 0) + 1
    n = len(fixtures)
    team_games = 2 * n
    per = {k: _ratio(v, team_games) for k, v in totals.items()}
    ours = {
        "goals": per.get("goals", math.nan),
        "shots": per.get("shots", math.nan),
        "shooting_pct": 100 * _ratio(totals.get("goals_in_play", 0), totals.get("shots", 0)),
        "save_pct": 100 * _ratio(totals.get("saves", 0), totals.get("shots_against", 0)),
        "pp_opportunities": per.get("pp_opportunities", math.nan),
        "pp_pct": 100 * _ratio(totals.get("pp_goals", 0), totals.get("pp_opportunities", 0)),
        "pim": per.get("pim", math.nan),
        "overtime_pct": 100 * _ratio(totals.get("overtime", 0), n),
        "shootout_pct": 100 * _ratio(totals.get("shootout", 0), n),
    }
    tie = independent_tie(regulation, n)
    text: dict[str, dict[str, Any]] = {"overtime_pct": dict(
        text=100 * tie, text_sd=100 * math.sqrt(tie * (1 - tie) / n),
        note="two regulation scores drawn independently from those observed tie this "
             "often: the level of a game whose rules give no score effects")}
    if not setup.kit.has_shootout(ruleset):
        text["shootout_pct"] = dict(
            nhl=None, text=0.0, note=f"{system.rulesets[ruleset].title} has no shootout "
                                     "(a tie stands): not set beside the NHL's share")
    rows = []
    for key, (label, nhl, tol, mode) in NHL_2023_24.items():
        extra = dict(text.get(key, {}))
        rows.append(Row(key, label, ours[key], extra.pop("nhl", nhl), tol, mode, **extra))
    rows += [Row(key, label, per.get(key, math.nan), None) for key, label in _EXTRA.items()
             if key in totals]  # a figure the system counts
    blocks = None if "block_checks" not in totals else Blocks(
        observed=int(totals.get("blocked", 0)), implied=totals.get("blocked_implied", 0.0),
        sd=math.sqrt(totals.get("block_variance", 0.0)),
        checked=int(totals.get("block_checks", 0)))
    return Table(league=loaded.name, games=n, seed=str(seed), rows=rows, blocks=blocks)
