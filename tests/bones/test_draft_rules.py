"""The draft league rules (replay/systems/bones/draft_rules.py): each checked rule passing and failing,
the league switch (``draft_rules = true``), ``rinklog league check``, and goalie starts
that never pass the cards' games (draft rule 12).

Teams are demo teams made draft-ready by ``draft_ready`` (lines at their card positions,
shift ratings and goalie games set to pass every rule), then broken one rule at a time.
Rule numbers are those of the rules text's "Draft League Setup".
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from msgspec.structs import replace

from engine.bones.cards import Skater, Team
from events.errors import CardError, RinklogError
from replay.cli.app import main
from replay.leagues.league import load_league
from replay.leagues.runner import goalie_starts
from replay.leagues.schedule import make_schedule
from replay.systems.bones.cardgen import team_to_toml
from replay.systems.bones.draft_rules import (
    DraftRuleError,
    Violation,
    check_goalie_starts,
    check_league,
    check_team,
    starting_goalies,
)

SEASON = 82
FORWARD_SHIFTS = (9.5, 9.0, 9.0, 7.5)  # lines 1-4: 27.5 a position over lines 1-3
PAIR_SHIFT = 10.0  # six defensemen: 60


@pytest.fixture(scope="module")
def demo_teams() -> list[Team]:
    return list(load_league("demo").teams.values())


def draft_ready(team: Team) -> Team:
    """``team`` changed so that every draft rule passes: each forward carded at his line
    slot, shift ratings above every minimum, goalies sharing 82 games."""
    lines = team.lines
    shift: dict[str, float] = {}
    slot_of: dict[str, str] = {}
    for i, line in enumerate(lines.forwards):
        for slot, pid in zip(("LW", "C", "RW"), line, strict=True):
            shift[pid] = FORWARD_SHIFTS[min(i, 3)]
            slot_of[pid] = slot
    for pair in lines.defense:
        for pid in pair:
            shift[pid] = PAIR_SHIFT

    def fix(s: Skater) -> Skater:
        if s.id in slot_of:
            return replace(s, positions=[slot_of[s.id]], shift=shift[s.id],
                           d=s.d or "1-2", ace_pk=False)
        if s.is_defenseman:
            return replace(s, positions=["D"], shift=shift.get(s.id, 8.0), ace_pk=False)
        return replace(s, shift=8.0, ace_pk=False)

    goalies = [replace(g, games=SEASON // len(team.goalies) + (i < SEASON % len(team.goalies)))
               for i, g in enumerate(team.goalies)]
    return replace(team, skaters=[fix(s) for s in team.skaters], goalies=goalies,
                   lines=replace(lines, goalies=[g.id for g in goalies]))


def with_skater(team: Team, pid: str, **changes) -> Team:
    return replace(team, skaters=[replace(s, **changes) if s.id == pid else s
                                  for s in team.skaters])


def with_goalies(team: Team, *games: int) -> Team:
    return replace(team, goalies=[replace(g, games=n) for g, n in zip(team.goalies, games,
                                                                        strict=True)])


def rules(violations: list[Violation]) -> list[int]:
    return [v.rule for v in violations]


@pytest.fixture(scope="module")
def ready(demo_teams) -> Team:
    return draft_ready(demo_teams[0])


def test_draft_ready_demo_teams_pass(demo_teams) -> None:
    for team in demo_teams:
        assert check_team(draft_ready(team), SEASON) == [], team.id


def test_violation_reads_team_rule_and_what_is_wrong(ready) -> None:
    lw3 = ready.lines.forwards[2][0]
    broken = check_team(with_skater(ready, lw3, shift=7.0), SEASON)  # 9.5 + 9 + 7
    assert [str(v) for v in broken] == [
        f"{ready.id}: draft rule 17: the LW shift ratings of the three forward lines total "
        "25.5, at least 26 needed"
    ]


# --- rule 2 (with 4.00): 18 skaters and 2 goalies --------------------------------------

def test_rule_2_active_roster_of_18_skaters_and_2_goalies(ready) -> None:
    assert check_team(ready) == []
    fourth = set(ready.lines.forwards[3]) if len(ready.lines.forwards) > 3 else set()
    dropped = next(iter(fourth)) if fourth else None
    if dropped is None:
        pytest.skip("the demo team has no fourth line to drop a forward from")
    short = replace(ready, skaters=[s for s in ready.skaters if s.id != dropped],
                    lines=replace(ready.lines, forwards=ready.lines.forwards[:3]))
    broken = check_team(short, SEASON)
    assert rules(broken) == [2]
    assert "17 skaters and 2 goalies, 20 needed: 18 skaters and 2 goalies dressed" \
        in broken[0].message


# --- rule 6 (goalies): 10 games last pro season -----------------------------------------

def test_rule_6_goalie_needs_ten_games(ready) -> None:
    assert check_team(with_goalies(ready, 72, 10), SEASON) == []
    broken = check_team(with_goalies(ready, 73, 9), SEASON)
    assert rules(broken) == [6]
    assert "played 9 games (card games), at least 10 needed" in broken[0].message


# --- rule 11: 2 goalies and 6 defensemen ------------------------------------------------

def test_rule_11_two_goalies(ready) -> None:
    one = replace(ready, goalies=[replace(ready.goalies[0], games=SEASON)],
                  lines=replace(ready.lines, goalies=[ready.goalies[0].id]))
    assert rules(check_team(one, SEASON)) == [2, 11]
    assert "1 goalie on the active roster, at least 2 needed" in str(check_team(one)[-1])


def test_rule_11_six_defensemen(ready) -> None:
    pairs = ready.lines.defense
    assert len(pairs) == 3
    gone = pairs[2][1]  # the last defenseman becomes a spare forward; two pairs stay
    team = replace(ready, lines=replace(ready.lines, defense=pairs[:2]))
    team = with_skater(team, gone, positions=["LW"], d="1-2", shift=8.0)
    for pid in [p for pair in pairs[:2] for p in pair]:
        team = with_skater(team, pid, shift=14.0)  # four defensemen total 56 (rules 18, 19)
    broken = check_team(team, SEASON)
    assert rules(broken) == [11]
    assert broken[0].message == "5 defensemen on the active roster, at least 6 needed"
    assert check_team(with_skater(team, gone, positions=["LW", "D"]), SEASON) == []


# --- rule 12: goalie games enough for the season ----------------------------------------

def test_rule_12_goalie_games_cover_the_season(ready) -> None:
    assert check_team(with_goalies(ready, 50, 32), SEASON) == []
    broken = check_team(with_goalies(ready, 45, 30), SEASON)
    assert rules(broken) == [12]
    assert "card games total 75" in broken[0].message
    assert "fewer than the season's 82 games" in broken[0].message
    assert check_team(with_goalies(ready, 45, 30)) == []  # no season: no rule 12


def test_rule_12_counts_only_the_goalies_who_start(ready) -> None:
    starter = ready.goalies[0]
    alone = replace(ready, lines=replace(ready.lines, goalies=[starter.id]))
    assert starting_goalies(alone) == [starter]
    assert rules(check_team(alone, SEASON)) == [12]
    assert check_team(with_goalies(alone, SEASON, 10), SEASON) == []


# --- rule 14: shift rating 7 on the active roster, penalty killers excepted ---------------

def test_rule_14_shift_seven_on_the_active_roster(ready) -> None:
    fourth = ready.lines.forwards[3][1]
    assert check_team(with_skater(ready, fourth, shift=7.0), SEASON) == []
    broken = check_team(with_skater(ready, fourth, shift=6.5), SEASON)
    assert rules(broken) == [14]
    assert "has shift rating 6.5, at least 7 needed" in broken[0].message
    assert "not an ace penalty killer" in broken[0].message


def test_rule_14_ruling_ace_penalty_killer_off_the_regular_lines_is_allowed(ready) -> None:
    fourth = ready.lines.forwards[3][1]
    assert check_team(with_skater(ready, fourth, shift=5.0, ace_pk=True), SEASON) == []
    # On a regular (first three) line he is not used only to kill penalties.
    third = ready.lines.forwards[2][1]
    team = with_skater(ready, third, shift=6.5, ace_pk=True)
    team = with_skater(team, ready.lines.forwards[0][1], shift=10.5)  # C total stays 26
    broken = check_team(team, SEASON)
    assert rules(broken) == [14]
    assert "an ace penalty killer, but on a regular line or pair" in broken[0].message


# --- rule 15: shift rating 9 on the first line --------------------------------------------

def test_rule_15_first_line_needs_nine(ready) -> None:
    first = ready.lines.forwards[0][2]
    assert check_team(with_skater(ready, first, shift=9.0), SEASON) == []
    broken = check_team(with_skater(ready, first, shift=8.5), SEASON)  # RW total 26.5
    assert rules(broken) == [15]
    assert "on the first forward line has shift rating 8.5, at least 9 needed" \
        in broken[0].message


def test_rule_15_ruling_first_pair_counts_as_the_first_line(ready) -> None:
    d1 = ready.lines.defense[0][0]
    broken = check_team(with_skater(ready, d1, shift=8.5), SEASON)  # D total 58.5
    assert rules(broken) == [15]
    assert "on the first defense pair" in broken[0].message
    d3 = ready.lines.defense[2][0]
    assert check_team(with_skater(ready, d3, shift=8.5), SEASON) == []


# --- rule 17: 26 shifts a forward position over the three regular lines -----------------

@pytest.mark.parametrize("slot", [0, 1, 2], ids=["LW", "C", "RW"])
def test_rule_17_position_totals_of_the_three_lines(ready, slot: int) -> None:
    name = ("LW", "C", "RW")[slot]
    third = ready.lines.forwards[2][slot]
    assert check_team(with_skater(ready, third, shift=7.5), SEASON) == []  # exactly 26
    broken = check_team(with_skater(ready, third, shift=7.0), SEASON)
    assert [str(v) for v in broken] == [
        f"{ready.id}: draft rule 17: the {name} shift ratings of the three forward lines "
        "total 25.5, at least 26 needed"]


def test_rule_17_ruling_the_fourth_line_does_not_count(ready) -> None:
    team = with_skater(ready, ready.lines.forwards[2][0], shift=7.0)
    team = with_skater(team, ready.lines.forwards[3][0], shift=12.0)
    assert rules(check_team(team, SEASON)) == [17]


# --- rule 18 (and 19): 56 shifts on defense ---------------------------------------------

def test_rule_18_defensemen_total_56(ready) -> None:
    d3 = ready.lines.defense[2]
    team = with_skater(with_skater(ready, d3[0], shift=8.0), d3[1], shift=8.0)  # 56
    assert check_team(team, SEASON) == []
    broken = check_team(with_skater(team, d3[1], shift=7.5), SEASON)
    assert rules(broken) == [18]
    assert broken[0].message == ("the shift ratings of the 6 defensemen of the pairs total "
                                 "55.5, at least 56 needed")


def test_rule_18_ruling_two_pairs_of_56_are_enough_rule_19(ready) -> None:
    pairs = ready.lines.defense
    team = replace(ready, lines=replace(ready.lines, defense=pairs[:2]))
    assert rules(check_team(team, SEASON)) == [18]  # the first four total 40
    for pid in [p for pair in pairs[:2] for p in pair]:
        team = with_skater(team, pid, shift=14.0)
    assert check_team(team, SEASON) == []


# --- rule 21: card positions ----------------------------------------------------------------

def test_rule_21_forwards_at_their_card_positions(ready) -> None:
    lw, c, rw = ready.lines.forwards[1]
    swapped = [list(line) for line in ready.lines.forwards]
    swapped[1] = [rw, c, lw]
    team = replace(ready, lines=replace(ready.lines, forwards=swapped))
    broken = check_team(team, SEASON)
    assert rules(broken) == [21, 21]
    assert f"skater {rw} " in broken[0].message and "plays LW on forward line 2" \
        in broken[0].message
    # a card with both wings may play either
    both = with_skater(with_skater(team, rw, positions=["RW", "LW"]), lw, positions=["LW", "RW"])
    assert check_team(both, SEASON) == []


def test_rule_21_a_centre_at_centre(ready) -> None:
    lw, c, rw = ready.lines.forwards[0]
    team = with_skater(ready, c, positions=["RW"])
    broken = check_team(team, SEASON)
    assert rules(broken) == [21]
    assert "plays C on forward line 1, his card has RW" in broken[0].message


def test_rule_21_defensemen_either_side_but_only_defensemen(ready) -> None:
    flipped = [list(reversed(pair)) for pair in ready.lines.defense]
    assert check_team(replace(ready, lines=replace(ready.lines, defense=flipped)), SEASON) == []
    d = ready.lines.defense[1][0]
    broken = check_team(with_skater(ready, d, positions=["LW"], d="1-2"), SEASON)
    assert 21 in rules(broken)
    assert "plays defense in pair 2, his card has LW" in str(broken)


# --- the league switch ----------------------------------------------------------------------

def write_league(root: Path, teams: list[Team], draft_rules: bool, games: int = SEASON) -> Path:
    (root / "teams").mkdir(parents=True, exist_ok=True)
    for team in teams:
        (root / "teams" / f"{team.id.lower()}.toml").write_text(team_to_toml(team),
                                                              encoding="utf-8")
    ids = [t.id for t in teams]
    half = len(ids) // 2
    (root / "league.toml").write_text(
        f'name = "draft"\ngames = {games}\ndraft_rules = {str(draft_rules).lower()}\n'
        + ('nhl_gm_range = "1-7"\n' if draft_rules else "")  # 14.51, ruling R-draft-14.51
        + f'[[conferences]]\nname = "One"\n'
        f'[[conferences.divisions]]\nname = "A"\nteams = {ids[:half]!r}\n'
        f'[[conferences.divisions]]\nname = "B"\nteams = {ids[half:]!r}\n'.replace("'", '"'),
        encoding="utf-8")
    return root


@pytest.fixture()
def draft_league(tmp_path: Path, demo_teams) -> tuple[Path, list[Team]]:
    teams = [draft_ready(t) for t in demo_teams[:4]]
    return write_league(tmp_path / "draft", teams, True), teams


def test_league_with_draft_rules_loads_when_it_passes(draft_league) -> None:
    root, teams = draft_league
    loaded = load_league(root)
    assert loaded.league.draft_rules is True
    assert list(loaded.teams.values()) == teams


def test_league_with_draft_rules_refuses_a_breaking_team(draft_league) -> None:
    root, teams = draft_league
    bad = with_skater(teams[1], teams[1].lines.forwards[2][0], shift=7.0)
    bad = with_goalies(bad, 40, 30)
    write_league(root, [teams[0], bad, *teams[2:]], True)
    with pytest.raises(DraftRuleError) as caught:
        load_league(root)
    message = str(caught.value)
    assert isinstance(caught.value, CardError) and isinstance(caught.value, RinklogError)
    assert "\n" not in message
    assert "league.toml: field 'draft_rules': 2 draft-rule violations" in message
    assert (f"{bad.id}: draft rule 12: the starting goalies' card games total 70" in message)
    assert (f"{bad.id}: draft rule 17: the LW shift ratings of the three forward lines total "
            "25.5, at least 26 needed") in message
    write_league(root, [teams[0], bad, *teams[2:]], False)
    assert load_league(root).teams[bad.id] == bad  # switch off: loads
    with pytest.raises(DraftRuleError, match="draft rule 17"):
        load_league(root, draft_rules=True)  # forced on


def test_demo_league_keeps_draft_rules_off_and_passes_them() -> None:
    demo = load_league("demo")
    assert demo.league.draft_rules is False
    assert load_league("demo", draft_rules=True).teams == demo.teams  # forced on: it loads


def test_draft_rules_field_must_be_a_bool(draft_league) -> None:
    root, _ = draft_league
    text = (root / "league.toml").read_text().replace("draft_rules = true", 'draft_rules = "on"')
    (root / "league.toml").write_text(text)
    with pytest.raises(CardError, match="draft_rules"):
        load_league(root)


# --- rinklog league check -------------------------------------------------------------------

def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [["league"], ["league", "check"]])
def test_league_check_help_has_an_example(capsys, argv: list[str]) -> None:
    code, out, _ = run(capsys, *argv, "--help")
    assert code == 0
    assert "Example: rinklog league check --league" in out


def test_league_check_ok(capsys, draft_league) -> None:
    root, _ = draft_league
    code, out, err = run(capsys, "league", "check", "--league", str(root))
    assert (code, err) == (0, "")
    assert out.startswith("league draft: ok: 4 teams pass the draft league rules")


def test_league_check_lists_violations_and_exits_1(capsys, draft_league) -> None:
    root, teams = draft_league
    bad = with_skater(teams[2], teams[2].lines.forwards[0][1], shift=8.5)
    write_league(root, [*teams[:2], bad, teams[3]], True)  # on: load_league would refuse
    code, out, err = run(capsys, "league", "check", "--league", str(root))
    assert code == 1 and err == ""
    lines = out.strip().splitlines()
    assert lines[0].startswith(f"{bad.id}: draft rule 15: skater ")
    assert lines[-1] == ("league draft: 1 draft-rule violation in 1 of 4 teams; draft_rules "
                         "is on in its league.toml")


def test_league_check_demo_passes_with_the_rules_off(capsys) -> None:
    code, out, _ = run(capsys, "league", "check", "--league", "demo")
    assert code == 0
    assert out.strip() == ("league demo: ok: 32 teams pass the draft league rules (2, 6, 11, 12, "
                           "14, 15, 17, 18, 21); draft_rules is off in its league.toml")


def test_league_check_unknown_league_is_one_line_error(capsys, tmp_path: Path) -> None:
    code, out, err = run(capsys, "league", "check", "--league", str(tmp_path / "nowhere"))
    assert code == 1 and out == ""
    assert err.startswith("rinklog: error: ") and len(err.strip().splitlines()) == 1


# --- rule 12 over a season: goalie starts -----------------------------------------------------

def _starts(teams: dict[str, Team], schedule) -> Counter:
    chosen = goalie_starts(teams, schedule)
    return Counter(g for pair in chosen.values() for g in pair)


def test_goalie_starts_never_pass_card_games_in_a_draft_league(draft_league) -> None:
    root, _ = draft_league
    loaded = load_league(root)
    schedule = [(f.number, f.home, f.away) for f in make_schedule(loaded, "1")]
    per_team = Counter(t for _, h, a in schedule for t in (h, a))
    assert set(per_team.values()) == {SEASON}
    chosen = goalie_starts(loaded.teams, schedule)
    assert check_goalie_starts(loaded.teams, chosen) == []
    starts = _starts(loaded.teams, schedule)
    for team in loaded.teams.values():
        for g in team.goalies:
            assert starts[g.id] <= g.games
        assert sum(starts[g.id] for g in team.goalies) == SEASON


@pytest.mark.parametrize("seed", range(12))
def test_goalie_starts_within_card_games_for_any_passing_split(draft_league, seed: int) -> None:
    """Whatever the goalies' games, once rules 6 and 12 pass (10 or more each, the total
    at least the season), no goalie starts more games than his card allows."""
    root, _ = draft_league
    loaded = load_league(root)
    rng = random.Random(seed)
    teams = {}
    for tid, team in loaded.teams.items():
        first = rng.randint(10, SEASON - 10)
        second = rng.randint(SEASON - first, min(SEASON, SEASON - first + 6))
        teams[tid] = with_goalies(team, first, second)
    assert check_league(teams, SEASON) == []
    schedule = [(f.number, f.home, f.away) for f in make_schedule(loaded, str(seed))]
    chosen = goalie_starts(teams, schedule)
    assert check_goalie_starts(teams, chosen) == []


def test_goalie_starts_overplay_a_league_that_breaks_rule_12(draft_league) -> None:
    """Why the league is refused before its season: with 70 card games for 82, the
    starts would overplay the goalies, which rule 12 forbids."""
    root, _ = draft_league
    loaded = load_league(root)
    teams = {tid: with_goalies(t, 40, 30) for tid, t in loaded.teams.items()}
    assert {v.rule for v in check_league(teams, SEASON)} == {12}
    schedule = [(f.number, f.home, f.away) for f in make_schedule(loaded, "1")]
    over = check_goalie_starts(teams, goalie_starts(teams, schedule))
    assert over and {v.rule for v in over} == {12}
    assert "his card allows" in over[0].message
