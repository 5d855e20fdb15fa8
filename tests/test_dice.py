"""Dice: rolls, dice ranges (3.20) checked exhaustively, seeded derivation, manual dice."""

from __future__ import annotations

import hashlib
import itertools
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.bones.dice import DiceRange, derive_roll, parse_roll
from engine.dice import ManualDice, RecordedDice, SeededDice, derive_faces
from events.bones import Roll
from events.errors import RollError

DOC = Path(__file__).resolve().parents[1] / "docs" / "dice.md"

ALL_ROLLS = [
    Roll(blue, (w1, w2), red) for blue, w1, w2, red in itertools.product(range(1, 7), repeat=4)
]


def in_range_as_worded(roll: Roll, first: int, second: int, red: int | None) -> bool:
    """3.20 read literally: in range when any one of its four conditions holds."""
    return (
        roll.blue < first
        or (roll.blue == first and roll.white < second)
        or (red is None and roll.blue == first and roll.white == second)
        or (red is not None and roll.blue == first and roll.white == second and roll.red <= red)
    )


def check_every_roll(text: str, expected: Callable[[Roll], bool]) -> None:
    rng = DiceRange.parse(text)
    wrong = [str(r) for r in ALL_ROLLS if rng.contains(r) != expected(r)]
    assert not wrong, f"{text}: {len(wrong)} rolls judged wrong, e.g. {wrong[:5]}"


# --- the worked examples of 3.20 -------------------------------------------------------


def test_example_3_6_3() -> None:
    """Blue 1-2; blue 3 with white 2-5; blue 3, white 6 and red 1-3 (3.20, example 1)."""

    def listed(r: Roll) -> bool:
        return (
            r.blue in (1, 2)
            or (r.blue == 3 and 2 <= r.white <= 5)
            or (r.blue == 3 and r.white == 6 and r.red in (1, 2, 3))
        )

    check_every_roll("3-6(3)", listed)
    check_every_roll("3-6(3)", lambda r: in_range_as_worded(r, 3, 6, 3))
    assert DiceRange.parse("3-6(3)").contains(Roll(blue=3, whites=(2, 4), red=3))
    assert not DiceRange.parse("3-6(3)").contains(Roll(blue=3, whites=(2, 4), red=4))
    assert DiceRange.parse("3-6(3)").contains(Roll(blue=3, whites=(1, 4), red=6))
    assert not DiceRange.parse("3-6(3)").contains(Roll(blue=3, whites=(3, 4), red=1))


def test_example_2_10() -> None:
    """Blue 1; blue 2 with white 2-10 (3.20, example 2)."""
    check_every_roll("2-10", lambda r: r.blue == 1 or (r.blue == 2 and 2 <= r.white <= 10))
    check_every_roll("2-10", lambda r: in_range_as_worded(r, 2, 10, None))
    assert DiceRange.parse("2-10").contains(Roll(2, (5, 5), 6))
    assert not DiceRange.parse("2-10").contains(Roll(2, (5, 6), 1))


def test_example_pacioretty() -> None:
    """Blue 3, white 7, red 2 is in range of none of the card's 1-7(3) and 1-3 ranges."""
    shooting = {"N": "1-7(3)", "P": "1-7(3)", "D": "1-7(3)", "S": "1-3"}
    example = [r for r in ALL_ROLLS if r.blue == 3 and r.white == 7 and r.red == 2]
    assert len(example) == 6  # every way the whites can make 7
    for text in shooting.values():
        assert not any(DiceRange.parse(text).contains(r) for r in example)
    # the card's own reading: blue 1, white 2-7, red up to 3 / blue 1, white 2-3
    check_every_roll("1-7(3)", lambda r: r.blue == 1 and (r.white, r.red) <= (7, 3))
    check_every_roll("1-3", lambda r: r.blue == 1 and r.white <= 3)
    check_every_roll("1-7(3)", lambda r: in_range_as_worded(r, 1, 7, 3))
    check_every_roll("1-3", lambda r: in_range_as_worded(r, 1, 3, None))


def test_every_range_matches_the_wording() -> None:
    """All 462 well-formed ranges against all 1296 rolls."""
    for first, second, red in itertools.product(range(1, 7), range(2, 13), [None, *range(1, 7)]):
        text = f"{first}-{second}" + (f"({red})" if red is not None else "")
        rng = DiceRange.parse(text)
        assert (rng.blue, rng.white, rng.red) == (first, second, red)
        assert str(rng) == text
        check_every_roll(text, lambda r, f=first, s=second, c=red: in_range_as_worded(r, f, s, c))
        # docs/dice.md: "in range" is dictionary order, a missing red limit counting as 6
        limit = (first, second, red if red is not None else 6)
        check_every_roll(text, lambda r, lim=limit: (r.blue, r.white, r.red) <= lim)


def test_in_range_counts() -> None:
    """The chances quoted in docs/dice.md."""
    counts = {
        text: sum(DiceRange.parse(text).contains(r) for r in ALL_ROLLS)
        for text in ("3-6(3)", "2-10", "1-7(3)", "1-3")
    }
    assert counts == {"3-6(3)": 507, "2-10": 414, "1-7(3)": 108, "1-3": 18}


@pytest.mark.parametrize("text", ["7-3", "3-13", "3-6(7)", "abc", "", "0-5", "3-1", "3-6(0)"])
def test_bad_range_text(text: str) -> None:
    with pytest.raises(ValueError) as err:
        DiceRange.parse(text)
    assert repr(text) in str(err.value)


# --- typed rolls -----------------------------------------------------------------------


def test_parse_roll() -> None:
    roll = parse_roll("3 4 2 6")
    assert roll == Roll(3, (4, 2), 6)
    assert (roll.blue, roll.white, roll.red) == (3, 6, 6)
    assert str(roll) == "3 4 2 6"
    assert parse_roll("  1,6, 6 ,2 ") == Roll(1, (6, 6), 2)


@pytest.mark.parametrize("text", ["3 4 2", "0 1 2 3", "7 1 1 1", "a b c d", "3 4 2 6 1", ""])
def test_parse_roll_rejects(text: str) -> None:
    with pytest.raises(RollError) as err:
        parse_roll(text)
    assert repr(text) in str(err.value)
    assert isinstance(err.value, ValueError)


# --- seeded dice -----------------------------------------------------------------------

VECTORS = [
    ("2026", "HFX-QUE-1", 1, "5 6 4 6"),
    ("2026", "HFX-QUE-1", 2, "2 1 2 3"),
    (
        "the 1972 summit series, game eight, moscow: henderson scores with 34 seconds left",
        "2026-10-08-MTL-TOR",
        137,
        "5 4 1 1",
    ),
]


def doc_verifier_source() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    [source] = [b for b in blocks if "def roll(" in b]
    return source


def doc_vectors() -> list[tuple[str, str, int, str]]:
    row = re.compile(r"^\| `([^`]*)` \| `([^`]*)` \| (\d+) \| `(\d \d \d \d)` \|$", re.M)
    return [(s, g, int(n), r) for s, g, n, r in row.findall(DOC.read_text(encoding="utf-8"))]


def test_derive_roll_vectors() -> None:
    for seed, game, n, expected in VECTORS:
        assert str(derive_roll(seed, game, n)) == expected
        assert str(SeededDice(seed, game, derive_roll).roll(n)) == expected


def test_docs_carry_the_vectors() -> None:
    assert doc_vectors() == VECTORS


def test_docs_verifier_is_short_and_hashlib_only() -> None:
    source = doc_verifier_source()
    assert len(source.strip().splitlines()) < 20
    imports = {line.split()[1] for line in source.splitlines() if line.startswith("import ")}
    assert imports <= {"hashlib", "sys"}
    assert "from " not in source


def test_docs_verifier_matches_derive_roll() -> None:
    namespace: dict = {"__name__": "verify_roll"}
    exec(compile(doc_verifier_source(), "docs/dice.md", "exec"), namespace)
    roll = namespace["roll"]
    for seed, game, n, expected in VECTORS:
        assert " ".join(map(str, roll(seed, game, n))) == expected
    for i in range(300):
        seed, game, n = f"seed-{i % 7}" * (i % 13), f"game:{i % 5}", i + 1
        r = derive_roll(seed, game, n)
        assert roll(seed, game, n) == [r.blue, *r.whites, r.red]


def test_docs_verifier_runs_as_a_script(tmp_path: Path) -> None:
    script = tmp_path / "verify_roll.py"
    script.write_text(doc_verifier_source(), encoding="utf-8")
    for seed, game, n, expected in VECTORS:
        out = subprocess.run(
            [sys.executable, str(script), seed, game, str(n)],
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == expected


def test_derive_roll_is_deterministic() -> None:
    first = [derive_roll("2026", "HFX-QUE-1", n) for n in range(1, 200)]
    again = [SeededDice("2026", "HFX-QUE-1", derive_roll).roll(n) for n in range(1, 200)]
    assert first == again
    assert len(set(map(str, first))) > 150  # not stuck


def test_derive_roll_differs_by_seed_and_game() -> None:
    def rolls(seed: str, game: str) -> list[Roll]:
        return [derive_roll(seed, game, n) for n in range(1, 51)]

    base = rolls("2026", "HFX-QUE-1")
    assert rolls("2027", "HFX-QUE-1") != base
    assert rolls("2026", "HFX-QUE-2") != base
    assert rolls("", "HFX-QUE-1") != base
    # the key is the seed's first 64 bytes, no more
    long_seed = "x" * 64
    assert rolls(long_seed, "g") == rolls(long_seed + "ignored", "g")


def test_derive_roll_dice_are_uniform() -> None:
    """Each die's faces over 20,000 rolls: chi-square (5 d.o.f.) far below a loose bound."""
    rolls = [derive_roll("uniformity", "game-1", n) for n in range(1, 20_001)]
    dice = {
        "blue": [r.blue for r in rolls],
        "white 1": [r.whites[0] for r in rolls],
        "white 2": [r.whites[1] for r in rolls],
        "red": [r.red for r in rolls],
    }
    expected = len(rolls) / 6
    for name, faces in dice.items():
        counts = Counter(faces)
        assert set(counts) == {1, 2, 3, 4, 5, 6}, name
        chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
        assert chi2 < 30, f"{name}: chi-square {chi2:.1f}, counts {sorted(counts.items())}"
    # the two whites are independent: their total follows the 2d6 triangle loosely
    totals = Counter(r.white for r in rolls)
    for total in range(2, 13):
        ways = 6 - abs(total - 7)
        assert abs(totals[total] / len(rolls) - ways / 36) < 0.01, total


# --- manual and recorded dice ----------------------------------------------------------


def test_manual_dice_skip_comments_and_blank_lines() -> None:
    lines = ["# period 1", "", "3 4 2 6", "   ", "1 6 6 2   # shot by #87", "5,3,3,1\n"]
    dice = ManualDice(lines, origin="rolls.txt", parse=parse_roll)
    assert [dice.roll(n) for n in (1, 2, 3)] == [
        Roll(3, (4, 2), 6),
        Roll(1, (6, 6), 2),
        Roll(5, (3, 3), 1),
    ]
    with pytest.raises(RollError, match=r"rolls\.txt.*roll 4"):
        dice.roll(4)


def test_manual_dice_report_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "rolls.txt"
    path.write_text("# opening face-off\n3 4 2 6\n\n2 2 2 2\n3 4 2\n1 1 1 1\n", encoding="utf-8")
    with path.open(encoding="utf-8") as lines:
        dice = ManualDice(lines, origin=str(path), parse=parse_roll)
        dice.roll(1)
        dice.roll(2)
        with pytest.raises(RollError) as err:
            dice.roll(3)
    assert f"{path}:5:" in str(err.value)
    assert "'3 4 2'" in str(err.value)


def test_recorded_dice() -> None:
    recorded = RecordedDice([Roll(1, (1, 1), 1), Roll(6, (6, 6), 6)])
    assert recorded.roll(2) == Roll(6, (6, 6), 6)
    with pytest.raises(RollError, match="2 rolls"):
        recorded.roll(3)


def _faces_as_documented(seed: str, game: str, n: int, sides: int, count: int) -> list[int]:
    """docs/dice.md, written out again with hashlib alone: BLAKE2b keyed with the seed's
    first 64 bytes over ``"{game_id}:{n}:{block}"``, a byte below the largest multiple of
    ``sides`` gives ``byte % sides``, the others are skipped, the next block if needed."""
    faces: list[int] = []
    limit, block = 256 - 256 % sides, 0
    while len(faces) < count:
        digest = hashlib.blake2b(f"{game}:{n}:{block}".encode(), key=seed.encode()[:64]).digest()
        faces += [b % sides for b in digest if b < limit]
        block += 1
    return faces[:count]


def test_derive_roll_skipped_bytes_and_games_interleaved() -> None:
    # docs/dice.md: "each digest byte below ... 252 for a d6 ... gives a face; the other
    # bytes are skipped". Rolls whose first four bytes include a skipped one take the
    # long way; the fast way must give the same faces, and rolls of different games
    # asked in turn must not share a game's hasher.
    skipped = 0
    for i in range(400):
        seed, game, n = f"s{i // 8 % 3}", f"G-{i % 4}", i // 2 + 1
        key = seed.encode()[:64]
        first = hashlib.blake2b(f"{game}:{n}:0".encode(), key=key).digest()[:4]
        skipped += any(b >= 252 for b in first)
        blue, w1, w2, red = (f + 1 for f in _faces_as_documented(seed, game, n, 6, 4))
        assert derive_roll(seed, game, n) == Roll(blue, (w1, w2), red)
        assert derive_faces(seed, game, n, 10, 2) == _faces_as_documented(seed, game, n, 10, 2)
    assert skipped >= 5  # the long way was taken (about 6 rolls in 100)


@pytest.mark.parametrize("n", [1, 2047, 2048, 2049, 10_000])
def test_derive_roll_past_the_rolls_a_game_reaches(n: int) -> None:
    # The first block's message end is made ahead for the rolls a game reaches
    # (engine/dice.py); a roll past them is derived as docs/dice.md says all the same.
    blue, w1, w2, red = (f + 1 for f in _faces_as_documented("long", "LONG-1", n, 6, 4))
    assert derive_roll("long", "LONG-1", n) == Roll(blue, (w1, w2), red)
    assert derive_faces("long", "LONG-1", n, 10, 3) == \
        _faces_as_documented("long", "LONG-1", n, 10, 3)


def test_a_throw_is_handed_out_again_equal_and_frozen() -> None:
    # engine/bones/rolls.py keeps each of the 1,296 throws once: the same roll asked twice
    # is the same Roll, equal to one made from its faces, and cannot be changed.
    first, again = derive_roll("seed", "G-1", 7), derive_roll("seed", "G-1", 7)
    assert first is again
    assert first == Roll(first.blue, first.whites, first.red)
    with pytest.raises(AttributeError):
        first.blue = 1  # type: ignore[misc]


def test_faces_from_the_first_digest_are_derive_faces() -> None:
    """A system that read a roll's first digest and found a byte skipped goes on from it
    (``faces_from``): the same faces as ``derive_faces`` hashing the roll from the start,
    for dice whose bytes are skipped often (a d6's 252, a d10's 250, a d7's 252) and
    faces that need a second block (200 faces of a d10)."""
    from engine.dice import faces_from, first_digest
    from engine.dicehockey.dice import derive_roll as derive_d10
    from events.dicehockey import Roll as D10

    for n in range(1, 400):
        digest = first_digest("2026", "ALD-BRK-1", n)
        for sides, count in ((6, 4), (10, 2), (7, 3), (10, 200)):
            assert faces_from(digest, "2026", "ALD-BRK-1", n, sides, count) == \
                derive_faces("2026", "ALD-BRK-1", n, sides, count)
        # DICE Hockey's two d10, a skipped byte (one roll in twenty) read on from its digest
        assert derive_d10("2026", "ALD-BRK-1", n) == \
            D10(*derive_faces("2026", "ALD-BRK-1", n, 10, 2))
