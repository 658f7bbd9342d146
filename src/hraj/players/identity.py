"""Who a browser is: a guest's signed cookie, a signed-in session's token, and the CSRF
token that must come with every change made with either cookie.

A guest's cookie is its random id and an HMAC of it under the server's secret, so
nobody can make up another guest's. A session's cookie is a random token; the store
keeps only its HMAC, so a leaked database signs nobody in. The CSRF token is an HMAC
of the cookie's identity: a page of this site carries it, a page of another site
cannot read it, so a request forged elsewhere comes without it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

GUEST_COOKIE = "hraj_guest"
SESSION_COOKIE = "hraj_session"
#: The header (or JSON field of a form) that carries the CSRF token.
CSRF_HEADER = "X-CSRF-Token"
#: A year: how long a browser keeps its guest id and its session.
COOKIE_AGE = 365 * 24 * 3600


def _mac(secret: str, purpose: str, text: str) -> str:
    return hmac.new(secret.encode(), f"{purpose}:{text}".encode(), hashlib.sha256).hexdigest()


def new_person_id() -> str:
    """A person's id: 128 random bits in 32 hex digits (a guest's and an account's alike)."""
    return secrets.token_hex(16)


def guest_cookie(secret: str, guest: str) -> str:
    return f"{guest}.{_mac(secret, 'guest', guest)[:32]}"


def guest_of(secret: str, cookie: str | None) -> str | None:
    """The guest id a cookie proves, or None for a missing or forged one."""
    if not cookie:
        return None
    guest, _, signature = cookie.partition(".")
    if len(guest) != 32 or not hmac.compare_digest(signature, _mac(secret, "guest", guest)[:32]):
        return None
    return guest


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def session_hash(secret: str, token: str) -> str:
    """What the store keeps of a session token."""
    return _mac(secret, "session", token)


def csrf_token(secret: str, identity: str) -> str:
    return _mac(secret, "csrf", identity)[:40]


@dataclass(frozen=True, slots=True)
class Person:
    """The person behind a request: a signed-in account or a guest.

    `identity` is what its cookie proves (the session's hash, or the guest id), and
    `csrf_ok` whether the request also carried the CSRF token of that cookie: only then
    may the cookie change anything.
    """

    id: str
    name: str | None
    identity: str
    csrf_ok: bool
    session: str | None = None
    """The hash of the account's session token (None: a guest)."""

    @property
    def signed_in(self) -> bool:
        return self.session is not None


def csrf_matches(secret: str, identity: str, given: str | None) -> bool:
    return given is not None and hmac.compare_digest(given, csrf_token(secret, identity))
