"""The DICE Hockey tooling kit: its team and chart files (``library``; ``cardgen`` invents
teams), which files ``cards validate`` checks as its own, its leagues (no draft league
rules: the text has none), goalie shares, calibration figures, coach and the prompt coach
of ``rinklog play``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.dicehockey.cards import Charts, Team
from engine.dicehockey.coach import DefaultCoach
from events import dicehockey as ev
from replay.data.reading import FIXTURES
from replay.systems.dicehockey.library import (
    dicehockey_charts,
    find_dicehockey_team,
    list_dicehockey_teams,
    load_dicehockey_charts,
    load_dicehockey_team,
)
from replay.systems.dicehockey.prompt import PromptCoach
from replay.systems.kit import Faults, Kit, Root, first_fault

__all__ = ["KIT"]


def list_teams(root: Root = None) -> list[Team]:
    return [find_dicehockey_team(team_id, root) for team_id in list_dicehockey_teams(root)]


def game_options(names: tuple[str, ...]) -> dict[str, Any]:
    """DICE Hockey's optional rules are recorded by name (GameCreated.options)."""
    return {"options": names}


def check_league_options(league: Any) -> None:
    """A DICE Hockey league has none of Hockey Bones' or FaceOff's options."""
    if league.faceoff or league.late_penalty_house_rule or league.draft_rules \
            or league.overtime_skaters != 5:
        raise ValueError("DICE Hockey leagues take no [faceoff] options, house rule, draft "
                         "rules or overtime_skaters (DICE Hockey 13 sets its own overtime)")


def goalie_shares(team: Team) -> list[tuple[str, int]]:
    """The goalies who share a season's starts (9: the starter, and the backup) with an
    equal weight each for those the lines name: the cards carry no games played."""
    return [(g.id, 0) for g in team.goalies if g.id in team.lines.goalies]


def calibration_figures(events: list[Any], charts: Charts) -> dict[str, float]:
    """The DICE Hockey figures of one game beyond the scoresheet's."""
    return {
        "injuries": sum(1 for e in events if isinstance(e, ev.GamesMissedRolled) and e.games),
        "majors": sum(1 for e in events if isinstance(e, ev.PenaltyAssessed)
                      and e.kind == "major"),
        "game_misconducts": sum(1 for e in events if isinstance(e, ev.PenaltyAssessed)
                                and e.kind == "game_misconduct"),
    }


def recognise(path: Path, data: Mapping[str, Any]) -> Faults | None:
    """``cards validate``: a team (``skaters`` with a ``timing`` rating, 12) or a chart pack
    (``penalty_a``); each loader raises its first fault."""
    if "skaters" in data and "timing" in data:
        return first_fault(load_dicehockey_team, path)
    if "penalty_a" in data:
        return first_fault(load_dicehockey_charts, path)
    return None


def _no_coach_file(path: Path) -> Any:
    raise ValueError(f"{path}: DICE Hockey's coach takes no coach file")


KIT = Kit(system="dicehockey", recognise=recognise, find_team=find_dicehockey_team, list_teams=list_teams,
          load_team=load_dicehockey_team, default_charts=dicehockey_charts,
          game_charts=lambda charts, options: charts, game_options=game_options,
          leagues_dir=Path(FIXTURES) / "dicehockey" / "leagues",
          check_league_options=check_league_options, draft_rules=lambda ruleset: None,
          goalie_shares=goalie_shares, calibration_figures=calibration_figures,
          default_coach_setup=(), coach_setup_file=_no_coach_file,
          season_coach=lambda setup: DefaultCoach(), prompt_coach=PromptCoach,
          roll_prompt="red white",
          league_options=lambda league: {"options": tuple(league.options)})
