"""A toy fifth game system, "coinflip hockey", defined outside rinklog's packages: each of
three periods is one coin flip, heads a goal for the home team, tails for the away team.

It is what docs/systems.md "Adding a system" describes, in one module: its events (tags
namespaced ``toy.``), its rules and registration object, its read models and its kit.
tests/test_toy_system.py adds it to each layer's registry, one line each, and plays it
through the ordinary library calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import msgspec

from engine.dice import derive_faces
from engine.registration import GameSystem
from events.base import Event
from events.common import (
    BranchStarted,
    GameCoachSet,
    GameCreated,
    GameEnded,
    PeriodEnded,
    PeriodStarted,
    RosterEntry,
    SeasonGameOpened,
)
from events.errors import RollError, UnknownTeam
from projections.models.penalties import PenaltyReport
from projections.models.scoresheet import GoalLine, PowerPlay, Scoresheet, TeamLine
from projections.models.stats import GameStats
from projections.models.times import GameTime, Unit
from projections.models.toi import Toi
from projections.registration import ReadModels, SystemProjections
from replay.systems.kit import Kit

NAME = "toy"
PERIODS = 3

# --- events/toy.py ---------------------------------------------------------------------


class CoinFlipped(Event, frozen=True, tag="toy.CoinFlipped"):
    """The n-th flip of the game (0 heads, 1 tails), and what it was flipped for."""

    n: int
    roll: int
    purpose: str


class GoalScored(Event, frozen=True, tag="toy.GoalScored"):
    """A period's goal: heads for home, tails for away (toy rule T1)."""

    side: Literal["home", "away"]
    period: int
    roll: int
    rule: str


ToyEvent = (GameCreated | BranchStarted | SeasonGameOpened | GameCoachSet | CoinFlipped
            | PeriodStarted | PeriodEnded | GameEnded | GoalScored)

# --- engine/toy/ -----------------------------------------------------------------------


class Player(msgspec.Struct, frozen=True):
    id: str
    name: str


class Team(msgspec.Struct, frozen=True):
    id: str
    name: str
    skaters: list[Player]
    goalies: list[Player]


class Charts(msgspec.Struct, frozen=True):
    coin: str = "heads home, tails away"


@dataclass(frozen=True)
class Ruleset:
    name: str = "coinflip"
    version: int = 1
    replays: tuple[int, ...] = ()  # no older version's games to re-check
    title: str = "Coinflip Hockey"
    option_names: tuple[str, ...] = ()


@dataclass
class Step:
    kind: str
    side: str = ""


@dataclass
class State:
    game_id: str
    queue: list[Step] = field(default_factory=list)
    rolls: int = 0
    coach_window: bool = False
    finished: bool = False
    score: dict[str, int] = field(default_factory=lambda: {"home": 0, "away": 0})
    period: int = 0


def initial_state(created: GameCreated, home: Team, away: Team, charts: Charts) -> State:
    steps = [Step("period") for _ in range(PERIODS)] + [Step("end")]
    return State(game_id=created.game_id, queue=steps)


def decide(state: State, roll: int | None) -> list[Event]:
    home, away = state.score["home"], state.score["away"]
    if state.queue[0].kind == "end":
        winner = "home" if home > away else "away"
        return [GameEnded(home_goals=home, away_goals=away, decided="REG", winner=winner)]
    assert roll is not None
    period = state.period + 1
    side: Literal["home", "away"] = "home" if roll == 0 else "away"
    home, away = home + (side == "home"), away + (side == "away")
    return [PeriodStarted(period=period), GoalScored(side=side, period=period, roll=roll,
                                                     rule="T1"),
            PeriodEnded(period=period, home_goals=home, away_goals=away)]


def evolve(state: State, event: Event) -> State:
    if isinstance(event, CoinFlipped):
        state.rolls = event.n
    elif isinstance(event, PeriodStarted):
        state.period = event.period
    elif isinstance(event, GoalScored):
        state.score[event.side] += 1
    elif isinstance(event, (PeriodEnded, GameEnded)):
        state.queue.pop(0)
        state.finished = isinstance(event, GameEnded)
    return state


def derive_roll(seed: str, game_id: str, n: int) -> int:
    return derive_faces(seed, game_id, n, 2, 1)[0]


def parse_roll(text: str) -> int:
    if text.strip() not in ("0", "1"):
        raise RollError(f"not a flip: {text.strip()!r} (0 heads, 1 tails)")
    return int(text)


class Coach:
    def lines(self, state: State) -> list[Event]:
        return []


def check_choice(state: State, event: Event) -> None:
    raise AssertionError("coinflip hockey has no coach choices")


def _roster(team: Team) -> list[RosterEntry]:
    return [*(RosterEntry(p.id, p.name, "C") for p in team.skaters),
            *(RosterEntry(p.id, p.name, "G") for p in team.goalies)]


SYSTEM: GameSystem[State, int, Team, Charts] = GameSystem(
    name=NAME, title="Coinflip Hockey (a toy)", rulesets={"coinflip": Ruleset()},
    event_type=ToyEvent, parse_roll=parse_roll, derive_roll=derive_roll,
    roll_event=CoinFlipped, team_type=Team, roster=_roster, charts_type=Charts,
    initial_state=initial_state, decide=decide, evolve=evolve, check_choice=check_choice,
    rollless_steps=frozenset({"end"}), window_steps=frozenset(),
    window_asks=lambda step, coach: [], choice_rules={},
    choose=lambda state, step, coach: [], max_steps=100,
    choice_events=(), stoppage_choices=(), line_change_event=GoalScored,
    default_coach=Coach,
    why=lambda state, event, rolls: f"toy rule {getattr(event, 'rule', '')}",
    describe=lambda state, event: None, roll_json=lambda roll: {"flip": roll},
    summary=lambda state: dict(state.score), roll_for=lambda state: "the period's goal",
    status=lambda state: f"{state.score['home']}-{state.score['away']}",
    goal_event=GoalScored, penalty_event=GoalScored, play_starts=(PeriodStarted,),
    play_kind=lambda event: "goal" if isinstance(event, GoalScored) else "",
)

# --- projections/toy/ ------------------------------------------------------------------


def build_scoresheet(events: Sequence[Any]) -> Scoresheet:
    created = events[0]
    goals = [e for e in events if isinstance(e, GoalScored)]
    ended = [e for e in events if isinstance(e, GameEnded)]

    def line(side: str) -> TeamLine:
        sheet = created.home if side == "home" else created.away
        by_period = [sum(1 for g in goals if g.side == side and g.period == p)
                     for p in range(1, PERIODS + 1)]
        return TeamLine(team=sheet.team_id, name=sheet.name, goals=sum(by_period),
                        goals_by_period=by_period, shots=by_period, pp=PowerPlay(0, 0),
                        pim=0, blocked=[0] * PERIODS, faceoffs=[0] * PERIODS)

    return Scoresheet(
        game_id=created.game_id, decided=ended[0].decided if ended else None,
        home=line("home"), away=line("away"),
        goals=[GoalLine.timed(GameTime(g.period, PERIODS_UNIT), period=g.period,
                              team=(created.home if g.side == "home"
                                    else created.away).team_id,
                              scorer="", scorer_name="", assists=[], assist_names=[],
                              strength="EV", gwg=False) for g in goals],
        penalties=[], goalies=[], shootout=[])


def build_toy_toi(events: Sequence[Any]) -> Toi:
    """Nobody changes lines in coinflip hockey: no shifts to count."""
    return Toi(game_id=events[0].game_id, players=[], shifts=[])


def build_toy_penalties(events: Sequence[Any], at: int | None = None) -> PenaltyReport:
    """Coinflip hockey has no penalties."""
    return PenaltyReport(game_id=events[0].game_id, at=at, period=0, sequence=0,
                         penalties=[], box=[], running=[], strength={}, sequences=[])


def build_toy_stats(events: Sequence[Any], scoresheet: Scoresheet | None = None) -> GameStats:
    """No player stats: a goal is the coin's, not a player's."""
    stats = GameStats()
    stats.games.append(events[0].game_id)
    return stats


PERIODS_UNIT = Unit(name="periods", show=str, json=int)
"""A toy game's time: the period of a flip (each flip is the whole period)."""

PROJECTIONS = SystemProjections(
    name=NAME, events=ToyEvent,
    read_models=ReadModels(scoresheet=build_scoresheet, toi=build_toy_toi,
                           penalties=build_toy_penalties, stats=build_toy_stats,
                           unit=PERIODS_UNIT))

# --- replay/systems/toy/ ---------------------------------------------------------------

TEAMS = {tid: Team(id=tid, name=f"The {tid}s",
                   skaters=[Player(f"{tid}-1", f"{tid} Skater")],
                   goalies=[Player(f"{tid}-G", f"{tid} Goalie")]) for tid in ("HEA", "TAI")}


def find_team(team_id: str, root: Any = None) -> Team:
    try:
        return TEAMS[team_id]
    except KeyError:
        raise UnknownTeam(f"no coinflip team {team_id!r}") from None


def _unused(*args: Any) -> Any:
    raise AssertionError("not part of the toy test")


KIT = Kit(
    system=NAME, find_team=find_team, list_teams=lambda root: list(TEAMS.values()),
    load_team=_unused, default_charts=lambda root: Charts(),
    game_charts=lambda charts, *options: charts, game_options=lambda names: {},
    leagues_dir=Path("."), check_league_options=_unused, draft_rules=lambda ruleset: None,
    goalie_shares=_unused, calibration_figures=_unused, default_coach_setup=None,
    coach_setup_file=_unused, season_coach=lambda setup: Coach(), prompt_coach=_unused,
    roll_prompt="0 heads, 1 tails",
)
