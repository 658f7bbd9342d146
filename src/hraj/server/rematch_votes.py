"""A rematch by consent: offered by one player, it starts when every person at the
table has accepted; one refusal ends the offer (no rematch starts).

The votes are the finished room's, kept in the store with it (`rooms.rematch_votes`), so
they outlive a restart; a bot's seat needs no vote, and a room of one person against
bots starts its rematch at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

import sqlalchemy as sa

from hraj.store.notices import events_notice, notify
from hraj.store.schema import rooms

#: What a vote leads to: everyone accepted, the others are still asked, or it was declined.
Verdict = Literal["all", "waiting", "declined"]


@dataclass(slots=True)
class RematchVotes:
    """The seats that accepted the rematch offered, and the seat that declined it."""

    yes: set[int] = field(default_factory=set)
    declined: int | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, object] | None) -> RematchVotes:
        if not data:
            return cls()
        yes = data.get("yes", [])
        declined = data.get("declined")
        return cls(
            {int(s) for s in yes} if isinstance(yes, list) else set(), declined if isinstance(declined, int) else None
        )

    def to_json(self) -> dict[str, object]:
        return {"yes": sorted(self.yes), "declined": self.declined}

    def vote(self, seat: int | None, accept: bool, people: Iterable[int]) -> Verdict:
        """`seat` accepts or declines (None: the host, who offers without a seat); the verdict.
        An offer after a refusal starts afresh."""
        wanted = set(people)
        if not accept:
            self.yes.clear()
            self.declined = seat
            return "declined"
        if self.declined is not None:
            self.declined = None
        if seat is not None:
            self.yes.add(seat)
        return "all" if wanted <= self.yes else "waiting"


def store_votes(engine: sa.Engine, room_id: str, votes: RematchVotes, version: int, owner: str | None = None) -> None:
    """Keep the votes with the finished room (at `version`); its `owner`, one of several
    processes, tells the others, whose players see them at once."""
    with engine.begin() as connection:
        connection.execute(rooms.update().where(rooms.c.id == room_id).values(rematch_votes=votes.to_json()))
        if owner is not None:
            notify(connection, [events_notice(room_id, version, [], owner, votes=votes.to_json())])
