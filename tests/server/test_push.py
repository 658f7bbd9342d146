"""Web Push reminders, checked by a receiver on this machine that decrypts them as a browser."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from hraj.server.push import Pusher, endpoint_allowed
from hraj.server.settings import SettingsError, load_settings, new_vapid_key
from hraj.store import NewRoom, NewSeat, Store
from hraj.store.push import for_seat, subscribe
from tests.server.push_receiver import PushReceiver


@pytest.fixture
def receiver() -> Iterator[PushReceiver]:
    found = PushReceiver()
    yield found
    found.close()


@pytest.fixture
def store(tmp_path: object) -> Iterator[Store]:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    found = Store(f"sqlite:///{tmp_path / 'hraj.db'}")
    found.migrate()
    found.create_room(NewRoom("room1", "qwixx", {"players": 2}, "0" * 64, "c" * 64, "i", "h", [NewSeat("person")] * 2))
    yield found
    found.close()


def subscribe_receiver(store: Store, receiver: PushReceiver, lang: str, seats: list[tuple[str, int]]) -> str:
    info = receiver.subscription()
    keys = info["keys"]
    assert isinstance(keys, dict)
    return subscribe(store.engine, receiver.endpoint, keys["p256dh"], keys["auth"], lang, seats)


def test_a_reminder_reaches_the_browser_signed_and_readable_only_with_its_keys(
    store: Store, receiver: PushReceiver
) -> None:
    pusher = Pusher(store, new_vapid_key(), "mailto:ops@hraj.example", allow_local=True)
    subscribe_receiver(store, receiver, "cs", [("room1", 1)])
    assert asyncio.run(pusher.your_turn("room1", 1, "Qwixx")) == 1
    (message,) = receiver.wait_for(1)
    assert message.payload == {
        "title": "Jste na tahu",
        "body": "Ve hře Qwixx jste na tahu.",
        "url": "/r/room1",
        "tag": "hraj-room1",
    }
    assert message.signed_by == pusher.public_key
    assert message.claims["sub"] == "mailto:ops@hraj.example" and message.claims["aud"] == receiver.endpoint[:-9]
    assert message.ttl == "86400"
    assert asyncio.run(pusher.your_turn("room1", 0, "Qwixx")) == 0  # seat 0 subscribed nothing


def test_a_subscription_the_push_service_calls_gone_is_forgotten(store: Store, receiver: PushReceiver) -> None:
    pusher = Pusher(store, new_vapid_key(), "mailto:ops@hraj.example", allow_local=True)
    subscribe_receiver(store, receiver, "en", [("room1", 0)])
    receiver.gone = True
    assert asyncio.run(pusher.your_turn("room1", 0, "Qwixx")) == 0
    assert for_seat(store.engine, "room1", 0) == []


def test_subscribing_again_adds_seats_without_repeating_them(store: Store, receiver: PushReceiver) -> None:
    first = subscribe_receiver(store, receiver, "sk", [("room1", 0)])
    again = subscribe_receiver(store, receiver, "sk", [("room1", 0), ("room1", 1)])
    assert first == again
    assert [s.lang for s in for_seat(store.engine, "room1", 0)] == ["sk"]
    assert len(for_seat(store.engine, "room1", 1)) == 1


def test_without_a_key_nothing_is_sent(store: Store, receiver: PushReceiver) -> None:
    pusher = Pusher(store, "", "mailto:ops@hraj.example", allow_local=True)
    subscribe_receiver(store, receiver, "cs", [("room1", 1)])
    assert not pusher.enabled and pusher.public_key is None
    assert asyncio.run(pusher.your_turn("room1", 1, "Qwixx")) == 0 and receiver.received == []


def test_the_server_posts_only_to_public_https_push_services() -> None:
    assert endpoint_allowed("https://fcm.googleapis.com/fcm/send/abc")
    assert endpoint_allowed("https://updates.push.services.mozilla.com/wpush/v2/x")
    for bad in [
        "http://push.example.com/x",
        "https://127.0.0.1/x",
        "https://10.0.0.5/x",
        "https://[::1]/x",
        "https://localhost/x",
        "https://169.254.169.254/latest",
        "https://user:pw@push.example.com/x",
        "ftp://push.example.com/x",
        "https://push.example.com:99999/x",
        "https://intranet/x",
    ]:
        assert not endpoint_allowed(bad), bad
    assert endpoint_allowed("http://127.0.0.1:5000/x", allow_local=True)


def test_the_key_is_made_on_first_start_and_kept_beside_the_database(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    env = {"HRAJ_DATABASE_URL": str(tmp_path / "hraj.db")}
    first, second = load_settings(env), load_settings(env)
    assert first.vapid_key.startswith("-----BEGIN PRIVATE KEY") and first.vapid_key == second.vapid_key
    assert (tmp_path / "hraj-vapid.pem").stat().st_mode & 0o777 == 0o600
    pg = load_settings({"HRAJ_DATABASE_URL": "postgresql://u@h/db", "HRAJ_SECRET": "s" * 20})
    assert pg.vapid_key == ""
    given = load_settings({**env, "HRAJ_VAPID_KEY": "Zm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyMTI"})
    assert given.vapid_key.startswith("-----BEGIN PRIVATE KEY") and given.vapid_key != first.vapid_key
    with pytest.raises(SettingsError):
        load_settings({**env, "HRAJ_VAPID_KEY": "not a key"})
    with pytest.raises(SettingsError):
        load_settings({**env, "HRAJ_PUSH_CONTACT": "someone"})
