"""The documentation names no path outside the repository (issue 24, item 5).

docs/matrix.md once named the rules text by an absolute path on the authors' machine
(``/work/shared/seeds/...``): a reader has no such file. Every doc and the README name files
relative to the repository (``fixtures/...``, ``docs/...``) or by what they are ("the Matrix
Hockey rules text"); a system path a reader has too (``/dev/null``) is allowed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
# An absolute path: "/" then two or more name components, not inside a URL, a relative path
# (docs/x.md) or a word (EV/PP/SH).
ABSOLUTE = re.compile(r"(?<![\w.~/:@%-])(/[A-Za-z_][\w.+-]*(?:/[\w.+-]+)+/?)")
EVERY_READER_HAS = {"/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/usr/bin/env"}


# A relative path that climbs out of the folder it is read from (``../shared/seeds``).
CLIMBING = re.compile(r"(?<![\w.~/-])((?:\.\./)+[\w.+-]+(?:/[\w.+-]+)*)")


def absolute_paths(text: str) -> list[str]:
    return [m.group(1) for m in ABSOLUTE.finditer(text) if m.group(1) not in EVERY_READER_HAS]


def climbing_out(text: str, folder: Path) -> list[str]:
    """Relative paths that, read from ``folder``, lead out of the repository."""
    return [m.group(1) for m in CLIMBING.finditer(text)
            if not (folder / m.group(1)).resolve().is_relative_to(ROOT)]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_doc_names_a_path_outside_the_repository(doc: Path) -> None:
    found = [f"{doc.name}:{n}: {path}"
             for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1)
             for path in absolute_paths(line) + climbing_out(line, doc.parent)]
    assert not found, "absolute paths (name files relative to the repository):\n" + "\n".join(found)


def test_the_scan_finds_what_docs_matrix_md_once_said() -> None:
    said = "Matrix Hockey (`/work/shared/seeds/matrix-hockey-rules.txt`) is not a game"
    assert absolute_paths(said) == ["/work/shared/seeds/matrix-hockey-rules.txt"]
    assert absolute_paths("see /home/me/rinklog/docs/json.md, or C: /tmp/x.db") == [
        "/home/me/rinklog/docs/json.md", "/tmp/x.db"]
    # what is not one: relative paths, URLs, stat names, a device every reader has
    assert absolute_paths("[json](docs/json.md) https://example.org/a/b EV/PP/SH +/- "
                          "2>/dev/null") == []
    assert climbing_out("the texts in ../shared/seeds/", ROOT) == ["../shared/seeds"]
    assert climbing_out("[README](../README.md)", ROOT / "docs") == []
