"""Fuzzing every input channel (hypothesis, a few dozen inputs each, a few seconds a test):
whatever a user feeds rinklog ends in a clean exit or a one-line error, never a traceback.

What counts as handled is :func:`fuzzing.check`; tests/bench/fuzz_inputs.py runs the same
channels with ten thousand random inputs.
"""

from __future__ import annotations

from pathlib import Path

import fuzzing
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

tricky_text = st.text(alphabet=st.one_of(st.sampled_from(fuzzing.TRICKY), st.characters()),
                      max_size=24)
dice_line = st.lists(st.sampled_from("0123456789²٣３⁶"), min_size=3, max_size=5).map(" ".join)
roll_lines = st.lists(st.one_of(dice_line, tricky_text), max_size=20).map("\n".join)


@st.composite
def mutated(draw: st.DrawFn, base: bytes) -> bytes:
    """``base`` with a span replaced by tricky text or raw bytes, or cut short."""
    data = bytearray(base)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data)))
        end = min(len(data), at + draw(st.integers(0, 40)))
        junk = draw(st.one_of(tricky_text.map(lambda t: t.encode("utf-8", "surrogatepass")),
                              st.binary(max_size=8), st.just(b"")))
        if draw(st.booleans()) and not junk:
            end = len(data)  # cut the file short
        data[at:end] = junk
    return bytes(data)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module")
def game_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fuzzing.game_database(tmp_path_factory.mktemp("fuzz-game"))


@FUZZ
@given(data=st.one_of(roll_lines.map(str.encode), st.binary(max_size=200)))
def test_rolls_files(work: Path, data: bytes) -> None:
    assert fuzzing.rolls_file(work, data).code == 1  # never a whole game from these few


@FUZZ
@given(text=roll_lines)
def test_rolls_typed_at_the_sim_prompt(work: Path, text: str) -> None:
    assert fuzzing.rolls_prompt(work, text).code == 1  # input ends before the game does


@settings(FUZZ, max_examples=25)
@given(text=st.lists(st.one_of(dice_line, tricky_text,
                               st.sampled_from(["", "q", "home C=x", "away G=-", "pressure",
                                                "first away", "3 4 2 6"])),
                     max_size=12).map("\n".join))
def test_the_play_prompt(work: Path, text: str) -> None:
    outcome = fuzzing.play_prompt(work, text)
    assert outcome.code == 0 and "Aborted" not in outcome.err
    assert "stopped: " in outcome.out or "game over" in outcome.out


@settings(FUZZ, max_examples=25)
@given(data=st.one_of(mutated(fuzzing.TEAM.read_bytes()), st.binary(max_size=100)))
def test_team_files(work: Path, data: bytes) -> None:
    fuzzing.toml_file(work, "team", data)


@settings(FUZZ, max_examples=25)
@given(data=st.one_of(mutated(fuzzing.CHARTS.read_bytes()), st.binary(max_size=100)))
def test_chart_files(work: Path, data: bytes) -> None:
    fuzzing.toml_file(work, "chart", data)


@settings(FUZZ, max_examples=25)
@given(data=st.one_of(mutated(fuzzing.LEAGUE_BASE), st.binary(max_size=100)))
def test_league_files(work: Path, data: bytes) -> None:
    fuzzing.toml_file(work, "league", data)


COMMANDS = fuzzing.commands()


@FUZZ
@given(seed=st.randoms(use_true_random=False))
def test_command_line_arguments(work: Path, game_db: Path, seed) -> None:
    fuzzing.cli_args(work, fuzzing.random_argv(seed, game_db, COMMANDS))


@FUZZ
@given(kind=st.sampled_from(fuzzing.ODD_DATABASES), data=st.binary(max_size=64),
       command=st.sampled_from(fuzzing.DB_COMMANDS))
def test_odd_database_files(work: Path, game_db: Path, kind: str, data: bytes,
                            command: list[str]) -> None:
    outcome = fuzzing.odd_database(work, kind, data, command, game_db)
    if kind in ("folder", "foreign"):
        assert outcome.code == 1


@pytest.fixture(scope="module")
def honest(game_db: Path, tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return fuzzing.honest_export(game_db, tmp_path_factory.mktemp("fuzz-export"))


@FUZZ
@given(data=st.data())
def test_export_files(work: Path, honest: bytes, data: st.DataObject) -> None:
    """A changed export file (bytes flipped, cut, spliced) is refused in one line."""
    changed = data.draw(st.one_of(
        mutated(honest), st.binary(max_size=200),
        st.integers(1, 5000).map(fuzzing.nested_msgpack)))
    outcome = fuzzing.export_file(work, changed, honest)
    assert outcome.code == (0 if changed == honest else 1)


def test_export_file_oddities(work: Path, honest: bytes) -> None:
    """The cases fuzzing found: an empty game id, changed lineage, deep nesting."""
    import msgspec

    tree = msgspec.msgpack.decode(honest)
    no_id = {**tree, "receipt": {**tree["receipt"], "games": [
        {**tree["receipt"]["games"][0], "game": ""}]}}
    lineage = {**tree, "receipt": {**tree["receipt"], "games": [
        {**tree["receipt"]["games"][0], "meta": {**tree["receipt"]["games"][0]["meta"],
                                                  "parent_seq": "x"}}]}}
    for bad in (msgspec.msgpack.encode(no_id), msgspec.msgpack.encode(lineage),
                fuzzing.nested_msgpack(100_000)):
        assert fuzzing.export_file(work, bad, honest).code == 1
    assert fuzzing.export_file(work, honest, honest).code == 0
