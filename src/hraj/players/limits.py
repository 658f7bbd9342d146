"""Sign-in attempts: per address and per account name, first a slow-down, then refusal.

Each failed sign-in is counted under its key (the client's address, or the name's key
whether or not the account exists, so the limits say nothing of which names exist). The
first `free` failures cost nothing; after them each next attempt must wait twice as long
as the one before (1 s, 2 s, 4 s, ... at most `longest`); after `refuse` failures
within `window` seconds every attempt is refused until the window has passed. A
success forgets the name's failures. In memory, per server process; the keys are
forgotten all at once if there get to be too many (an attack can cost itself its
counts, never others' memory).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(slots=True)
class _Count:
    failures: int = 0
    first: float = 0.0
    last: float = 0.0


@dataclass(slots=True)
class Backoff:
    free: int
    refuse: int
    window: float = 3600.0
    longest: float = 300.0
    most: int = 100_000
    clock: Callable[[], float] = time.monotonic
    counts: dict[str, _Count] = field(default_factory=dict)

    def wait(self, key: str) -> int:
        """Seconds before `key` may try again (0: now)."""
        count = self.counts.get(key)
        now = self.clock()
        if count is None:
            return 0
        if now - count.first > self.window:
            del self.counts[key]
            return 0
        if count.failures >= self.refuse:
            return math.ceil(count.first + self.window - now)
        if count.failures < self.free:
            return 0
        pause = min(self.longest, 2.0 ** (count.failures - self.free))
        return max(0, math.ceil(count.last + pause - now))

    def failed(self, key: str) -> None:
        now = self.clock()
        count = self.counts.get(key)
        if count is None or now - count.first > self.window:
            if len(self.counts) >= self.most:
                self.counts.clear()
            count = self.counts[key] = _Count(first=now)
        count.failures += 1
        count.last = now

    def succeeded(self, key: str) -> None:
        self.counts.pop(key, None)


@dataclass(slots=True)
class SignInLimits:
    """The two counts of sign-in failures: an address tries many names (a shared address
    gets more room), a name is tried from many addresses."""

    by_address: Backoff = field(default_factory=lambda: Backoff(free=20, refuse=100))
    by_account: Backoff = field(default_factory=lambda: Backoff(free=5, refuse=30))

    def wait(self, address: str, account: str) -> int:
        return max(self.by_address.wait(address), self.by_account.wait(account))

    def failed(self, address: str, account: str) -> None:
        self.by_address.failed(address)
        self.by_account.failed(account)

    def succeeded(self, account: str) -> None:
        """A right password forgets the name's failures (the address's stay: signing in to
        one's own account must not buy an address more guesses at others)."""
        self.by_account.succeeded(account)
