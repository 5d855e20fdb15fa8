"""Every event class says what it records (issue 21): each msgspec Struct subclass of
``events.base.Event`` in the ``events`` package, and every class a stream can decode to
(``events.catalogue.ALL_EVENTS``), has a docstring of its own (a class does not inherit
one: ``__doc__`` is looked up in the class's own namespace)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import typing

import events
from events.base import Event


def _event_classes() -> set[type]:
    found: set[type] = set()
    for info in pkgutil.walk_packages(events.__path__, prefix="events."):
        module = importlib.import_module(info.name)
        found |= {c for c in vars(module).values()
                  if inspect.isclass(c) and issubclass(c, Event) and c.__module__ == module.__name__}
    from events.catalogue import ALL_EVENTS

    found |= set(typing.get_args(ALL_EVENTS))
    return found


def _undocumented(classes: set[type]) -> list[str]:
    return sorted(f"{c.__module__}.{c.__qualname__}" for c in classes
                  if not (c.__dict__.get("__doc__") or "").strip())


def test_every_event_class_has_a_docstring() -> None:
    classes = _event_classes()
    assert len(classes) >= 100  # Hockey Bones, DICE Hockey, Matrix Hockey, league, common
    assert _undocumented(classes) == []


def test_the_check_finds_an_event_without_a_docstring() -> None:
    class Undocumented(Event, frozen=True):
        n: int

    class Documented(Event, frozen=True):
        """A test event (no rule)."""

        n: int

    assert _undocumented({Undocumented, Documented}) == [f"{__name__}.{Undocumented.__qualname__}"]
