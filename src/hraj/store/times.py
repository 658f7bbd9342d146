"""Times as the store gives them back: always in UTC (SQLite returns them without a zone)."""

from __future__ import annotations

import datetime as dt


def utc(moment: dt.datetime) -> dt.datetime:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)
