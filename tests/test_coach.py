"""Coach choices from a coach file (docs/coach.md): recorded as events, legal, auditable."""

from __future__ import annotations

import inspect
import itertools
from pathlib import Path

import pytest
from setups import simulate

from engine.bones.coach import CoachPolicy, DefaultCoach
from events.bones import LinesChanged, TacticDeclared
from events.errors import CardError
from replay.cli.app import main
from replay.games.game_streams import load_inputs, open_store, read_game
from replay.games.refold import recheck
from replay.systems.bones.library import load_coach


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "coach.toml"
    path.write_text(text)
    return path


def test_top_level_keys_for_both_tables_for_one(tmp_path):
    home, away = load_coach(write(tmp_path, 'pull_goalie_at = 40\n[away]\npull_goalie_at = 45\n'))
    assert (home.pull_goalie_at, away.pull_goalie_at) == (40, 45)


@pytest.mark.parametrize("text, field", [
    ("pull_goalie_at = 99\n", "pull_goalie_at"),
    ('tactic_when_behind = "rush"\n', "tactic_when_behind"),
    ("nonsense = 1\n", "nonsense"),
    ("home = 3\n", "home"),
])
def test_a_bad_coach_file_names_file_and_field(tmp_path, text, field):
    with pytest.raises(CardError, match=field) as err:
        load_coach(write(tmp_path, text))
    assert "coach.toml" in str(err.value) and "\n" not in str(err.value)


def test_tactics_are_declared_when_behind_and_the_game_audits(tmp_path):
    policy = CoachPolicy(tactic_when_behind="pressure", tactic_from=1)
    with open_store(tmp_path / "t.db") as store:
        seen = 0
        for seed in range(12):
            result = simulate(store, "HFX", "QUE", seed=f"t{seed}",
                              coach=(policy, policy))
            events = read_game(store, result.game_id)
            declared = [e for e in events if isinstance(e, TacticDeclared)]
            seen += len(declared)
            assert all(e.tactic == "pressure" and e.rule == "19.00" for e in declared)
            assert recheck(events, *load_inputs(store, events[0])) is None
    assert seen > 0


def test_no_pull_policy_never_pulls_the_goalie(tmp_path):
    """The policy never pulls by choice; only the extra skater of a delayed penalty
    (14.60, the rule's pull) takes a goalie off."""
    never = CoachPolicy(pull_when_behind=0)
    by_rule = 0
    with open_store(tmp_path / "p.db") as store:
        for seed in range(8):
            result = simulate(store, "WPG", "SAS", seed=f"p{seed}", coach=(never, never))
            events = read_game(store, result.game_id)
            goalies = {events[0].home.roster[-1].id, events[0].home.roster[-2].id,
                       events[0].away.roster[-1].id, events[0].away.roster[-2].id}
            for e in events:
                if isinstance(e, LinesChanged) and e.rule == "14.60":
                    by_rule += 1
                    assert e.slots["G"] not in goalies
                elif isinstance(e, LinesChanged):
                    assert e.slots["G"] in goalies
    assert by_rule > 0


def test_sim_takes_a_coach_file(tmp_path, capsys):
    path = write(tmp_path, '[away]\nshootout_shooters = ["caleb-vasseur"]\n')
    assert main(["sim", "--home", "HFX", "--away", "QUE", "--seed", "1", "--coach", str(path),
                 "--db", str(tmp_path / "s.db")]) == 0
    assert main(["sim", "--home", "HFX", "--away", "QUE", "--seed", "2", "--coach",
                 str(write(tmp_path, "pull_goalie_at = 0\n")), "--db", str(tmp_path / "s.db")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pull_goalie_at" in err


def test_shootout_shooters_named_first_and_who_shoots_first():
    from engine.bones.game import initial_state
    from events.common import GameCreated, TeamSheet
    from replay.systems.bones.library import default_charts, find_team

    sheet = TeamSheet(team_id="X", name="X", card_hash="", roster=[])
    created = GameCreated(game_id="c", ruleset="bones", ruleset_version=1, home=sheet,
                          away=sheet, charts_hash="", dice="seeded", seed="c")
    home, away = find_team("HFX"), find_team("QUE")
    state = initial_state(created, home, away, default_charts())
    named = [away.skaters[-1].id, away.skaters[-2].id]
    coach = DefaultCoach(CoachPolicy(shoot_first=False), CoachPolicy(shootout_shooters=named))
    order = coach.shootout(state)
    assert order.first == "away"
    assert order.away_shooters[:2] == named
    best = max(home.skaters, key=lambda s: (s.so, [-ord(c) for c in s.id])).so
    assert home.skaters and state.home.card(order.home_shooters[0]).so == best


# --- the coach's per-game cache (issue 35): the same state, the same choice ------------

def _game(ruleset: str, n: int, coach):
    """The n-th seeded game of HFX and QUE under ``ruleset``: its state and the loop that
    plays it with ``coach`` (a generator of event batches)."""
    from setups import setup_for

    from engine.dice import SeededDice
    from engine.systems import system_of
    from replay.games.game_streams import create_game

    setup = setup_for("HFX", "QUE", ruleset=ruleset)
    home, away = setup.teams["HFX"], setup.teams["QUE"]
    game_id, seed = f"cache-{ruleset}-{n}", f"cache-{n}"
    system = system_of(ruleset)
    created = create_game(setup, home, away, game_id=game_id, seed=seed).created
    state = system.initial_state(created, home, away, setup.charts)
    return state, system.steps(state, SeededDice(seed, game_id, system.derive_roll), coach)


class _AskedAgainAndFresh(DefaultCoach):
    """The default coach that, at every line change window, is asked twice and checks both
    answers against a coach that never saw the game before, on the same state."""

    asked = 0

    def lines(self, state):
        chosen = super().lines(state)
        assert super().lines(state) == chosen
        assert DefaultCoach().lines(state) == chosen
        self.asked += 1
        return chosen


@pytest.mark.parametrize("ruleset", ["bones", "faceoff2008"])
def test_a_coach_asked_twice_or_fresh_on_the_same_state_chooses_the_same(ruleset):
    """The coach keeps each game's roster facts once a game (issue 35): a choice must
    still depend on the state alone, never on what the coach saw before."""
    coach = _AskedAgainAndFresh()
    for n in range(2):
        _, loop = _game(ruleset, n, coach)
        changes = sum(isinstance(e, LinesChanged) for batch in loop for e in batch)
        assert changes > 50
    assert coach.asked > 200


def test_one_coach_for_two_games_at_once_chooses_as_two_coaches():
    """A coach that coaches two games turn about (its cache holds both) makes every
    choice each game's own coach makes."""
    shared = DefaultCoach()
    _, first = _game("bones", 0, shared)
    _, second = _game("bones", 1, shared)
    together: list[list] = [[], []]
    for a, b in itertools.zip_longest(first, second):
        together[0] += a or []
        together[1] += b or []
    for n in range(2):
        _, alone = _game("bones", n, DefaultCoach())
        assert together[n] == [e for batch in alone for e in batch]
    assert together[0] != together[1]


class _StoppageChoicesWholeEach(DefaultCoach):
    """The default coach that, at every stoppage, also makes each side's six slots whole
    (``choose``) and checks that a side with no change is one whose slots stand as chosen,
    and a side with a change changes to them."""

    kept = changed = 0

    def lines(self, state):
        changes = super().lines(state)
        if state.puck is not None or (state.queue and state.queue[0].kind == "extra_skater"):
            return changes
        by_side = {change.side: change.slots for change in changes}
        for side in ("home", "away"):
            whole = DefaultCoach().choose(state, side, on_the_fly=False)
            if side in by_side:
                assert by_side[side] == whole
                self.changed += 1
            else:
                assert whole == state.team(side).slots
                self.kept += 1
        return changes


@pytest.mark.parametrize("ruleset", ["bones", "faceoff2008"])
def test_a_stoppage_keeps_the_slots_only_when_the_whole_choice_is_them(ruleset):
    """6.41: at a stoppage the coach may change any player. The coach no longer makes the
    six slots when the five it picks stand where they stand and the goalie stays in
    (issue 35): a side it leaves alone must be one whose whole choice is its slots."""
    coach = _StoppageChoicesWholeEach()
    for n in range(2):
        _, loop = _game(ruleset, n, coach)
        for _batch in loop:
            pass
    assert coach.kept > 20 and coach.changed > 20


def test_a_line_change_is_made_with_its_fields_in_declared_order():
    """The coach makes ``LinesChanged`` positionally (issue 35: msgspec matches a keyword
    to its field by name): the fields must stay in this order, none keyword-only."""
    assert LinesChanged.__struct_fields__ == ("side", "slots", "on_the_fly", "rule")
    kinds = {p.kind for p in inspect.signature(LinesChanged).parameters.values()}
    assert kinds == {inspect.Parameter.POSITIONAL_OR_KEYWORD}
    assert not LinesChanged.__struct_defaults__
