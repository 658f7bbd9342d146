"""Logs that stay readable when something keeps failing.

A full disk or a database that is down makes every commit fail, many times a second;
writing each traceback filled megabytes in seconds and buried the first, useful one.
`Throttled` writes the first failure with its traceback, then at most one line per
interval saying how many more there were.
"""

from __future__ import annotations

import logging
import time

#: Seconds between two log lines of one throttled source.
INTERVAL_S = 10.0


class Throttled:
    """Failures of one source: the first with its traceback, then a count per interval."""

    def __init__(self, log: logging.Logger, source: str, interval: float = INTERVAL_S) -> None:
        self.log = log
        self.source = source
        self.interval = interval
        self.suppressed = 0
        self.last = -float("inf")
        self.logged = 0

    def report(self, what: str, error: BaseException) -> None:
        now = time.monotonic()
        if now - self.last < self.interval:
            self.suppressed += 1
            return
        if self.suppressed:
            self.log.error(
                "%s: %s: %s (and %d more failures in the last %.0f s)",
                self.source,
                what,
                error,
                self.suppressed,
                now - self.last,
            )
        else:
            self.log.error("%s: %s", self.source, what, exc_info=error)
        self.logged += 1
        self.suppressed = 0
        self.last = now
