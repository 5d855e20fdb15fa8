"""A Merkle tree as RFC 6962 (Certificate Transparency) defines it, section 2.1.

Leaves are byte strings; ``leaf_hash = SHA-256(0x00 || leaf)``, an inner node is
``SHA-256(0x01 || left || right)`` and a tree of n > 1 leaves splits at k, the largest
power of two smaller than n (2.1). An inclusion proof (audit path, 2.1.1) shows that a leaf
is the m-th of a tree with a given root; a consistency proof (2.1.2) shows that a tree of
m leaves is the first m leaves of a tree of n. The verifications are those of RFC 9162
section 2.1.3.2 and 2.1.4.2 (RFC 6962 gives the proofs, its successor how to check them).
Pure functions over bytes; no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

__all__ = ["consistency_proof", "inclusion_proof", "inclusion_proofs", "leaf_hash", "node_hash", "root",
           "verify_consistency", "verify_inclusion", "verify_inclusion_hash"]

HASH_SIZE = 32  # SHA-256: a leaf hash or a proof's node of another length is no hash


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


class _Tree:
    """The leaf hashes of a tree, with the hash of each subtree computed once (a season's
    page shows every game's path: n paths of log n subtrees each)."""

    def __init__(self, leaves: Sequence[bytes]) -> None:
        self.hashes = [leaf_hash(leaf) for leaf in leaves]
        self.cache: dict[tuple[int, int], bytes] = {}

    def mth(self, lo: int, hi: int) -> bytes:
        """MTH(D[lo:hi]) (2.1); the empty tree's hash is SHA-256 of nothing."""
        if hi - lo == 0:
            return hashlib.sha256(b"").digest()
        if hi - lo == 1:
            return self.hashes[lo]
        found = self.cache.get((lo, hi))
        if found is None:
            k = lo + _split(hi - lo)
            found = self.cache[(lo, hi)] = node_hash(self.mth(lo, k), self.mth(k, hi))
        return found

    def path(self, m: int, lo: int, hi: int) -> list[bytes]:
        """PATH(m, D[lo:hi]) (2.1.1)."""
        if hi - lo == 1:
            return []
        k = _split(hi - lo)
        if m < k:
            return [*self.path(m, lo, lo + k), self.mth(lo + k, hi)]
        return [*self.path(m - k, lo + k, hi), self.mth(lo, lo + k)]

    def subproof(self, m: int, lo: int, hi: int, whole: bool) -> list[bytes]:
        """SUBPROOF(m, D[lo:hi], b) (2.1.2)."""
        n = hi - lo
        if m == n:
            return [] if whole else [self.mth(lo, hi)]
        k = _split(n)
        if m <= k:
            return [*self.subproof(m, lo, lo + k, whole), self.mth(lo + k, hi)]
        return [*self.subproof(m - k, lo + k, hi, False), self.mth(lo, lo + k)]


def root(leaves: Sequence[bytes]) -> bytes:
    """The Merkle tree hash of ``leaves`` (2.1)."""
    return _Tree(leaves).mth(0, len(leaves))


def inclusion_proof(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """PATH(m, D[n]) (2.1.1): the audit path of leaf ``index``."""
    return inclusion_proofs(leaves, [index])[0]


def inclusion_proofs(leaves: Sequence[bytes], indices: Sequence[int]) -> list[list[bytes]]:
    """The audit paths of several leaves of one tree, its subtrees hashed once."""
    tree = _Tree(leaves)
    for index in indices:
        if not 0 <= index < len(leaves):
            raise ValueError(f"leaf {index} is not in a tree of {len(leaves)}")
    return [tree.path(index, 0, len(leaves)) for index in indices]


def consistency_proof(leaves: Sequence[bytes], m: int) -> list[bytes]:
    """PROOF(m, D[n]) (2.1.2): that the first ``m`` leaves' tree is a prefix of this one."""
    if not 0 <= m <= len(leaves):
        raise ValueError(f"a tree of {len(leaves)} has no first {m} leaves")
    if m == 0:
        return []  # every tree extends the empty one
    return _Tree(leaves).subproof(m, 0, len(leaves), True)


def verify_inclusion(leaf: bytes, index: int, size: int, path: Sequence[bytes],
                     expected_root: bytes) -> bool:
    """Whether ``path`` proves ``leaf`` the ``index``-th of the ``size`` leaves whose tree
    hash is ``expected_root`` (RFC 9162 2.1.3.2)."""
    return verify_inclusion_hash(leaf_hash(leaf), index, size, path, expected_root)


def _hashes(*values: bytes) -> bool:
    return all(len(v) == HASH_SIZE for v in values)


def verify_inclusion_hash(hashed_leaf: bytes, index: int, size: int, path: Sequence[bytes],
                          expected_root: bytes) -> bool:
    """``verify_inclusion`` of a leaf given by its hash, as RFC 9162 2.1.3.2 states it."""
    if not 0 <= index < size or not _hashes(hashed_leaf, *path):
        return False
    fn, sn, r = index, size - 1, hashed_leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == expected_root


def verify_consistency(first: int, second: int, first_root: bytes, second_root: bytes,
                       proof: Sequence[bytes]) -> bool:
    """Whether ``proof`` shows the tree of ``first`` leaves (root ``first_root``) is the
    start of the tree of ``second`` leaves (root ``second_root``) (RFC 9162 2.1.4.2)."""
    if not 0 < first <= second or not _hashes(*proof):
        # 2.1.4.2 starts from a first tree of one leaf or more: a proof from the empty
        # tree proves nothing (its root is SHA-256 of nothing whatever the other tree);
        # a caller holding a size-0 root checks it is that hash, and needs no proof
        return False
    if first == second:
        return not proof and first_root == second_root
    path = list(proof)
    if first & (first - 1) == 0:  # a power of two: the old root is a node of the new tree
        path = [first_root, *path]
    if not path:
        return False
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == first_root and sr == second_root and sn == 0
