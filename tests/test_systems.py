"""The game-system seam: tooling finds a stream's system in the registry."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.systems import SEASON_SYSTEMS, SYSTEMS, find_system, system_of
from events.catalogue import ALL_EVENTS, LEAGUE, LEAGUE_EVENTS, STREAM_EVENTS, SYSTEM_EVENTS
from events.errors import RinklogError

ROOT = Path(__file__).resolve().parent.parent
# Tooling that works on any system's streams: it asks the registry, never a system package.
SYSTEM_BLIND = ["replay/leagues/audit.py", "replay/leagues/audit_stream.py",
                "replay/leagues/audit_report.py", "replay/games/refold.py",
                "replay/games/session.py", "replay/leagues/transfer.py",
                "replay/games/game_streams.py", "replay/games/explain.py",
                "replay/games/game_setup.py", "replay/games/registry.py",
                "replay/cli/core.py", "replay/cli/cards.py",
                "replay/cli/app.py", "replay/cli/common.py", "replay/cli/tooling.py",
                "replay/cli/projections.py", "replay/cli/season.py",
                "replay/systems/__init__.py", "replay/systems/kit.py",
                "replay/leagues/validate.py", "replay/data/reading.py",
                "replay/leagues/league.py", "replay/leagues/runner.py",
                "replay/leagues/stored_seasons.py", "replay/leagues/calibrate.py",
                "replay/leagues/schedule.py", "replay/leagues/ledger.py",
                "replay/leagues/audit_season.py", "replay/cli/reports.py",
                *[f"replay/reports/{name}.py" for name in (
                    "__init__", "pages", "games", "game_page", "shift_chart", "plots", "units",
                    "render", "season_site")]]


def test_every_ruleset_belongs_to_one_registered_system() -> None:
    owners = [s.name for s in SYSTEMS.values() for _ in s.rulesets]
    rulesets = [r for s in SYSTEMS.values() for r in s.rulesets]
    assert len(rulesets) == len(set(rulesets)) == len(owners)
    assert {"bones", "faceoff2008", "dicehockey"} <= set(rulesets)
    for system in SYSTEMS.values():
        assert find_system(system.name) is system
        assert all(system_of(r) is system for r in system.rulesets)
        assert system.event_type is SYSTEM_EVENTS[system.name]


def test_the_store_decodes_every_system_and_the_league_streams() -> None:
    """What a stream's ``system`` may name: every registered game system, every refereed
    season system (Matrix Hockey), and ``league`` (season streams), a name no system may
    take."""
    assert LEAGUE not in SYSTEMS and LEAGUE not in SYSTEM_EVENTS
    assert not set(SYSTEMS) & set(SEASON_SYSTEMS)
    assert set(STREAM_EVENTS) == {*SYSTEMS, *SEASON_SYSTEMS, LEAGUE}
    assert STREAM_EVENTS[LEAGUE] is LEAGUE_EVENTS
    assert all(STREAM_EVENTS[name] is s.event_type
               for name, s in {**SYSTEMS, **SEASON_SYSTEMS}.items())


def test_unknown_systems_and_rulesets_are_one_line_errors() -> None:
    with pytest.raises(RinklogError, match="unknown game system 'chess'"):
        find_system("chess")
    with pytest.raises(RinklogError, match="unknown ruleset 'nhl94'"):
        system_of("nhl94")


def test_event_tags_never_clash_between_systems() -> None:
    import msgspec

    from events import common

    shared = {name for name, value in vars(common).items()
              if isinstance(value, type) and issubclass(value, common.Event)}
    tags: dict[str, str] = {}
    for name, union in SYSTEM_EVENTS.items():
        for member in msgspec.inspect.type_info(union).types:
            tag = member.tag
            assert tags.setdefault(tag, name) == name or tag in shared | {"SeasonCreated"}
    assert msgspec.inspect.type_info(ALL_EVENTS).types


@pytest.mark.parametrize("path", SYSTEM_BLIND)
def test_system_blind_tooling_imports_no_system_package(path: str) -> None:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
    assert not {m for m in imported if m.startswith(("engine.bones", "events.bones",
                                                      "engine.matrix", "events.matrix",
                                                      "replay.systems.matrix",
                                                      "replay.systems.bones",
                                                      "replay.systems.dicehockey"))}


def test_a_game_systems_roll_event_is_made_by_position_n_roll_purpose() -> None:
    # engine.loop makes the roll event by position: a system whose roll event has its
    # fields in another order would record the roll under the wrong names
    import dataclasses

    from events.base import Event

    for system in SYSTEMS.values():
        assert system.roll_event.__struct_fields__[:3] == ("n", "roll", "purpose")

    class Misordered(Event, frozen=True, tag="test.Misordered"):
        roll: int
        n: int
        purpose: str

    with pytest.raises(TypeError, match="roll event's first fields are"):
        dataclasses.replace(SYSTEMS["bones"], roll_event=Misordered)
