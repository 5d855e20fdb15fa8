"""The web league's people as tables beside the streams (issue 36, docs/web.md): accounts
with their argon2 password hashes, one-time invitations, sessions and the log of refused
requests. None of these is evidence of anything (the season stream is: who joined, who
did what); none is ever shown on a page.

``web_invitations`` keeps only the SHA-256 of each link's token; ``web_sessions`` is the
web server's session store (replay/web/sessions.py).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import sqlite_utils
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from events.errors import RinklogError
from events.people import COACH, COMMISSIONER
from events.store import EventStore
from replay.leagues import results
from replay.leagues.people import LeaguePeople

__all__ = ["Account", "accept", "account_of", "invite", "log_refusal",
           "check_password", "refusals", "tables"]

_HASHER = PasswordHasher()
NAME = re.compile(r"[A-Za-z0-9_.-]{2,40}")
MIN_PASSWORD = 10
INVITATION_DAYS = 14


@dataclass(frozen=True)
class Account:
    name: str
    role: str  # coach or commissioner (the season stream's MemberJoined)
    team: str


def tables(db: sqlite3.Connection) -> sqlite_utils.Database:
    found = sqlite_utils.Database(db)
    if not found["web_accounts"].exists():
        found["web_accounts"].create({"name": str, "password": str, "created": str}, pk="name")
        found["web_invitations"].create({"token": str, "role": str, "team": str,
                                         "season": str, "expires": float, "used": str},
                                        pk="token")
        found["web_sessions"].create({"key": str, "value": bytes, "expires": float}, pk="key")
        found["web_log"].create({"id": int, "at": str, "account": str, "address": str,
                                 "method": str, "path": str, "status": int, "why": str},
                                pk="id")
    return found


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invite(store: EventStore, season_id: str, people: LeaguePeople, role: str,
           team: str = "") -> str:
    """A one-time invitation token for the coach of ``team`` (or the commissioner) of
    ``season_id``, whose people are ``people``."""
    if role not in (COACH, COMMISSIONER):
        raise RinklogError(f"role {role!r}: coach or commissioner")
    if role == COACH:
        found = people.teams(store, season_id)
        if team not in found:
            raise RinklogError(f"{team!r}: no team of {season_id} (its teams: {', '.join(found)})")
        coach = next((name for name, m in people.members(store, season_id).items()
                      if m.role == COACH and m.team == team), None)
        if coach is not None:
            raise RinklogError(f"{team} has a coach already ({coach})")
    token = secrets.token_urlsafe(24)
    with store.transaction():
        tables(store.connection)["web_invitations"].insert(
            {"token": _digest(token), "role": role, "team": team if role == COACH else "",
             "season": season_id, "used": "",
             "expires": time.time() + timedelta(days=INVITATION_DAYS).total_seconds()})
    return token


def invitation(store: EventStore, token: str) -> dict[str, Any] | None:
    """The invitation of ``token`` if it is still good (unused, not expired)."""
    rows = list(tables(store.connection)["web_invitations"].rows_where(
        "token = ? and used = '' and expires > ?", [_digest(token), time.time()]))
    return rows[0] if rows else None


def accept(store: EventStore, token: str, name: str, password: str, people: LeaguePeople,
           clock: results.Clock = results.now_utc) -> Account:
    """The invitation ``token`` taken by a new account ``name``: its MemberJoined in the
    season stream and its row here, in one transaction; the token is used up."""
    if not NAME.fullmatch(name):
        raise RinklogError("account name: 2 to 40 letters, digits, '.', '_' or '-'")
    if len(password) < MIN_PASSWORD:
        raise RinklogError(f"password: at least {MIN_PASSWORD} characters")
    hashed = _HASHER.hash(password)
    with store.transaction():
        found = invitation(store, token)
        if found is None:
            raise RinklogError("this invitation is used, expired or unknown")
        found_tables = tables(store.connection)
        if found_tables["web_accounts"].count_where("name = ?", [name]):
            raise RinklogError(f"account name {name!r} is taken")
        if store.info(found["season"]).system != people.system:
            raise RinklogError(f"this invitation is to {found['season']}, not this league")
        people.join(store, found["season"], name, found["role"], found["team"], clock)
        found_tables["web_accounts"].insert({"name": name, "password": hashed,
                                       "created": clock()})
        found_tables["web_invitations"].update(found["token"], {"used": name})
    return Account(name, found["role"], found["team"])


def check_password(store: EventStore, name: str, password: str) -> bool:
    rows = list(tables(store.connection)["web_accounts"].rows_where("name = ?", [name]))
    if not rows:
        _HASHER.hash(password)  # the same work for an unknown name: no timing tells
        return False
    try:
        return _HASHER.verify(rows[0]["password"], password)
    except (VerificationError, InvalidHashError):
        return False


def account_of(store: EventStore, season_id: str, name: str,
               people: LeaguePeople) -> Account | None:
    """``name``'s role and team as the season stream has them (None: no member)."""
    joined = people.members(store, season_id).get(name)
    return None if joined is None else Account(name, joined.role, joined.team)


def log_refusal(store: EventStore, *, at: str, account: str, address: str, method: str,
                path: str, status: int, why: str) -> None:
    """A request refused (403 and the like), kept for the commissioner (docs/web.md)."""
    with store.transaction():
        tables(store.connection)["web_log"].insert(
            {"at": at, "account": account, "address": address, "method": method,
             "path": path, "status": status, "why": why[:500]})


def refusals(store: EventStore, limit: int = 50) -> list[dict[str, Any]]:
    return list(tables(store.connection)["web_log"].rows_where(order_by="id desc", limit=limit))
