"""Receipts: what a commissioner keeps of a game, outside the database, to hold it to.

A receipt lists, per stream, its id, kind, ruleset, number of events, head hash and the
index folded from its events (teams, score, how it was decided, lineage). The head hash
covers every event byte, so a database or an export file that changes anything no longer
matches the receipt. With a league key a receipt is signed (Ed25519, PyNaCl): the
signature covers the canonical JSON of everything but itself, so a league can publish
results that nobody can alter unnoticed. The secret key lives in a file of its own and is
never written to a database.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

import msgspec
import nacl.exceptions
import nacl.signing

from events.errors import RinklogError
from replay.leagues.audit import AuditFinding, AuditReport

__all__ = ["Receipt", "ReceiptEntry", "Signature", "check_entry", "entry_for", "generate_key", "held_to",
           "load_receipt", "load_signing_key", "load_verify_key", "sign_receipt",
           "verify_signature"]

FORMAT = "rinklog-receipt"
FORMAT_VERSION = 1
_CANONICAL = msgspec.json.Encoder(order="sorted")


class ReceiptEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One stream as the audit found it."""

    game: str
    kind: str
    ruleset: str
    ruleset_version: int
    events: int
    head_hash: str
    meta: dict[str, Any]


class Signature(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    public_key: str  # hex of the 32-byte Ed25519 verify key
    value: str  # hex of the 64-byte signature


class Receipt(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    format: Literal["rinklog-receipt"]
    version: Literal[1]
    games: list[ReceiptEntry]
    signature: Signature | None = None

    def signed_bytes(self) -> bytes:
        """What a signature covers: the canonical JSON of the receipt without it."""
        return _CANONICAL.encode({"format": self.format, "version": self.version,
                                  "games": self.games})

    def entry(self, game: str) -> ReceiptEntry | None:
        return next((e for e in self.games if e.game == game), None)


class Signed(Protocol):
    """What a signature is checked on: a game receipt or a season receipt
    (replay/leagues/season_receipts.py)."""

    @property
    def signature(self) -> Signature | None: ...

    def signed_bytes(self) -> bytes: ...


SignedT = TypeVar("SignedT", bound=msgspec.Struct)


class ReceiptError(RinklogError):
    """A receipt or key file that cannot be read, or a signature that does not verify."""


def entry_for(report: AuditReport) -> ReceiptEntry:
    """The receipt entry of a stream that passed the audit."""
    if report.failure is not None:
        f = report.failure
        raise ReceiptError(f"{report.game_id} fails the audit ({f.check} check at event "
                           f"{f.seq}); no receipt is issued for it")
    return ReceiptEntry(report.game_id, report.kind, report.ruleset, report.ruleset_version,
                        report.events, report.head_hash, report.index)


def make_receipt(entries: list[ReceiptEntry], key: nacl.signing.SigningKey | None) -> Receipt:
    receipt = Receipt(FORMAT, FORMAT_VERSION, entries)
    return sign_receipt(receipt, key) if key is not None else receipt


def sign_receipt(receipt: SignedT, key: nacl.signing.SigningKey) -> SignedT:
    signed = key.sign(receipt.signed_bytes()).signature  # type: ignore[attr-defined]
    return msgspec.structs.replace(receipt, signature=Signature(
        key.verify_key.encode().hex(), signed.hex()))


def verify_signature(receipt: Signed, origin: str,
                     pinned: nacl.signing.VerifyKey | None) -> str | None:
    """Check a receipt's signature; return the signer's key (hex), or None if unsigned.

    With ``pinned`` (the league's public key) the receipt must be signed by that key.
    """
    if receipt.signature is None:
        if pinned is not None:
            raise ReceiptError(f"{origin}: not signed, but a league key was given")
        return None
    try:
        key = nacl.signing.VerifyKey(bytes.fromhex(receipt.signature.public_key))
        key.verify(receipt.signed_bytes(), bytes.fromhex(receipt.signature.value))
    except (ValueError, TypeError, nacl.exceptions.CryptoError):
        raise ReceiptError(f"{origin}: the signature does not verify (the receipt was "
                           "changed after it was signed)") from None
    if pinned is not None and key.encode() != pinned.encode():
        raise ReceiptError(f"{origin}: signed by key {receipt.signature.public_key[:16]}…, "
                           f"not the league key {pinned.encode().hex()[:16]}…")
    return receipt.signature.public_key


def check_entry(want: ReceiptEntry, report: AuditReport) -> AuditFinding | None:
    """Whether an audited stream is the one the receipt names (field by field)."""
    if report.failure is not None:
        return report.failure
    got = entry_for(report)
    for name in ReceiptEntry.__struct_fields__:
        if getattr(want, name) != getattr(got, name):
            return AuditFinding("receipt", report.events, f"{name} {getattr(want, name)!r} "
                                "(the receipt)", repr(getattr(got, name)), "receipt")
    return None


def held_to(receipt: Receipt, report: AuditReport, origin: str) -> AuditReport:
    """``report``, failed with a ``receipt`` check when the audited stream is not the one
    ``receipt`` (read from ``origin``) names, or is a stream it does not name."""
    want = receipt.entry(report.game_id)
    failure = (AuditFinding("receipt", 0, f"a game {origin} names", "a game it does not name",
                            "receipt") if want is None else check_entry(want, report))
    if failure is None or failure is report.failure:
        return report
    return dataclasses.replace(report, failure=failure)


def encode_receipt(receipt: Receipt) -> bytes:
    return msgspec.json.format(_CANONICAL.encode(receipt), indent=2) + b"\n"


def load_receipt(path: Path) -> Receipt:
    try:
        return msgspec.json.decode(path.read_bytes(), type=Receipt)
    except OSError as err:
        raise ReceiptError(f"{path}: cannot read: {err.strerror or err}") from None
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as err:
        raise ReceiptError(f"{path}: not a rinklog receipt ({err})") from None
    except RecursionError:  # msgspec's decoder, on JSON nested deeper than Python recurses
        raise ReceiptError(f"{path}: not a rinklog receipt (JSON nested too deeply)") from None


# --- keys ------------------------------------------------------------------------------

def _git(folder: Path, *args: str) -> subprocess.CompletedProcess[str] | None:
    """``git -C folder ARGS``; None when there is no git to run."""
    try:
        return subprocess.run(["git", "-C", str(folder), *args], capture_output=True,
                              text=True, check=False)
    except OSError:
        return None


def unignored_in_git(path: Path) -> tuple[Path, str] | None:
    """For a file git would take in (inside a git work tree and not ignored, so `git add .`
    commits it): the work tree's .gitignore and the line that ignores it. None outside a
    work tree, when git is missing, or when git ignores the file already."""
    folder = path.absolute().parent
    inside = _git(folder, "rev-parse", "--show-toplevel")
    if inside is None or inside.returncode != 0 or not inside.stdout.strip():
        return None
    ignored = _git(folder, "check-ignore", "-q", "--no-index", path.name)
    if ignored is None or ignored.returncode != 1:  # 0: ignored; 128: git cannot tell
        return None
    top = Path(inside.stdout.strip())
    try:
        line = "/" + (folder.resolve() / path.name).relative_to(top.resolve()).as_posix()
    except ValueError:  # a symlinked folder git reads elsewhere: name the file alone
        line = path.name
    return top / ".gitignore", line


def generate_key(path: Path, force: bool = False) -> str:
    """Write a new secret signing key to ``path`` (mode 0600) and its public key to
    ``path.pub``; refuse to overwrite either, or (unless ``force``) to write the secret
    key where git would commit it. Returns the public key (hex)."""
    public = path.with_name(path.name + ".pub")
    key = nacl.signing.SigningKey.generate()
    for target in (path, public):
        if target.exists():
            raise ReceiptError(f"{target} already exists; nothing written")
    committed = None if force else unignored_in_git(path)
    if committed is not None:
        gitignore, line = committed
        raise ReceiptError(f"{path} is in a git work tree and git would commit it (git add .):"
                           f" add the line {line} to {gitignore}, or give a path outside the "
                           "tree, or --force; nothing written")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(key.encode().hex() + "\n")
        public.write_text(key.verify_key.encode().hex() + "\n")
    except OSError as err:
        raise ReceiptError(f"{path}: cannot write the key: {err.strerror or err}") from None
    return key.verify_key.encode().hex()


def _key_bytes(text: str, origin: str, what: str) -> bytes:
    try:
        raw = bytes.fromhex(text.strip())
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise ReceiptError(f"{origin}: not a {what} (64 hex digits)")
    return raw


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as err:
        raise ReceiptError(f"{path}: cannot read the key: {err}") from None


def load_signing_key(path: Path) -> nacl.signing.SigningKey:
    return nacl.signing.SigningKey(_key_bytes(_read(path), str(path), "secret signing key"))


def load_verify_key(value: str) -> nacl.signing.VerifyKey:
    """A public key given as 64 hex digits or as a file holding them."""
    stripped = value.strip()
    text = stripped if len(stripped) == 64 and not Path(stripped).exists() else _read(Path(value))
    return nacl.signing.VerifyKey(_key_bytes(text, value, "public key"))
