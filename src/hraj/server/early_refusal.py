"""Socket upgrades refused before uvicorn makes a WebSocket of them.

The guard (`hraj.server.guard`) refuses a socket of an address over its limits, but only
after the WebSocket handshake has begun: uvicorn parses the request a second time,
builds a WebSocket protocol and runs the application down to the guard. A flooder who
connects again at once made about 480 refused upgrades a second, 0.45 ms of the
server's time each (0.14 ms when refused here). `hraj serve` therefore speaks HTTP
through `early_refusing`'s protocol, which answers the same `403` the moment the
request's headers are read, when the guard's limits already say no, and closes the
connection. The guard stays the authority: an upgrade that passes here is taken and
counted there.

Only where the connection's address is the client's: behind a trusted proxy the address
comes from a header that the application reads, and the guard alone decides.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from hraj.server.limits import SocketLimits

#: The answer to a refused upgrade: what the guard's refusal gives (403, closed), shorter.
REFUSED = b"HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


def early_refusing(limits: SocketLimits) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol, refusing an upgrade the `limits` refuse as soon as
    its headers are read."""

    class EarlyRefusing(HttpToolsProtocol):
        def handle_websocket_upgrade(self) -> None:
            if self.client is not None and limits.refuses(self.client[0]):
                self.transport.write(REFUSED)
                self.transport.close()
                return
            super().handle_websocket_upgrade()

    return EarlyRefusing
