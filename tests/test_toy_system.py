"""A toy fifth game system plugs in through the registries only (docs/systems.md, "Adding
a system"): one line per registry, then the ordinary library calls play, store, audit and
fold one game of it, and the audit catches a tampered roll."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
import toy_system as toy
from forge import replace_stream
from setups import simulate

from engine import systems
from events import catalogue
from events.catalogue import open_store
from projections import systems as read_model_registry
from projections.store import rebuild
from replay import systems as kits
from replay.leagues.audit import audit_game


@pytest.fixture
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy system in every layer's registry, one line each (undone after the test)."""
    monkeypatch.setitem(systems.SYSTEMS, toy.NAME, toy.SYSTEM)
    monkeypatch.setitem(catalogue.SYSTEM_EVENTS, toy.NAME, toy.ToyEvent)
    monkeypatch.setitem(catalogue.STREAM_EVENTS, toy.NAME, toy.ToyEvent)
    monkeypatch.setitem(read_model_registry.SYSTEMS, toy.NAME, toy.PROJECTIONS)
    monkeypatch.setitem(kits.KITS, toy.NAME, toy.KIT)
    yield


def test_a_toy_system_plays_stores_audits_and_folds(toy_registered: None, tmp_path: Path) -> None:
    db = tmp_path / "toy.db"
    with open_store(db) as store:
        result = simulate(store, "HEA", "TAI", seed="2026", ruleset="coinflip",
                          game_id="HEA-TAI-1")
        events = store.read("HEA-TAI-1")
        assert store.info("HEA-TAI-1").system == "toy"
    # three periods, one flip each: the score is the flips' sides, each flip the seed's
    flips = [e.event for e in events if isinstance(e.event, toy.CoinFlipped)]
    assert [f.roll for f in flips] == [toy.derive_roll("2026", "HEA-TAI-1", n)
                                       for n in (1, 2, 3)]
    home = sum(1 for f in flips if f.roll == 0)
    assert (result.home_goals, result.away_goals) == (home, 3 - home)
    with open_store(db) as store:
        report = audit_game(store, "HEA-TAI-1")
        assert report.ok, report.failure
    # the scoresheet fold, through the read-model registry and the projection tables
    sheet = read_model_registry.read_models("toy").scoresheet([e.event for e in events])
    assert sheet.home.goals == home and sheet.away.goals == 3 - home
    assert [g.period for g in sheet.goals] == [1, 2, 3] and sheet.decided == "REG"
    assert rebuild(db) >= 1


def test_the_audit_of_a_toy_game_catches_a_tampered_flip(toy_registered: None,
                                                         tmp_path: Path) -> None:
    db = tmp_path / "toy.db"
    with open_store(db) as store:
        simulate(store, "HEA", "TAI", seed="2026", ruleset="coinflip", game_id="HEA-TAI-1")
        events = [e.event for e in store.read("HEA-TAI-1")]
    seq, flip = next((seq, e) for seq, e in enumerate(events, start=1)
                     if isinstance(e, toy.CoinFlipped))
    # a forger turns the first flip over and re-hashes the chain: every hash checks out,
    # the seeded flip does not
    events[seq - 1] = msgspec.structs.replace(flip, roll=1 - flip.roll)
    replace_stream(db, "HEA-TAI-1", events, system=toy.NAME)
    with open_store(db) as store:
        report = audit_game(store, "HEA-TAI-1", read_models=False)
    assert report.failure is not None and report.failure.seq == seq
    assert report.failure.check == "dice", report.failure
