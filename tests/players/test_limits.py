"""Sign-in limits: free attempts, then a slow-down that doubles, then refusal for the window."""

from __future__ import annotations

from hraj.players.limits import Backoff, SignInLimits


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_failures_first_cost_nothing_then_each_wait_doubles_then_all_is_refused() -> None:
    clock = Clock()
    limit = Backoff(free=3, refuse=6, window=3600, clock=clock)
    for _ in range(3):
        assert limit.wait("eva") == 0
        limit.failed("eva")
    assert limit.wait("eva") == 1  # the slow-down: 1 s after the third failure
    clock.now += 1
    assert limit.wait("eva") == 0
    limit.failed("eva")
    assert limit.wait("eva") == 2
    clock.now += 2
    limit.failed("eva")
    assert limit.wait("eva") == 4
    clock.now += 4
    limit.failed("eva")  # the sixth: refused for what is left of the hour
    assert limit.wait("eva") == 3600 - 7
    clock.now += 3000
    assert limit.wait("eva") > 0
    clock.now += 600
    assert limit.wait("eva") == 0, "the window has passed"


def test_a_success_forgets_the_accounts_failures_but_not_the_addresss() -> None:
    clock = Clock()
    limits = SignInLimits(Backoff(free=2, refuse=10, clock=clock), Backoff(free=2, refuse=10, clock=clock))
    for _ in range(3):
        limits.failed("10.0.0.1", "eva")
    assert limits.wait("10.0.0.1", "petr") > 0, "the address tried too often"
    assert limits.wait("10.0.0.2", "eva") > 0, "the name was tried too often"
    limits.succeeded("eva")
    assert limits.wait("10.0.0.2", "eva") == 0
    assert limits.wait("10.0.0.1", "petr") > 0


def test_too_many_keys_are_forgotten_at_once() -> None:
    limit = Backoff(free=0, refuse=1, most=10)
    for number in range(11):
        limit.failed(str(number))
    assert len(limit.counts) == 1
