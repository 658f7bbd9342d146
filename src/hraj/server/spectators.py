"""The spectators of one room: one text for all of them, at a pace the room can afford.

Every spectator sees the same view, so the room serialises it once per version and the
same text goes to every spectator socket. What costs is the sending itself, once per
socket: two thousand spectators turned 47 moves into 54,000 frames and held up every
other room of the process. So a room sends its spectators a new state at most every
`interval` seconds, always the newest (a spectator never waits for a version the room
has already passed), the first one after a quiet spell at once. A room holds at most
`most` spectators at a time; one more is refused (close code 4429).
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

#: Spectators handed a new state in one turn of the event loop.
CHUNK = 10


class Watcher(Protocol):
    """A spectator's connection as the feed sees it."""

    def push(self, message: str) -> None: ...


class SpectatorFeed:
    """The spectator connections of one room and the newest state not yet sent to them."""

    def __init__(self, interval: float, most: int) -> None:
        self.interval = interval
        self.most = most
        self.watchers: set[Watcher] = set()
        self.pending: str | None = None
        self.sent_at = -float("inf")
        self._timer: asyncio.TimerHandle | None = None
        self._chunks: asyncio.Handle | None = None

    def admit(self, watcher: Watcher) -> bool:
        if len(self.watchers) >= self.most:
            return False
        self.watchers.add(watcher)
        return True

    def discard(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)

    def publish(self, text: str) -> None:
        """The room's new state for spectators: sent now, or with the next tick."""
        if not self.watchers:
            return
        self.pending = text
        if self._timer is not None:
            return  # the tick already due sends the newest
        wait = self.sent_at + self.interval - time.monotonic()
        if wait <= 0:
            self._send()
        else:
            self._timer = asyncio.get_running_loop().call_later(wait, self._send)

    def _send(self) -> None:
        self._timer = None
        text, self.pending = self.pending, None
        if text is None:
            return
        self.sent_at = time.monotonic()
        self._push(text, list(self.watchers))

    def _push(self, text: str, watchers: list[Watcher]) -> None:
        """Hand `text` to `CHUNK` spectators now and to the rest in the loop's next turns:
        each push wakes a socket's writer, and a thousand writers woken at once held up
        the other rooms' moves for as long as they all took to write."""
        for watcher in watchers[:CHUNK]:
            watcher.push(text)
        if len(watchers) > CHUNK:
            self._chunks = asyncio.get_running_loop().call_soon(self._push, text, watchers[CHUNK:])
        else:
            self._chunks = None

    def close(self) -> None:
        for handle in (self._timer, self._chunks):
            if handle is not None:
                handle.cancel()
        self._timer = self._chunks = None
        self.pending = None
