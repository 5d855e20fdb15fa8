"""A game's printable summary, as the NHL publishes after every game: score by period,
scoring and penalty summaries, shots, power plays, face-offs and blocked shots by period,
goalies, the player box score, the three stars, the shift chart and the play-by-play.

:func:`build_game_page` is a pure function of the read models (``Scoresheet``, ``Toi``,
``GameStats``) and the play-by-play lines; every number on the page is one of theirs, or
a sum of them. Players are shown by name and position: the rosters carry no jersey
numbers, and the page invents none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from projections.models.scoresheet import PenaltyType
from projections.models.strengths import GoalieStrength
from projections.models.times import Unit
from projections.scoresheet import Scoresheet
from projections.stats import GameStats
from projections.toi import Toi
from replay.reports.shift_chart import POSITION_ORDER, ShiftChart, build_shift_chart
from replay.reports.stars import Star, three_stars
from replay.reports.strengths import by_goalie, cells
from replay.reports.units import period_label

KIND_WORDS = {"minor": "Minor", "double_minor": "Double minor", "major": "Major",
              "minor_major": "Minor + major", "misconduct": "Misconduct",
              "game_misconduct": "Game misconduct", "bench_minor": "Bench minor",
              "penalty_shot": "Penalty shot awarded", "fight": "Fighting major"}
DECIDED_WORDS = {"REG": "Final", "OT": "Final (OT)", "SO": "Final (SO)", "TIE": "Final (tie)",
                 None: "In progress"}


@dataclass(frozen=True)
class TeamPeriods:
    """One team's line of the by-period table: a value per period and the total."""

    team: str
    name: str
    side: str
    goals: list[int]
    shots: list[int]
    pp_goals: list[int]
    faceoffs: list[int]
    blocked: list[int]
    final: int
    pp: str  # "goals/opportunities"
    pim: int


@dataclass(frozen=True)
class GoalRow:
    number: int
    period: str
    time: str
    team: str
    strength: str
    scorer: str
    assists: list[str]
    gwg: bool
    score: str  # the score after the goal, away first


@dataclass(frozen=True)
class PenaltyRow:
    period: str
    time: str
    team: str
    player: str
    infraction: str
    kind: str
    minutes: int


@dataclass(frozen=True)
class GoalieRow:
    team: str
    name: str
    decision: str
    toi: str
    shots_against: int
    saves: int
    goals_against: int
    save_pct: str
    pim: int
    ev: str  # saves/shots at even strength (replay/reports/strengths.py)
    pp: str  # ... while the other team was on the power play
    sh: str  # ... while his team was on the power play


@dataclass(frozen=True)
class SkaterRow:
    team: str
    player: str
    name: str
    position: str
    g: int
    a: int
    p: int
    plus_minus: int
    pim: int
    s: int
    fo: int
    toi: str
    toi_ev: str
    toi_pp: str
    toi_sh: str
    shifts: int


@dataclass(frozen=True)
class TeamBox:
    team: str
    name: str
    skaters: list[SkaterRow]
    totals: dict[str, int]  # G, A, P, S, FO, shifts summed over the rows; PIM the team's
    # (the scoresheet's: the rows', the goalies' and the bench minors' minutes)
    blocked: int  # the team's blocks (the stream names no blocker: 10.70)


@dataclass(frozen=True)
class Play:
    """A play, face-off to face-off (whistle to whistle, and the line changes after the
    whistle): its period, time from its first line to its last, the score (away-home)
    after it, one line telling it (which opens with the face-off and ends with the
    whistle) and the line of every event between (``rinklog play``'s, but for the line
    changes, which the shift chart draws, and Hockey Bones's action rolls that came to a
    pass or a shot: the pass's or the shot's own line follows)."""

    period: str
    time: str
    score: str
    text: str
    detail: list[str]
    goal: bool


@dataclass(frozen=True)
class PlayPeriod:
    label: str
    plays: list[Play]


@dataclass(frozen=True)
class ShootoutRow:
    team: str
    shooter: str
    result: str


@dataclass(frozen=True)
class GamePage:
    game_id: str
    ruleset: str
    title: str
    status: str
    away: TeamPeriods
    home: TeamPeriods
    periods: list[str]
    unit: Unit
    goals: list[GoalRow]
    penalties: list[PenaltyRow]
    show_infractions: bool
    goalies: list[GoalieRow]
    boxes: list[TeamBox]
    shootout: list[ShootoutRow]
    chart: ShiftChart
    plays: list[PlayPeriod]
    stars: list[Star]  # the three stars of a finished game (replay/reports/stars.py)
    infraction_label: str = "Infraction"  # Hockey Bones: "Type (14.20)", its penalty types
    penalty_legend: list[str] = field(default_factory=list)  # each type shown: "A: ..."


def _team_periods(line: Any, side: str, pp_goals: list[int]) -> TeamPeriods:
    return TeamPeriods(team=line.team, name=line.name, side=side,
                       goals=list(line.goals_by_period), shots=list(line.shots),
                       pp_goals=pp_goals, faceoffs=list(line.faceoffs),
                       blocked=list(line.blocked), final=line.goals,
                       pp=f"{line.pp.goals}/{line.pp.opportunities}", pim=line.pim)


def _goal_rows(sheet: Scoresheet, unit: Unit, played: int) -> list[GoalRow]:
    rows, score = [], Counter[str]()
    for n, g in enumerate(sheet.goals, start=1):
        score[g.team] += 1
        rows.append(GoalRow(number=n, period=period_label(g.period, played),
                            time=unit.show(g.at.value), team=g.team,
                            strength=g.strength,
                            scorer=g.scorer_name, assists=list(g.assist_names), gwg=g.gwg,
                            score=f"{score[sheet.away.team]}-{score[sheet.home.team]}"))
    return rows


def _penalty_rows(sheet: Scoresheet, unit: Unit, played: int,
                  types: Sequence[PenaltyType] = ()) -> list[PenaltyRow]:
    """The penalty summary; ``types``: the penalty types where the stream names no
    infraction (Hockey Bones' 14.20), each matched to its line by period, time, player
    and kind: the row shows the code, the page's legend its name (a page stays small)."""
    codes: dict[tuple[int, int, str, str], list[str]] = {}
    for t in types:
        codes.setdefault((t.period, t.time, t.player, t.kind), []).append(t.code)
    rows = []
    for p in sheet.penalties:
        named = codes.get((p.period, p.at.value, p.player, p.type))
        infraction = p.infraction if isinstance(getattr(p, "infraction", None), str) else (
            named.pop(0) if named else "")
        rows.append(PenaltyRow(period=period_label(p.period, played), time=unit.show(p.at.value),
                               team=p.team, player=p.player_name, infraction=infraction,
                               kind=KIND_WORDS.get(p.type, p.type.replace("_", " ")),
                               minutes=p.minutes))
    return rows


def _goalie_rows(sheet: Scoresheet, unit: Unit, stats: dict[str, Any],
                 strengths: Sequence[GoalieStrength]) -> list[GoalieRow]:
    order = {sheet.away.team: 0, sheet.home.team: 1}
    pim = {(g["team"], g["player"]): g["pim"] for g in stats["goalies"]}  # his goalie line's
    split = by_goalie(strengths)
    return [GoalieRow(team=g.team, name=g.name, decision=g.decision, toi=unit.show(g.toi),
                      shots_against=g.shots_against, saves=g.saves,
                      goals_against=g.goals_against,
                      save_pct=f"{g.saves / g.shots_against:.3f}".lstrip("0")
                      if g.shots_against else "–", pim=pim.get((g.team, g.player), 0),
                      **cells(split.get((g.team, g.player))))
            for g in sorted(sheet.goalies, key=lambda g: order.get(g.team, 2))]


def _boxes(sheet: Scoresheet, toi: Toi, stats: dict[str, Any], unit: Unit) -> list[TeamBox]:
    ice = {(p.team, p.player): p for p in toi.players}
    goalies = {key for key, p in ice.items() if p.position == "G"}
    shifts = Counter((s.team, s.player) for s in toi.shifts)
    boxes = []
    for line in (sheet.away, sheet.home):
        rows = []
        for s in stats["skaters"]:
            if s["team"] != line.team:
                continue
            if (s["team"], s["player"]) in goalies:
                continue
            p = ice.get((s["team"], s["player"]))
            if p is None and not (s["gp"] or s["p"] or s["pim"]):
                continue
            rows.append(SkaterRow(
                team=s["team"], player=s["player"], name=s["name"], position=s["position"],
                g=s["g"], a=s["a"], p=s["p"], plus_minus=s["plus_minus"], pim=s["pim"],
                s=s["sog"], fo=s["fow"],
                toi=unit.show(p.toi if p else 0), toi_ev=unit.show(p.toi_ev if p else 0),
                toi_pp=unit.show(p.toi_pp if p else 0), toi_sh=unit.show(p.toi_sh if p else 0),
                shifts=shifts[(s["team"], s["player"])]))
        rows.sort(key=lambda r: (POSITION_ORDER.get(r.position, 9), r.name))
        totals = {k: sum(getattr(r, k) for r in rows)
                  for k in ("g", "a", "p", "pim", "s", "fo", "shifts")}
        # The team's penalty minutes as the scoresheet counts them: the rows, the goalies
        # and the bench minors, which are the team's, not a player's (docs/pages.md).
        totals["pim"] = line.pim
        boxes.append(TeamBox(team=line.team, name=line.name, skaters=rows, totals=totals,
                             blocked=sum(line.blocked)))
    return boxes


def _pp_goals(sheet: Scoresheet, team: str, periods: int) -> list[int]:
    out = [0] * periods
    for g in sheet.goals:
        if g.team == team and g.strength == "PP" and g.period <= periods:
            out[g.period - 1] += 1
    return out


def _counted(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith("s") else "s")


def _play(lines: list[Any], label: str, unit: Unit) -> Play:
    """One line for a play: its face-off; how many passes, turnovers and shots; then its
    goals, penalties and the like and its whistle in the system's words."""
    told = [x.text for x in lines[:1] if x.kind == "faceoff"]
    told += [_counted(sum(1 for x in lines if x.kind == kind), word)
             for kind, word in (("pass", "pass"), ("turnover", "turnover"), ("shot", "shot"))
             if any(x.kind == kind for x in lines)]
    told += [x.text for x in lines[1:] if x.kind in ("key", "goal", "penalty", "whistle")]
    if not told:
        told = [lines[0].text]
    start, end = (unit.show(f(x.time for x in lines)) for f in (min, max))
    return Play(period=label, time=start if start == end else f"{start}–{end}",
                score=f"{lines[-1].away}-{lines[-1].home}", text=" · ".join(told),
                detail=[x.text for x in lines[1 if lines[0].kind == "faceoff" else 0:]
                        if x.kind not in ("echo", "whistle", "change")],
                goal=any(x.kind == "goal" for x in lines))


def _sheet_times(plays: list[Any], sheet: Scoresheet) -> list[Any]:
    """The lines with each goal's and each penalty's time the scoresheet's (Hockey Bones
    times them to the second inside their sequence: their ExactTime events), matched in
    order, so a play's time range covers its goals and penalties."""
    for kind, timed in (("goal", sheet.goals), ("penalty", sheet.penalties)):
        if sum(1 for x in plays if x.kind == kind) != len(timed):
            continue
        times = iter([t.at.value for t in timed])
        plays = [replace(x, time=next(times)) if x.kind == kind else x for x in plays]
    return plays


def group_plays(plays: list[Any], unit: Unit, played: int) -> list[PlayPeriod]:
    """The play-by-play lines (``games.PlayLine``) as plays, period by period: a play
    opens at each face-off (or at the period's start)."""
    periods: dict[int, list[list[Any]]] = {}
    for line in plays:
        groups = periods.setdefault(line.period, [])
        if not groups or line.kind == "faceoff":
            groups.append([])
        groups[-1].append(line)
    out = []
    for period, groups in sorted(periods.items()):
        label = "Pregame" if period == 0 else period_label(period, played)
        out.append(PlayPeriod(label, [_play(g, label, unit) for g in groups]))
    return out


def build_game_page(sheet: Scoresheet, toi: Toi, stats: GameStats, unit: Unit,
                    plays: list[Any], ruleset: str = "",
                    strengths: Sequence[GoalieStrength] = (),
                    penalty_types: Sequence[PenaltyType] = ()) -> GamePage:
    """The page of a game from its read models and its play-by-play (``games.PlayLine``:
    period, time, score, line); ``strengths``: its goalies' shots against by strength;
    ``penalty_types``: its penalty lines' types where its system records no infraction."""
    played = len(sheet.home.goals_by_period)
    away = _team_periods(sheet.away, "away", _pp_goals(sheet, sheet.away.team, played))
    home = _team_periods(sheet.home, "home", _pp_goals(sheet, sheet.home.team, played))
    penalties = _penalty_rows(sheet, unit, played, penalty_types)
    summed = stats.to_json()
    return GamePage(
        game_id=sheet.game_id, ruleset=ruleset,
        title=f"{sheet.away.name} {sheet.away.goals} at {sheet.home.name} {sheet.home.goals}",
        status=DECIDED_WORDS.get(sheet.decided, sheet.decided or ""), away=away, home=home,
        periods=[period_label(p, played) for p in range(1, played + 1)], unit=unit,
        goals=_goal_rows(sheet, unit, played), penalties=penalties,
        show_infractions=any(p.infraction for p in penalties),
        goalies=_goalie_rows(sheet, unit, summed, strengths), boxes=_boxes(sheet, toi, summed, unit),
        shootout=[ShootoutRow(a.team, a.shooter_name, "goal" if a.scored else "no goal")
                  for a in sheet.shootout],
        chart=build_shift_chart(sheet, toi, unit),
        plays=group_plays(_sheet_times(plays, sheet), unit, played),
        stars=three_stars(sheet, summed),
        infraction_label="Type (14.20)" if penalty_types else "Infraction",
        penalty_legend=list(dict.fromkeys(f"{t.code}: {t.name}" for t in penalty_types)))
