"""DICE Hockey 10 (ruling R-DH-10b): the coach may re-set his lineup cards "until the
period ends or you call a time out or a player is injured" - at those moments only, with
every dressed skater in one box, a face-off man at C and no goalie skating."""

from __future__ import annotations

import copy

import pytest
from dicehockey_support import carry, created, decide, new_state, pid, plain, rate

from engine.dice import SeededDice
from engine.dicehockey import game
from engine.dicehockey.coach import DefaultCoach
from engine.dicehockey.dice import derive_roll
from engine.dicehockey.game import WINDOW_STEPS, IllegalChoice, check_choice, evolve
from engine.dicehockey.lines import on_ice, rearranged
from engine.dicehockey.state import SIDES, GameState, Step
from engine.dicehockey.system import SYSTEM
from events import dicehockey as ev
from events.common import PeriodStarted
from projections.dicehockey.toi import build_toi
from replay.systems.dicehockey.library import dicehockey_charts, find_dicehockey_team


def lineup(state: GameState, side: str, **boxes: list[list[str]]) -> ev.LineupRearranged:
    team = state.team(side)
    return ev.LineupRearranged(side=side, forwards=boxes.get("forwards", team.lines.forwards),
                               defense=boxes.get("defense", team.lines.defense), rule="10")


def at_window(state: GameState, why: str = "period", side: str = "home") -> GameState:
    """A dead puck at a face-off window with ``side``'s lineup cards open (10)."""
    state.puck, state.coach_window, state.window = None, True, "stoppage"
    state.team(side).lineup_open = why
    return state


def legal(state: GameState, choice: ev.LineupRearranged) -> bool:
    try:
        check_choice(state, choice)
    except IllegalChoice:
        return False
    return True


class LineupCoach(DefaultCoach):
    """The default coach, and at every window where a team's lineup cards may be re-set
    it swaps that team's line 1 and line 2 LW (10). It records, for each window it is
    asked at, which sides the rules let re-arrange."""

    def __init__(self, rearrange: bool = True) -> None:
        self.rearrange, self.open = rearrange, []

    def lines(self, state: GameState) -> list:
        choices = super().lines(state)
        after = state
        if any(isinstance(c, ev.TimeOutCalled) for c in choices):
            after = copy.deepcopy(state)
            for choice in choices:
                evolve(after, choice)
        swaps = [rearranged(after.team(side), after.team(side).lines.forwards[0][0],
                            after.team(side).lines.forwards[1][0]) for side in SIDES]
        self.open.append((state.period, state.rolls,
                          {s.side for s in swaps if legal(after, s)}))
        if self.rearrange:
            choices += [s for s in swaps if legal(after, s)]
        return choices


def play(seed: str, coach: DefaultCoach, home: str = "ALD", away: str = "BRK",
         options: list[str] | None = None) -> list:
    made = created(game_id=f"{home}-{away}-{seed}", seed=seed, options=options)
    state = game.initial_state(made, find_dicehockey_team(home), find_dicehockey_team(away),
                               dicehockey_charts())
    batches = list(SYSTEM.steps(state, SeededDice(seed, made.game_id, derive_roll), coach))
    return [made, *(e for batch in batches for e in batch)]


# --- when (10) ------------------------------------------------------------------------

# s4: a time out (12); s121: an injury (17)
SEEDS = [("ALD", "BRK", "s24"), ("CDV", "DRF", "s4"), ("CDV", "DRF", "s121"),
         ("ELM", "FRN", "t2"), ("GLN", "HTH", "ot")]


@pytest.mark.parametrize(("home", "away", "seed"), SEEDS)
def test_10_the_lineup_cards_open_between_periods_at_a_time_out_and_after_an_injury(
        home: str, away: str, seed: str) -> None:
    """Every window of a seeded game: a side may re-arrange exactly when 10 says."""
    coach = LineupCoach(rearrange=False)
    events = play(seed, coach, home, away)
    period, opened, injured, timeouts = 0, True, set(), {}
    want = {}
    rolls = 0
    for event in events[1:]:
        if isinstance(event, PeriodStarted):
            period, opened = event.period, event.period == 1
        elif isinstance(event, ev.InjuryRolled):
            injured.add(event.side)
        elif isinstance(event, ev.TimeOutCalled):
            timeouts.setdefault(rolls, set()).add(event.side)
        elif isinstance(event, ev.DiceRolled):
            if event.purpose in WINDOW_STEPS:
                want[event.n - 1] = (set(SIDES) if not opened else set()) | injured
                injured, opened = set(), True
            rolls = event.n
    for period, rolls, sides in coach.open:
        assert sides == want[rolls] | timeouts.get(rolls, set()), (period, rolls)


def test_10_the_seeded_games_have_every_kind_of_window() -> None:
    """The games above meet each moment 10 names, and windows where none is open."""
    seen = {"period": 0, "time_out": 0, "injury": 0, "closed": 0}
    for home, away, seed in SEEDS:
        events = play(seed, LineupCoach(rearrange=False), home, away)
        seen["time_out"] += sum(isinstance(e, ev.TimeOutCalled) for e in events)
        seen["injury"] += sum(isinstance(e, ev.InjuryRolled) for e in events)
        seen["period"] += sum(isinstance(e, PeriodStarted) and e.period > 1 for e in events)
        seen["closed"] += sum(isinstance(e, ev.DiceRolled) and e.purpose == "pass"
                              for e in events)
    assert all(seen.values()), seen


def test_10_never_mid_period_and_not_before_the_games_first_face_off() -> None:
    state = new_state()
    state.coach_window, state.window = True, "stoppage"
    swap = rearranged(state.home, state.home.lines.forwards[0][0],
                      state.home.lines.forwards[1][0])
    with pytest.raises(IllegalChoice, match="10: the lines stay set"):
        check_choice(state, swap)
    fresh = game.initial_state(created(), find_dicehockey_team("ALD"),
                               find_dicehockey_team("BRK"), dicehockey_charts())
    for event in decide(fresh, 0, Step("start_period")):
        evolve(fresh, event)
    assert fresh.period == 1 and not fresh.home.lineup_open


def test_10_the_window_is_the_teams_own_time_out_and_injury() -> None:
    state = at_window(new_state(), "time_out", "away")
    home = rearranged(state.home, state.home.lines.forwards[0][0],
                      state.home.lines.forwards[1][0])
    with pytest.raises(IllegalChoice, match="LineupRearranged for home: 10"):
        check_choice(state, home)
    check_choice(state, rearranged(state.away, state.away.lines.forwards[0][0],
                                   state.away.lines.forwards[1][0]))


def test_10_a_roll_at_a_face_off_pass_or_dump_sets_the_lines_again() -> None:
    state = at_window(new_state(), "injury")
    evolve(state, ev.DiceRolled(n=1, roll=ev.Roll(1, 2), purpose="faceoff"))
    assert not state.home.lineup_open


# --- what (10) --------------------------------------------------------------------------

def _illegal(state: GameState) -> dict[str, ev.LineupRearranged]:
    team = state.home
    forwards, defense = team.lines.forwards, team.lines.defense
    winger = forwards[0][0]
    assert team.cards[winger].faceoff is None
    goalie = team.goalie
    return {
        "only a player with a face-off rating plays C": lineup(
            state, "home", forwards=[[forwards[0][1], winger, forwards[0][2]],
                                     *forwards[1:]]),
        "goalies cannot play another position": lineup(
            state, "home", forwards=[[goalie, *forwards[0][1:]], *forwards[1:]]),
        f"{forwards[1][0]} placed more than once, {winger} missing": lineup(
            state, "home", forwards=[[forwards[1][0], *forwards[0][1:]], *forwards[1:]]),
        f"{defense[0][0]} placed more than once, {defense[0][1]} missing": lineup(
            state, "home", defense=[[defense[0][0], defense[0][0]], *defense[1:]]),
        "not dressed skaters": lineup(
            state, "home", forwards=[["nobody", *forwards[0][1:]], *forwards[1:]]),
        "four forward lines": lineup(state, "home", forwards=forwards[:3]),
        "already set that way": lineup(state, "home"),
    }


@pytest.mark.parametrize("fault", list(_illegal(new_state())))
def test_10_an_illegal_lineup_is_refused_naming_the_fault(fault: str) -> None:
    state = at_window(new_state())
    with pytest.raises(IllegalChoice, match=fault):
        check_choice(state, _illegal(state)[fault])


def test_10_anything_goes_but_c_a_defenseman_may_play_wing() -> None:
    state = at_window(new_state())
    team = state.home
    winger, defenseman = team.lines.forwards[0][0], team.lines.defense[0][0]
    swap = rearranged(team, winger, defenseman)
    check_choice(state, swap)  # raises IllegalChoice were the defenseman refused the wing
    evolve(state, swap)
    assert on_ice(state, "home")["LW"] == defenseman and on_ice(state, "home")["LD"] == winger


# --- who is on the ice ------------------------------------------------------------------

def test_10_the_new_boxes_go_on_the_ice_and_toi_follows() -> None:
    state = at_window(new_state(), "injury")
    plain(state)
    old = pid(state, "home", "LW")
    new = state.home.lines.forwards[2][0]
    swap = rearranged(state.home, old, new)
    check_choice(state, swap)
    evolve(state, swap)
    assert on_ice(state, "home")["LW"] == new and old not in on_ice(state, "home").values()
    assert state.home.lines.forwards[2][0] == old and state.home.forwards == 1
    rate(state, "home", "RD", goal=0)
    carry(state, "home", "RD")
    events = decide(state, 10, Step("shot", side="home", player=pid(state, "home", "RD"),
                                    shot="PS"))
    space = next(e for e in events if isinstance(e, ev.TimingSpaceCounted))
    assert new in space.home_on_ice and old not in space.home_on_ice
    toi = {p.player: p.toi for p in build_toi([created(), space]).players}
    assert toi.get(new) == 1 and old not in toi


def test_10_a_seeded_game_with_re_set_lineups_ends_and_folds_to_the_new_cards() -> None:
    events = play("s24", LineupCoach())
    moves = [e for e in events if isinstance(e, ev.LineupRearranged)]
    assert moves and {m.side for m in moves} == set(SIDES)
    made = events[0]
    folded = game.initial_state(made, find_dicehockey_team("ALD"), find_dicehockey_team("BRK"),
                                dicehockey_charts())
    for event in events[1:]:
        game.evolve(folded, event)
    assert folded.finished
    for side, team in (("home", "ALD"), ("away", "BRK")):
        swapped = sum(m.side == side for m in moves) % 2 == 1  # each move swaps two LWs
        file_lines = find_dicehockey_team(team).lines.forwards
        assert (folded.team(side).lines.forwards != file_lines) == swapped
