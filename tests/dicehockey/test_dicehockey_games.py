"""Whole DICE Hockey games through the one engine loop: they end (REG, OT or SO as 13
and 14 allow), replay equals live, the audit's way of driving ``steps`` reproduces every
batch, and the store keeps the namespaced tags."""

from __future__ import annotations

import functools
import sqlite3

import msgspec
import pytest
from dicehockey_support import created
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dice import RecordedDice, SeededDice
from engine.dicehockey import game
from engine.dicehockey.coach import DefaultCoach
from engine.dicehockey.dice import derive_roll
from engine.dicehockey.system import SYSTEM
from engine.systems import find_system, system_of
from events import dicehockey as ev
from events.catalogue import open_store
from events.common import GameEnded
from events.formats import FORMATS, decoder, encoder
from replay.systems.dicehockey.library import (
    dicehockey_charts,
    find_dicehockey_team,
    list_dicehockey_teams,
)

TEAMS = list_dicehockey_teams()


def start(home: str, away: str, seed: str, game_id: str, options=None):
    made = created(game_id=game_id, seed=seed, options=options)
    state = game.initial_state(made, find_dicehockey_team(home), find_dicehockey_team(away),
                               dicehockey_charts())
    return made, state


@functools.cache
def play(home: str, away: str, seed: str, options: tuple[str, ...] = ()):
    made, state = start(home, away, seed, f"{home}-{away}", list(options) or None)
    batches = list(SYSTEM.steps(state, SeededDice(seed, made.game_id, derive_roll),
                              DefaultCoach()))
    return made, state, batches


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(min_size=1, max_size=8), home=st.sampled_from(TEAMS),
       away=st.sampled_from(TEAMS), options=st.sets(st.sampled_from(
           ["forward_defense", "learning_game", "playoff"])))
def test_a_seeded_game_ends_and_replay_equals_live(seed, home, away, options) -> None:
    made, live, batches = play(home, away, seed, tuple(sorted(options)))
    events = [e for batch in batches for e in batch]
    assert live.finished and isinstance(events[-1], GameEnded)
    end = events[-1]
    allowed = {"REG", "OT"} if "playoff" in options else {"REG", "OT", "SO"}  # 13, 14
    assert end.decided in allowed
    assert end.home_goals != end.away_goals and end.winner in ("home", "away")
    _, folded = start(home, away, seed, made.game_id, sorted(options) or None)
    for event in events:
        game.evolve(folded, event)
    assert folded == live


@pytest.mark.parametrize("seed", ["2026", "dice", "summit"])
def test_the_audit_drive_reproduces_every_batch(seed: str) -> None:
    """The audit feeds ``steps`` the recorded rolls and a coach replaying the recorded
    choices, and compares every batch with the stream."""
    made, _, batches = play("ALD", "BRK", seed)
    rolls = [e.roll for b in batches for e in b if isinstance(e, ev.DiceRolled)]
    recorded: dict[int, list] = {}  # rolls made before it -> the coaches' batch
    made_so_far = 0
    for batch in batches:
        if isinstance(batch[0], ev.CHOICES):
            recorded[made_so_far] = batch
        made_so_far += sum(isinstance(e, ev.DiceRolled) for e in batch)

    class Replaying:
        def lines(self, state):
            batch = recorded.get(state.rolls, [])
            return [] if batch and isinstance(batch[0], ev.ShootoutShootersChosen) \
                else recorded.pop(state.rolls, [])

        def shootout(self, state):
            return recorded.pop(state.rolls)[0]

    _, state = start("ALD", "BRK", seed, made.game_id)
    again = list(SYSTEM.steps(state, RecordedDice(rolls), Replaying()))
    assert again == batches


def test_a_full_game_looks_like_hockey() -> None:
    made, state, batches = play("CDV", "DRF", "looks")
    events = [e for batch in batches for e in batch]
    shots = [e for e in events if isinstance(e, ev.ShotTaken)]
    goals = [e for e in events if isinstance(e, ev.GoalScored)]
    spaces = [e for e in events if isinstance(e, ev.TimingSpaceCounted)]
    assert 25 <= len(shots) <= 120 and len(goals) < 20
    per_period = {e.period: e.space for e in spaces}
    regular = state.regular_length
    assert all(per_period[p] >= regular for p in (1, 2, 3))
    assert all(e.rule for e in events if hasattr(e, "rule"))
    rolled = [e.n for e in events if isinstance(e, ev.DiceRolled)]
    assert rolled == list(range(1, len(rolled) + 1)) and rolled[-1] == state.rolls


# The event that settles each roll, by the roll's purpose (the step it was made for).
SETTLED_BY = {
    "faceoff": ev.FaceoffWon, "pass": ev.PassRolled, "shot": ev.ShotTaken,
    "turnover": ev.TurnoverRolled, "dump": ev.PuckDumped, "en_attempt": ev.PuckDumped,
    "penalty_who": (ev.PenaltyCalled, ev.PenaltyTied), "penalty_what": ev.InfractionRolled,
    "special": ev.SpecialPlayRolled, "fight": ev.FightRolled,
    "games_missed": ev.GamesMissedRolled, "suspension": ev.SuspensionRolled,
    "so_card": ev.ShootoutCardRolled, "so_shot": ev.ShootoutAttempt,
}


@pytest.mark.parametrize("seed", [str(n) for n in range(24)])
def test_9_every_roll_is_played_as_the_step_it_was_rolled_for(seed: str) -> None:
    """9: "State that you are dumping the puck and then roll the dice": a roll made for a
    dump (chosen, 21B, or forced after more than two possessions, ruling R-DH-9e) is a
    dump, never read as a pass; and so for every step. Over 24 seeded games the forced
    dump comes up a few times a game."""
    home, away = TEAMS[int(seed) % len(TEAMS)], TEAMS[(int(seed) * 3 + 1) % len(TEAMS)]
    _, _, batches = play(home, away, seed)
    dumps = 0
    for batch in batches:
        if isinstance(batch[0], ev.DiceRolled):
            purpose = batch[0].purpose
            assert len(batch) > 1 and isinstance(batch[1], SETTLED_BY[purpose]), \
                (purpose, batch[1:2])
            dumps += purpose == "dump"
    assert dumps


def test_every_decision_names_its_roll() -> None:
    _, _, batches = play("ELM", "FRN", "rolls")
    for batch in batches:
        n = batch[0].n if isinstance(batch[0], ev.DiceRolled) else 0
        decisions = [e for e in batch if not isinstance(e, (ev.DiceRolled, *ev.CHOICES))]
        assert all(e.roll == n for e in decisions if hasattr(e, "roll"))
        assert all(hasattr(e, "rule") for e in decisions
                   if type(e).__module__ == "events.dicehockey")


def test_the_registry_finds_dice_hockey_and_its_loop() -> None:
    system = find_system("dicehockey")
    assert system_of("dicehockey") is system is SYSTEM and system.decide is game.decide
    assert system.roll_event is ev.DiceRolled and system.derive_roll("s", "g", 1) == \
        derive_roll("s", "g", 1)
    rolled = ev.DiceRolled(n=1, roll=ev.Roll(4, 3), purpose="faceoff")
    for format in FORMATS:
        payload = encoder(format)(rolled)
        assert decoder(system.event_type, format).decode(payload).roll.value == 43


def test_the_store_keeps_the_namespaced_tag_in_its_type_column(tmp_path) -> None:
    made, _, batches = play("GLN", "HTH", "store")
    events = [made, *[e for batch in batches for e in batch]]
    with open_store(tmp_path / "dh.db") as store:
        store.append(made.game_id, events, 0, system="dicehockey")
        back = [e for e in store.read(made.game_id)]
    types = [row[0] for row in sqlite3.connect(tmp_path / "dh.db").execute(
        "SELECT type FROM event_rows ORDER BY seq")]
    assert types[0] == "GameCreated" and types[1] == "PeriodStarted"
    assert "dicehockey.FaceoffWon" in types and "dicehockey.DiceRolled" in types
    decoded = [getattr(e, "event", e) for e in back]
    assert decoded == events


def test_game_created_options_are_checked_by_name() -> None:
    with pytest.raises(game.IllegalChoice, match="no optional rule"):
        start("ALD", "BRK", "x", "g", ["pressure_offense"])
    made, state = start("ALD", "BRK", "x", "g", ["forward_defense"])
    assert state.uses("forward_defense") and made.options == ["forward_defense"]
    plain_game = created()
    assert not start("ALD", "BRK", "x", "g")[1].options
    assert "options" not in msgspec.to_builtins(plain_game)  # off: not in the bytes


@pytest.mark.parametrize("field", [{"overtime": False}, {"overtime_skaters": 3},
                                   {"late_penalty_house_rule": True},
                                   {"faceoff_fatigue": True}])
def test_hockey_bones_settings_are_refused(field) -> None:
    made = created(**field)
    with pytest.raises(game.IllegalChoice, match="not DICE Hockey settings"):
        game.initial_state(made, find_dicehockey_team("ALD"), find_dicehockey_team("BRK"),
                           dicehockey_charts())


def test_whole_game_snapshot(playthrough) -> None:
    """A DICE Hockey playthrough: any change to how it plays is a visible diff."""
    made, _, batches = play("ALD", "BRK", "snapshot-1")
    events = [msgspec.to_builtins(e) for e in [made, *[e for b in batches for e in b]]]
    assert events == playthrough


def test_the_system_blind_recheck_accepts_a_game_and_finds_a_forged_assist() -> None:
    from replay.games.refold import recheck

    made, _, batches = play("CDV", "DRF", "recheck")
    events = [made, *[e for b in batches for e in b]]
    inputs = (find_dicehockey_team("CDV"), find_dicehockey_team("DRF"), dicehockey_charts())
    assert recheck(events, *inputs) is None
    k = next(i for i, e in enumerate(events) if isinstance(e, ev.GoalScored) and e.assists)
    forged = [*events[:k], msgspec.structs.replace(events[k], assists=[]), *events[k + 1:]]
    mismatch = recheck(forged, *inputs)
    assert mismatch is not None and mismatch.seq == k + 1
