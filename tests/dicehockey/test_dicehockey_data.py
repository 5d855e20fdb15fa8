"""DICE Hockey 1, 5 (two d10, red tens, white ones), 4 and 21C (cards), 2 and 10 (the
lineup), and the substitute chart pack with the text's own fixed points (15-18)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec
import pytest
import tomli_w

from engine.bones.dice import derive_roll
from engine.dice import ManualDice, SeededDice, derive_faces
from engine.dicehockey import dice
from engine.dicehockey.cards import Charts, band, fixed_point_faults
from events.dicehockey import Roll
from events.errors import CardError, RollError
from replay.data.reading import FIXTURES, read_toml
from replay.systems.dicehockey import cardgen as dicehockey_cards
from replay.systems.dicehockey.library import (
    dicehockey_charts,
    find_dicehockey_team,
    list_dicehockey_teams,
    load_dicehockey_charts,
    load_dicehockey_team,
)


def verify_d10(seed: str, game_id: str, n: int) -> tuple[int, int]:
    """docs/dice.md's recipe, with hashlib only: bytes below 250, byte % 10."""
    key, faces, block = seed.encode()[:64], [], 0
    while len(faces) < 2:
        digest = hashlib.blake2b(f"{game_id}:{n}:{block}".encode(), key=key).digest()
        faces += [b % 10 for b in digest if b < 250]
        block += 1
    return faces[0], faces[1]


@pytest.mark.parametrize(("seed", "game_id", "n"), [("2026", "ALD-BRK-1", 1),
                                                    ("2026", "ALD-BRK-1", 2), ("x" * 80, "g", 137)])
def test_1_5_seeded_d10_is_the_shared_blake2b_derivation(seed: str, game_id: str, n: int) -> None:
    red, white = verify_d10(seed, game_id, n)
    assert dice.derive_roll(seed, game_id, n) == Roll(red, white)


def test_1_5_every_seeded_d10_roll_is_the_recipes_skipped_bytes_or_not() -> None:
    """docs/dice.md: "a digest byte below 250 gives the face byte % 10" (the others are
    skipped): rolls whose first two bytes are both kept and rolls where one is skipped
    (read further on) give the recipe's faces alike."""
    key, skipped = b"2026", 0
    for n in range(1, 401):
        head = hashlib.blake2b(f"ALD-BRK-1:{n}:0".encode(), key=key).digest()[:2]
        skipped += head[0] >= 250 or head[1] >= 250
        assert dice.derive_roll("2026", "ALD-BRK-1", n) == Roll(*verify_d10("2026", "ALD-BRK-1", n))
    assert 5 <= skipped <= 60  # about 4.6 rolls in 100 skip one of the first two bytes


@pytest.mark.parametrize(("seed", "game_id", "n", "typed"), [
    ("2026", "ALD-BRK-1", 1, "2 2"), ("2026", "ALD-BRK-1", 2, "5 5"),
    ("the 1972 summit series, game eight, moscow: henderson scores with 34 seconds left",
     "2026-10-08-MTL-TOR", 137, "0 3"),
])
def test_docs_dice_md_d10_vectors(seed: str, game_id: str, n: int, typed: str) -> None:
    assert str(dice.derive_roll(seed, game_id, n)) == typed


def test_1_5_every_d10_face_is_equally_likely() -> None:
    counts = [0] * 10
    for byte in range(256):
        if byte < 250:
            counts[byte % 10] += 1
    assert counts == [25] * 10
    roll = dice.derive_roll("s", "g", 1)
    assert derive_faces("s", "g", 1, 10, 2) == [roll.red, roll.white]


def test_hockey_bones_rolls_are_unchanged_by_the_shared_derivation() -> None:
    assert str(derive_roll("2026", "HFX-QUE-1", 1)) == "5 6 4 6"  # docs/dice.md's vector
    assert str(derive_roll("2026", "HFX-QUE-1", 2)) == "2 1 2 3"


def test_5_a_typed_roll_is_red_then_white_4_3_is_43() -> None:
    assert dice.parse_roll("4 3").value == 43
    assert dice.parse_roll(" 0,0 ").value == 0


@pytest.mark.parametrize("text", ["43", "4", "4 3 2", "a b", "10 3", "4 -3", "٣ 3"])
def test_5_a_bad_typed_roll_is_one_clear_line(text: str) -> None:
    with pytest.raises(RollError) as err:
        dice.parse_roll(text)
    assert "\n" not in str(err.value) and repr(text.strip()) in str(err.value)
    assert "red white" in str(err.value)


def test_manual_and_seeded_sources_take_the_systems_dice() -> None:
    manual = ManualDice(["# the opening face-off", "4 3", "0 0"], "rolls.txt", dice.parse_roll)
    assert manual.roll(1) == Roll(4, 3) and manual.roll(2) == Roll(0, 0)
    with pytest.raises(RollError, match="rolls.txt:1"):
        ManualDice(["4 3 2"], "rolls.txt", dice.parse_roll).roll(1)
    assert SeededDice("s", "g", dice.derive_roll).roll(3) == dice.derive_roll("s", "g", 3)


# --- the chart pack -----------------------------------------------------------------------

def test_the_substitute_pack_keeps_the_texts_fixed_points() -> None:
    charts = dicehockey_charts()
    assert fixed_point_faults(charts) == []
    assert set(charts.substitute) == {"penalty_a", "penalty_b", "special", "fight", "turnover",
                                      "games_missed"}
    assert band(charts.special, 63).penalty == "double_minor"
    assert band(charts.games_missed, 65).games == 30


def pack_data() -> dict:
    return msgspec.to_builtins(dicehockey_charts())


def test_a_pack_that_moves_a_fixed_point_is_refused_naming_file_and_field(tmp_path: Path) -> None:
    data = pack_data()
    data["penalty_b"][1]["infraction"] = "Holding"  # 06 is no longer Hooking
    path = tmp_path / "mine.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    with pytest.raises(CardError) as err:
        load_dicehockey_charts(path)
    message = str(err.value)
    assert "mine.toml" in message and "penalty_b" in message and "06" in message
    assert "\n" not in message


def test_a_pack_with_a_gap_is_refused(tmp_path: Path) -> None:
    data = pack_data()
    data["fight"][-1]["upto"] = 98
    path = tmp_path / "gap.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    with pytest.raises(CardError, match="fight: the last band must end at 99"):
        load_dicehockey_charts(path)


@pytest.mark.parametrize(("chart", "index", "field", "value", "fault"), [
    ("penalty_a", 1, "rank", 1, "penalty_a: 33 is the offense's 2nd-highest"),
    ("special", 0, "kind", "play_on", "special: 00-09 are fight results"),
    ("special", 7, "infraction", "Slashing", "special: 63 is a double minor for Roughing"),
    ("games_missed", 6, "games", 25, "games_missed: an Injury Rating of 65"),
])
def test_the_fixed_points_are_checked_one_by_one(chart, index, field, value, fault) -> None:
    data = pack_data()
    data[chart][index][field] = value
    with pytest.raises(msgspec.ValidationError, match=fault):
        msgspec.convert(data, Charts)


# --- cards --------------------------------------------------------------------------------

def test_4_10_demo_teams_dress_18_skaters_and_their_goalies() -> None:
    assert len(list_dicehockey_teams()) >= 8
    for team_id in list_dicehockey_teams():
        team = find_dicehockey_team(team_id)
        assert len(team.skaters) == 18 and 1 <= len(team.goalies) <= 2
        assert 1 <= team.timing and team.pp <= 0 <= team.pk
        for card in team.skaters:
            assert card.passing[-1].upto == 89 and card.saves[-1].upto == 99
        assert any(c.shooter for c in team.skaters)  # 21C shooter tags


def test_a_bad_card_field_is_one_line_naming_file_player_and_field(tmp_path: Path) -> None:
    path = FIXTURES / "dicehockey" / "teams" / "ald.toml"
    data = read_toml(path)
    data["skaters"][2]["goal"] = 140
    bad = tmp_path / "ald.toml"
    bad.write_text(tomli_w.dumps(data), encoding="utf-8")
    with pytest.raises(CardError) as err:
        load_dicehockey_team(bad)
    message = str(err.value)
    name = data["skaters"][2]["name"]
    assert message.startswith(str(bad)) or "ald.toml" in message
    assert f"skater '{data['skaters'][2]['id']}' ({name}): field 'goal'" in message


def test_a_passing_column_must_cover_00_89() -> None:
    team = find_dicehockey_team("ALD")
    data = msgspec.to_builtins(team)
    data["skaters"][0]["passing"][-1]["upto"] = 88
    with pytest.raises(msgspec.ValidationError, match="89"):
        msgspec.convert(data, type(team))


def test_the_card_generator_is_deterministic_and_its_teams_load(tmp_path: Path) -> None:
    written = dicehockey_cards.write(tmp_path, seed="demo")
    assert [p.read_text() for p in written] == [
        (FIXTURES / "dicehockey" / "teams" / p.name).read_text() for p in written]
    other = dicehockey_cards.write(tmp_path / "other", seed="other")
    assert all(load_dicehockey_team(p).skaters for p in other)


def test_cards_validate_knows_dice_hockey_files(tmp_path: Path) -> None:
    from replay.leagues.validate import validate_path

    assert validate_path(FIXTURES / "dicehockey") == []
    data = pack_data()
    data["special"][0]["kind"] = "scrum"
    (tmp_path / "pack.toml").write_text(tomli_w.dumps(data), encoding="utf-8")
    [fault] = validate_path(tmp_path)
    assert "pack.toml" in fault and "special: 00-09 are fight results" in fault


def test_cards_and_charts_load_from_json_too(tmp_path: Path) -> None:
    team = find_dicehockey_team("ALD")
    (tmp_path / "ald.json").write_bytes(msgspec.json.encode(team))
    assert load_dicehockey_team(tmp_path / "ald.json") == team
    (tmp_path / "pack.json").write_bytes(msgspec.json.encode(dicehockey_charts()))
    assert load_dicehockey_charts(tmp_path / "pack.json") == dicehockey_charts()
    (tmp_path / "bad.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(CardError, match="bad.json: a JSON object is expected"):
        load_dicehockey_team(tmp_path / "bad.json")
