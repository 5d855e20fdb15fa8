"""DICE Hockey lineup cards re-set (10, ruling R-DH-10b) through the tools: the audit
re-checks every re-arrangement, a forged one is caught, the read models and words follow
the new boxes, and a typed game with a re-arrangement stops, resumes and audits clean.
The coach's other picks (15: a tie on Penalty Chart A; 22: a delayed penalty's extra
attacker) are recorded and audited the same way."""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec
import pytest
from forge import audit_forged
from typer.testing import CliRunner

from engine.dicehockey.dice import derive_roll
from events import dicehockey as ev
from events.common import PeriodStarted
from replay.cli.app import app, main
from replay.games.game_streams import open_store, read_game
from replay.games.session import continue_game, new_live_game, resume_point, store_committer
from replay.leagues.audit import audit_game
from replay.systems import Prompter, kit_for

sys.path.insert(0, str(Path(__file__).parent / "rules"))
from setups import setup_for
from test_dicehockey_lineups import LineupCoach  # noqa: E402

GAME = "ALD-BRK-s24-dicehockey"


class _Typed:
    """Dice typed at the table, as a seed would roll them for the game."""

    def __init__(self, seed: str, game: str) -> None:
        self.seed, self.game = seed, game

    def roll(self, n: int):
        return derive_roll(self.seed, self.game, n)


class _SeedTyped:
    """Dice typed at the table, as the seed ``s24`` would roll them."""

    def roll(self, n: int):
        return derive_roll("s24", GAME, n)


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    """The game played at the table (its coach re-sets lineups the default coach never
    would: choices the audit holds to legality; a simulated game's choices are re-derived
    from its default coach, docs/coach.md)."""
    path = tmp_path_factory.mktemp("lineups") / "game.db"
    with open_store(path) as store:
        new_live_game(store, setup_for("ALD", "BRK", ruleset="dicehockey"), game_id=GAME)
        continue_game(resume_point(store, GAME), _SeedTyped(), LineupCoach(),
                      store_committer(store, GAME))
    return path


def test_a_game_with_re_set_lineups_audits_clean(stored: Path) -> None:
    with open_store(stored) as store:
        events = read_game(store, GAME)
        assert any(isinstance(e, ev.LineupRearranged) for e in events)
        report = audit_game(store, GAME)
        assert report.ok, report.failure


def _forged(events: list, where: int, choice: ev.LineupRearranged) -> list:
    return [*events[:where], choice, *events[where:]]


def test_the_audit_catches_a_re_set_outside_the_windows_and_an_illegal_one(
        stored: Path) -> None:
    with open_store(stored) as store:
        events = read_game(store, GAME)
        first = next(i for i, e in enumerate(events) if isinstance(e, ev.LineupRearranged))
        legal = events[first]
        # mid-period: just before a pass roll whose window had no coach choice
        mid = next(i for i, e in enumerate(events) if i > first + 5
                   and isinstance(e, ev.DiceRolled) and e.purpose == "pass"
                   and not isinstance(events[i - 1], ev.CHOICES))
        report = audit_forged(store, GAME, _forged(events, mid, legal))
        assert not report.ok and report.failure.seq == mid + 1
        assert "10: the lines stay set" in report.failure.recorded
        winger = legal.forwards[0][0]
        center = legal.forwards[0][1]
        bad = msgspec.structs.replace(
            legal, forwards=[[center, winger, legal.forwards[0][2]], *legal.forwards[1:]])
        report = audit_forged(store, GAME, [*events[:first], bad, *events[first + 1:]])
        assert not report.ok and report.failure.seq == first + 1
        assert "face-off rating" in report.failure.recorded and report.failure.rule == "10"
        goalie = events[0].home_goalie or next(
            r.id for r in getattr(events[0], legal.side).roster if r.position == "G")
        skating = msgspec.structs.replace(
            legal, defense=[[goalie, legal.defense[0][1]], *legal.defense[1:]])
        report = audit_forged(store, GAME, [*events[:first], skating, *events[first + 1:]])
        assert not report.ok and report.failure.seq == first + 1
        assert "goalies cannot play another position" in report.failure.recorded


def test_the_tools_follow_the_re_set_lineups(stored: Path, capsys, tmp_path: Path) -> None:
    db = str(stored)
    with open_store(stored) as store:
        events = read_game(store, GAME)
    seq = next(i + 1 for i, e in enumerate(events) if isinstance(e, ev.LineupRearranged))
    assert main(["events", GAME, "--db", db]) == 0
    assert "dicehockey.LineupRearranged" in capsys.readouterr().out
    assert main(["explain", GAME, str(seq), "--db", db]) == 0
    words = capsys.readouterr().out
    assert "re-sets its lineup cards" in words and "line 1 LW" in words and "(was " in words
    for command in (["toi", GAME], ["scoresheet", GAME], ["audit", GAME], ["replay", GAME],
                    ["export", GAME, "--output", str(tmp_path / "game.json")]):
        assert main([*command, "--db", db]) == 0, command
    capsys.readouterr()
    assert main(["branch", GAME, "--at", str(seq + 1), "--db", db, "--seed", "other",
                 "--game-id", "lineup-branch"]) == 0
    assert main(["audit", "lineup-branch", "--db", db]) == 0
    # the moved winger's time on ice is counted from the on-ice lists, new boxes included
    moved = events[seq - 1].forwards[0][0]
    spaces = sum(moved in e.home_on_ice if events[seq - 1].side == "home" else
                 moved in e.away_on_ice for e in events[seq:]
                 if isinstance(e, ev.TimingSpaceCounted))
    capsys.readouterr()
    assert main(["toi", GAME, "--db", db, "--json"]) == 0
    toi = msgspec.json.decode(capsys.readouterr().out)
    before = sum(moved in (e.home_on_ice if events[seq - 1].side == "home" else e.away_on_ice)
                 for e in events[:seq] if isinstance(e, ev.TimingSpaceCounted))
    row = next(p for p in toi["players"] if p["player"] == moved)
    assert row["toi"] == before + spaces


class _Typist:
    """A tabletop player: seeded dice, enter for the coach, except that at the first
    window of the second period he swaps the home team's line 1 and line 2 wingers."""

    def __init__(self, seed: str) -> None:
        self.seed, self.answers, self.swapped = seed, [], False
        self.coach = kit_for("dicehockey").prompt_coach(Prompter(self._answer, self._see))
        self.shown: list[str] = []

    def _see(self, line: str) -> None:
        self.shown.append(line)

    def _answer(self, text: str) -> str:
        if text.startswith("roll "):
            answer = str(derive_roll(self.seed, "script", int(text.split()[1])))
        elif "swap: lineup cards" in text and not self.swapped:
            self.swapped, answer = True, "swap home nils-rautio garrick-lachance"
        else:
            answer = ""
        self.answers.append(answer)
        return answer


def test_a_typed_game_with_a_re_set_lineup_stops_resumes_and_audits(tmp_path: Path) -> None:
    from replay.systems.dicehockey.library import find_dicehockey_team

    lines = find_dicehockey_team("ALD").lines.forwards
    typist = _Typist("table")
    scratch = tmp_path / "scratch.db"
    with open_store(scratch) as store:
        gid = new_live_game(store, setup_for("ALD", "BRK", ruleset="dicehockey"),
                            game_id="script")
        continue_game(resume_point(store, gid), typist.coach, typist.coach,
                      store_committer(store, gid))
        played = read_game(store, "script")
    assert typist.swapped, "the prompt offered no lineup window"
    (move,) = [e for e in played if isinstance(e, ev.LineupRearranged)]
    assert move.forwards[0][0] == lines[1][0] and move.forwards[1][0] == lines[0][0]
    opened = next(i for i, e in enumerate(played) if isinstance(e, PeriodStarted)
                  and e.period == 2)
    assert played.index(move) > opened
    answers = typist.answers
    cut = answers.index("swap home nils-rautio garrick-lachance") + 2
    db = tmp_path / "live.db"
    runner = CliRunner()
    result = runner.invoke(app, ["play", "--home", "ALD", "--away", "BRK", "--db", str(db),
                                 "--ruleset", "dicehockey"],
                           input="\n".join([*answers[:cut], "q"]) + "\n")
    assert result.exit_code == 0, result.output
    assert "lineup cards may be re-set" in result.output
    live = "ALD-BRK-live1"
    with open_store(db) as store:
        kept = read_game(store, live)
        assert move in kept
        assert audit_game(store, live).ok
    result = runner.invoke(app, ["play", "--resume", live, "--db", str(db)],
                           input="\n".join(answers[cut:]) + "\n")
    assert result.exit_code == 0, result.output
    with open_store(db) as store:
        report = audit_game(store, live)
        assert report.ok and not report.in_progress, report.failure
        assert read_game(store, live)[1:] == played[1:]


def _prompt(*typed: str) -> tuple[object, list[str]]:
    answers, shown = list(typed), []
    coach = kit_for("dicehockey").prompt_coach(Prompter(lambda text: answers.pop(0),
                                                        shown.append))
    return coach, shown


def _stoppage(side: str = "home"):
    from dicehockey_support import new_state

    state = new_state()
    state.puck, state.coach_window, state.window, state.whistle_side = \
        None, True, "stoppage", side
    return state


def test_the_prompt_refuses_illegal_lineups_in_one_line_each() -> None:
    state = _stoppage()
    state.home.lineup_open = "injury"
    coach, shown = _prompt("help", "swap home orrin-moberg nils-rautio",
                           "swap home nils-rautio fitz-delorme", "lineup home a,b,c x,y",
                           "swap away teo-quennell ivo-vanderlaan",
                           "swap home nils-rautio garrick-lachance", "cards home", "")
    (choice,) = coach.lines(state)
    assert isinstance(choice, ev.LineupRearranged) and choice.side == "home"
    assert choice.forwards[0][0] == "garrick-lachance"
    text = "\n".join(shown)
    assert "'swap home|away ID ID'" in text and "ALD after its player's injury" in text
    refusals = [line for line in shown if "not allowed" in line or "goalies" in line]
    assert len(refusals) == 4 and all("\n" not in line for line in refusals)
    assert "goalies cannot play another position" in refusals[0]
    assert "fitz-delorme" not in refusals[1] and "face-off rating" in refusals[1]
    assert "four forward lines" in refusals[2] and "lines stay set" in refusals[3]
    assert any(line.startswith("  ALD lineup cards: line 1 garrick-lachance") for line in shown)


def test_at_its_time_out_a_team_may_re_set_its_lineup_at_the_prompt() -> None:
    state = _stoppage("home")
    coach, shown = _prompt("swap home nils-rautio garrick-lachance", "timeout home", "y",
                           "swap home nils-rautio garrick-lachance", "lines home 2 1", "")
    choices = coach.lines(state)
    assert [type(c).__name__ for c in choices] == ["TimeOutCalled", "LineupRearranged",
                                                    "LinesChanged"]
    assert "lines stay set" in shown[shown.index(next(s for s in shown if "not allowed" in s))]
    assert choices[2].slots["LW"] == "nils-rautio"  # line 2's LW box, as re-set
    assert not state.home.time_out  # the loop applies the choices, not the prompt


# --- the coach's picks of 15 (a tie on Penalty Chart A) and 22 (the extra attacker) -------

class _OtherPicks:
    """The default coach, except that he picks the last tied player (15) and the extra
    attacker with the narrowest goal range (22): picks the default coach never makes."""

    def __init__(self) -> None:
        from engine.dicehockey.coach import DefaultCoach
        self.default = DefaultCoach()

    def lines(self, state) -> list:
        from engine.dicehockey.penalties import free_skaters, tied
        step = state.queue[0] if state.queue else None
        if step is not None and step.kind == "penalty_tie":
            return [ev.PenaltyPlayerChosen(side=step.side,
                                           player=tied(state, step.side, step.number)[-1],
                                           rule="15")]
        if step is not None and step.kind == "extra_attacker":
            cards = state.team(step.side).cards
            return [ev.ExtraAttackerAdded(side=step.side, rule="22", player=min(
                free_skaters(state, step.side), key=lambda p: cards[p].goal))]
        return self.default.lines(state)

    def shootout(self, state):
        return self.default.shootout(state)


def _all_tied(folder: Path) -> Path:
    """A league folder whose ALD and BRK skaters all have penalty rating 50, so every
    Chart A call is a tie (15)."""
    import re

    from replay.data.reading import FIXTURES

    (folder / "teams").mkdir(parents=True)
    for team in ("ald", "brk"):
        text = (Path(FIXTURES) / "dicehockey" / "teams" / f"{team}.toml").read_text()
        (folder / "teams" / f"{team}.toml").write_text(
            re.sub(r"(?m)^penalty = \d+$", "penalty = 50", text))
    return folder


def test_the_coachs_penalty_and_extra_attacker_picks_are_recorded_and_audited(
        tmp_path: Path) -> None:
    """15, 22: picks other than the default coach's audit clean (RecordedCoach hands them
    to the rules, never re-decided); a forged pick outside the tie, or of a skater on the
    ice, and a pick left out, are the audit's finding at their seq, with their rule."""
    league = _all_tied(tmp_path / "league")
    with open_store(tmp_path / "picks.db") as store:
        for seed in range(8):  # a game with a delayed call (a tie is every call here)
            # played at the table: picks the default coach would not make are a person's
            # (a simulated game's choices are re-derived from its default coach)
            gid = f"ALD-BRK-picks{seed}-dicehockey"
            new_live_game(store, setup_for("ALD", "BRK", ruleset="dicehockey", fixtures=league),
                          game_id=gid)
            continue_game(resume_point(store, gid), _Typed(f"picks{seed}", gid), _OtherPicks(),
                          store_committer(store, gid))
            events = read_game(store, gid)
            if any(isinstance(e, ev.ExtraAttackerAdded) for e in events):
                break
        assert audit_game(store, gid).ok
        at = next(i for i, e in enumerate(events) if isinstance(e, ev.PenaltyPlayerChosen))
        tie = events[at - 1]
        assert isinstance(tie, ev.PenaltyTied) and len(tie.players) == 5
        assert events[at].player == tie.players[-1]
        goalie = next(e.goalie for e in events if isinstance(e, ev.ShotTaken)
                      and e.goalie and e.side != tie.side)
        forged = msgspec.structs.replace(events[at], player=goalie)
        report = audit_forged(store, gid, [*events[:at], forged, *events[at + 1:]])
        assert not report.ok and report.failure.seq == at + 1
        assert report.failure.rule == "15" and "the tie is between" in report.failure.recorded
        at = next(i for i, e in enumerate(events) if isinstance(e, ev.ExtraAttackerAdded))
        assert events[at - 1].delayed  # the InfractionRolled of the delayed call
        on_ice = next(e for e in events[at:] if isinstance(e, ev.TimingSpaceCounted))
        skater = (on_ice.home_on_ice if events[at].side == "home" else on_ice.away_on_ice)[0]
        forged = msgspec.structs.replace(events[at], player=skater)
        report = audit_forged(store, gid, [*events[:at], forged, *events[at + 1:]])
        assert not report.ok and report.failure.seq == at + 1 and report.failure.rule == "22"
        dropped = audit_forged(store, gid, [*events[:at], *events[at + 1:]])
        assert not dropped.ok and dropped.failure.seq == at + 1
