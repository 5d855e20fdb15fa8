"""Leagues: conferences, divisions and the teams of a season (issue #5).

A league is a folder::

    <league>/league.toml     name, games (a season's games per team), conferences
    <league>/teams/*.toml    the league's teams, in the team format of library.py

``league.toml`` lists ``[[conferences]]``, each with ``[[conferences.divisions]]`` of
``name`` and ``teams`` (team ids). ``load_league`` takes a path (the folder or its
``league.toml``) or the name of a bundled league (``fixtures/bones/leagues/<name>``,
e.g. ``demo``) and checks what one file cannot: every division's ids are teams of the
league, no team is in two divisions or none, team ids are unique, and player ids are
unique across the whole league (events name players by id, so two teams in one game
must not share one). Errors are ``CardError`` one-liners naming the file and field.

``draft_rules = true`` in ``league.toml`` turns on the draft league rules of the rules
text (replay/systems/bones/draft_rules.py): ``load_league`` then refuses a league whose teams break
them, every violation in the one-line message (``rinklog league check`` lists them). A Hockey
Bones draft league also gives ``nhl_gm_range`` (14.51), and its games are played by the
in-game draft rules (the game option ``draft_league``: engine/bones/draft.py).

The folder is a fixtures root: ``find_team(id, loaded.root)`` finds ``root/teams``, and
``simulate(..., fixtures=loaded.root)`` plays the league's teams with the standard
chart pack (a ``charts/standard.toml`` in the folder would replace it).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from engine.league.formats import PlayoffFormat, PlayoffFormatError, parse_playoff_format
from engine.league.formats import divisions_of as format_divisions
from engine.systems import SYSTEMS, system_of
from events.errors import CardError, RinklogError
from replay.data.reading import convert, read_toml, show_path
from replay.games.registry import DEFAULT_RULESET
from replay.systems import DraftRuleError, kit_for, kit_for_system

__all__ = ["SHARED_FIELDS", "Conference", "Division", "League", "LoadedLeague", "WebSettings",
           "bundled_leagues", "league_dir", "league_of_text", "load_league", "playoff_format"]

SHARED_FIELDS = frozenset({"name", "conferences", "games", "ruleset", "options", "playoffs",
                           "web"})
"""The league.toml fields every system's league has; the others are a system's own (Hockey
Bones': overtime, house rule, draft league rules, FaceOff's ``[faceoff]`` table)."""



class Division(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    teams: Annotated[list[str], Meta(min_length=1)]


class Conference(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    divisions: Annotated[list[Division], Meta(min_length=1)]


class WebSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[web]``: the league on the web (docs/web.md). A result a coach submits counts
    once the other team's coach confirms it, or ``confirm_hours`` after it was submitted
    with no dispute."""

    confirm_hours: Annotated[int, Meta(ge=0, le=24 * 365)] = 48


class League(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    conferences: Annotated[list[Conference], Meta(min_length=1)]
    games: Annotated[int, Meta(ge=1, le=200)] = 82  # a season's games per team
    draft_rules: bool = False  # the rules text's draft league rules (replay/systems/bones/draft_rules.py)
    # Hockey Bones 14.51: "Draft leagues use the NHL Game Misconduct Penalty range"; the
    # text prints none, so a Hockey Bones draft league gives it (ruling R-draft-14.51)
    nhl_gm_range: str = ""
    overtime_skaters: Literal[3, 5] = 5  # 5 per the text (6.00); 3 for today's 3-on-3 overtime
    late_penalty_house_rule: bool = False  # the quick reference's house rule (off: the text)
    ruleset: str = DEFAULT_RULESET  # any registered ruleset: "faceoff2008", ...
    # [faceoff]: a FaceOff league's options, a table only the Bones kit reads and checks
    # (replay/systems/bones: FaceOff 6.00, 17.000-21.000)
    faceoff: dict[str, bool | str] = {}
    options: list[str] = []  # the optional rules of another system's ruleset, by name
    # [playoffs]: the postseason's format (docs/postseason.md), checked at load against the
    # conferences and divisions (engine.league.formats); none: the league has no postseason
    playoffs: dict[str, Any] = {}
    web: WebSettings = WebSettings()  # [web]: the league on the web (docs/web.md)

    def __post_init__(self) -> None:
        try:
            system = system_of(self.ruleset)
        except RinklogError as err:
            raise ValueError(str(err)) from None
        unknown = [o for o in self.options if o not in system.rulesets[self.ruleset].option_names]
        if unknown:
            raise ValueError(f"{self.ruleset} has no optional rule {', '.join(unknown)}")
        kit_for(self.ruleset).check_league_options(self)

    def system_settings(self) -> list[str]:
        """The fields beyond :data:`SHARED_FIELDS` this league.toml sets (not left at their
        defaults), by name: what a kit that has none of them refuses."""
        out = []
        for f in msgspec.structs.fields(self):
            if f.name in SHARED_FIELDS:
                continue
            default = f.default if f.default is not msgspec.NODEFAULT else f.default_factory()
            if getattr(self, f.name) != default:
                out.append(f.name)
        return out

    @property
    def team_ids(self) -> list[str]:
        """Every team id in league order (conference, division, listed order)."""
        return [t for c in self.conferences for d in c.divisions for t in d.teams]

    def division_of(self, team_id: str) -> tuple[str, str]:
        """(conference, division) of a team."""
        for c in self.conferences:
            for d in c.divisions:
                if team_id in d.teams:
                    return c.name, d.name
        raise KeyError(team_id)


@dataclass(frozen=True)
class LoadedLeague:
    league: League
    teams: dict[str, Any]  # by id, in league order: the system's team cards
    root: Path  # the league folder: a fixtures root for find_team / simulate
    path: Path = field(default=Path())  # its league.toml
    playoffs: PlayoffFormat | None = None  # [playoffs] resolved for this league; None: none

    @property
    def divisions(self) -> list[tuple[str, str, list[str]]]:
        """(conference, division, team ids) for every division, in league order."""
        return [(c.name, d.name, list(d.teams)) for c in self.league.conferences
                for d in c.divisions]

    @property
    def name(self) -> str:
        return self.league.name


def _bundled() -> dict[str, Path]:
    """The bundled leagues of every system (fixtures/<system>/leagues/<name>), by name."""
    found: dict[str, Path] = {}
    for name in SYSTEMS:
        folder = kit_for_system(name).leagues_dir
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                if (path / "league.toml").is_file():
                    found.setdefault(path.name, path)
    return found


def bundled_leagues() -> list[str]:
    """Names of the leagues shipped with rinklog (every system's)."""
    return sorted(_bundled())


def league_dir(name_or_path: str | Path) -> Path:
    """The folder of a league given as a folder, its league.toml, or a bundled name."""
    path = Path(name_or_path)
    if path.is_file():
        return path.parent
    if (path / "league.toml").is_file():
        return path
    bundled = _bundled()
    if path.name == str(name_or_path) and path.name in bundled:
        return bundled[path.name]
    have = ", ".join(bundled_leagues()) or "none"
    raise CardError(f"{show_path(path)}: no league.toml there and no bundled league of that "
                    f"name (bundled: {have})")


def load_league(name_or_path: str | Path, *, draft_rules: bool | None = None) -> LoadedLeague:
    """Load and check a league and its teams; ``CardError`` on the first fault.

    The draft league rules are checked when ``draft_rules`` is true, or when it is None
    and the league.toml turns them on; ``DraftRuleError`` then names every violation."""
    root = league_dir(name_or_path)
    path = root / "league.toml"
    shown = show_path(path)
    league: League = convert(read_toml(path), League, f"{shown}: ")
    folder = root / "teams"
    files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    if not files:
        raise CardError(f"{show_path(folder)}: no team files (*.toml) for league {league.name!r}")
    kit = kit_for(league.ruleset)
    roster = system_of(league.ruleset).roster
    by_id: dict[str, tuple[Any, Path]] = {}
    for file in files:
        team = kit.load_team(file)
        if team.id in by_id:
            raise CardError(f"{show_path(file)}: field 'id': team id {team.id!r} is also the id "
                            f"of {show_path(by_id[team.id][1])}")
        if file.stem != team.id.lower():
            raise CardError(f"{show_path(file)}: field 'id': team {team.id!r} must be in "
                            f"{team.id.lower()}.toml (find_team looks there)")
        by_id[team.id] = (team, file)
    placed: dict[str, str] = {}
    for ci, conf in enumerate(league.conferences):
        for di, div in enumerate(conf.divisions):
            for ti, tid in enumerate(div.teams):
                where = f"{shown}: field 'conferences[{ci}].divisions[{di}].teams[{ti}]': "
                if tid not in by_id:
                    raise CardError(f"{where}unknown team {tid!r} (teams in "
                                    f"{show_path(folder)}: {', '.join(sorted(by_id))})")
                if tid in placed:
                    raise CardError(f"{where}team {tid!r} is already in division "
                                    f"{placed[tid]!r}")
                placed[tid] = div.name
    for tid, (_, file) in sorted(by_id.items()):
        if tid not in placed:
            raise CardError(f"{shown}: field 'conferences': team {tid!r} ({show_path(file)}) "
                            "is in no division")
    owner: dict[str, str] = {}
    for tid in league.team_ids:
        team, file = by_id[tid]
        seen = {"skater": 0, "goalie": 0}
        for card in roster(team):  # skaters, then goalies, as a team file lists them
            kind = "goalie" if card.position == "G" else "skater"
            index, seen[kind] = seen[kind], seen[kind] + 1
            if card.id in owner:
                raise CardError(f"{show_path(file)}: {kind} {card.id!r} ({card.name}): "
                                f"field '{kind}s[{index}].id': player id {card.id!r} is also "
                                f"on team {owner[card.id]} (player ids must be unique "
                                "across the league)")
            owner[card.id] = tid
    teams = {tid: by_id[tid][0] for tid in league.team_ids}
    playoffs = playoff_format(league, shown)
    checked = league.draft_rules if draft_rules is None else draft_rules
    rules = kit.draft_rules(league.ruleset)  # None: the ruleset has no draft league section
    if checked and rules is not None:
        broken = rules.check(teams, league.games)
        if broken:
            count = f"{len(broken)} draft-rule violation" + ("" if len(broken) == 1 else "s")
            raise DraftRuleError(f"{shown}: field 'draft_rules': {count} (see `rinklog league "
                                 f"check --league {show_path(root)}`): "
                                 + "; ".join(str(v) for v in broken))
    return LoadedLeague(league=league, teams=teams, root=root, path=path, playoffs=playoffs)


def league_of_text(text: str, shown: str) -> League:
    """A ``league.toml``'s text (as a season stored it) read as :func:`load_league` reads
    the file; ``CardError`` naming ``shown`` on a fault."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise CardError(f"{shown}: TOML syntax error: {err}") from None
    return convert(data, League, f"{shown}: ")


def playoff_format(league: League, shown: str) -> PlayoffFormat | None:
    """The league's ``[playoffs]`` table checked against its conferences and divisions
    and resolved (every default filled); None when it has none (no postseason)."""
    if not league.playoffs:
        return None
    rows = [(c.name, d.name, list(d.teams)) for c in league.conferences for d in c.divisions]
    try:
        return parse_playoff_format(league.playoffs, format_divisions(rows))
    except PlayoffFormatError as err:
        raise CardError(f"{shown}: [playoffs] {err}") from None
