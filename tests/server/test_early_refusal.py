"""Socket upgrades refused as their headers arrive, before uvicorn makes a WebSocket."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.server import ServerState
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from hraj.server.early_refusal import REFUSED, early_refusing
from hraj.server.limits import Rate, SocketLimits, Sockets
from tests.server.live import LiveServer

UPGRADE = (
    b"GET /ws/rooms/abc HTTP/1.1\r\nHost: example.org\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


class Transport(asyncio.Transport):
    """A connection from `address` that keeps what is written to it."""

    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address
        self.written = b""
        self.closed = False
        self.protocol: asyncio.BaseProtocol | None = None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": (self.address, 40000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += bytes(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.protocol = protocol


def upgrade_from(address: str, limits: SocketLimits) -> tuple[Transport, list[str]]:
    """Feed an upgrade request from `address` to the protocol: the transport, and the
    kinds of request the application was called with."""
    called: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        called.append(scope["type"])

    async def scenario() -> Transport:
        config = uvicorn.Config(app, http=early_refusing(limits), lifespan="off")
        config.load()
        protocol = config.http_protocol_class(config=config, server_state=ServerState(), app_state={})  # type: ignore[call-arg]
        transport = Transport(address)
        protocol.connection_made(transport)
        protocol.data_received(UPGRADE)
        await asyncio.sleep(0.05)  # the application's task, where there is one
        return transport

    return asyncio.run(scenario()), called


def test_a_penalised_address_is_refused_before_the_application_runs() -> None:
    sockets = Sockets(per_address=5)
    sockets.penalise("203.0.113.7")
    transport, called = upgrade_from("203.0.113.7", SocketLimits(Rate(10, 10), sockets))
    assert transport.written == REFUSED
    assert transport.closed
    assert called == [], "the guard's work was not done again"
    assert transport.protocol is None, "no WebSocket protocol was made"


def test_an_address_over_its_upgrade_rate_is_refused_early_and_nothing_is_taken() -> None:
    upgrades = Rate(0.001, 1)
    assert upgrades.take("203.0.113.8")
    limits = SocketLimits(upgrades, Sockets(per_address=5))
    transport, called = upgrade_from("203.0.113.8", limits)
    assert transport.written.startswith(b"HTTP/1.1 403 ")
    assert called == []
    assert limits.sockets.open["203.0.113.8"] == 0, "a refusal counts no open socket"


def test_an_address_within_its_limits_goes_on_to_the_application() -> None:
    limits = SocketLimits(Rate(10, 10), Sockets(per_address=5))
    transport, called = upgrade_from("203.0.113.9", limits)
    assert not transport.written.startswith(b"HTTP/1.1 403")
    assert called == ["websocket"]
    assert transport.protocol is not None
    assert limits.upgrades.addresses.buckets == {}, "the early look takes nothing: the guard takes"


def test_hraj_serve_refuses_an_address_over_its_upgrades_with_a_403(tmp_path: Path) -> None:
    """Through `hraj serve`: the second upgrade of an address allowed one is refused with
    the 403 a WebSocket client reports, and the server goes on serving others."""
    env = {"HRAJ_WS_CONNECT_RATE": "0.001", "HRAJ_WS_CONNECT_BURST": "1"}
    server = LiveServer(f"sqlite:///{tmp_path / 'hraj.db'}", env=env)
    url = server.start().replace("http://", "ws://", 1)

    async def scenario() -> list[object]:
        statuses: list[object] = []
        for address in ("127.0.0.5", "127.0.0.5", "127.0.1.5"):
            try:
                # Upgraded (the server then closes it: there is no such room).
                async with connect(f"{url}/ws/rooms/nosuchroom", local_addr=(address, 0)):
                    statuses.append(101)
            except InvalidStatus as refused:
                statuses.append(refused.response.status_code)
        return statuses

    try:
        statuses = asyncio.run(scenario())
    finally:
        assert server.stop() == 0
    assert statuses == [101, 403, 101]


def test_the_guard_still_takes_what_passes_the_early_look() -> None:
    address = "203.0.113.10"
    limits = SocketLimits(Rate(10, 1), Sockets(per_address=5))
    assert not limits.refuses(address)
    assert limits.admit(address)
    assert limits.refuses(address), "the one upgrade of its burst is taken"
