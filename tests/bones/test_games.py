"""Whole seeded games: determinism, replay equals live, and a snapshot of one game."""

from __future__ import annotations

import itertools

import msgspec
import pytest
from forge import audit_forged
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from setups import simulate

from engine.bones.rulesets import RULESETS
from events.bones import NO_FACEOFF_OPTIONS, DiceRolled, FaceoffOptions, Roll
from events.common import GameEnded
from events.errors import RinklogError
from replay.games.game_streams import load_inputs, open_store, read_game
from replay.games.refold import recheck

_games = itertools.count()


def test_same_seed_same_stream(tmp_path):
    heads = []
    for name in ("a.db", "b.db"):
        with open_store(tmp_path / name) as db:
            heads.append(simulate(db, "HFX", "QUE", seed="2026").head_hash)
    assert heads[0] == heads[1]


def test_other_seed_other_stream(store):
    first = simulate(store, "HFX", "QUE", seed="2026")
    second = simulate(store, "HFX", "QUE", seed="2027")
    assert first.head_hash != second.head_hash


def test_game_id_already_present_is_refused(store):
    simulate(store, "HFX", "QUE", seed="7")
    with pytest.raises(RinklogError, match="already in the database"):
        simulate(store, "HFX", "QUE", seed="7")
    assert len(store.streams()) == 1


# Every registered ruleset, and FaceOff with all its options on (17.000-21.000).
VARIANTS = [(name, NO_FACEOFF_OPTIONS) for name in RULESETS] + [
    ("faceoff2008", FaceoffOptions(fatigue=True, injuries=True, pressure_offense=True,
                                   checking_game=True, arc_cards=True))]
VARIANT_IDS = [*RULESETS, "faceoff2008-options"]


@pytest.mark.parametrize(("ruleset", "options"), VARIANTS, ids=VARIANT_IDS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_replay_reproduces_every_decision(store, ruleset, options, seed):
    result = simulate(store, "WPG", "SAS", seed=str(seed), game_id=f"g{next(_games)}",
                      ruleset=ruleset, faceoff=options)
    events = read_game(store, result.game_id)
    assert isinstance(events[-1], GameEnded)
    assert recheck(events, *load_inputs(store, events[0])) is None
    assert events[0].ruleset == ruleset


@pytest.mark.parametrize(("ruleset", "options"), VARIANTS, ids=VARIANT_IDS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=10**6), pick=st.integers(min_value=0))
def test_a_changed_die_is_caught_at_or_after_it(store, ruleset, options, seed, pick):
    result = simulate(store, "HFX", "SAS", seed=str(seed), game_id=f"g{next(_games)}",
                      ruleset=ruleset, faceoff=options)
    events = read_game(store, result.game_id)
    rolls = [i for i, e in enumerate(events) if isinstance(e, DiceRolled)]
    index = rolls[pick % len(rolls)]
    rolled = events[index]
    assert isinstance(rolled, DiceRolled)
    other_red = rolled.roll.red % 6 + 1
    other_blue = rolled.roll.blue % 6 + 1
    tampered = list(events)
    tampered[index] = msgspec.structs.replace(
        rolled, roll=Roll(other_blue, rolled.roll.whites, other_red))
    mismatch = recheck(tampered, *load_inputs(store, events[0]))
    # The rules alone: a changed die may by chance lead to the same decisions; when it
    # does not, the first difference is never before the changed roll.
    assert mismatch is None or mismatch.seq > index
    # The whole audit: the seeded derivation catches the die at its own event, always,
    # even with the chain re-hashed.
    report = audit_forged(store, result.game_id, tampered)
    assert report.failure is not None
    assert (report.failure.check, report.failure.seq) == ("dice", index + 1)


def test_whole_game_snapshot(store, snapshot, playthrough):
    result = simulate(store, "HFX", "QUE", seed="snapshot-1")
    events = [msgspec.to_builtins(e) for e in read_game(store, result.game_id)]
    assert events == playthrough
    assert result.head_hash == snapshot(name="head_hash")


def test_whole_game_snapshot_faceoff2008(store, snapshot, playthrough):
    """A FaceOff 2008 playthrough: any change to how FaceOff plays is a visible diff."""
    result = simulate(store, "HFX", "QUE", seed="snapshot-1", ruleset="faceoff2008")
    events = [msgspec.to_builtins(e) for e in read_game(store, result.game_id)]
    assert events[0]["ruleset"] == "faceoff2008"
    assert events == playthrough
    assert result.head_hash == snapshot(name="head_hash")


def test_teams_sharing_a_player_id_are_refused(tmp_path, store):
    import shutil

    from events.errors import RinklogError
    from replay.data.reading import FIXTURES

    root = tmp_path / "fixtures"
    shutil.copytree(FIXTURES / "bones", root / "bones")
    que = root / "bones" / "teams" / "que.toml"
    que.write_text(que.read_text().replace("teo-esker", "teo-eskola"))
    with pytest.raises(RinklogError, match="share player ids: teo-eskola"):
        simulate(store, "HFX", "QUE", seed="1", fixtures=root)
    assert store.streams() == []


def test_faceoff_optional_rules_off_leave_no_trace_on_they_play(store):
    """FaceOff 17.000-21.000: with every option off a game has no injury check, tactic,
    ARC draw or shootout; with them on (and a coach who presses when behind) they show."""
    from engine.bones.coach import CoachPolicy
    from events.bones import ArcChecked, InjuryChecked, ShootoutAttempt, ShootoutOrderChosen, TacticDeclared

    optional = {InjuryChecked, TacticDeclared, ArcChecked}
    for seed in range(3):
        result = simulate(store, "HFX", "QUE", seed=f"off{seed}", ruleset="faceoff2008")
        kinds = {type(e) for e in read_game(store, result.game_id)}
        assert not kinds & (optional | {ShootoutOrderChosen, ShootoutAttempt})
    presses = CoachPolicy(tactic_when_behind="pressure")
    seen: set[type] = set()
    for seed in range(6):
        result = simulate(store, "HFX", "QUE", seed=f"on{seed}", ruleset="faceoff2008",
                          faceoff=VARIANTS[-1][1], coach=(presses, presses))
        events = read_game(store, result.game_id)
        seen |= {type(e) for e in events} & optional
        assert recheck(events, *load_inputs(store, events[0])) is None  # audit re-decides
        assert all(e.rule == "19.000" for e in events if isinstance(e, TacticDeclared))
    assert seen == optional
