"""Web Push: tell a player's browser that it is their turn, even with the page closed.

The browser subscribes through its push service (`PushManager.subscribe` with the
server's VAPID public key) and sends the subscription here with the seats it holds
(`POST /api/push`). When a turn of one of those seats begins in a correspondence room,
the server encrypts a short message for each subscription (RFC 8291, `aes128gcm`) and
posts it to the push service with a VAPID signature (RFC 8292), through `pywebpush`;
the page's service worker (`/sw.js`) shows it. The message says only which room waits
and in which language: nothing secret of the game.

A subscription's endpoint is a URL the client chose, so the server posts only to
`https://` endpoints on public hosts (never to loopback or private addresses, which
would let a client make the server reach its own network); `HRAJ_PUSH_LOCAL=allow`
lifts that for a push service on the same machine (the tests' receiver).
"""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import json
import logging
from collections.abc import Mapping
from urllib.parse import urlsplit

import sqlalchemy as sa
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush
from requests import RequestException

from hraj.i18n import t
from hraj.server.logs import Throttled
from hraj.store import Store
from hraj.store.push import Subscription, for_seat, forget

log = logging.getLogger("hraj.server")

#: Seconds a push service may take to accept a message.
SEND_TIMEOUT_S = 10.0
#: Seconds a push service keeps a message for a browser that is offline (a day: a
#: correspondence turn lasts days, a reminder older than that is stale).
PUSH_TTL_S = 86_400
#: Push service answers that mean the subscription is gone for good.
GONE = (404, 410)


def endpoint_allowed(endpoint: str, allow_local: bool = False) -> bool:
    """Whether the server may post to this endpoint: https on a public host (or, with
    `allow_local`, any http(s) URL: a push service on this machine)."""
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        _ = parts.port  # a malformed port raises here
    except ValueError:
        return False
    if parts.scheme not in ("https", "http") or not host or parts.username or parts.password:
        return False
    if allow_local:
        return True
    if parts.scheme != "https" or host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "." in host  # a name of the public DNS
    return address.is_global


class Pusher:
    """Sends turn reminders by Web Push; off (`enabled` False) without a VAPID key."""

    def __init__(self, store: Store, vapid_pem: str, contact: str, *, allow_local: bool = False) -> None:
        self.store = store
        self.contact = contact
        self.allow_local = allow_local
        self.vapid: Vapid02 | None = Vapid02.from_pem(vapid_pem.encode()) if vapid_pem else None
        self.failures = Throttled(log, "web push")
        self.sent = 0

    @property
    def enabled(self) -> bool:
        return self.vapid is not None

    @property
    def public_key(self) -> str | None:
        """The VAPID public key as browsers want it (`applicationServerKey`): the
        uncompressed P-256 point, base64url without padding."""
        if self.vapid is None:
            return None
        point = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return base64.urlsafe_b64encode(point).rstrip(b"=").decode("ascii")

    def message(self, room_id: str, game_name: str, lang: str) -> dict[str, str]:
        """What a reminder says, in the subscriber's language."""
        return {
            "title": t("Your turn", lang),
            "body": t("It is your move in {game}.", lang, game=t(game_name, lang)),
            "url": f"/r/{room_id}",
            "tag": f"hraj-{room_id}",
        }

    async def your_turn(self, room_id: str, seat: int, game_name: str) -> int:
        """Remind every browser that holds the seat that its turn began; how many took it."""
        if self.vapid is None:
            return 0
        try:
            subscriptions = await asyncio.to_thread(for_seat, self.store.engine, room_id, seat)
        except sa.exc.SQLAlchemyError as error:
            self.failures.report("cannot read subscriptions", error)
            return 0
        sent = 0
        for subscription in subscriptions:
            payload = self.message(room_id, game_name, subscription.lang)
            if await asyncio.to_thread(self.send, subscription, payload):
                sent += 1
        self.sent += sent
        return sent

    def send(self, subscription: Subscription, payload: Mapping[str, str]) -> bool:
        """Post one encrypted message; a subscription the push service calls gone is removed."""
        if self.vapid is None or not endpoint_allowed(subscription.endpoint, self.allow_local):
            return False
        info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
        try:
            webpush(
                info,
                json.dumps(payload, ensure_ascii=False),
                vapid_private_key=self.vapid,
                vapid_claims={"sub": self.contact},
                ttl=PUSH_TTL_S,
                timeout=SEND_TIMEOUT_S,
            )
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in GONE:
                forget(self.store.engine, subscription.id)
            else:
                self.failures.report(f"push service answered {status}", error)
            return False
        except (RequestException, ValueError, OSError) as error:
            self.failures.report("cannot reach a push service", error)
            return False
        return True
