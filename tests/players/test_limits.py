"""Sign-in limits: per name (in the store, the same for every process) free attempts, then a
slow-down that doubles, then refusal for the window; per address, the server's rate."""

from __future__ import annotations

import datetime as dt

from hraj.players.limits import Backoff, SignInLimits
from hraj.store import Store


class Clock:
    def __init__(self) -> None:
        self.now = dt.datetime(2026, 11, 28, 20, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


class Addresses:
    """An address limit that allows `allowed` failures per address."""

    def __init__(self, allowed: int) -> None:
        self.allowed = allowed
        self.taken: dict[str, int] = {}

    def wait(self, address: str) -> float:
        return 0.0 if self.taken.get(address, 0) < self.allowed else 45.5

    def take(self, address: str) -> bool:
        self.taken[address] = self.taken.get(address, 0) + 1
        return self.taken[address] <= self.allowed


def test_failures_first_cost_nothing_then_each_wait_doubles_then_all_is_refused() -> None:
    policy = Backoff(free=3, refuse=6, window=3600, longest=300)
    assert [policy.pause(n, 0) for n in (1, 2)] == [0, 0]
    assert [policy.pause(n, 0) for n in (3, 4, 5)] == [1, 2, 4]
    assert policy.pause(6, 7) == 3600 - 7, "refused for what is left of the window"
    assert Backoff(free=1, refuse=100, longest=300).pause(20, 0) == 300, "the slow-down has a ceiling"


def test_a_name_tried_through_two_processes_is_counted_once_in_both(store: Store) -> None:
    clock = Clock()
    other = Store(store.url)  # another process: its own engine on the same database
    try:
        policy = Backoff(free=3, refuse=6)
        here = SignInLimits(store.engine, Addresses(100), policy, clock)
        there = SignInLimits(other.engine, Addresses(100), policy, clock)
        for limits in (here, there, here):
            assert limits.name_wait("eva") == 0
            limits.failed("10.0.0.1", "eva")
        assert here.name_wait("eva") == there.name_wait("eva") == 1, "three failures, wherever they were made"
        clock.advance(1)
        there.failed("10.0.0.2", "eva")
        assert here.name_wait("eva") == 2
        clock.advance(2)
        here.failed("10.0.0.3", "eva")
        clock.advance(4)
        there.failed("10.0.0.4", "eva")  # the sixth: refused for what is left of the hour
        assert here.name_wait("eva") == 3600 - 7
        assert here.name_wait("petr") == 0
        clock.advance(3600 - 7)
        assert there.name_wait("eva") == 0, "the window has passed"
    finally:
        other.close()


def test_a_success_forgets_the_names_failures_but_not_the_addresss(store: Store) -> None:
    clock = Clock()
    limits = SignInLimits(store.engine, Addresses(3), Backoff(free=2, refuse=10), clock)
    for _ in range(3):
        assert limits.address_wait("10.0.0.1") == 0
        limits.failed("10.0.0.1", "eva")
    assert limits.address_wait("10.0.0.1") == 46, "the address tried too often (whole seconds, rounded up)"
    assert limits.name_wait("eva") > 0, "the name was tried too often"
    limits.succeeded("eva")
    assert limits.name_wait("eva") == 0
    assert limits.address_wait("10.0.0.1") > 0
    assert limits.address_wait("10.0.0.2") == 0
