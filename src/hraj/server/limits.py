"""Limits that make a flood cost the flooder, not the other players.

Every limit counts per client address and also per network (an IPv4 /24, an IPv6 /56:
what one subscriber or one rented machine usually holds), at `NETWORK_FACTOR` times
the address's share: forty addresses of one network get four addresses' worth, not
forty. A socket that goes over its message rate is closed (close code 4429) and its
address may not open another for `PENALTY_S` seconds, so an over-limit message costs
the server one close instead of an answer for every message that follows, and an
address that floods again soon waits twice as long each time.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import ipaddress
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

#: A network's share of a limit, in addresses.
NETWORK_FACTOR = 4
#: Seconds an address may open no socket after one of its sockets went over its rate;
#: twice as long at each offence within `PENALTY_MEMORY_S` of the last one ending, up
#: to `PENALTY_MOST_S` (a flooder that reconnected every 10 s sent a burst each time).
PENALTY_S = 10.0
PENALTY_MOST_S = 600.0
PENALTY_MEMORY_S = 60.0


@functools.lru_cache(maxsize=4096)
def network_of(address: str) -> str:
    """The network an address belongs to: IPv4 /24, IPv6 /56; a name that is no address
    (a test client's) is its own network. Remembered for the latest addresses: parsing
    one was half the cost of a refused request."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 56
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


class TokenBucket:
    """`rate` events a second on average, `burst` at once."""

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now

    def take(self) -> bool:
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next `take` would succeed (0: now), taking nothing."""
        self._refill()
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate


class Buckets:
    """A token bucket per key, forgetting them all if there get to be too many."""

    def __init__(self, rate: float, burst: int, most: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.most = most
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) > self.most:
                self.buckets.clear()
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst)
        return bucket.take()

    def wait(self, key: str) -> float:
        """Seconds until `key` may take again (0: now)."""
        bucket = self.buckets.get(key)
        return 0.0 if bucket is None else bucket.wait()


class Rate:
    """A rate limit per address and per network (`NETWORK_FACTOR` times larger)."""

    def __init__(self, rate: float, burst: int) -> None:
        self.addresses = Buckets(rate, burst)
        self.networks = Buckets(rate * NETWORK_FACTOR, burst * NETWORK_FACTOR)

    def take(self, address: str) -> bool:
        return self.addresses.take(address) and self.networks.take(network_of(address))

    def wait(self, address: str) -> float:
        """Seconds until both the address and its network may take again (0: now)."""
        return max(self.addresses.wait(address), self.networks.wait(network_of(address)))


class Sockets:
    """Open sockets per address and per network, and the addresses in the penalty box."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self.open: collections.Counter[str] = collections.Counter()
        """Open sockets by address (their sum: every open socket)."""
        self.by_network: collections.Counter[str] = collections.Counter()
        #: Addresses penalised lately: until when, and for how many seconds.
        self.penalised: dict[str, tuple[float, float]] = {}

    def admit(self, address: str) -> bool:
        """Count a new socket of `address`, unless it is over its share or penalised."""
        network = network_of(address)
        if self._penalised(address):
            return False
        if self.open[address] >= self.per_address or self.by_network[network] >= self.per_address * NETWORK_FACTOR:
            return False
        self.open[address] += 1
        self.by_network[network] += 1
        return True

    def refuses(self, address: str) -> bool:
        """Whether `admit` would refuse a socket of `address` now (counting nothing)."""
        if self._penalised(address):
            return True
        return (
            self.open[address] >= self.per_address
            or self.by_network[network_of(address)] >= self.per_address * NETWORK_FACTOR
        )

    def release(self, address: str) -> None:
        for counter, key in ((self.open, address), (self.by_network, network_of(address))):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]

    def _penalised(self, address: str) -> bool:
        penalty = self.penalised.get(address)
        return penalty is not None and time.monotonic() < penalty[0]

    def penalise(self, address: str) -> None:
        """A socket of `address` went over its rate: it opens none for a while, longer
        for an address that offends again soon after its last penalty."""
        now = time.monotonic()
        if len(self.penalised) > 10_000:
            self.penalised = {
                key: (until, seconds)
                for key, (until, seconds) in self.penalised.items()
                if until + PENALTY_MEMORY_S > now
            }
        seconds = PENALTY_S
        last = self.penalised.get(address)
        if last is not None and now < last[0] + PENALTY_MEMORY_S:
            seconds = min(2 * last[1], PENALTY_MOST_S)
        self.penalised[address] = (now + seconds, seconds)


@dataclass(frozen=True)
class SocketLimits:
    """What a socket upgrade passes: its address's (and network's) rate of upgrades, and
    its open sockets and penalty."""

    upgrades: Rate
    sockets: Sockets

    def admit(self, address: str) -> bool:
        """Take an upgrade and count the socket as open, unless the address is over a limit."""
        return self.upgrades.take(address) and self.sockets.admit(address)

    def refuses(self, address: str) -> bool:
        """Whether `admit` would refuse `address` now, taking and counting nothing."""
        return self.upgrades.wait(address) > 0 or self.sockets.refuses(address)


class Shared(Generic[T]):
    """One read of the store shared by every request within `fresh_s` seconds (and by
    those that come while it runs): a flood of lobby requests costs one read a second,
    not one per request. `forget` makes the next request read again (a change made
    here, which its maker expects to see at once)."""

    def __init__(self, read: Callable[[], Awaitable[T]], fresh_s: float = 1.0) -> None:
        self.read = read
        self.fresh_s = fresh_s
        self.value: T | None = None
        self.at = -float("inf")
        self.lock = asyncio.Lock()

    async def get(self) -> T:
        async with self.lock:
            if self.value is None or time.monotonic() - self.at > self.fresh_s:
                self.value = await self.read()
                self.at = time.monotonic()
            return self.value

    def forget(self) -> None:
        self.value = None
