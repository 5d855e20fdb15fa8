"""rinklog's Merkle proof verifiers against a peer's test vectors: every RFC 6962 inclusion
and consistency case of transparency-dev/merkle (tests/data/rfc6962/README.md), valid and
mutated, through replay/leagues/merkle.py and through the offline verifier of docs/trust.md.

The vectors' rules are those of the reference verifier (proof/verify.go there): a hash is
32 bytes ("leafHash has unexpected size"), and a consistency proof from a tree of size 0
proves nothing ("consistency proof from empty tree is meaningless"), whatever the roots.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest

from replay.leagues import merkle

VECTORS = Path(__file__).resolve().parent / "data" / "rfc6962"
DOCS = Path(__file__).resolve().parents[1] / "docs" / "trust.md"


def _cases(kind: str) -> list[Path]:
    return sorted((VECTORS / kind).rglob("*.json"))


def _b64(value: str | None) -> bytes:
    return base64.b64decode(value or "")


def _load(path: Path) -> dict:
    case = json.loads(path.read_text(encoding="utf-8"))
    case["proof"] = [_b64(p) for p in case["proof"] or []]
    return case


def _name(path: Path) -> str:
    return str(path.relative_to(VECTORS))


def test_every_vector_is_here() -> None:
    """196 cases at the commit the README names: 98 inclusion, 98 consistency."""
    assert (len(_cases("inclusion")), len(_cases("consistency"))) == (98, 98)


@pytest.mark.parametrize("path", _cases("inclusion"), ids=_name)
def test_inclusion_vectors(path: Path) -> None:
    case = _load(path)
    got = merkle.verify_inclusion_hash(_b64(case["leafHash"]), case["leafIdx"],
                                       case["treeSize"], case["proof"], _b64(case["root"]))
    assert got is not case["wantErr"], case["desc"]


@pytest.mark.parametrize("path", _cases("consistency"), ids=_name)
def test_consistency_vectors(path: Path) -> None:
    case = _load(path)
    got = merkle.verify_consistency(case["size1"], case["size2"], _b64(case["root1"]),
                                    _b64(case["root2"]), case["proof"])
    assert got is not case["wantErr"], case["desc"]


def _doc_verifier() -> dict:
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"<!-- verifier -->\n```python\n(.*?)```", text, re.S)
    assert found, "docs/trust.md has no verifier block"
    namespace: dict = {"__name__": "trust_md_verifier"}
    exec(compile(found.group(1), str(DOCS), "exec"), namespace)  # noqa: S102
    return namespace


@pytest.mark.parametrize("path", _cases("inclusion"), ids=_name)
def test_inclusion_vectors_through_the_documented_verifier(path: Path) -> None:
    case = _load(path)
    included = _doc_verifier()["included"]
    try:
        got = included(_b64(case["leafHash"]), case["leafIdx"], case["treeSize"],
                       [p.hex() for p in case["proof"]], _b64(case["root"]).hex())
    except ValueError:  # a proof's node that is no hash: refused, in one line as a script
        got = False
    assert got is not case["wantErr"], case["desc"]
