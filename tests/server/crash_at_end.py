"""`python -m tests.server.crash_at_end serve ...`: the server, killed by SIGKILL at the
end of its first game, as a power cut would: `HRAJ_CRASH=inside` inside the transaction
that stores the end (after the ratings are written, before the commit), `after` right
after that commit (before anyone hears of it)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterable

import sqlalchemy as sa

from hraj.app.__main__ import app
from hraj.players import results
from hraj.store import AppendBatch, Store
from hraj.store.db import OVER

MODE = os.environ.get("HRAJ_CRASH", "inside")


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def crash_inside(_connection: sa.Connection, _batch: AppendBatch) -> None:
    die()


def install(store: Store) -> None:
    results_install(store)
    if MODE == "inside":
        store.end_hooks.append(crash_inside)
        return
    append = store.append

    def append_then_crash(batches: Iterable[AppendBatch], owner: str | None = None) -> None:
        batches = list(batches)
        append(batches, owner)
        if any(batch.status == OVER for batch in batches):
            die()

    store.append = append_then_crash  # type: ignore[method-assign]


results_install = results.install
results.install = install  # the server installs the rating of ends through this
import hraj.server.app  # noqa: E402  (after the patch: it imports `install` by name)

hraj.server.app.install = install  # type: ignore[attr-defined]

if __name__ == "__main__":
    app()
