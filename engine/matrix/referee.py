"""The referee's one loop: open a season, play a week, close a season.

Each command is ``decide``-style: it takes the season (``SeasonState``) and a die source
and returns the events it decided, dice included, without changing the season; the
caller appends them and folds them with ``evolve``. The audit runs the same functions
over the recorded picks and tables with the seeded dice and compares (recheck.py).
"""

from __future__ import annotations

from typing import Any

from engine.matrix import kdh, onr, seasons, waiting, wg
from engine.matrix.context import Referee
from engine.matrix.dice import DieSource
from engine.matrix.extra_time import EXTRA_TIME_LIMITS, SHOOTOUT_VALUES
from engine.matrix.games import Fixture, play_game
from engine.matrix.goals import Entry
from engine.matrix.schedule import round_robin
from engine.matrix.state import COMPETITIONS, WEEKS, SeasonState, initial_state
from events.errors import RinklogError
from events.matrix import (
    BonusDrawn,
    ClosingStarted,
    Pick,
    PicksSent,
    ScheduleDrawn,
    SeasonClosed,
    SeasonOpened,
    StockCharged,
    TeamEntry,
    WeekEnded,
    WeekStarted,
)

__all__ = ["MatrixRuleError", "check_picks", "close_season", "fixtures", "next_season",
           "open_season", "play_week", "week_plays"]


class MatrixRuleError(RinklogError):
    """A command the rules refuse (a week played twice, picks of an unknown team...)."""


# --- open ------------------------------------------------------------------------------------

def open_season(created: SeasonOpened, source: DieSource) -> list[Any]:
    """``created`` and the draws that follow it: the championship schedule (unless fixed),
    the WG groups and the KDH's first round."""
    ref = Referee(initial_state(created), source)
    ref.emit(created)
    if "championship" in created.competitions and not created.schedule:
        for d in ref.state.divisions:  # 3.1.1, substitute S-schedule
            order, rolls = ref.dice.order(f"{d.id} schedule draw", d.teams)
            games = [(week, home, away) for week, round_ in enumerate(round_robin(order), 1)
                     for home, away in round_]
            ref.emit(ScheduleDrawn(d.id, games, rolls, "3.1.1"))
    if "wg" in created.competitions:
        wg.draw_groups(ref, list(created.wg_teams))
    if "kdh" in created.competitions:
        qualifiers, exempt = kdh.entrants(ref.state)
        kdh.draw_round(ref, 1, created.kdh_weeks[0], qualifiers or exempt)
    return ref.events


# --- picks -----------------------------------------------------------------------------------

def check_picks(state: SeasonState, sent: PicksSent) -> None:
    """What the rules require of picks when they are sent (a used column or value is
    legal: the referee replaces it, 4)."""
    where = f"week {sent.week}, team {sent.team}"
    if sent.team not in state.teams:
        raise MatrixRuleError(f"{where}: no such team in {state.season_id}")
    if not 1 <= sent.week <= WEEKS:
        raise MatrixRuleError(f"{where}: weeks run 1-{WEEKS}")
    if sent.week in state.weeks_played:
        raise MatrixRuleError(f"{where}: week {sent.week} is already played")
    seen = set()
    for p in sent.picks:
        _check_pick(state, p, sent.week, f"{where}, {p.competition}")
        if p.competition in seen:
            raise MatrixRuleError(f"{where}: two picks for the {p.competition}")
        seen.add(p.competition)


def _check_pick(state: SeasonState, p: Pick, week: int, where: str) -> None:
    if p.competition not in state.created.competitions:
        raise MatrixRuleError(f"{where}: this league does not play the {p.competition}")
    cup_weeks = {"kdh": state.created.kdh_weeks, "wg": state.created.wg_weeks}
    if p.competition in cup_weeks and week not in cup_weeks[p.competition]:
        raise MatrixRuleError(f"{where}: no {p.competition} round is played in week {week} "
                              f"(weeks {', '.join(map(str, cup_weeks[p.competition]))})")
    columns = state.matrices[p.competition].columns
    if p.column not in columns:
        raise MatrixRuleError(f"{where}: column {p.column!r} is not one of {''.join(columns)}")
    if p.extra_time not in EXTRA_TIME_LIMITS[p.competition]:
        raise MatrixRuleError(f"{where}: extra_time {p.extra_time!r} is not one of "
                              f"{', '.join(EXTRA_TIME_LIMITS[p.competition])}")
    if p.extra_goals < 0 or p.great_saves < 0:
        raise MatrixRuleError(f"{where}: extra goals and great saves are counts (0 or more)")
    if p.great_saves and p.competition != "championship":
        raise MatrixRuleError(f"{where}: great saves are played in the championship only "
                              "(2.1.3)")
    if p.shootout and (p.competition != "kdh" or p.shootout not in SHOOTOUT_VALUES):
        raise MatrixRuleError(f"{where}: shootout is a KDH value, one of "
                              f"{', '.join(SHOOTOUT_VALUES)}")


# --- a week ------------------------------------------------------------------------------------

def fixtures(state: SeasonState, week: int) -> list[Fixture]:
    """The games of ``week``: championship, WG, KDH (in the order they are worked out)."""
    created = state.created
    found: list[Fixture] = []
    if "championship" in created.competitions:
        found += [Fixture("championship", week, week, "", h, a)
                  for h, a in state.schedule.get(week, [])]
    if "wg" in created.competitions and week in created.wg_weeks:
        round_ = created.wg_weeks.index(week) + 1
        if round_ <= wg.GROUP_ROUNDS:
            found += [Fixture("wg", week, round_, group, h, a)
                      for group, h, a in wg.group_games(state.wg_groups, round_)]
        elif ("wg", round_) in state.cup_rounds:
            stages = ["semi-final"] * 2 if round_ == wg.GROUP_ROUNDS + 1 else ["final", "third place"]
            found += [Fixture("wg", week, round_, stage, h, a) for stage, (h, a)
                      in zip(stages, state.cup_rounds[("wg", round_)].games, strict=True)]
    if "kdh" in created.competitions and week in created.kdh_weeks:
        round_ = created.kdh_weeks.index(week) + 1
        cup = state.cup_rounds.get(("kdh", round_))
        if cup is not None:
            teams = 2 * len(cup.games) + len(cup.byes)
            stage = kdh.stage_name(teams, round_ == 1 and bool(kdh.entrants(state)[0]))
            found += [Fixture("kdh", week, round_, stage, h, a) for h, a in cup.games]
    return found


def week_plays(games: list[Fixture]) -> dict[str, list[str]]:
    """Each team's competitions in ``games`` (a week's fixtures), in order."""
    plays: dict[str, list[str]] = {}
    for fx in games:
        for team in (fx.home, fx.away):
            plays.setdefault(team, []).append(fx.competition)
    return plays


def _pick(state: SeasonState, week: int, team: str, competition: str) -> Pick | None:
    return next((p for p in state.picks.get((week, team), []) if p.competition == competition),
                None)


def play_week(state: SeasonState, week: int, source: DieSource) -> list[Any]:
    """Work out every game of ``week`` (once; weeks in order)."""
    if state.closed is not None:
        raise MatrixRuleError(f"{state.season_id} is closed")
    if week in state.weeks_played:
        raise MatrixRuleError(f"week {week} of {state.season_id} is already played")
    if not 1 <= week <= WEEKS:
        raise MatrixRuleError(f"weeks run 1-{WEEKS}, not {week}")
    if week > 1 and week - 1 not in state.weeks_played:
        raise MatrixRuleError(f"week {week - 1} of {state.season_id} is not played yet")
    ref = Referee(state, source)
    ref.emit(WeekStarted(week))
    games = fixtures(ref.state, week)
    plays = week_plays(games)
    entries: dict[tuple[str, str], Entry | None] = {}
    for fx in games:  # the referee's picks: ONR, used picks, dummies (3.1.3, 4)
        for team in (fx.home, fx.away):
            entries[(fx.competition, team)] = onr.entry_for(
                ref, week, team, fx.competition, _pick(ref.state, week, team, fx.competition),
                fx.knockout, plays[team])
    entries = _charge(ref, week, games, entries)
    bonus = _bonus(ref, week, games, entries)
    goals = wg.group_goals(ref)
    for fx in games:
        field = [e for (c, _), e in entries.items() if c == fx.competition and e is not None]
        play_game(ref, fx, entries[(fx.competition, fx.home)], entries[(fx.competition, fx.away)],
                  field, bonus.get(ref.state.teams[fx.home].division, "")
                  if fx.competition == "championship" else "", goals, plays)
    _cups_after(ref, week)
    onr_teams = [t for t in ref.state.team_order()
                 if any(c in ("championship", "wg") and e is not None and e.onr
                        for (c, team), e in entries.items() if team == t)]
    for team in onr_teams:  # 3.3.3: ONR in the WG and the championship counts once
        onr.sanction(ref, week, team)
    ref.emit(WeekEnded(week))
    return ref.events


def _charge(ref: Referee, week: int, games: list[Fixture],
            entries: dict[tuple[str, str], Entry | None]) -> dict[tuple[str, str], Entry | None]:
    """4: extra goals and great saves beyond a team's stock go first to the championship,
    then the WG, last the KDH; the rest are dropped. A forfeit charges nothing."""
    forfeits = {(fx.competition, t) for fx in games for t in (fx.home, fx.away)
                if entries[(fx.competition, fx.home)] is None
                or entries[(fx.competition, fx.away)] is None}
    charged = dict(entries)
    for team in ref.state.team_order():
        stock = ref.state.teams[team]
        left_eg, left_gs = stock.extra_goals, stock.great_saves
        eg: dict[str, int] = {}
        gs: dict[str, int] = {}
        asked_eg = asked_gs = 0
        for competition in COMPETITIONS:
            e = entries.get((competition, team))
            if e is None or (competition, team) in forfeits:
                continue
            asked_eg += e.extra_goals
            asked_gs += e.great_saves
            use_eg, use_gs = min(e.extra_goals, left_eg), min(e.great_saves, left_gs)
            left_eg, left_gs = left_eg - use_eg, left_gs - use_gs
            if use_eg:
                eg[competition] = use_eg
            if use_gs:
                gs[competition] = use_gs
            charged[(competition, team)] = Entry(e.team, e.division, e.column, e.extra_time,
                                                 use_eg, use_gs, e.shootout, e.onr, e.replaced)
        if asked_eg or asked_gs:
            ref.emit(StockCharged(week, team, eg, gs, asked_eg - sum(eg.values()),
                                  asked_gs - sum(gs.values()), "4"))
    return charged


def _bonus(ref: Referee, week: int, games: list[Fixture],
           entries: dict[tuple[str, str], Entry | None]) -> dict[str, str]:
    """2.1.4: one team of each division drawn for the bonus goal; never an ONR team."""
    playing = {t for fx in games if fx.competition == "championship" for t in (fx.home, fx.away)}
    table = ref.state.table.get(week)
    drawn = {}
    for d in ref.state.divisions:
        eligible = [t for t in d.teams if t in playing
                    and not entries[("championship", t)].onr]  # type: ignore[union-attr]
        if not eligible:
            continue
        typed = table.bonus.get(d.id) if table else None
        team, n = ref.dice.pick(f"{d.id} bonus goal", eligible, typed)
        ref.emit(BonusDrawn(week, d.id, team, [n], "2.1.4"))
        drawn[d.id] = team
    return drawn


def _cups_after(ref: Referee, week: int) -> None:
    """The draws a week's cup results call for: the next KDH round (with lucky losers),
    the WG ranking and semi-final draw, the WG final."""
    created = ref.state.created
    if "kdh" in created.competitions and week in created.kdh_weeks:
        round_ = created.kdh_weeks.index(week) + 1
        if ("kdh", round_) in ref.state.cup_rounds:
            kdh.lucky_losers(ref, round_, week)
            through = kdh.advancing(ref.state, round_)
            qualifiers, exempt = kdh.entrants(ref.state)
            if round_ == 1 and qualifiers:  # 3.2.1: the winners join the teams exempted
                through += exempt
            if len(through) > 1 and round_ < len(created.kdh_weeks):
                kdh.draw_round(ref, round_ + 1, created.kdh_weeks[round_], through)
    if "wg" in created.competitions and week in created.wg_weeks:
        round_ = created.wg_weeks.index(week) + 1
        if round_ == wg.GROUP_ROUNDS:
            wg.rank_groups(ref, created.wg_weeks[round_])
        elif round_ == wg.GROUP_ROUNDS + 1:
            wg.draw_final(ref, created.wg_weeks[round_])


# --- close -------------------------------------------------------------------------------------

def close_season(state: SeasonState, source: DieSource) -> list[Any]:
    """Final standings, promotion and relegation, next season's allowances and WG."""
    if state.closed is not None:
        raise MatrixRuleError(f"{state.season_id} is already closed")
    missing = [w for w in range(1, WEEKS + 1) if w not in state.weeks_played]
    if missing:
        raise MatrixRuleError(f"{state.season_id}: weeks {missing} are not played yet")
    ref = Referee(state, source)
    ref.emit(ClosingStarted())
    seasons.rank_divisions(ref)
    m = seasons.moves(ref.state)
    kdh_winner = ""
    kdh_games = [g for g in ref.state.results if g.competition == "kdh"]
    if kdh_games:
        kdh_winner = max(kdh_games, key=lambda g: g.round).winner
    wg_order = seasons.cup_places(ref.state)[2]
    waiting.hand_on_dummies(ref)  # 3.1.3: a dummy plays till the end of the season
    ref.emit(SeasonClosed(m.promoted, m.relegated, seasons.next_divisions(ref.state, m),
                          seasons.allowances(ref.state, m),
                          seasons.next_wg(ref.state) if "wg" in state.created.competitions
                          else [],
                          kdh_winner, wg_order, next_season_id(state), "3.1.6"))
    return ref.events


def next_season_id(state: SeasonState) -> str:
    base = state.season_id.rsplit("-s", 1)[0]
    return f"{base}-s{state.created.season + 1}"


def next_season(state: SeasonState, head_hash: str) -> SeasonOpened:
    """The first event of the season after a closed one: its divisions, allowances and WG
    entrants from :class:`SeasonClosed`; the same matrices, calendar and seed."""
    closed = state.closed
    if closed is None:
        raise MatrixRuleError(f"{state.season_id} is not closed")
    allowance = {a.team: a for a in closed.allowances}
    created = state.created
    divisions = []
    for division_id, teams in closed.next_divisions:
        d = state.division(division_id)
        entries = []
        for number, t in enumerate(teams, start=1):
            new = state.handed_on.get(t)  # a dummy's slot taken from the waiting list
            entries.append(
                TeamEntry(new.new_id, new.new_name, number, new.extra_goals, new.great_saves)
                if new else
                TeamEntry(t, state.teams[t].name, number, allowance[t].extra_goals,
                          allowance[t].great_saves, dummy=state.teams[t].dummy))
        divisions.append((d.id, d.name, d.level, entries))
    next_wg = [state.handed_on[t].new_id if t in state.handed_on else t
               for t in closed.next_wg]
    return SeasonOpened(
        closed.next_season, created.league, created.season + 1, created.seed, divisions,
        dict(state.matrices), list(created.competitions), list(created.kdh_weeks),
        list(created.wg_weeks), next_wg, [tuple(w) for w in state.waiting()], [],
        previous=state.season_id, previous_head=head_hash,
        season_version=created.season_version)  # the closed season's (issue 33)
