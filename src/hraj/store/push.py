"""Web Push subscriptions: which browsers asked to hear of which seats' turns.

A browser's subscription (its push service endpoint and its keys, RFC 8291) is kept
under the hash of its endpoint, so subscribing again only adds seats; a push service
that answers that the subscription is gone has it removed (`forget`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

import sqlalchemy as sa

from hraj.store.schema import push_subscriptions, push_targets


@dataclass(frozen=True, slots=True)
class Subscription:
    id: str
    endpoint: str
    p256dh: str
    auth: str
    lang: str


def subscription_id(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


def subscribe(
    engine: sa.Engine, endpoint: str, p256dh: str, auth: str, lang: str, seats: Iterable[tuple[str, int]]
) -> str:
    """Keep a browser's subscription (its keys and language refreshed) and add the seats
    it holds; its id."""
    sub_id = subscription_id(endpoint)
    with engine.begin() as connection:
        updated = connection.execute(
            push_subscriptions.update()
            .where(push_subscriptions.c.id == sub_id)
            .values(endpoint=endpoint, p256dh=p256dh, auth=auth, lang=lang)
        )
        if updated.rowcount == 0:
            connection.execute(
                push_subscriptions.insert().values(
                    id=sub_id,
                    endpoint=endpoint,
                    p256dh=p256dh,
                    auth=auth,
                    lang=lang,
                    created_at=dt.datetime.now(dt.UTC),
                )
            )
        known = {
            (room, seat)
            for room, seat in connection.execute(
                sa.select(push_targets.c.room_id, push_targets.c.seat).where(push_targets.c.subscription_id == sub_id)
            )
        }
        rows = [{"subscription_id": sub_id, "room_id": r, "seat": s} for r, s in set(seats) - known]
        if rows:
            connection.execute(push_targets.insert(), rows)
    return sub_id


def forget(engine: sa.Engine, sub_id: str) -> None:
    """Remove a subscription and its seats (the browser unsubscribed, or it is gone)."""
    with engine.begin() as connection:
        connection.execute(push_targets.delete().where(push_targets.c.subscription_id == sub_id))
        connection.execute(push_subscriptions.delete().where(push_subscriptions.c.id == sub_id))


def for_seat(engine: sa.Engine, room_id: str, seat: int) -> list[Subscription]:
    """The subscriptions that hear of this seat's turns."""
    query = (
        sa.select(push_subscriptions)
        .join(push_targets, push_targets.c.subscription_id == push_subscriptions.c.id)
        .where(push_targets.c.room_id == room_id, push_targets.c.seat == seat)
        .order_by(push_subscriptions.c.id)
    )
    with engine.connect() as connection:
        return [
            Subscription(row["id"], row["endpoint"], row["p256dh"], row["auth"], row["lang"])
            for row in connection.execute(query).mappings()
        ]
