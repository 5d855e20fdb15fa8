"""Replay tooling: audit, branch, diff, export/import, explain and the play prompt."""

from __future__ import annotations

import itertools
import re
import sqlite3
from pathlib import Path

import msgspec
import pytest
from forge import audit_forged
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from setups import setup_for, simulate
from typer.testing import CliRunner

from engine.systems import SYSTEMS, system_of
from events.base import tag_of
from events.checkpoints import HASH_EVERY
from events.common import BranchStarted
from replay.cli.app import app, main
from replay.games.game_streams import open_store, read_game
from replay.games.session import (
    branch_game,
    continue_game,
    new_live_game,
    resume_point,
    store_committer,
)
from replay.leagues.audit import audit_game
from replay.leagues.transfer import diff_games, export_game, import_game
from replay.systems import Prompter, kit_for

FAST = settings(max_examples=12, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
SLOW = settings(FAST, max_examples=6)
_ids = itertools.count(1)

# Every registered ruleset of every game system: each tool is tested on each.
RULESETS = [name for system in SYSTEMS.values() for name in system.rulesets]


def teams(ruleset: str) -> tuple[str, str]:
    """Two teams of the ruleset's system, from its shipped fixtures."""
    first, second = kit_for(ruleset).list_teams(None)[:2]
    return first.id, second.id


def _bones_face(roll, die: int):
    dice = [roll.blue, *roll.whites, roll.red]
    dice[die % 4] = dice[die % 4] % 6 + 1
    return type(roll)(dice[0], (dice[1], dice[2]), dice[3])


def _d10_face(roll, die: int):
    red, white = (roll.red + 1) % 10, roll.white
    if die % 2:
        red, white = roll.red, (roll.white + 1) % 10
    return type(roll)(red, white)


KEY = "(SELECT key FROM streams WHERE stream=?)"  # a stream's events.stream_key

# A roll with one die turned to another face (a forger's change), by system.
OTHER_FACE = {"bones": _bones_face, "dicehockey": _d10_face}
# A decision whose recorded outcome a forger flips, by system: (event type, field).
FLIPPED = {"bones": ("ShotTaken", "in_range"), "dicehockey": ("dicehockey.ShotTaken", "goal")}
# An event explain words with its roll and card, by system: (event type, words it names).
EXPLAINED = {"bones": ("ActionResolved", "cell"), "dicehockey": ("dicehockey.PassRolled", "pass")}


@pytest.fixture(scope="module", params=list(RULESETS))
def db(tmp_path_factory: pytest.TempPathFactory, request) -> tuple[Path, str, int]:
    """One game under each registered ruleset: every tool works the same on all."""
    path = tmp_path_factory.mktemp("replay") / "games.db"
    with open_store(path) as store:
        result = simulate(store, *teams(request.param), seed="tools", ruleset=request.param)
    return path, result.game_id, result.events


def _reported_by(seq: int, n: int) -> int:
    """Where a changed row ``seq`` of a stream of ``n`` rows is caught at the latest: the
    stream stores its hash every HASH_EVERY rows (schema 5), so at the next checkpoint, or
    at the head (reported as n + 1) past the last one."""
    checkpoint = -(-seq // HASH_EVERY) * HASH_EVERY
    return checkpoint if checkpoint <= n else n + 1


def _copy(store, src: str, dst: str) -> None:
    """A second stream with the same rows (a scratch copy to tamper with)."""
    store.copy_prefix(src, dst, store.version(src))


@pytest.mark.parametrize("ruleset", list(RULESETS))
@pytest.mark.parametrize("seed", [f"s{n}" for n in range(6)])
def test_audit_passes_on_honest_streams(tmp_path: Path, seed: str, ruleset: str) -> None:
    with open_store(tmp_path / "a.db") as store:
        home, away = teams(ruleset)
        result = simulate(store, away, home, seed=seed, ruleset=ruleset)
        report = audit_game(store, result.game_id)
    assert report.ok, report.failure
    assert report.seeded_rolls > 100


@FAST
@given(seq_frac=st.floats(0, 1), byte=st.integers(0, 10_000), bit=st.integers(0, 7))
def test_any_changed_byte_fails_at_that_event(db, tmp_path_factory, seq_frac, byte, bit) -> None:
    path, game, n = db
    seq = 1 + int(seq_frac * (n - 1))
    with open_store(path) as store:
        raw = sqlite3.connect(path)
        (payload,) = raw.execute(f"SELECT payload FROM events WHERE stream_key={KEY} "
                                 "AND seq=?", (game, seq)).fetchone()
        changed = bytearray(payload)
        changed[byte % len(changed)] ^= 1 << bit
        raw.execute(f"UPDATE events SET payload=? WHERE stream_key={KEY} AND seq=?",
                    (bytes(changed), game, seq))
        raw.commit()
        try:
            report = audit_game(store, game)
        finally:
            raw.execute(f"UPDATE events SET payload=? WHERE stream_key={KEY} AND seq=?",
                        (payload, game, seq))
            raw.commit()
            raw.close()
    assert report.failure is not None and report.failure.check == "chain"
    assert seq <= report.failure.seq <= _reported_by(seq, n)
    span = re.search(r"payload (?:of event|in events) (?:(\d+)-)?(\d+)", report.failure.recorded)
    assert span is not None and int(span[1] or span[2]) <= seq <= int(span[2])


@FAST
@given(seq_frac=st.floats(0, 1), swap=st.booleans())
def test_removed_or_reordered_event_fails(db, seq_frac, swap) -> None:
    path, game, n = db
    seq = 1 + int(seq_frac * (n - 2))
    raw = sqlite3.connect(path)
    (key,) = raw.execute("SELECT key FROM streams WHERE stream=?", (game,)).fetchone()
    rows = raw.execute("SELECT seq, type_key, payload, hash FROM events WHERE stream_key=? "
                       "AND seq IN (?, ?) ORDER BY seq", (key, seq, seq + 1)).fetchall()
    try:
        if swap:
            for (s, *_), (_, *rest) in zip(rows, reversed(rows), strict=True):
                raw.execute("UPDATE events SET type_key=?, payload=?, hash=? "
                            "WHERE stream_key=? AND seq=?", (*rest, key, s))
        else:
            raw.execute("DELETE FROM events WHERE stream_key=? AND seq=?", (key, seq))
        raw.commit()
        with open_store(path) as store:
            report = audit_game(store, game)
    finally:
        raw.execute("DELETE FROM events WHERE stream_key=? AND seq IN (?, ?)",
                    (key, seq, seq + 1))
        raw.executemany("INSERT INTO events (stream_key, seq, type_key, payload, hash) "
                        "VALUES (?, ?, ?, ?, ?)", [(key, *r) for r in rows])
        raw.commit()
        raw.close()
    assert report.failure is not None and report.failure.seq <= _reported_by(seq + 1, n)


@FAST
@given(k=st.integers(0, 10_000), die=st.integers(0, 3))
def test_changed_die_value_fails_even_rehashed(tmp_path_factory, db, k, die) -> None:
    """A forger who re-hashes the whole stream is caught by the dice derivation."""
    path, game, _ = db
    with open_store(path) as store:
        events = read_game(store, game)
        system = system_of(events[0].ruleset)
        rolled = [i for i, e in enumerate(events) if isinstance(e, system.roll_event)]
        i = rolled[k % len(rolled)]
        events[i] = msgspec.structs.replace(
            events[i], roll=OTHER_FACE[system.name](events[i].roll, die))
        report = audit_forged(store, game, events)
    assert report.failure is not None and report.failure.seq <= i + 1
    assert report.failure.check == "dice"


def test_rehashed_decision_change_fails_the_rules_check(db, tmp_path: Path) -> None:
    path, game, _ = db
    with open_store(path) as store:
        events = read_game(store, game)
        kind, field = FLIPPED[system_of(events[0].ruleset).name]
        i = next(i for i, e in enumerate(events) if tag_of(type(e)) == kind)
        events[i] = msgspec.structs.replace(events[i], **{field: not getattr(events[i], field)})
        report = audit_forged(store, game, events)
    assert report.failure is not None and report.failure.check == "rules"
    assert report.failure.seq == i + 1 and report.failure.rule


@SLOW
@given(seq_frac=st.floats(0, 1))
def test_branch_without_new_seed_reproduces_parent(db, seq_frac) -> None:
    path, game, n = db
    at = 1 + int(seq_frac * (n - 1))
    with open_store(path) as store:
        result = branch_game(store, game, at, game_id=f"{game}-same-{next(_ids)}")
        child = read_game(store, result.game_id)
        parent = read_game(store, game)
        fork = child[at]
        assert isinstance(fork, BranchStarted) and fork.parent_seq == at
        assert fork.parent_head == store.read(game, at, at)[0].hash
        assert child[:at] + child[at + 1:] == parent  # the same game, event for event
        assert store.info(result.game_id).meta["parent_seq"] == at
        assert audit_game(store, result.game_id).ok
        assert diff_games(store, game, result.game_id).seq is None


@SLOW
@given(seq_frac=st.floats(0.02, 0.9), seed=st.text("abcdef", min_size=1, max_size=6))
def test_branch_with_new_seed_audits_clean_and_diff_finds_fork(db, seq_frac, seed) -> None:
    path, game, n = db
    at = 1 + int(seq_frac * (n - 1))
    with open_store(path) as store:
        child = f"{game}-new-{next(_ids)}"
        result = branch_game(store, game, at, seed=seed, game_id=child)
        report = audit_game(store, child)
        assert report.ok, report.failure
        assert result.reseed is not None and result.reseed["seed"] == seed
        d = diff_games(store, game, child)
        parent_events = read_game(store, game)
    # The first roll after the fork is the first event that may differ.
    first_new = result.reseed["from_roll"]
    created = parent_events[0]
    system = system_of(created.ruleset)
    fork = next(i + 1 for i, e in enumerate(parent_events)
                if isinstance(e, system.roll_event) and e.n == first_new)
    if system.derive_roll(seed, created.game_id, first_new) != parent_events[fork - 1].roll:
        assert d.seq == fork
    else:
        assert d.seq is None or d.seq > at


def test_export_import_round_trip_and_refusals(db, tmp_path: Path) -> None:
    path, game, _ = db
    with open_store(path) as store:
        branch = branch_game(store, game, 500, seed="export", game_id=f"{game}-exp")
        data = export_game(store, branch.game_id)
    target = tmp_path / "commissioner.db"
    with open_store(target) as store:
        import_game(store, data)
        assert audit_game(store, branch.game_id).ok
        assert store.head_hash(branch.game_id) == branch.head_hash
    assert main(["import", str(_write(tmp_path / "again.rl", data)), "--db", str(target)]) == 1
    for where in (len(data) // 3, len(data) // 2, len(data) - 100):
        bad = bytearray(data)
        bad[where] ^= 0x10
        empty = tmp_path / f"empty{where}.db"
        code = main(["import", str(_write(tmp_path / f"bad{where}.rl", bytes(bad))),
                     "--db", str(empty)])
        assert code == 1
        if empty.exists():
            with open_store(empty) as store:
                assert store.streams() == []


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_cli_audit_games_and_explain(db, capsys) -> None:
    path, game, _ = db
    assert main(["audit", game, "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ok" in out
    with open_store(path) as store:
        events = read_game(store, game)
    kind, words = EXPLAINED[system_of(events[0].ruleset).name]
    seq = next(i + 1 for i, e in enumerate(events) if tag_of(type(e)) == kind)
    assert main(["explain", game, str(seq), "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert events[seq - 1].rule in out and words in out and "roll" in out
    assert main(["games", "--db", str(path), "--json"]) == 0
    rows = msgspec.json.decode(capsys.readouterr().out)
    assert all({"game_id", "home", "away", "score", "parent"} <= set(r) for r in rows)


class _Scripted:
    """Answers every prompt of a ruleset's prompt coach as a tabletop player would (seeded
    dice, enter for the coach), recording the answers: the exact input a CliRunner needs."""

    def __init__(self, seed: str, ruleset: str) -> None:
        self.seed, self.answers = seed, []
        self.derive = system_of(ruleset).derive_roll
        self.coach = kit_for(ruleset).prompt_coach(Prompter(self._answer, lambda line: None))

    def _answer(self, text: str) -> str:
        if text.startswith("roll "):
            n = int(text.split()[1])
            answer = str(self.derive(self.seed, "script", n))
        else:
            answer = ""
        self.answers.append(answer)
        return answer


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_play_prompt_typo_quit_resume_audit(tmp_path: Path, ruleset: str) -> None:
    scratch = tmp_path / "scratch.db"
    script = _Scripted("table", ruleset)
    home, away = teams(ruleset)
    live = f"{home}-{away}-live1"
    system = system_of(ruleset)
    with open_store(scratch) as store:
        gid = new_live_game(store, setup_for(home, away, ruleset=ruleset), game_id="script")
        continue_game(resume_point(store, gid), script.coach, script.coach,
                      store_committer(store, gid))
    answers = script.answers
    assert any(a == "" for a in answers)
    first_roll = next(i for i, a in enumerate(answers) if a)
    cut = len(answers) // 2
    db = tmp_path / "live.db"
    # score and clock at a prompt say where the game stands and ask again (issue 24, 9)
    typed = (answers[:first_roll] + ["7 7 7 7", "score", "3 4 2", "clock"]
             + answers[first_roll:cut] + ["q"])
    runner = CliRunner()
    result = runner.invoke(app, ["play", "--home", home, "--away", away, "--db", str(db),
                                 "--ruleset", ruleset], input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    assert "not a roll" in result.output and "resume with" in result.output
    with open_store(db) as store:
        (info,) = store.streams()
        assert info.stream == live and "decided" not in info.meta
        kept = read_game(store, info.stream)
        rolls = [str(e.roll) for e in kept if isinstance(e, system.roll_event)]
        assert rolls == [a for a in answers[:cut] if a]  # the typo was not recorded
        assert audit_game(store, info.stream).ok
    assert main(["games", "--db", str(db)]) == 0
    rest = "\n".join(answers[cut:]) + "\n"
    result = runner.invoke(app, ["play", "--resume", live, "--db", str(db)], input=rest)
    assert result.exit_code == 0, result.output
    assert "game over" in result.output
    # on resume and at each prompt: period, clock, score and strength (issue 24, 9)
    status = re.compile(rf"(P[1-3]|OT) .*\| {home} \d+ - \d+ {away} \| \d on \d")
    resumed = result.output.splitlines()[1]
    assert status.search(resumed), resumed
    assert status.search(result.output.split("\n", 3)[2])  # the first prompt after it
    with open_store(db) as store:
        report = audit_game(store, live)
        assert report.ok and not report.in_progress, report.failure
        with open_store(scratch) as other:
            # the same rolls and default choices: the same game, event for event
            assert read_game(store, live)[1:] == read_game(other, "script")[1:]


def test_play_late_penalty_house_rule_for_new_games_only(tmp_path: Path) -> None:
    from events.common import GameCreated

    db = tmp_path / "late.db"
    runner = CliRunner()
    result = runner.invoke(app, ["play", "--home", "HFX", "--away", "QUE",
                                 "--late-penalty-house-rule", "--db", str(db)], input="q\n")
    assert result.exit_code == 0, result.output
    with open_store(db) as store:
        created = read_game(store, "HFX-QUE-live1")[0]
    assert isinstance(created, GameCreated) and created.late_penalty_house_rule is True
    assert main(["play", "--resume", "HFX-QUE-live1", "--late-penalty-house-rule",
                 "--db", str(db)]) == 1
