"""Logs that stay readable when something keeps failing.

A full disk or a database that is down makes every commit fail, many times a second;
writing each traceback filled megabytes in seconds and buried the first, useful one.
`Throttled` writes the first failure with its traceback, then at most one line per
interval saying how many more there were.
"""

from __future__ import annotations

import json
import logging
import re
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


class JsonFormatter(logging.Formatter):
    """One JSON object per line (time, level, logger, message, traceback): what log
    collectors read without guessing (`HRAJ_LOG_FORMAT=json`)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


#: A query parameter whose value is a secret (an invite link's key): never written to a log.
SECRET_PARAMETER = re.compile(r"(?<=[?&])(invite=)[^&\s\"]*")


class HideSecrets(logging.Filter):
    """Blanks the invite in the paths of uvicorn's access log (`/r/ROOM?invite=…`):
    whoever reads the log could otherwise take every free seat of every room."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                SECRET_PARAMETER.sub(r"\1***", arg) if isinstance(arg, str) else arg for arg in record.args
            )
        elif isinstance(record.msg, str):
            record.msg = SECRET_PARAMETER.sub(r"\1***", record.msg)
        return True


def configure(log_format: str, access_log: bool) -> None:
    """Logging of a serving process: hraj's and uvicorn's loggers, as text or JSON lines."""
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    logging.getLogger("hraj").setLevel(logging.INFO)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    access = logging.getLogger("uvicorn.access")
    access.setLevel(logging.INFO if access_log else logging.WARNING)
    if not any(isinstance(f, HideSecrets) for f in access.filters):
        access.addFilter(HideSecrets())
