"""The seats of a room: a person's or a bot's, and the bot that stands in for a person
who is away."""

from __future__ import annotations

from dataclasses import dataclass

from hraj.core.bot import Bot, bot_names, default_bot
from hraj.server.messages import SeatJson

PERSON, BOT = "person", "bot"


@dataclass(slots=True)
class Seat:
    number: int
    kind: str
    bot: str | None
    """The bot of a bot seat, or the stand-in bot of a person seat left to a bot."""
    name: str | None
    token_hash: str | None
    gender: str | None = None
    """The grammatical gender the person gave with the name ("m", "f"), or None."""
    player: Bot | None = None
    stand_in: bool = False
    """The bot plays because the person was away when the seat had to act (not stored)."""
    person: str | None = None
    """The person who took the seat (an account's or a guest's id; never shown)."""
    deleted: bool = False
    """The seat's person deleted their account: a deleted player."""

    def public(self, connected: bool) -> SeatJson:
        return {
            "seat": self.number,
            "kind": self.kind,
            "name": self.name,
            "gender": self.gender,
            "bot": self.bot,
            "claimed": self.token_hash is not None,
            "connected": connected,
            "stand_in": self.stand_in,
            "deleted": self.deleted,
        }

    @property
    def played_by_person(self) -> bool:
        return self.kind == PERSON and self.bot is None


def stand_in_bot(game_id: str, wanted: str) -> str:
    """The bot that stands in for absent players: `wanted` if the operator named one the
    game has, else the game's default level, the one a new seat gets: an absent player's
    game goes on as a fair opponent would play it, never at random."""
    return wanted if wanted in bot_names(game_id) else default_bot(game_id)
