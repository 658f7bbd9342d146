"""Limits per address and per network, the penalty box, and reads shared by a flood."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

from hraj.server import limits
from hraj.server.limits import (
    NETWORK_FACTOR,
    PENALTY_MEMORY_S,
    PENALTY_MOST_S,
    PENALTY_S,
    Rate,
    Shared,
    Sockets,
    network_of,
)
from tests.server.conftest import MakeClient
from tests.server.live import LiveServer


@pytest.mark.parametrize(
    ("address", "network"),
    [
        ("203.0.113.77", "203.0.113.0/24"),
        ("2001:db8:1234:5678::1", "2001:db8:1234:5600::/56"),
        ("::ffff:203.0.113.77", "203.0.113.0/24"),
        ("testclient", "testclient"),
    ],
)
def test_an_address_belongs_to_its_network(address: str, network: str) -> None:
    assert network_of(address) == network


def test_forty_addresses_of_one_network_share_a_few_addresses_worth() -> None:
    """Before, 40 loopback addresses made 1,725 lobby requests without one 429."""
    rate = Rate(0.001, 2)
    taken = [rate.take(f"198.51.100.{n}") for n in range(1, 41) for _ in range(2)]
    assert sum(taken) == 2 * NETWORK_FACTOR
    assert rate.take("192.0.2.1"), "another network has its own share"


def test_a_rate_says_how_long_until_the_next_take_without_taking(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(limits, "time", SimpleNamespace(monotonic=lambda: now[0]))
    rate = Rate(0.5, 2)  # one every 2 s, two at once
    assert rate.wait("198.51.100.1") == 0, "never seen: now"
    assert rate.take("198.51.100.1") and rate.take("198.51.100.1")
    assert rate.wait("198.51.100.1") == pytest.approx(2.0)
    now[0] += 1.5
    assert rate.wait("198.51.100.1") == pytest.approx(0.5), "asking took nothing"
    now[0] += 0.5
    assert rate.take("198.51.100.1")
    for n in range(2, 2 + NETWORK_FACTOR):  # the network's share is spent by its other addresses
        while rate.take(f"198.51.100.{n}"):
            pass
    assert rate.wait("198.51.100.250") > 0, "a fresh address of a spent network waits for the network"


def test_sockets_are_counted_per_network_and_a_flooder_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(limits, "time", SimpleNamespace(monotonic=lambda: now[0]))
    sockets = Sockets(per_address=2)
    admitted = [sockets.admit(f"198.51.100.{n}") for n in range(1, 20)]
    assert sum(admitted) == 2 * NETWORK_FACTOR
    sockets.release("198.51.100.1")
    sockets.penalise("198.51.100.1")
    assert not sockets.admit("198.51.100.1"), "penalised"
    assert sockets.admit("198.51.100.2"), "the others of the network are not"
    now[0] += PENALTY_S + 1
    sockets.release("198.51.100.2")
    assert sockets.admit("198.51.100.1")


def test_one_read_serves_every_request_within_a_second_until_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(limits, "time", SimpleNamespace(monotonic=lambda: now[0]))
    reads: list[int] = []

    async def read() -> int:
        reads.append(1)
        return len(reads)

    async def scenario() -> list[int]:
        shared = Shared(read, fresh_s=1.0)
        seen = list(await asyncio.gather(*(shared.get() for _ in range(40))))
        now[0] += 0.5
        seen.append(await shared.get())
        shared.forget()
        seen.append(await shared.get())
        now[0] += 1.5
        seen.append(await shared.get())
        return seen

    assert asyncio.run(scenario()) == [1] * 41 + [2, 3]


def test_new_rooms_are_limited_per_network_too(tmp_path: Path) -> None:
    """Nine addresses of one /24, one room each: the network's share (four addresses'
    worth) runs out although no address reached its own limit."""
    env = {"HRAJ_ROOM_RATE": "0.001", "HRAJ_ROOM_BURST": "2", "HRAJ_TRUSTED_PROXIES": "127.0.0.1"}
    server = LiveServer(f"sqlite:///{tmp_path / 'hraj.db'}", env=env)
    url = server.start()
    seats = [{"kind": "person"}, {"kind": "person"}]
    try:
        answers = [
            httpx.post(
                f"{url}/api/rooms", json={"game": "qwixx", "seats": seats}, headers={"X-Forwarded-For": address}
            ).status_code
            for address in [*(f"10.0.0.{n}" for n in range(1, 10)), "10.0.1.1"]
        ]
    finally:
        assert server.stop() == 0
    assert answers == [201] * (2 * NETWORK_FACTOR) + [429, 201]


def test_a_room_over_the_rate_is_refused_before_its_body_is_read(make_client: MakeClient) -> None:
    """Over the rate of new rooms even a body that is no room at all is answered 429, not
    400: the guard refused it before the route parsed and validated anything."""
    client = make_client(room_rate=0.001, room_burst=1)
    seats = [{"kind": "person"}, {"kind": "person"}]
    assert client.post("/api/rooms", json={"game": "qwixx", "seats": seats}).status_code == 201
    refused = client.post("/api/rooms", json={"game": "no such game", "seats": "none"})
    assert refused.status_code == 429, refused.text
    assert refused.json()["code"] == "rate_limited"
    assert "new rooms" in refused.json()["message"]
    allowed = make_client(room_rate=0.001, room_burst=2)
    allowed.post("/api/rooms", json={"game": "qwixx", "seats": seats})
    assert allowed.post("/api/rooms", json={"game": "no such game", "seats": "none"}).status_code == 400


def test_a_page_refused_by_the_rate_gets_no_guest_cookie(make_client: MakeClient) -> None:
    """The guard stands outside the page's cookies: a refused first visit is answered
    before a guest id is made for it (a flood of refusals costs no cookie's signing)."""
    client = make_client(http_rate=0.001, http_burst=1)
    assert client.get("/").headers.get("set-cookie", "").startswith("hraj_guest=")
    client.cookies.clear()
    refused = client.get("/")
    assert refused.status_code == 429
    assert refused.headers.get("set-cookie") is None


def test_an_address_that_floods_again_soon_waits_twice_as_long(monkeypatch: pytest.MonkeyPatch) -> None:
    """10 s, then 20 s for an offence within a minute of the first penalty's end, then
    40 s; a minute of good behaviour later it starts at 10 s again; never over the cap."""
    now = [1000.0]
    monkeypatch.setattr(limits, "time", SimpleNamespace(monotonic=lambda: now[0]))
    sockets = Sockets(per_address=5)
    address = "198.51.100.9"
    waits = []
    for pause in (0.0, 5.0, 5.0, PENALTY_MEMORY_S + 1):
        now[0] += pause
        sockets.penalise(address)
        began = now[0]
        while sockets.refuses(address):
            now[0] += 1
        waits.append(now[0] - began)
    assert waits == [PENALTY_S, 2 * PENALTY_S, 4 * PENALTY_S, PENALTY_S]
    for _ in range(20):
        sockets.penalise(address)
        now[0] += 1
    assert sockets.penalised[address][1] == PENALTY_MOST_S
