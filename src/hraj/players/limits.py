"""Sign-in attempts: per account name and per client address, first a slow-down, then refusal.

**Per name** (its key, whether or not the account exists, so the limits say nothing of
which names exist), counted in the store so that every server process counts the same
attempts (`hraj.store.sign_ins`): the first `free` failures cost nothing; after them
each next attempt must wait twice as long as the one before (1 s, 2 s, 4 s, ... at
most `longest`); after `refuse` failures within `window` seconds every attempt is
refused until the window has passed. A right password forgets the name's failures.

**Per address** (and its network), the server's rate limits (`AddressLimit`: a token
bucket per address and per network, in each process's memory): each failure takes a
token, and while none is left the address waits for the next. Signing in to one's own
account gives the address nothing back: it must not buy guesses at other names.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import sqlalchemy as sa

from hraj.store.sign_ins import blocked_until, count_failure, forget
from hraj.store.times import utc_now


class AddressLimit(Protocol):
    """A rate limit per client address (and its network): `wait` says how long before the
    next `take` succeeds."""

    def wait(self, address: str) -> float: ...

    def take(self, address: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class Backoff:
    """How long a name waits after its failures: see the module."""

    free: int = 5
    refuse: int = 30
    window: float = 3600.0
    longest: float = 300.0

    def pause(self, failures: int, elapsed: float) -> float:
        """Seconds to wait after `failures` in a window that began `elapsed` seconds ago."""
        if failures >= self.refuse:
            return self.window - elapsed
        if failures < self.free:
            return 0.0
        return min(self.longest, 2.0 ** (failures - self.free))


@dataclass(slots=True)
class SignInLimits:
    """The two counts of sign-in failures: a name tried from many addresses (in the
    store), an address trying many names (`by_address`). Blocking: it reads the store."""

    engine: sa.Engine
    by_address: AddressLimit
    by_name: Backoff = field(default_factory=Backoff)
    clock: Callable[[], dt.datetime] = utc_now

    def address_wait(self, address: str) -> int:
        """Whole seconds before `address` may try again (0: now); no store read."""
        return math.ceil(self.by_address.wait(address))

    def name_wait(self, key: str) -> int:
        """Whole seconds before the name of `key` may be tried again (0: now)."""
        until = blocked_until(self.engine, key)
        return 0 if until is None else max(0, math.ceil((until - self.clock()).total_seconds()))

    def failed(self, address: str, key: str) -> None:
        self.by_address.take(address)
        count_failure(self.engine, key, self.clock(), dt.timedelta(seconds=self.by_name.window), self.by_name.pause)

    def succeeded(self, key: str) -> None:
        forget(self.engine, key)
