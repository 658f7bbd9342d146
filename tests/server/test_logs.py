"""Repeated failures are logged once with their traceback, then counted (a full disk wrote 7.6 MB in 18 s)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from hraj.server import logs
from hraj.server.logs import HideSecrets, Throttled


def test_a_failure_that_repeats_is_logged_once_then_counted(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [100.0]
    monkeypatch.setattr(logs, "time", SimpleNamespace(monotonic=lambda: now[0]))
    throttled = Throttled(logging.getLogger("hraj.test"), "store", interval=10)
    with caplog.at_level(logging.ERROR, logger="hraj.test"):
        for _ in range(1000):
            throttled.report("cannot commit", OSError(28, "No space left on device"))
            now[0] += 0.001
        assert len(caplog.records) == 1 and caplog.records[0].exc_info is not None
        now[0] += 10
        throttled.report("cannot commit", OSError(28, "No space left on device"))
    assert len(caplog.records) == 2
    assert "999 more failures" in caplog.records[1].getMessage()
    assert caplog.records[1].exc_info is None


def test_the_access_log_never_shows_an_invite() -> None:
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/r/Qb7rT2xk9LmA?lang=cs&invite=npYUXB29IU0t8OBS&x=1", "1.1", 200),
        None,
    )
    assert HideSecrets().filter(record)
    assert record.getMessage() == '127.0.0.1:5000 - "GET /r/Qb7rT2xk9LmA?lang=cs&invite=***&x=1 HTTP/1.1" 200'
