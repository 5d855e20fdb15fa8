"""The projections layer's house (issue 21): each system's folds and registration in its
own package, shared modules that import no system's events, and a game time that is a
number with a unit (stored as the number, shown as MM:SS only at the edges)."""

from __future__ import annotations

import ast
import importlib
import pickle
from pathlib import Path

import pytest
from setups import simulate

from events.bones import ExactTime, GoalScored
from events.common import GameCreated, PeriodStarted, RosterEntry, TeamSheet
from events.dicehockey import PeriodLengthSet
from events.errors import RinklogError
from projections import store as rm
from projections.systems import READ_MODELS, SYSTEMS, read_models_of
from replay.games.game_streams import open_store, read_game

ROOT = Path(__file__).resolve().parent.parent
SYSTEM_PACKAGES = ("events.bones", "events.dicehockey", "events.matrix", "projections.bones",
                   "projections.dicehockey", "projections.matrix", "engine")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {node.module for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and node.module}
    return names | {a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                    for a in node.names}


@pytest.mark.parametrize("path", sorted(
    p.relative_to(ROOT).as_posix() for p in [*ROOT.glob("projections/*.py"),
                                             *ROOT.glob("projections/models/*.py")]
    if p.name != "systems.py"))  # the registry lists the systems, one line each
def test_shared_projection_modules_import_no_system_package(path: str) -> None:
    imported = _imports(ROOT / path)
    assert not {m for m in imported for p in SYSTEM_PACKAGES
                if m == p or m.startswith(p + ".")}, path


def test_each_system_declares_its_registration_in_its_own_package() -> None:
    for name, registration in SYSTEMS.items():
        assert registration is importlib.import_module(f"projections.{name}").PROJECTIONS
        assert registration.name == name
    assert set(READ_MODELS) == {"bones", "dicehockey"}  # Matrix Hockey plays no games
    assert READ_MODELS["bones"].unit.name == "seconds"
    assert READ_MODELS["dicehockey"].unit.name == "timing_spaces"


def test_no_system_folds_import_another_systems() -> None:
    for own, other in (("bones", "dicehockey"), ("dicehockey", "bones")):
        for path in (ROOT / "projections" / own).glob("*.py"):
            assert not {m for m in _imports(path)
                        if m.startswith((f"projections.{other}", f"events.{other}"))}, path


def test_a_goal_time_is_seconds_shown_mm_ss_and_stored_as_the_number() -> None:
    """Hockey Bones 6.10: a goal's exact time (``ExactTime``) is seconds of the period; the
    scoresheet keeps the number, its JSON shows MM:SS, the stored table the number."""
    store = open_store(":memory:")
    result = simulate(store, "HFX", "QUE", seed="house-time", game_id="t1")
    events = read_game(store, result.game_id)
    exact: list[int | None] = []  # per goal: the ExactTime that follows it
    for event in events:
        if isinstance(event, GoalScored):
            exact.append(None)
        elif isinstance(event, ExactTime) and event.kind == "goal" and exact[-1] is None:
            exact[-1] = event.time
    sheet = READ_MODELS["bones"].scoresheet(events)
    assert any(exact)
    assert [g.at.value for g in sheet.goals] == [t or 0 for t in exact]
    for g in sheet.goals:
        assert g.at.unit.name == "seconds"
        assert g.time == f"{g.at.value // 60:02d}:{g.at.value % 60:02d}"
    copied = pickle.loads(pickle.dumps(sheet))  # pickled (or copied), a line keeps its time
    assert [g.at for g in copied.goals] == [g.at for g in sheet.goals]
    rm.update(store)
    stored = [row[0] for row in store.connection.execute(
        "SELECT time FROM rm_scoresheet_goals WHERE game_id = ? ORDER BY n", ("t1",))]
    assert stored == [g.at.value for g in sheet.goals]
    store.close()


def _sheet(team: str) -> TeamSheet:
    return TeamSheet(team_id=team, name=team, card_hash="0" * 64,
                     roster=[RosterEntry(id=f"{team}g", name="G", position="G")])


def test_a_games_read_models_are_found_by_its_systems_own_events() -> None:
    created = GameCreated(game_id="g", ruleset="dicehockey", ruleset_version=1,
                          home=_sheet("H"), away=_sheet("A"), charts_hash="0" * 64,
                          dice="seeded", seed="s")
    dice = [created, PeriodStarted(period=1),
            PeriodLengthSet(period=1, length=20, roll=0, rule="12")]
    assert read_models_of(dice) is READ_MODELS["dicehockey"]
    with pytest.raises(RinklogError, match="no event names the game's system"):
        read_models_of([created, PeriodStarted(period=1)])  # common events only
