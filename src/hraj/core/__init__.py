"""The game contract shared by every game, bot and client of hraj."""

from hraj.core.driver import play_game, random_playout, resolve_chance
from hraj.core.errors import HrajError, IllegalAction, InvalidAction, InvalidOption, InvalidRecord
from hraj.core.game import Game, Option, Outcome, Seat, State, winners_by_score
from hraj.core.registry import GAMES, game, game_class, register, unregister

__all__ = [
    "GAMES",
    "Game",
    "HrajError",
    "IllegalAction",
    "InvalidAction",
    "InvalidOption",
    "InvalidRecord",
    "Option",
    "Outcome",
    "Seat",
    "State",
    "game",
    "game_class",
    "play_game",
    "random_playout",
    "register",
    "resolve_chance",
    "unregister",
    "winners_by_score",
]
