"""Fuzzing every input channel (hypothesis, a few dozen inputs each, a few seconds a test):
whatever a user feeds rinklog ends in a clean exit or a one-line error, never a traceback.

What counts as handled is :func:`fuzzing.check`; tests/bench/fuzz_inputs.py runs the same
channels with ten thousand random inputs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import fuzzing
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

DICEDEMO = fuzzing.ROOT / "fixtures" / "dicehockey" / "leagues" / "dicedemo"
SEASON = "dicedemo-7"

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


# --- receipts, lottery rolls, numeric options at their limits (issue 33) -----------------

@pytest.fixture(scope="module")
def season_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole DICE Hockey season of the bundled dicedemo league at 2 games a team (its
    lottery can be drawn), with a season receipt beside it."""
    folder = tmp_path_factory.mktemp("fuzz-season")
    league = folder / "mini"
    shutil.copytree(DICEDEMO, league)
    toml = league / "league.toml"
    toml.write_text(toml.read_text().replace("games = 82", "games = 2"))
    db = folder / "season.db"
    assert fuzzing.run(["season", "--league", str(league), "--seed", "7", "--workers", "1",
                        "--db", str(db)]).code == 0
    assert fuzzing.run(["receipt", "--season", SEASON, "-o", str(folder / "receipt.json"),
                        "--db", str(db)]).code == 0
    return db


def test_receipts_nested_too_deeply_are_refused_in_one_line(work: Path, game_db: Path) -> None:
    """Issue 33: "audit --receipt with deeply nested JSON (RecursionError)" becomes one
    clear line and a non-zero exit."""
    for data in (fuzzing.nested_json(100_000),
                 fuzzing.nested_json(100_000, b'"format":"rinklog-season-receipt",'),
                 fuzzing.nested_json(100_000, b'"format":"rinklog-receipt","version":1,')):
        assert fuzzing.receipt_file(work, data, game_db).code == 1


@settings(FUZZ, max_examples=25)
@given(data=st.data())
def test_receipt_files(work: Path, season_db: Path, data: st.DataObject) -> None:
    """A season receipt changed, random bytes or nested JSON: a report or one line."""
    honest = (season_db.parent / "receipt.json").read_bytes()
    changed = data.draw(st.one_of(mutated(honest), st.binary(max_size=200),
                                  st.integers(1, 5000).map(fuzzing.nested_json)))
    fuzzing.receipt_file(work, changed, season_db)  # a changed space may still pass


def test_a_lottery_roll_in_another_scripts_digits_is_refused(work: Path,
                                                             season_db: Path) -> None:
    """Issue 33: "lottery --rolls with a line containing a non-ASCII digit such as ⑦
    (ValueError)"; '⑦'.isdigit() holds, int('⑦') does not."""
    for text in ("⑦\n", "٣\n", "²\n", "３\n"):
        outcome = fuzzing.lottery_rolls(work, text, season_db, SEASON)
        assert outcome.code == 1 and "not a whole number" in outcome.err, outcome


@settings(FUZZ, max_examples=25)
@given(text=roll_lines)
def test_lottery_rolls(work: Path, season_db: Path, text: str) -> None:
    fuzzing.lottery_rolls(work, text, season_db, SEASON)


def _int_parameters() -> set[tuple[str, str]]:
    """Every whole-number option or argument of the CLI, as (command, name)."""
    import typer

    from replay.cli.app import app

    found: set[tuple[str, str]] = set()

    def walk(command, path: list[str]) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*path, name])
        for param in getattr(command, "params", []) if not hasattr(command, "commands") else []:
            if getattr(param.type, "name", "") == "integer":  # click's int, typed ``int``
                found.add((" ".join(path), param.opts[0]))

    walk(typer.main.get_command(app), [])
    return found


def test_every_numeric_option_is_fuzzed() -> None:
    assert _int_parameters() == set(fuzzing.NUMERIC)


@pytest.mark.parametrize("key", sorted(fuzzing.NUMERIC))
def test_numeric_options_at_their_limits(work: Path, season_db: Path,
                                         key: tuple[str, str]) -> None:
    """Issue 33: "leaders --top 99999999999999999999 (OverflowError)": every whole-number
    option at 0, -1, past SQLite's INTEGER and at twenty nines ends in one clear line."""
    for value in fuzzing.LIMITS:
        fuzzing.numeric_option(work, key, value, season_db, SEASON, season_db.parent / "mini")


_DATA = st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.floats()
                     | st.text() | st.binary(),
                     lambda inner: st.lists(inner, max_size=5)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=20)


def _msgpack(value: object) -> bytes:
    import msgspec
    return msgspec.msgpack.encode(value)


@settings(FUZZ, max_examples=60)
@given(reply=st.one_of(
    st.binary(max_size=200),  # not msgpack, or msgpack of anything
    _DATA.map(lambda data: _msgpack(["done", data])),  # a result of any shape
    _DATA.map(lambda data: _msgpack(["failed", data])),
    st.integers(1, 5000).map(lambda depth: b"\x92\xa4done" + fuzzing.nested_msgpack(depth))))
def test_a_cluster_worker_s_reply(reply: bytes) -> None:
    """A cluster worker's reply (replay/cluster.py): whatever bytes a worker sends back are
    a result of the type the command named (a game, an audit report, an odds run) or one
    line naming the job; never a traceback, never unpickled."""
    import msgspec

    from events.errors import RinklogError
    from replay.cluster import read_reply
    from replay.leagues.audit import AuditReport
    from replay.leagues.odds import RunResult
    for what, kind in (("stream", AuditReport), ("odds run", RunResult)):
        try:
            got = read_reply(reply, msgspec.msgpack.Decoder(kind), what, 7)
        except RinklogError as err:
            assert "\n" not in str(err) and str(err).startswith(f"{what} 7")
        else:
            assert isinstance(got, kind)
