"""Whole-game playthroughs as JSON Lines snapshots (issue 21): one event a line, ``seq`` and
``type`` first, then the payload (its keys sorted, at every depth), so a rule change that
moves one event reads as a line diff. Used through the ``playthrough`` fixture
(tests/conftest.py): ``assert events == playthrough``; the file is
``__snapshots__/<test module>/<test name>.jsonl`` beside the test module.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import msgspec
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _sorted(value[key]) for key in sorted(value)}
    if isinstance(value, list | tuple):
        return [_sorted(item) for item in value]
    return value


def event_lines(events: Iterable[Any]) -> str:
    """One JSON object a line for ``events`` (msgspec events or their builtins), numbered
    from 1 as a stream's ``seq``."""
    lines = []
    for seq, event in enumerate(events, start=1):
        body = _sorted(event if isinstance(event, dict) else msgspec.to_builtins(event))
        line = {"seq": seq, "type": body.pop("type"), **body}
        lines.append(json.dumps(line, ensure_ascii=False))
    return "\n".join(lines) + "\n"


class JSONLinesSnapshotExtension(SingleFileSnapshotExtension):
    """A list of events as a ``.jsonl`` file (syrupy single-file snapshot, text)."""

    _write_mode = WriteMode.TEXT
    file_extension = "jsonl"  # syrupy 5+
    _file_extension = "jsonl"  # syrupy 4

    def serialize(self, data: Any, **_: Any) -> str:
        return event_lines(data)
