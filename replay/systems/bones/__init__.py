"""The Hockey Bones (and FaceOff 2008) tooling kit: its team and chart files
(``library``; ``cardgen`` invents teams), which files ``cards validate`` checks as its own,
the pack a game's FaceOff options call for, its leagues' options and draft league rules,
its calibration figures, its coach files and its prompt coach."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

import replay.systems.bones.calibration as calibration
import replay.systems.bones.draft_rules as draft_rules
from engine.bones.cards import Charts, Team
from engine.bones.coach import DEFAULT_POLICY, CoachPolicy, DefaultCoach
from engine.bones.dice import DiceRange
from engine.bones.rulesets import DRAFT_LEAGUE, PLAYOFF, RULESETS
from events.bones import FaceoffOptions
from replay.data.reading import FIXTURES, describe
from replay.systems.bones.library import (
    charts_faults,
    default_charts,
    find_team,
    list_teams,
    load_arc_cards,
    load_coach,
    load_team,
    team_faults,
    with_arc_cards,
)
from replay.systems.bones.prompt import PromptCoach
from replay.systems.kit import DraftRules, Faults, Kit, first_fault

__all__ = ["KIT"]


def game_charts(charts: Charts, *options: Any) -> Charts:
    """The chart pack a game plays with: with FaceOff's ARC cards added when it uses
    them (21.000), so they are in the pack its first event names. ``options`` are the
    values of this kit's ``game_options`` a game records (FaceOff's, and the options by
    name, ``playoff``, which call for no chart), or the FaceOff options alone."""
    faceoff = next((o for o in options if isinstance(o, FaceoffOptions)), FaceoffOptions())
    if faceoff.arc_cards and charts.arc is msgspec.UNSET:
        return with_arc_cards(charts)
    return charts


def game_options(names: tuple[str, ...]) -> dict[str, Any]:
    """FaceOff's optional rules (17.000-21.000) are recorded as its own GameCreated fields;
    a playoff game (either ruleset, ruling R-6.00c) by name in ``GameCreated.options``."""
    named = tuple(n for n in names if n == PLAYOFF)
    faceoff = FaceoffOptions(**dict.fromkeys((n for n in names if n != PLAYOFF), True))
    return {"faceoff": faceoff, "options": named}  # none: nothing recorded


def faceoff_of(league: Any) -> FaceoffOptions:
    """A league.toml's ``[faceoff]`` table, read as FaceOff's options (ValueError naming the
    field)."""
    try:
        return msgspec.convert(league.faceoff, FaceoffOptions)
    except msgspec.ValidationError as err:
        fields = tuple(FaceoffOptions.__struct_fields__)
        raise ValueError(f"[faceoff] {describe(err, league.faceoff, fields)}") from None


def league_options(league: Any) -> dict[str, Any]:
    """A league's options as this kit records them: FaceOff's, from its ``[faceoff]``, and
    those by name (``options = ["playoff"]``, ruling R-6.00c). A Hockey Bones draft league's
    games are recorded with the option ``draft_league`` and the league's NHL
    game-misconduct range (14.51), which the season keeps with FaceOff's ranges."""
    faceoff, names = faceoff_of(league), tuple(league.options)
    if league.draft_rules and RULESETS[league.ruleset].draft_league_setup:
        faceoff = msgspec.structs.replace(faceoff, nhl_gm_range=league.nhl_gm_range)
        names = (*names, DRAFT_LEAGUE)
    return {"faceoff": faceoff, "options": names}


def check_league_options(league: Any) -> None:
    """A league.toml's Hockey Bones and FaceOff options, against its ruleset."""
    rules = RULESETS[league.ruleset]
    faceoff = faceoff_of(league)
    if faceoff.any and not rules.optional_rules:
        raise ValueError("[faceoff] options need ruleset = \"faceoff2008\"")
    if league.late_penalty_house_rule and not rules.quick_reference:
        raise ValueError(f"{rules.title} has no quick reference house rules")
    nhl = (faceoff.nhl_bench_range, faceoff.nhl_gm_range)
    if rules.draft_nhl_ranges and (league.draft_rules, league.draft_rules) != tuple(map(bool, nhl)):
        # FaceOff 6.00, 14.51: draft leagues use the NHL ranges, and only they.
        raise ValueError("FaceOff 6.00, 14.51: a draft league (draft_rules = true) sets "
                         "the NHL ranges [faceoff] nhl_bench_range and nhl_gm_range, and "
                         "only a draft league does")
    if league.nhl_gm_range and rules.draft_nhl_ranges:
        raise ValueError("FaceOff 6.00, 14.51: a FaceOff draft league sets its NHL ranges in "
                         "[faceoff] (nhl_bench_range, nhl_gm_range), not nhl_gm_range")
    if rules.draft_league_setup and league.draft_rules != bool(league.nhl_gm_range):
        # 14.51: "(Draft leagues use the NHL Game Misconduct Penalty range.)" (ruling
        # R-draft-14.51: the text prints none, the league gives it, and only a draft league)
        raise ValueError(f"{rules.title} 14.51: a draft league (draft_rules = true) uses the "
                         "NHL Game Misconduct range: set nhl_gm_range (a dice range such as "
                         '"1-7"), and only a draft league does')
    for text in filter(None, nhl):
        DiceRange.parse(text)
    if league.nhl_gm_range:
        try:
            DiceRange.parse(league.nhl_gm_range)
        except ValueError as err:
            raise ValueError(f"nhl_gm_range: {err}") from None


_DRAFT_RULES = DraftRules(title="the draft league rules of the Hockey Bones text",
                          checked=draft_rules.CHECKED_RULES, check=draft_rules.check_league)


def _draft_rules(ruleset: str) -> DraftRules | None:
    # FaceOff has no draft league section: its draft leagues only use the NHL ranges.
    return _DRAFT_RULES if RULESETS[ruleset].draft_league_setup else None


def goalie_shares(team: Team) -> list[tuple[str, int]]:
    """The goalies who share a season's starts (4.00) with their cards' games."""
    return [(g.id, g.games) for g in draft_rules.starting_goalies(team)]


def recognise(path: Path, data: Mapping[str, Any]) -> Faults | None:
    """``cards validate``: a team (``skaters``; every fault of its cards and lines), a
    chart pack (``faceoffs``; every fault) or FaceOff's ARC cards (``cards``, 21.000)."""
    if "skaters" in data and "timing" not in data:  # a timing rating: DICE Hockey's (12)
        return lambda: team_faults(dict(data), path)[1]
    if "faceoffs" in data:
        return lambda: charts_faults(dict(data), path)[1]
    if "cards" in data:
        return first_fault(load_arc_cards, path)
    return None



def season_coach(setup: tuple[CoachPolicy, CoachPolicy]) -> DefaultCoach:
    return DefaultCoach(*setup)


KIT = Kit(system="bones", recognise=recognise, find_team=find_team,
          list_teams=list_teams, load_team=load_team, default_charts=default_charts,
          game_charts=game_charts, game_options=game_options,
          leagues_dir=Path(FIXTURES) / "bones" / "leagues",
          check_league_options=check_league_options, draft_rules=_draft_rules,
          goalie_shares=goalie_shares, calibration_figures=calibration.game_figures,
          default_coach_setup=(DEFAULT_POLICY, DEFAULT_POLICY),
          coach_setup_file=load_coach, season_coach=season_coach,
          prompt_coach=PromptCoach, roll_prompt="blue white white red",
          has_shootout=lambda ruleset: RULESETS[ruleset].shootout,
          league_options=league_options)
