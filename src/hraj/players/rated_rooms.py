"""Who may sit in a rated room: people signed in, and bots whose rating is calibrated."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import hraj
from hraj.core import game_class
from hraj.core.errors import HrajError
from hraj.players.anchors import bot_rating
from hraj.players.errors import AccountError
from hraj.players.identity import Person


class NotRated(AccountError):
    code = "forbidden"


def check_rated_room(
    game_id: str,
    options: Mapping[str, object],
    bots: Sequence[str | None],
    creator: Person | None,
    claim: int | None,
) -> None:
    """Raise NotRated unless a room of these seats (`bots`: each seat's bot, None for a
    person's) may be rated: its game is rated in these options, its creator is signed
    in and takes a seat, and every bot has a calibrated rating. (A game whose options
    are wrong is left to the room's own check.)"""
    check_rated_table(game_id, options, bots)
    if creator is None or not creator.signed_in:
        raise NotRated("Sign in to start a rated game.")
    if claim is None or claim >= len(bots) or bots[claim] is not None:
        raise NotRated("In a rated game you take a seat yourself.")


def check_rated_table(game_id: str, options: Mapping[str, object], bots: Sequence[str | None]) -> None:
    """Raise NotRated unless a game of these options and seats is rated at all: not a game
    alone or a money game, and no bot without a calibrated rating on the game's scale."""
    try:
        spec = game_class(game_id).options_spec
        game = hraj.game(game_id, **{**({"players": len(bots)} if "players" in spec else {}), **options})
    except HrajError:
        return
    how = game.rated_as()
    if how is None:
        raise NotRated("This game is not rated with these options (a game alone or a money game).")
    for bot in bots:
        if bot is None:
            continue
        anchor = bot_rating(game_id, bot.strip().lower())
        if anchor is None or (anchor.system == "fibs") != (how.kind == "match"):
            raise NotRated("The bot {bot} has no rating yet, so it cannot sit in a rated game.", bot=bot)


def check_rated_seat(person: Person | None, sits_already: bool) -> None:
    """A seat of a rated room goes only to a signed-in person who has none there yet."""
    if person is None or not person.signed_in:
        raise NotRated("This game is rated: sign in to take a seat.")
    if sits_already:
        raise NotRated("You already have a seat in this rated game.")
