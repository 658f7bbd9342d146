"""Room codes and the secret tokens of invites, hosts and seats: what a token looks like,
and what the store keeps of it (never the token itself)."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

#: What a room id looks like (`new_room_id`, older ones may start with `-`); anything else is no room.
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def hash_token(secret: str, token: str) -> str:
    """What the store keeps of a token: its HMAC-SHA256 under the server secret."""
    return hmac.new(secret.encode(), token.encode(), hashlib.sha256).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_room_id() -> str:
    """A room code of 12 URL-safe characters (72 random bits) that starts with a letter
    or a digit, so that `hraj analyze CODE` never reads it as an option."""
    while True:
        room_id = secrets.token_urlsafe(9)
        if room_id[0].isalnum():
            return room_id
