"""What-if tools (issue 24 items 10-12): a branch that replaces one coach decision,
``diff``'s summary of how the outcome changed, and ``explain --goal/--penalty``, for
every game system through the registries."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from setups import simulate
from typer.testing import CliRunner

from events.common import BranchStarted, GameEnded
from replay.cli.app import app, main
from replay.games.game_streams import open_store, read_game
from replay.leagues.audit import audit_game
from replay.leagues.transfer import diff_games

GAMES = {"bones": ("HFX", "QUE"), "dicehockey": ("ALD", "BRK")}


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """One seeded game of each system, each in its own database."""
    made = {}
    for ruleset, (home, away) in GAMES.items():
        path = tmp_path_factory.mktemp(ruleset) / "games.db"
        with open_store(path) as store:
            made[ruleset] = (path, simulate(store, home, away, seed="whatif",
                                            ruleset=ruleset).game_id)
    return made


def _run(*args: str):
    return CliRunner().invoke(app, list(args))


def _tag(event: object) -> str:
    return type(event).__name__


def _one_line_error(capsys, args: list[str], *words: str) -> None:
    """The command exits 1 with one line naming the problem, never a traceback."""
    capsys.readouterr()
    assert main(args) == 1
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rinklog: error:"), err
    assert all(w in lines[0] for w in words), lines[0]


def _bones_stoppage(events: list) -> tuple[int, dict]:
    """The first stoppage where the parent's home coach changed lines before the
    face-off (6.41): the seq before his choice, and the slots he chose."""
    for i, event in enumerate(events):
        if _tag(event) == "PlayStopped" and _tag(events[i + 1]) == "LinesChanged" \
                and not events[i + 1].on_the_fly:
            home = next(e for e in events[i + 1:i + 3] if e.side == "home")
            return i + 1, dict(home.slots)
    raise AssertionError("no stoppage line change")


def test_bones_branch_pulls_the_goalie_at_a_stoppage_and_audits(games) -> None:
    """A branch replaces the home coach's line change at a stoppage with one that puts a
    skater in goal (6.41; the goalie pulled): recorded after BranchStarted as the coach
    choice it is, audited clean, and the branch parts from its parent there."""
    path, game = games["bones"]
    with open_store(path) as store:
        events = read_game(store, game)
    at, slots = _bones_stoppage(events)
    with open_store(path) as store:
        home = events[0].home.roster
    free = next(p.id for p in home if p.position != "G" and p.id not in slots.values())
    result = _run("branch", game, "--at", str(at), "--choice", f"home G={free}",
                  "--game-id", "pulled", "--db", str(path), "--json")
    assert result.exit_code == 0, result.output
    said = msgspec.json.decode(result.output)["choices"]
    assert any(c["type"] == "LinesChanged" and c["slots"]["G"] == free for c in said)
    with open_store(path) as store:
        branch = read_game(store, "pulled")
        assert audit_game(store, "pulled").ok
        assert diff_games(store, game, "pulled").seq == at + 1
    assert branch[:at] == events[:at] and isinstance(branch[at], BranchStarted)
    chosen = next(e for e in branch[at + 1:at + 3] if e.side == "home")
    assert _tag(chosen) == "LinesChanged" and chosen.slots["G"] == free
    assert branch[-1] != events[-1]


def test_bones_branch_refuses_an_illegal_choice_in_one_line(games, capsys) -> None:
    """6.41/15.00: a player cannot stand in two slots, so the goalie named at centre is
    refused, in one line, and nothing is written."""
    path, game = games["bones"]
    with open_store(path) as store:
        events = read_game(store, game)
        before = [s.stream for s in store.streams()]
    at, slots = _bones_stoppage(events)
    _one_line_error(capsys, ["branch", game, "--at", str(at), "--choice",
                             f"home C={slots['G']}", "--db", str(path)],
                    "--choice", "refused", "two slots")
    # after a roll, no coach is asked: the error names where the next choice is
    _one_line_error(capsys, ["branch", game, "--at", str(at + 3), "--choice", "home C=1",
                             "--db", str(path)], "no coach decision", "--at")
    with open_store(path) as store:
        assert [s.stream for s in store.streams()] == before


def test_dicehockey_branch_pulls_the_goalie_and_refuses_a_fifth_line(games, capsys) -> None:
    """DICE Hockey 22: the goalie pulled for an extra attacker at the stoppage after a
    goal, recorded and audited; 9: four forward lines and three pairs, so line 5 is
    refused."""
    path, game = games["dicehockey"]
    with open_store(path) as store:
        events = read_game(store, game)
    at = next(i + 1 for i, e in enumerate(events)
              if _tag(e) == "PlayStopped" and e.reason == "goal")  # before the face-off
    result = _run("branch", game, "--at", str(at), "--choice", "pull home",
                  "--game-id", "pulled", "--db", str(path))
    assert result.exit_code == 0, result.output
    with open_store(path) as store:
        branch = read_game(store, "pulled")
        assert audit_game(store, "pulled").ok
        assert diff_games(store, game, "pulled").seq == at + 1
    chosen = branch[at + 1]
    assert _tag(chosen) == "GoalieChanged" and chosen.pulled and chosen.side == "home"
    _one_line_error(capsys, ["branch", game, "--at", str(at), "--choice", "lines home 5 1",
                             "--db", str(path)], "refused", "1-4")


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_diff_summarises_how_the_outcome_changed(games, ruleset: str) -> None:
    """Issue 24 item 12: both finals and the goals lost and added, text and JSON."""
    path, game = games[ruleset]
    with open_store(path) as store:
        events = read_game(store, game)
    result = _run("branch", game, "--at", str(len(events) // 3), "--seed", "other",
                  "--game-id", "reseeded", "--db", str(path))
    assert result.exit_code == 0, result.output
    with open_store(path) as store:
        end_a = read_game(store, game)[-1]
        end_b = read_game(store, "reseeded")[-1]
    assert isinstance(end_a, GameEnded) and isinstance(end_b, GameEnded)
    result = _run("diff", game, "reseeded", "--json", "--db", str(path))
    assert result.exit_code == 1
    outcome = msgspec.json.decode(result.output)["outcome"]
    assert outcome["a"]["score"] == {"home": end_a.home_goals, "away": end_a.away_goals}
    assert outcome["b"]["score"] == {"home": end_b.home_goals, "away": end_b.away_goals}
    assert outcome["a"]["decided"] == end_a.decided
    goals_a = sum(_tag(e).endswith("GoalScored") for e in read_events(path, game))
    goals_b = sum(_tag(e).endswith("GoalScored") for e in read_events(path, "reseeded"))
    assert goals_a - len(outcome["goals_lost"]) + len(outcome["goals_added"]) == goals_b
    home, away = GAMES[ruleset]
    text = _run("diff", game, "reseeded", "--db", str(path)).output
    assert (f"A {game}: {home} {end_a.home_goals} - {end_a.away_goals} {away} "
            f"({end_a.decided})") in text
    assert "goals lost (" in text and "goals added (" in text
    identical = _run("diff", game, game, "--json", "--db", str(path))
    assert msgspec.json.decode(identical.output)["outcome"] is None


def read_events(path: Path, game: str) -> list:
    with open_store(path) as store:
        return read_game(store, game)


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_explain_a_goal_and_a_penalty_tells_the_play(games, ruleset: str, capsys) -> None:
    """Issue 24 item 10: the Nth goal (penalty) and every rule decision of the play that
    led to it, from the face-off or change of possession, ending at the goal itself."""
    path, game = games[ruleset]
    events = read_events(path, game)
    for kind, tag in (("goal", "GoalScored"), ("penalty", "PenaltyAssessed")):
        seqs = [i + 1 for i, e in enumerate(events) if _tag(e) == tag]
        assert seqs, f"the game has no {kind}"
        result = _run("explain", game, f"--{kind}", "1", "--json", "--db", str(path))
        assert result.exit_code == 0, result.output
        story = msgspec.json.decode(result.output)
        assert story["seq"] == seqs[0] and story["steps"][-1]["seq"] == seqs[0]
        assert story["from_seq"] <= seqs[0] and story["headline"].startswith(f"{kind} 1")
        assert all(step["rule"] for step in story["steps"])
        text = _run("explain", game, f"--{kind}", "1", "--db", str(path)).output
        assert text.startswith(f"{kind} 1: ") and f"seq {seqs[0]} {tag}" in text
        _one_line_error(capsys, ["explain", game, f"--{kind}", str(len(seqs) + 1),
                                 "--db", str(path)], f"not {kind} {len(seqs) + 1}")
    first = msgspec.json.decode(_run("explain", game, "--goal", "1", "--json",
                                     "--db", str(path)).output)
    assert first["steps"][0]["type"] in ("FaceoffRolled", "PuckIntercepted",
                                         "PenaltyShotAwarded", "FaceoffWon",
                                         "TurnoverRolled", "PuckDumped") \
        or first["seq"] - first["from_seq"] >= 79
    _one_line_error(capsys, ["explain", game, "5", "--goal", "1", "--db", str(path)],
                    "one of")
