"""A game setup: what a game is played with, as one value built once and passed whole.

The CLI (``sim``, ``play``) or a league's season builds a :class:`GameSetup` once (the
ruleset looked up once, a league loaded once) and hands it to
:func:`replay.games.game_streams.create_game`, ``play_game``, ``simulate`` and
:func:`replay.leagues.runner.run_season`, which read its fields and never look the
ruleset up again. Its :class:`GameOptions` are opaque to that shared code: they are
recorded in a game's (or a season's) first event and pick its chart pack only through
the methods of GameOptions and the system's kit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msgspec import UNSET, Raw

from engine.dice import DiceSource, ManualDice, SeededDice
from engine.systems import GameSystem, system_of
from events.errors import RinklogError
from replay.systems import Kit, kit_for_system

__all__ = ["Dice", "GameOptions", "GameSetup", "game_setup",
           "league_setup"]

@dataclass(frozen=True)
class GameOptions:
    """A game's options as its first event records them: a league's overtime (6.00), the
    quick reference's late-penalty house rule, and the system's optional rules. Shared
    tooling passes them whole and reads nothing of ``system``: that is the system kit's
    own record of its optional rules (``Kit.game_options``; its keywords are the fields
    of a league.toml and of a SeasonCreated that hold them), which only these methods
    pass on and only the kit reads (for its chart pack)."""

    overtime_skaters: int = 5
    late_penalty_house_rule: bool = False
    system: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def named(cls, kit: Kit, names: Sequence[str], *, overtime_skaters: int = 5,
              late_penalty_house_rule: bool = False) -> GameOptions:
        """Options from optional rules named on the command line (the kit says how they
        are recorded)."""
        return cls(overtime_skaters, late_penalty_house_rule,
                   dict(kit.game_options(tuple(sorted(set(names))))))

    @classmethod
    def of_season(cls, system: GameSystem, kit: Kit, season: Any) -> GameOptions:
        """The options a stored season's games record (its SeasonCreated's): a field the
        system keeps as raw bytes (FaceOff's options) read back through the system."""
        kept: dict[str, Any] = {}
        for key in kit.game_options(()):
            value = getattr(season, key)
            if value is not UNSET:
                kept[key] = (system.league_options(season) if isinstance(value, Raw)
                             else value)
        return cls(season.overtime_skaters, season.late_penalty_house_rule, kept)

    @classmethod
    def of_league(cls, kit: Kit, league: Any, same_ruleset: bool = True) -> GameOptions:
        """The options every game of a league records (its league.toml's); played under
        another ruleset (``calibrate --ruleset``), none of its system's optional rules."""
        return cls(league.overtime_skaters, league.late_penalty_house_rule,
                   {**kit.game_options(()), **kit.league_options(league)}
                   if same_ruleset else {})

    def created_fields(self) -> dict[str, Any]:
        """The GameCreated fields that record them (an option that is off adds nothing to
        the event's bytes): a system's value that knows its fields says them, optional
        rules by name are recorded by name."""
        fields: dict[str, Any] = {"overtime_skaters": self.overtime_skaters,
                                  "late_penalty_house_rule": self.late_penalty_house_rule}
        for key, value in self.system.items():
            if hasattr(value, "created_fields"):
                fields.update(value.created_fields())
            elif value:
                fields[key] = sorted(set(value))
        return fields

    def season_fields(self, system: GameSystem, format: int) -> dict[str, Any]:
        """The SeasonCreated fields that record them, in the season stream's payload
        ``format`` (left UNSET when off: unchanged bytes); a system's own options value
        is written by the system (``GameSystem.league_field``)."""
        fields: dict[str, Any] = {"overtime_skaters": self.overtime_skaters,
                                  "late_penalty_house_rule": self.late_penalty_house_rule}
        for key, value in self.system.items():
            if hasattr(value, "created_fields"):
                fields[key] = system.league_field(value, format)
            elif value:
                fields[key] = sorted(set(value))
        return fields

    def game_charts(self, kit: Kit, charts: Any) -> Any:
        """The chart pack a game with these options plays with (FaceOff's ARC cards added
        when it uses them, 21.000), as the system's kit says."""
        return kit.game_charts(charts, *(self.system or kit.game_options(())).values())


@dataclass(frozen=True)
class Dice:
    """Where a game's rolls come from: seeded dice (``seed``, derived per game id), typed
    lines (``rolls``, e.g. a file, ``origin`` naming it in errors) or any live source
    (``source``: a person typing at a prompt)."""

    seed: str | None = None
    rolls: tuple[str, ...] | None = None
    origin: str = "rolls"
    source: DiceSource | None = None

    @property
    def typed(self) -> bool:
        """Typed or live dice: the game records no seed."""
        return self.rolls is not None or self.source is not None or self.seed is None

    def for_game(self, system: GameSystem, game_id: str) -> DiceSource:
        """The dice source of the game ``game_id``."""
        if self.source is not None:
            return self.source
        if self.rolls is not None:
            return ManualDice(list(self.rolls), self.origin, system.parse_roll)
        return SeededDice(str(self.seed), game_id, system.derive_roll)


@dataclass(frozen=True)
class GameSetup:
    """What a game (or every game of a season) is played with: the ruleset and its system
    (looked up once), the teams (a game's two, or a league's, by id), the chart pack the
    options call for, the options, the coach setup (the kit's: a coach file's, or None for
    the system's default coach) and the dice."""

    system: GameSystem
    ruleset: str
    teams: Mapping[str, Any]
    charts: Any
    options: GameOptions = field(default_factory=GameOptions)
    coach: Any = None
    dice: Dice = field(default_factory=Dice)

    @property
    def kit(self) -> Kit:
        return kit_for_system(self.system.name)

    @property
    def rules(self) -> Any:
        """The ruleset's rules (its name, version, title and optional rules)."""
        return self.system.rulesets[self.ruleset]

    def team(self, team_id: str) -> Any:
        try:
            return self.teams[team_id]
        except KeyError:
            raise RinklogError(f"no team {team_id!r} in this setup "
                               f"(teams: {', '.join(self.teams)})") from None

    def matchup(self) -> tuple[Any, Any]:
        """A one game's setup's two teams, home first (as :func:`game_setup` built it)."""
        home, away = self.teams.values()
        return home, away

    def game_coach(self) -> Any:
        """The coach of one game: the system's default coach built from the setup's coach
        setup, or None (the system's plain default coach)."""
        return None if self.coach is None else self.kit.season_coach(self.coach)


def game_setup(ruleset: str, home_id: str, away_id: str, *,
               league: Any = None, fixtures: str | Path | None = None,
               optional_rules: Sequence[str] = (), late_penalty_house_rule: bool = False,
               coach_file: Path | None = None, dice: Dice | None = None) -> GameSetup:
    """The setup of one game between two teams: the ruleset looked up once, the coach
    file read, the league (a loaded league.toml, replay/leagues/league.py: its teams'
    folder, its overtime and house rule), the teams and the chart pack loaded once; the
    optional rules (checked names) are recorded as the system's kit says. Without a
    league, the teams come from ``fixtures`` (None: the shipped fixtures)."""
    system = system_of(ruleset)
    kit = kit_for_system(system.name)
    coach = kit.coach_setup_file(coach_file) if coach_file is not None else None
    overtime_skaters = 5  # the text's overtime (6.00), unless the league sets its own
    if league is not None:
        fixtures, overtime_skaters = league.root, league.league.overtime_skaters
        late_penalty_house_rule = late_penalty_house_rule or league.league.late_penalty_house_rule
    home, away = kit.find_team(home_id, fixtures), kit.find_team(away_id, fixtures)
    if home.id == away.id:
        raise RinklogError(f"a team cannot play itself: {home.id}")
    options = GameOptions.named(kit, optional_rules, overtime_skaters=overtime_skaters,
                                late_penalty_house_rule=late_penalty_house_rule)
    charts = options.game_charts(kit, kit.default_charts(fixtures))
    return GameSetup(system, ruleset, {home.id: home, away.id: away}, charts, options,
                     coach, dice or Dice())


def league_setup(loaded: Any, *, ruleset: str | None = None,
                 coach_file: Path | None = None) -> GameSetup:
    """The setup of every game of a loaded league's season: its teams, its chart pack (as
    its options call for it), its options; ``coach_file`` a coach file for every team."""
    ruleset = ruleset or loaded.league.ruleset
    system = system_of(ruleset)
    kit = kit_for_system(system.name)
    coach = kit.coach_setup_file(coach_file) if coach_file is not None else None
    options = GameOptions.of_league(kit, loaded.league, ruleset == loaded.league.ruleset)
    charts = options.game_charts(kit, kit.default_charts(loaded.root))
    return GameSetup(system, ruleset, dict(loaded.teams), charts, options, coach)
