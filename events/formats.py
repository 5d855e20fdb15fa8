"""Payload formats: the bytes an event is stored, hashed and exported as.

A stream records its payload format (``streams.format``) when it is created and keeps it
for ever: its payload bytes are its hash chain, so its head hash and receipts.

``MSGPACK`` (1)
    msgspec's msgpack of the event: a map of its fields by name, the tag under ``"type"``,
    dict keys in the order the dict was built. Every stream written before schema 4, and
    every branch and import of one, keeps it.
``JSON`` (2)
    a JSON array, ``["GoalScored","home","HFX-9",...]``: the tag, then every field in
    declaration order; a nested Struct is the array of its fields (msgspec's
    ``array_like``); no whitespace; dict keys sorted. A field that is ``UNSET`` is
    ``null``, and UNSET fields at the end are left out, so a field added as UNSET (schema
    evolution is additive) adds nothing to the bytes of older events. Readable with
    SQLite's JSON functions: ``json_extract(CAST(payload AS TEXT), '$[1]')`` is the first
    field (and events/views.py names them). Every new stream is written in it
    (:data:`NEW_STREAM_FORMAT`).

Both are canonical: an event has one encoding, and ``encoder(f)(decoder(t, f).decode(b))
== b`` holds exactly for the bytes rinklog writes (an import refuses any other).

Format 2 is produced with *mirrors*: for every Struct class that is not already array-like,
a copy with ``array_like=True`` (made once with ``msgspec.defstruct``), its annotations
rewritten to the mirrors of the Structs they name. Most events hold no such Struct (a
``Roll`` is array-like already), and go as the tuple of their fields both ways; the few that
do (a game's first event, with its rosters) go through ``msgspec.convert``.
"""

from __future__ import annotations

import functools
import inspect
import operator
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec
from msgspec import UNSET

from events.base import tag_of

__all__ = ["FORMATS", "JSON", "MSGPACK", "NEW_STREAM_FORMAT", "check_format", "decode_stored",
           "decoder", "encode_events", "encoder", "event_fields", "raw_field", "raw_value",
           "same_event", "struct_classes"]

MSGPACK = 1
JSON = 2
FORMATS = {MSGPACK: "msgpack", JSON: "JSON array"}
"""Every payload format this rinklog reads, by number (``streams.format``)."""

NEW_STREAM_FORMAT = JSON
"""The format of every stream created from now on (a branch or an import keeps its own)."""


class Decoder(Protocol):
    """A msgspec decoder, or format 2's: ``decode(payload)`` gives the event."""

    def decode(self, payload: bytes) -> Any: ...


_MSGPACK_ENCODER = msgspec.msgpack.Encoder()
_JSON_ENCODER = msgspec.json.Encoder(order="deterministic")  # dict keys sorted
_astuple = msgspec.structs.astuple


def check_format(format: int) -> int:
    """``format`` if this rinklog reads it, else ValueError naming it."""
    if type(format) is not int or format not in FORMATS:
        known = ", ".join(f"{n} ({name})" for n, name in FORMATS.items())
        raise ValueError(f"payload format {format!r} is not one rinklog reads ({known})")
    return format


# --- format 2: array-like mirrors ------------------------------------------------------------

@dataclass(frozen=True)
class _Plan:
    """How one Struct class goes to and from its JSON array."""

    cls: type
    mirror: type  # the array-like copy (the class itself when it is array-like already)
    tag: tuple[Any, ...]  # (tag,) for a tagged class, else ()
    flat: bool  # no field needs converting: the tuple of fields is the array
    unset: frozenset[str]  # the fields that may be UNSET
    raw: frozenset[str] = frozenset()  # of those, the msgspec.Raw ones (null: ``_NULL``)


_NULL = msgspec.Raw(b"null")  # an UNSET msgspec.Raw field in format 2 (a Raw is no union)


_PLANS: dict[type, _Plan] = {}  # each class's, made once


def _plan(cls: type) -> _Plan:
    return _PLANS.get(cls) or _PLANS.setdefault(cls, _new_plan(cls))


def _needs_mirror(cls: type) -> bool:
    """Whether a Struct class encodes otherwise than as its own array of fields."""
    config = cls.__struct_config__
    return not config.array_like or any(
        f.default is UNSET or _type_needs_mirror(f.type) for f in msgspec.structs.fields(cls))


def _type_needs_mirror(tp: Any) -> bool:
    if isinstance(tp, type):
        return issubclass(tp, msgspec.Struct) and _needs_mirror(tp)
    if typing.get_origin(tp) in (typing.Literal, typing.Annotated):
        return typing.get_origin(tp) is typing.Annotated and _type_needs_mirror(tp.__origin__)
    return any(_type_needs_mirror(arg) for arg in typing.get_args(tp) if arg is not Ellipsis)


def _rewritten(tp: Any, owner: type) -> Any:
    """``tp`` with every Struct class that needs a mirror replaced by its mirror."""
    if not _type_needs_mirror(tp):
        return tp
    if isinstance(tp, type):  # a nested Struct: its UNSET could not be told from null
        if any(f.default is UNSET for f in msgspec.structs.fields(tp)):
            raise TypeError(f"{owner.__name__}: {tp.__name__} has UNSET fields; payload "
                            "format 2 allows UNSET only in the fields of an event itself")
        return _plan(tp).mirror
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Annotated:
        return typing.Annotated[(_rewritten(args[0], owner), *tp.__metadata__)]
    if origin in (typing.Union, types.UnionType):
        return functools.reduce(operator.or_, [_rewritten(a, owner) for a in args])
    return origin[tuple(a if a is Ellipsis else _rewritten(a, owner) for a in args)]


def _new_plan(cls: type) -> _Plan:
    config = cls.__struct_config__
    tag = () if config.tag is None else (config.tag,)
    fields = msgspec.structs.fields(cls)
    unset = frozenset(f.name for f in fields if f.default is UNSET)
    if not _needs_mirror(cls):
        return _Plan(cls, cls, tag, True, unset)
    spec: list[tuple[Any, ...]] = []
    for f in fields:
        tp = _rewritten(f.type, cls)
        if f.default is UNSET:
            kinds = [a for a in typing.get_args(tp) if a is not msgspec.UnsetType]
            if kinds == [msgspec.Raw]:  # bytes kept verbatim (events.league.SeasonCreated)
                spec.append((f.name, msgspec.Raw, _NULL))
                continue
            if type(None) in kinds:  # null must mean UNSET, and only that
                raise TypeError(f"{cls.__name__}.{f.name}: a field that may be UNSET cannot "
                                "also be None in payload format 2")
            spec.append((f.name, functools.reduce(operator.or_, kinds, type(None)), None))
        elif f.default_factory is not msgspec.NODEFAULT:
            spec.append((f.name, tp, msgspec.field(default_factory=f.default_factory)))
        elif f.default is not msgspec.NODEFAULT:
            spec.append((f.name, tp, f.default))
        else:
            spec.append((f.name, tp))
    # gc=False: a mirror is made from a payload's JSON (or from an event's values) and
    # holds only values, never itself: it cannot be in a cycle, and untracked it is neither
    # linked into the collector's lists nor counted toward its next pass (every payload an
    # audit decodes makes one: about 190 instructions an event, docs/benchmarks.md)
    mirror = msgspec.defstruct(
        cls.__name__, spec, array_like=True, tag=config.tag, frozen=True,
        forbid_unknown_fields=True, kw_only=True, module=__name__, gc=False)
    flat = not unset and not any(_type_needs_mirror(f.type) for f in fields)
    raw = frozenset(name for name, tp, *_ in spec if tp is msgspec.Raw and name in unset)
    return _Plan(cls, mirror, tag, flat, unset, raw)


def _encode_json(event: Any) -> bytes:
    """Format 2: ``[tag, field, ...]``."""
    plan = _PLANS.get(type(event)) or _plan(type(event))
    values = _astuple(event)
    if plan.flat:
        return _JSON_ENCODER.encode(plan.tag + values)
    end = len(values)
    while end and values[end - 1] is UNSET:  # trailing UNSET fields are left out
        end -= 1
    given = [None if v is UNSET else v for v in values[:end]]
    if plan.raw:
        given = [_NULL if v is None and name in plan.raw else v
                 for name, v in zip(plan.cls.__struct_fields__, given, strict=False)]
    mirror = msgspec.convert([*plan.tag, *given], plan.mirror, from_attributes=True)
    return _JSON_ENCODER.encode((*plan.tag, *_astuple(mirror)[:end]))


def _from_mirror(plan: _Plan) -> Callable[[Any], Any]:
    """The function giving the event a decoded mirror stands for."""
    cls, names = plan.cls, plan.cls.__struct_fields__
    if plan.flat and _positional(cls):
        return lambda mirror: cls(*_astuple(mirror))
    unset, raw = plan.unset, plan.raw

    def convert(mirror: Any) -> Any:
        given = {name: value for name, value in zip(names, _astuple(mirror), strict=True)
                 if value is not None or name not in unset}
        for name in raw:  # a Raw field's null is UNSET
            if given.get(name) == _NULL:
                del given[name]
        return msgspec.convert(given, cls, from_attributes=True)
    return convert


def _positional(cls: type) -> bool:
    """Whether every field of a class can be given by position (none is keyword-only)."""
    return all(p.kind is not inspect.Parameter.KEYWORD_ONLY
               for p in inspect.signature(cls).parameters.values())


class _JsonDecoder:
    """Format 2 payloads to events of ``event_type`` (a Struct class or a union of them)."""

    def __init__(self, classes: Sequence[type]) -> None:
        plans = [_plan(cls) for cls in classes]
        self._decoder = msgspec.json.Decoder(functools.reduce(
            operator.or_, [p.mirror for p in plans]))
        self._back = {p.mirror: _from_mirror(p) for p in plans}
        # the classes made from their mirror's fields in order (most events): called here,
        # not through a function a class, once for every event a stream decodes
        self._positional = {p.mirror: p.cls for p in plans if p.flat and _positional(p.cls)}
        self._tags = {p.mirror: tag_of(p.cls) for p in plans}  # each event class's tag

    def decode(self, payload: bytes) -> Any:
        mirror = self._decoder.decode(payload)
        cls = self._positional.get(type(mirror))
        if cls is not None:
            return cls(*_astuple(mirror))
        return self._back[type(mirror)](mirror)

    def decode_stored(self, tags: Sequence[str], payloads: Sequence[bytes]) -> list[Any]:
        """:func:`decode_stored` for format 2: :meth:`decode` written out in the loop
        (no call of it an event) and each tag read from the mirror's class."""
        raw, positional, back = self._decoder.decode, self._positional, self._back
        tag_of_mirror, astuple = self._tags, _astuple
        events: list[Any] = []
        append = events.append
        for tag, payload in zip(tags, payloads, strict=True):
            try:
                mirror = raw(payload)
                kind = type(mirror)
                cls = positional.get(kind)
                event = cls(*astuple(mirror)) if cls is not None else back[kind](mirror)
            except (msgspec.DecodeError, msgspec.ValidationError, ValueError):
                break
            if tag_of_mirror[kind] != tag:
                break
            append(event)
        return events


# --- both formats ----------------------------------------------------------------------------

@functools.cache  # every store opened asks it of each system's union
def struct_classes(event_type: Any) -> list[type] | None:
    """The Struct classes of a Struct type or union of them; None for any other type.
    Read from the union's arguments: ``msgspec.inspect.type_info`` walks every field's
    type too, 0.1 s at every store opened."""
    union = typing.get_origin(event_type) in (typing.Union, types.UnionType)
    members = typing.get_args(event_type) if union else (event_type,)
    if all(isinstance(m, type) and issubclass(m, msgspec.Struct) for m in members):
        return list(members)
    return None


@functools.cache
def decoder(event_type: Any, format: int) -> Decoder:
    """The decoder of ``format`` payloads to ``event_type`` (``Any``: plain values)."""
    if check_format(format) == MSGPACK:
        return msgspec.msgpack.Decoder(event_type)
    classes = None if event_type is Any else struct_classes(event_type)
    return msgspec.json.Decoder(event_type) if classes is None else _JsonDecoder(classes)


def decode_stored(decoder: Decoder, tags: Sequence[str], payloads: Sequence[bytes]
                  ) -> list[Any]:
    """The events of ``payloads`` (one of :func:`decoder`'s, of Struct events), each held
    to the type tag it is stored under (``tags``, one a payload), in order, up to the first
    payload that does not decode (a DecodeError, ValidationError or ValueError of
    ``decoder.decode``) or decodes as an event of another tag: the events before it (as
    many as the index of the one that does not hold: every payload's events when all
    hold). The caller decodes that one payload
    again for what is wrong with it (the audit's decode check, replay/leagues/audit_stream.py,
    which decodes every stored event: the loop here runs once an event)."""
    stored = getattr(decoder, "decode_stored", None)
    if stored is not None:
        return stored(tags, payloads)
    decode = decoder.decode
    found: dict[type, str] = {}  # each class's tag, looked up once a call
    events: list[Any] = []
    append = events.append
    for tag, payload in zip(tags, payloads, strict=True):
        try:
            event = decode(payload)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError):
            break
        cls = type(event)
        if (found.get(cls) or found.setdefault(cls, tag_of(cls))) != tag:
            break
        append(event)
    return events


def encoder(format: int) -> Callable[[Any], bytes]:
    """The function that encodes one event in ``format``."""
    return _MSGPACK_ENCODER.encode if check_format(format) == MSGPACK else _encode_json


def encode_events(events: Iterable[Any], format: int | None = None
                  ) -> list[tuple[str, bytes]]:
    """``(tag, payload)`` of each event in ``format`` (None: a new stream's), as
    :meth:`EventStore.append_encoded` takes them (a season's workers encode with it)."""
    encode = encoder(NEW_STREAM_FORMAT if format is None else format)
    tags: dict[type, str] = {}
    return [(tags.get(type(e)) or tags.setdefault(type(e), tag_of(type(e))), encode(e))
            for e in events]


def same_event(a: Any, b: Any) -> bool:
    """Whether two events are the same, whichever order their dicts were built in (their
    format-2 bytes are equal; a tuple and a list of the same items are alike), and
    whichever format a ``msgspec.Raw`` field of theirs was read from."""
    return _encode_json(_raw_in_json(a)) == _encode_json(_raw_in_json(b))


# --- msgspec.Raw fields: a value whose type the event's module does not name --------------
# An event class may hold a value of a type it must not import (events.league.SeasonCreated
# holds a game system's league options) as ``msgspec.Raw | UnsetType``: the bytes are kept
# verbatim, so a stream re-encodes byte for byte in either format, and the module that
# owns the type writes and reads them here (events.bones: FaceOff's options).

def raw_field(value: Any, format: int) -> msgspec.Raw:
    """``value`` (a Struct) as a ``msgspec.Raw`` field holds it in an event of ``format``:
    the bytes it would have as a field of that type (format 2: its array)."""
    if check_format(format) == MSGPACK:
        return msgspec.Raw(_MSGPACK_ENCODER.encode(value))
    mirror = _plan(type(value)).mirror
    if mirror is not type(value):
        value = msgspec.convert(value, mirror, from_attributes=True)
    return msgspec.Raw(_JSON_ENCODER.encode(value))


def raw_value(raw: msgspec.Raw, model: Any) -> Any:
    """The ``model`` value a ``msgspec.Raw`` field holds, in whichever format it was read
    (format 2's array starts ``[``; format 1's map never does)."""
    content = bytes(raw)
    if not content.startswith(b"["):
        return msgspec.msgpack.decode(content, type=model)
    plan = _plan(model)
    mirror = msgspec.json.decode(content, type=plan.mirror)
    return mirror if plan.mirror is model else _from_mirror(plan)(mirror)


def _raw_in_json(event: Any) -> Any:
    """``event`` with every ``msgspec.Raw`` field read from format 1 in format 2's bytes
    (a map of plain values becomes the array of its values, in their order)."""
    plan = _PLANS.get(type(event)) or _plan(type(event))
    changes = {}
    for name in plan.raw:
        value = getattr(event, name)
        if value is not UNSET and not bytes(value).startswith(b"["):
            held = msgspec.msgpack.decode(bytes(value))
            changes[name] = msgspec.Raw(_JSON_ENCODER.encode(
                list(held.values()) if isinstance(held, dict) else held))
    return msgspec.structs.replace(event, **changes) if changes else event


def event_fields(cls: type) -> list[str]:
    """The names of an event's fields, in the order format 2 writes them (after the tag,
    so field ``i`` is ``json_extract(payload, '$[i + 1]')``)."""
    return list(cls.__struct_fields__)
