"""Payload formats (events/formats.py): every event of every system round-trips exactly in
both formats, format 2 is the JSON array the docs describe, and each encoding is canonical."""

from __future__ import annotations

import functools
import json
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec import UNSET, UnsetType
from msgspec import inspect as mi

from events.base import Event, tag_of
from events.catalogue import ALL_EVENTS, STREAM_EVENTS
from events.common import GameCreated, RosterEntry, TeamSheet
from events.formats import FORMATS, JSON, MSGPACK, decoder, encode_events, encoder, same_event
from events.league import SeasonCreated
from events.postseason import PlayoffFormat

CHECKED: dict[type, st.SearchStrategy[Any]] = {
    # a Struct whose own checks (``__post_init__``) refuse most values: what a league may
    # declare (events/postseason.py; docs/postseason.md), rule 9's and two formats of data
    PlayoffFormat: st.sampled_from([
        PlayoffFormat(format="draft"),
        PlayoffFormat(teams=8, reseed=False, series=[7, 7, 7], home_ice="2-2-1-1-1"),
        PlayoffFormat(per_conference=8, byes=0, reseed=True, series=[5, 7, 7, 7],
                      home_ice=["2-2-1", "2-2-1-1-1", "2-2-1-1-1", "2-3-2"]),
    ]),
}
"""Values of the Structs an event holds that random fields would not make."""

EVENT_CLASSES = sorted((t.cls for t in mi.type_info(ALL_EVENTS).types), key=tag_of)
UNION_CLASSES = {union: {t.cls for t in getattr(mi.type_info(union), "types", [mi.type_info(union)])}
                 for union in STREAM_EVENTS.values()}
"""Each system's union of events and the classes in it (read once: 20 ms of msgspec.inspect)."""


def _values(info: mi.Type) -> st.SearchStrategy[Any]:
    """Any value msgspec accepts for a type: what a decoder may hand back."""
    if isinstance(info, mi.IntType):
        low = info.ge if info.ge is not None else -(2**53)
        high = info.le if info.le is not None else 2**53
        return st.integers(low, high)
    if isinstance(info, mi.FloatType):  # JSON has no NaN: a float field is finite
        return st.floats(allow_nan=False, allow_infinity=False)
    if isinstance(info, mi.StrType):
        return st.text(max_size=12)
    if isinstance(info, mi.BoolType):
        return st.booleans()
    if isinstance(info, mi.NoneType):
        return st.none()
    if isinstance(info, mi.LiteralType):
        return st.sampled_from(info.values)
    if isinstance(info, mi.UnionType):
        return st.one_of([_values(t) for t in info.types])
    if isinstance(info, mi.ListType):  # within its length bounds, as a decoder checks
        low = info.min_length or 0
        return st.lists(_values(info.item_type), min_size=low, max_size=max(3, low))
    if isinstance(info, mi.TupleType):
        return st.tuples(*map(_values, info.item_types))
    if isinstance(info, mi.VarTupleType):
        return st.lists(_values(info.item_type), max_size=3).map(tuple)
    if isinstance(info, mi.DictType):
        return st.dictionaries(_values(info.key_type), _values(info.value_type), max_size=3)
    if isinstance(info, mi.StructType):
        return CHECKED[info.cls] if info.cls in CHECKED else _structs(info.cls)
    if isinstance(info, mi.RawType):  # bytes of one format (tests/test_league_options.py)
        return st.nothing()
    raise AssertionError(f"no strategy for {info}")


@functools.cache  # one strategy a class, built once (msgspec.inspect reads its type hints)
def _structs(cls: type) -> st.SearchStrategy[Any]:
    """Instances of a Struct class, each field any value (an UNSET field sometimes unset)."""
    fields = {}
    for f in mi.type_info(cls).fields:
        values = _values(f.type)
        if not f.required and f.default is msgspec.NODEFAULT and \
                f.default_factory is msgspec.NODEFAULT:  # an UNSET field
            values = st.one_of(st.just(UNSET), values)
        fields[f.name] = values
    return st.fixed_dictionaries(fields).map(lambda kwargs: cls(**kwargs))


ANY_EVENT = st.sampled_from(EVENT_CLASSES).flatmap(_structs)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(event=ANY_EVENT)
def test_every_event_round_trips_in_both_formats(event: Event) -> None:
    for format in FORMATS:
        payload = encoder(format)(event)
        back = decoder(ALL_EVENTS, format).decode(payload)
        assert back == event and type(back) is type(event)
        assert encoder(format)(back) == payload  # canonical: one encoding an event


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=tag_of)
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_every_event_type_decodes_in_its_own_systems_union(cls: type, data: st.DataObject
                                                           ) -> None:
    """Each class has its mirror, and each system's union decodes its own events."""
    event = data.draw(_structs(cls))
    unions = [u for u, classes in UNION_CLASSES.items() if cls in classes]
    assert unions
    for union in unions:
        assert decoder(union, JSON).decode(encoder(JSON)(event)) == event


@settings(max_examples=200, deadline=None)
@given(event=ANY_EVENT)
def test_format_2_is_the_tag_then_every_field_in_order(event: Event) -> None:
    array = json.loads(encoder(JSON)(event))
    values = msgspec.structs.astuple(event)
    while values and values[-1] is UNSET:  # trailing UNSET fields are left out
        values = values[:-1]
    assert array[0] == tag_of(type(event))
    assert len(array) == 1 + len(values)
    for value, written in zip(values, array[1:], strict=True):
        if value is UNSET:
            assert written is None
        elif not isinstance(value, msgspec.Struct | list | dict | tuple):
            assert written == value


def test_a_game_created_in_format_2() -> None:
    sheet = TeamSheet("HFX", "Halifax", "ab" * 32, [RosterEntry("p1", "Al Roy", "C", 1.5)])
    created = GameCreated("G-1", "bones", 1, sheet, sheet, "cd" * 32, "seeded", seed="s")
    payload = encoder(JSON)(created)
    assert payload.startswith(b'["GameCreated","G-1","bones",1,["HFX","Halifax","abab')
    assert b'[["p1","Al Roy","C",1.5]]' in payload  # the roster: arrays in arrays
    assert payload.endswith(b',"",0]')  # season "" and number 0; the UNSET fields left out
    with_options = msgspec.structs.replace(created, options=["x"])  # the last field set
    assert encoder(JSON)(with_options).endswith(b',"",0,null,null,null,null,null,null,null,["x"]]')
    assert decoder(GameCreated, JSON).decode(encoder(JSON)(with_options)) == with_options
    # JSON with whitespace, or an UNSET written out at the end, reads but is not canonical
    for other in (payload.replace(b",", b", "), payload[:-1] + b",null]"):
        assert decoder(GameCreated, JSON).decode(other) == created
        assert encoder(JSON)(created) != other


def test_dict_keys_are_sorted_and_same_event_ignores_their_order() -> None:
    a = SeasonCreated("L-s", "L", "s", "cc", {"QUE": "2", "HFX": "1"}, [(1, "HFX", "QUE")])
    b = msgspec.structs.replace(a, team_hashes={"HFX": "1", "QUE": "2"})
    assert encoder(JSON)(a) == encoder(JSON)(b)
    assert b'{"HFX":"1","QUE":"2"}' in encoder(JSON)(a)
    assert encoder(MSGPACK)(a) != encoder(MSGPACK)(b)  # format 1 keeps the order built
    assert same_event(a, b) and not same_event(a, msgspec.structs.replace(a, seed="t"))


def test_encode_events_gives_tags_and_payloads() -> None:
    rolled = STREAM_EVENTS["dicehockey"]
    made = decoder(rolled, JSON).decode(b'["dicehockey.DiceRolled",1,[4,3],"faceoff"]')
    assert encode_events([made]) == [("dicehockey.DiceRolled",
                                      b'["dicehockey.DiceRolled",1,[4,3],"faceoff"]')]
    assert encode_events([made], MSGPACK)[0][1] == msgspec.msgpack.encode(made)


def test_an_unknown_format_is_refused() -> None:
    for bad in (0, 3, "2", True):
        with pytest.raises(ValueError, match="payload format"):
            encoder(bad)
        with pytest.raises(ValueError, match="payload format"):
            decoder(GameCreated, bad)


class _Ambiguous(Event, frozen=True):
    x: int | None | UnsetType = UNSET


class _Inner(msgspec.Struct, frozen=True):
    y: int | UnsetType = UNSET


class _Nested(Event, frozen=True):
    inner: _Inner


@pytest.mark.parametrize("cls, value", [(_Ambiguous, _Ambiguous()), (_Nested, _Nested(_Inner(1)))])
def test_unset_that_null_could_not_tell_apart_is_refused(cls: type, value: Any) -> None:
    with pytest.raises(TypeError, match="UNSET"):
        encoder(JSON)(value)
