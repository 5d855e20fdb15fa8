"""A season's FaceOff options (``SeasonCreated.faceoff``) are kept as the bytes of the
stream's payload format, so events/league.py names no system's type: the Bones system
writes and reads them (events.bones), and every stored season re-encodes byte for byte,
in either format, as it did when the field was typed ``FaceoffOptions``."""

from __future__ import annotations

import msgspec
import pytest
from msgspec import UNSET, UnsetType

from engine.systems import SYSTEMS
from events.base import Event
from events.bones import NO_FACEOFF_OPTIONS, FaceoffOptions, faceoff_field, faceoff_options
from events.common import GameCreated, TeamSheet
from events.formats import FORMATS, decoder, encoder, same_event
from events.league import SeasonCreated


class TypedSeasonCreated(Event, frozen=True, tag="SeasonCreated"):
    """SeasonCreated as it was declared before (its faceoff a FaceoffOptions): the bytes
    every stored season was written with."""

    season_id: str
    league: str
    seed: str
    charts_hash: str
    team_hashes: dict[str, str]
    schedule: list[tuple[int, str, str]]
    divisions: list[tuple[str, str, list[str]]] = []
    overtime_skaters: int = 5
    late_penalty_house_rule: bool = False
    ruleset: str | UnsetType = UNSET
    faceoff: FaceoffOptions | UnsetType = UNSET
    options: list[str] | UnsetType = UNSET
    season_version: int | UnsetType = UNSET  # added since as UNSET: no stored byte moves
    league_hash: str | UnsetType = UNSET  # likewise (issue 34: the league a season keeps)


ARGS = ("L-s", "L", "s", "cc", {"QUE": "2", "HFX": "1"}, [(1, "HFX", "QUE")])
OPTIONS = [NO_FACEOFF_OPTIONS, FaceoffOptions(fatigue=True),
           FaceoffOptions(injuries=True, arc_cards=True, nhl_bench_range="1-5",
                          nhl_gm_range="2-4")]


@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("rest", [{}, {"options": ["x"]}, {"ruleset": "faceoff2008"}])
def test_a_season_s_faceoff_options_keep_their_bytes(format: int, options: FaceoffOptions,
                                                     rest: dict) -> None:
    assert SeasonCreated.__struct_fields__ == TypedSeasonCreated.__struct_fields__
    old = encoder(format)(TypedSeasonCreated(
        *ARGS, faceoff=options if options.any else UNSET, **rest))
    stored = decoder(SeasonCreated, format).decode(old)
    assert encoder(format)(stored) == old  # re-encoded verbatim: the audit's check
    assert faceoff_options(stored.faceoff) == options  # read through the Bones system
    assert SYSTEMS["bones"].league_options(stored) == options
    # a new season's event, written in its stream's format, is the bytes it always was
    made = SeasonCreated(*ARGS, faceoff=faceoff_field(options, format), **rest)
    assert encoder(format)(made) == old
    assert SYSTEMS["bones"].league_field(options, format) == made.faceoff


@pytest.mark.parametrize("options", OPTIONS[1:])
def test_a_season_read_from_either_format_is_the_same_event(options: FaceoffOptions) -> None:
    """A league run again on a season stored in format 1 finds the season it made."""
    seasons = [decoder(SeasonCreated, f).decode(encoder(f)(
        TypedSeasonCreated(*ARGS, faceoff=options))) for f in FORMATS]
    assert same_event(*seasons)
    assert not same_event(seasons[0], msgspec.structs.replace(
        seasons[0], faceoff=faceoff_field(FaceoffOptions(checking_game=True), 2)))


@pytest.mark.parametrize("house", [False, True])
@pytest.mark.parametrize("options", OPTIONS)
def test_a_season_game_records_the_options_its_season_calls_for(options: FaceoffOptions,
                                                                house: bool) -> None:
    """The audit's check, through the system: a game of the season records exactly the
    FaceOff options and house rule of its season (Hockey Bones' GameCreated fields)."""
    bones = SYSTEMS["bones"]
    season = SeasonCreated(*ARGS, late_penalty_house_rule=house,
                           faceoff=faceoff_field(options, 2))
    sheet = TeamSheet("HFX", "Halifax", "ab", [])
    created = GameCreated("L-s-0001", "faceoff2008", 1, sheet, sheet, "cc", "seeded",
                          seed="s", late_penalty_house_rule=house,
                          **bones.options_fields(bones.league_options(season)))
    assert bones.options_of(created) == bones.season_fields(season)
    assert ("late_penalty_house_rule" in bones.options_of(created)) is house
    assert len(bones.options_of(created)) == house + sum(
        1 for name in ("fatigue", "injuries", "arc_cards", "nhl_bench_range", "nhl_gm_range")
        if getattr(options, name))
    assert SYSTEMS["dicehockey"].season_fields(season) == {}
