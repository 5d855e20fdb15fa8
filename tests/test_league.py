"""Leagues (replay/leagues/league.py), the demo league, and schedules (replay/leagues/schedule.py)."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from events.errors import CardError, RinklogError
from replay.leagues.league import load_league
from replay.leagues.schedule import Fixture, make_schedule
from replay.systems.bones import cardgen
from replay.systems.bones.library import find_team

DEMO = Path(__file__).resolve().parent.parent / "fixtures" / "bones" / "leagues" / "demo"


@pytest.fixture(scope="module")
def demo():
    return load_league("demo")


def _small(tmp_path: Path, text: str | None = None, teams: int = 4) -> Path:
    """A league folder of the first ``teams`` demo teams, two divisions."""
    root = tmp_path / "mini"
    (root / "teams").mkdir(parents=True)
    ids = load_league("demo").league.team_ids[:teams]
    for tid in ids:
        shutil.copy(DEMO / "teams" / f"{tid.lower()}.toml", root / "teams")
    half = teams // 2
    text = text or (f'name = "mini"\ngames = 6\n[[conferences]]\nname = "One"\n'
                    f'[[conferences.divisions]]\nname = "A"\nteams = {ids[:half]!r}\n'
                    f'[[conferences.divisions]]\nname = "B"\nteams = {ids[half:]!r}\n')
    (root / "league.toml").write_text(text.replace("'", '"'), encoding="utf-8")
    return root


def test_demo_league_loads(demo) -> None:
    assert demo.name == "demo" and demo.league.games == 82
    assert len(demo.teams) == 32
    assert len(demo.league.conferences) == 2
    assert all(len(d.teams) == 8 for c in demo.league.conferences for d in c.divisions)
    ids = [c.id for t in demo.teams.values() for c in [*t.skaters, *t.goalies]]
    assert len(ids) == len(set(ids)) == 32 * 20
    assert find_team("ald", demo.root).id == "ALD"
    assert load_league(DEMO).teams == demo.teams == load_league(DEMO / "league.toml").teams


def test_demo_league_is_varied(demo) -> None:
    strengths = {t.goalies[0].shootout for t in demo.teams.values()}
    assert len(strengths) >= 3  # starters of several grades: strong and weak teams
    names = [t.name for t in demo.teams.values()]
    assert len(set(names)) == 32


def test_demo_league_is_the_generator_output(demo) -> None:
    teams = cardgen.generate_league()
    assert {t.id: t for t in teams} == demo.teams


def test_generate_league_ids_unique_and_deterministic() -> None:
    layout = [("C", [("D", [("AAA", "Aa"), ("BBB", "Bb"), ("CCC", "Cc")])])]
    one = cardgen.generate_league(layout, seed="x")
    assert one == cardgen.generate_league(layout, seed="x")
    ids = [c.id for t in one for c in [*t.skaters, *t.goalies]]
    assert len(ids) == len(set(ids))


def test_teams_of_one_generator_run_have_unique_ids_and_make_a_league(tmp_path: Path) -> None:
    """Issue 24: ``cards generate OUT A:.. B:.. ...`` with ten teams gave two teams the
    same player id (seed 'rinklog' draws tobias-kowalczyk for AAA and BBB alone), and a
    league of them was refused. The ids of one run are unique across its teams."""
    ids = ["AAA", "BBB", "CCC", "DDD", "EEE", "FFF", "GGG", "HHH", "III", "JJJ"]
    root = tmp_path / "ten"
    assert cardgen.main([str(root / "teams"), *(f"{t}:{t.title()} City" for t in ids),
                         "--seed", "rinklog"]) == 0
    (root / "league.toml").write_text(
        'name = "ten"\ngames = 4\n[[conferences]]\nname = "One"\n'
        f'[[conferences.divisions]]\nname = "A"\nteams = {ids[:5]!r}\n'
        f'[[conferences.divisions]]\nname = "B"\nteams = {ids[5:]!r}\n'.replace("'", '"'),
        encoding="utf-8")
    league = load_league(root)  # refused before: a player id on two teams
    players = [c.id for t in league.teams.values() for c in [*t.skaters, *t.goalies]]
    assert len(players) == len(set(players)) == 10 * 20
    alone = [cardgen.generate_team(t, t, "rinklog") for t in ("AAA", "BBB")]  # one a run
    assert {s.id for s in alone[0].skaters} & {s.id for s in alone[1].skaters}


def test_generate_refuses_a_team_given_twice(tmp_path: Path) -> None:
    with pytest.raises(CardError, match="team AAA given more than once"):
        cardgen.write_teams(tmp_path, ["AAA:One", "BBB:Two", "aaa:Three"], "x")
    assert not list(tmp_path.iterdir())


def test_unknown_team_in_division(tmp_path: Path) -> None:
    root = _small(tmp_path)
    text = (root / "league.toml").read_text().replace('teams = ["', 'teams = ["NOPE", "', 1)
    (root / "league.toml").write_text(text)
    with pytest.raises(CardError, match=r"league\.toml: field 'conferences\[0\]\.divisions"
                                        r"\[0\]\.teams\[0\]': unknown team 'NOPE'"):
        load_league(root)


def test_team_in_two_divisions(tmp_path: Path) -> None:
    root = _small(tmp_path)
    ids = load_league(root).league.team_ids
    text = (root / "league.toml").read_text().replace(f'"{ids[3]}"', f'"{ids[0]}"')
    (root / "league.toml").write_text(text)
    with pytest.raises(CardError, match=f"team '{ids[0]}' is already in division 'A'"):
        load_league(root)


def test_duplicate_team_id(tmp_path: Path) -> None:
    root = _small(tmp_path)
    ids = load_league(root).league.team_ids
    src = root / "teams" / f"{ids[1].lower()}.toml"
    (root / "teams" / "zzz.toml").write_text(src.read_text())
    with pytest.raises(CardError, match=f"zzz.toml: field 'id': team id '{ids[1]}' is also"):
        load_league(root)


def test_player_ids_unique_across_league(tmp_path: Path) -> None:
    root = _small(tmp_path)
    ids = load_league(root).league.team_ids
    first = load_league(root).teams[ids[0]].skaters[0].id
    victim = root / "teams" / f"{ids[1].lower()}.toml"
    other = load_league(root).teams[ids[1]].skaters[0].id
    victim.write_text(victim.read_text().replace(f'"{other}"', f'"{first}"'))
    with pytest.raises(CardError, match=rf"field 'skaters\[0\]\.id': player id '{first}' "
                                        f"is also on team {ids[0]}"):
        load_league(root)


def test_bad_league_field_and_unknown_league(tmp_path: Path) -> None:
    root = _small(tmp_path)
    text = (root / "league.toml").read_text().replace("games = 6", 'games = "six"')
    (root / "league.toml").write_text(text)
    with pytest.raises(CardError, match="league.toml: field 'games'"):
        load_league(root)
    with pytest.raises(CardError, match=r"no bundled league of that name \(bundled: demo"):
        load_league("no-such-league")


def test_schedule_counts_and_balance(demo) -> None:
    fixtures = make_schedule(demo, seed=7)
    assert len(fixtures) == 32 * 82 // 2
    assert [f.number for f in fixtures] == list(range(1, len(fixtures) + 1))
    assert all(isinstance(f, Fixture) and f.home != f.away for f in fixtures)
    played = Counter([f.home for f in fixtures] + [f.away for f in fixtures])
    assert set(played.values()) == {82}
    assert set(Counter(f.home for f in fixtures).values()) == {41}
    assert set(Counter(f.away for f in fixtures).values()) == {41}


def test_schedule_spread_through_season(demo) -> None:
    fixtures = make_schedule(demo, seed=7)
    per_round = 16
    for r in range(82):  # every team plays once in every round of 16 games
        teams = [t for f in fixtures[r * per_round:(r + 1) * per_round] for t in (f.home, f.away)]
        assert sorted(teams) == sorted(demo.league.team_ids)


def test_schedule_deterministic_and_cut(demo) -> None:
    assert make_schedule(demo, "s") == make_schedule(demo, "s")
    assert make_schedule(demo, "s") != make_schedule(demo, "t")
    assert make_schedule(demo, "s", games=20) == make_schedule(demo, "s")[:20]


def test_schedule_small_league_odd_games(tmp_path: Path) -> None:
    league = load_league(_small(tmp_path, teams=4)).league
    league = type(league)(name=league.name, conferences=league.conferences, games=5)
    fixtures = make_schedule(league, 1)
    played = Counter([f.home for f in fixtures] + [f.away for f in fixtures])
    assert set(played.values()) == {5}
    homes = Counter(f.home for f in fixtures)
    assert all(homes[t] in (2, 3) for t in league.team_ids)


def test_schedule_needs_even_teams(tmp_path: Path) -> None:
    root = _small(tmp_path, teams=4)
    text = (root / "league.toml").read_text()
    league = load_league(root).league
    last = league.team_ids[-1]
    (root / "league.toml").write_text(text.replace(f', "{last}"', ""))
    (root / "teams" / f"{last.lower()}.toml").unlink()
    with pytest.raises(RinklogError, match="even number of teams, got 3"):
        make_schedule(load_league(root), 1)


def test_late_penalty_house_rule_is_a_league_option_off_by_default(tmp_path: Path) -> None:
    from events.common import GameCreated
    from replay.cli.app import main
    from replay.games.game_streams import open_store, read_game

    assert load_league(_small(tmp_path / "off")).league.late_penalty_house_rule is False
    root = _small(tmp_path / "on")
    text = (root / "league.toml").read_text()
    (root / "league.toml").write_text(text.replace("games = 6\n",
                                                   "games = 6\nlate_penalty_house_rule = true\n"))
    league = load_league(root)
    assert league.league.late_penalty_house_rule is True
    db = tmp_path / "late.db"
    assert main(["season", "--league", str(root), "--seed", "t", "--games", "2",
                 "--workers", "1", "--db", str(db), "--json"]) == 0
    with open_store(db) as store:
        firsts = [read_game(store, s.stream)[0] for s in store.streams(kind="game")]
    assert len(firsts) == 2
    assert all(isinstance(c, GameCreated) and c.late_penalty_house_rule for c in firsts)


def _faceoff(tmp_path: Path, extra: str = "", table: str = "") -> Path:
    """The small league under FaceOff 2008: ``extra`` top-level keys, ``table`` [faceoff]."""
    root = _small(tmp_path)
    text = (root / "league.toml").read_text()
    text = text.replace("games = 6\n", f'games = 6\nruleset = "faceoff2008"\n{extra}')
    (root / "league.toml").write_text(text + (f"[faceoff]\n{table}" if table else ""))
    return root


def test_faceoff_league_records_its_ruleset_and_options_in_every_game(tmp_path: Path) -> None:
    from events.common import GameCreated
    from events.league import SeasonCreated
    from replay.cli.app import main
    from replay.games.game_streams import open_store, read_game

    root = _faceoff(tmp_path, table="fatigue = true\narc_cards = true\n")
    league = load_league(root).league
    assert league.ruleset == "faceoff2008" and league.faceoff["fatigue"] and league.faceoff["arc_cards"]
    db = tmp_path / "fo.db"
    assert main(["season", "--league", str(root), "--seed", "t", "--games", "2",
                 "--workers", "1", "--db", str(db), "--json"]) == 0
    assert main(["audit", "--all", "--db", str(db)]) == 0  # ARC cards in the season's pack
    with open_store(db) as store:
        season = store.read(store.streams(kind="season")[0].stream, 1, 1)[0].event
        firsts = [read_game(store, s.stream)[0] for s in store.streams(kind="game")]
    assert isinstance(season, SeasonCreated) and season.ruleset == "faceoff2008"
    assert len(firsts) == 2
    for created in firsts:
        assert isinstance(created, GameCreated) and created.ruleset == "faceoff2008"
        assert created.option("faceoff_fatigue") and created.option("faceoff_arc_cards")
        assert not created.option("faceoff_injuries")


def test_faceoff_options_need_the_faceoff_ruleset(tmp_path: Path) -> None:
    root = _small(tmp_path)
    (root / "league.toml").write_text((root / "league.toml").read_text()
                                      + "[faceoff]\nfatigue = true\n")
    with pytest.raises(CardError, match="faceoff2008"):
        load_league(root)


def test_faceoff_6_00_14_51_draft_league_sets_the_nhl_ranges(tmp_path: Path) -> None:
    """FaceOff 6.00 and 14.51: a draft league uses NHL ranges, which only it may set."""
    with pytest.raises(CardError, match="6.00, 14.51"):
        load_league(_faceoff(tmp_path / "a", table='nhl_bench_range = "1-5"\n'))
    with pytest.raises(CardError, match="6.00, 14.51"):
        load_league(_faceoff(tmp_path / "b", extra="draft_rules = true\n",
                             table='nhl_bench_range = "1-5"\n'), draft_rules=False)
    # A team that breaks the Hockey Bones draft rules (a dressed skater's shift under 7),
    # which FaceOff does not have.
    root = _faceoff(tmp_path / "c", extra="draft_rules = true\n",
                    table='nhl_bench_range = "1-5"\nnhl_gm_range = "2-4"\n')
    team = next((root / "teams").glob("*.toml"))
    team.write_text(team.read_text(encoding="utf-8").replace("shift = 10.5", "shift = 5.0", 1),
                    encoding="utf-8")
    league = load_league(root).league
    assert (league.faceoff["nhl_bench_range"], league.faceoff["nhl_gm_range"]) == ("1-5", "2-4")
    with pytest.raises(CardError, match="draft-rule"):
        _bones_draft(root)  # the same league under Hockey Bones is refused


def _bones_draft(root: Path) -> None:
    text = (root / "league.toml").read_text()
    (root / "league.toml").write_text(text.replace('ruleset = "faceoff2008"\n',
                                                   'nhl_gm_range = "2-4"\n')
                                      .split("[faceoff]")[0])
    load_league(root)


def _bones_draft_league(tmp_path: Path, extra: str = 'nhl_gm_range = "2-4"\n') -> Path:
    """The small league (demo teams, which pass the draft rules) as a Hockey Bones draft
    league: ``draft_rules = true`` and ``extra`` top-level keys."""
    root = _small(tmp_path)
    text = (root / "league.toml").read_text()
    (root / "league.toml").write_text(text.replace("games = 6\n",
                                                   f"games = 6\ndraft_rules = true\n{extra}"))
    return root


def test_bones_14_51_draft_league_declares_the_nhl_game_misconduct_range(tmp_path: Path) -> None:
    """14.51: "(Draft leagues use the NHL Game Misconduct Penalty range.)" The text prints
    no such range: a draft league gives it (``nhl_gm_range``, ruling R-draft-14.51), only a
    draft league does, and one without it is refused in one line naming the field."""
    with pytest.raises(CardError) as caught:
        load_league(_bones_draft_league(tmp_path / "a", extra=""))
    message = str(caught.value)
    assert "\n" not in message and "14.51" in message and "nhl_gm_range" in message
    with pytest.raises(CardError, match="nhl_gm_range"):  # not a draft league
        load_league(_small(tmp_path / "b", 'name = "b"\nnhl_gm_range = "2-4"\n'
                           '[[conferences]]\nname = "One"\n[[conferences.divisions]]\n'
                           'name = "A"\nteams = ["ALD", "BRK", "CDV", "DRF"]\n'))
    with pytest.raises(CardError, match="nhl_gm_range"):
        load_league(_bones_draft_league(tmp_path / "c", 'nhl_gm_range = "2-x"\n'))
    with pytest.raises(CardError, match=r"\[faceoff\]"):  # FaceOff's are in its table
        load_league(_faceoff(tmp_path / "d", extra='draft_rules = true\nnhl_gm_range = "2-4"\n',
                             table='nhl_bench_range = "1-5"\nnhl_gm_range = "2-4"\n'))
    assert load_league(_bones_draft_league(tmp_path / "e")).league.nhl_gm_range == "2-4"


def test_bones_draft_league_games_record_the_option_and_the_nhl_range(tmp_path: Path) -> None:
    """Every game of a Hockey Bones draft league records ``draft_league`` and the league's
    NHL game-misconduct range (14.51), and audits clean; without the range the season
    does not start (one line naming the field)."""
    from setups import run_cli

    from events.common import GameCreated
    from replay.cli.app import main
    from replay.games.game_streams import open_store, read_game

    bare = _bones_draft_league(tmp_path / "bare", extra="")
    code, out, err = run_cli(["season", "--league", str(bare), "--seed", "t", "--games", "1",
                              "--workers", "1", "--db", str(tmp_path / "bare.db")])
    assert code == 1 and out == "" and len(err.strip().splitlines()) == 1
    assert "nhl_gm_range" in err and "14.51" in err
    root = _bones_draft_league(tmp_path / "ok")
    db = tmp_path / "draft.db"
    assert main(["season", "--league", str(root), "--seed", "t", "--games", "2",
                 "--workers", "1", "--db", str(db), "--json"]) == 0
    assert main(["audit", "--all", "--db", str(db)]) == 0
    with open_store(db) as store:
        firsts = [read_game(store, s.stream)[0] for s in store.streams(kind="game")]
    assert len(firsts) == 2
    for created in firsts:
        assert isinstance(created, GameCreated) and created.ruleset == "bones"
        assert (created.options, created.nhl_gm_range) == (["draft_league"], "2-4")
