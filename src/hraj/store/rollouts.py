"""Kept rollouts: a finished room's rollout of one move, stored once and read back.

A finished game never changes, so a rollout of its move with the same trials and seed
is the same forever: the review shows the stored one instead of playing it again.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlalchemy as sa

from hraj.store.db import Store
from hraj.store.schema import rollouts


def load_rollout(store: Store, room_id: str, move: int, trials: int, seed: int) -> dict[str, Any] | None:
    """The stored result of that rollout, or None."""
    query = sa.select(rollouts.c.result).where(
        rollouts.c.room_id == room_id, rollouts.c.move == move, rollouts.c.trials == trials, rollouts.c.seed == seed
    )
    with store.engine.connect() as connection:
        row = connection.execute(query).first()
    return None if row is None else dict(row[0])


def save_rollout(store: Store, room_id: str, move: int, trials: int, seed: int, result: dict[str, Any]) -> None:
    """Keep a rollout's result; a second save of the same one (two processes) changes nothing."""
    with store.engine.begin() as connection:
        found = connection.execute(
            sa.select(rollouts.c.move).where(
                rollouts.c.room_id == room_id,
                rollouts.c.move == move,
                rollouts.c.trials == trials,
                rollouts.c.seed == seed,
            )
        ).first()
        if found is None:
            connection.execute(
                rollouts.insert().values(
                    room_id=room_id,
                    move=move,
                    trials=trials,
                    seed=seed,
                    result=result,
                    created_at=dt.datetime.now(dt.UTC),
                )
            )
