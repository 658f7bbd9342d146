"""Running the `hraj` command in the test process, as a person would type it."""

from __future__ import annotations

import signal
from dataclasses import dataclass

import pytest

from hraj.cli import main


@dataclass
class Ran:
    code: int
    out: str
    err: str


def hraj(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str, lang: str = "en") -> Ran:
    """`hraj ARGS` with HRAJ_LANG=lang: its exit code, stdout and stderr."""
    monkeypatch.setenv("HRAJ_LANG", lang)
    monkeypatch.setenv("COLUMNS", "80")
    before = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as done:
            main(list(args))
    finally:
        signal.signal(signal.SIGINT, before)
    captured = capsys.readouterr()
    code = done.value.code
    return Ran(code if isinstance(code, int) else 0, captured.out, captured.err)
