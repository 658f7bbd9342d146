"""Times as the store keeps and gives them back: always in UTC (SQLite returns them
without a zone)."""

from __future__ import annotations

import datetime as dt


def utc(moment: dt.datetime) -> dt.datetime:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def utc_now() -> dt.datetime:
    """The time now, in UTC, as the store keeps it."""
    return dt.datetime.now(dt.UTC)
