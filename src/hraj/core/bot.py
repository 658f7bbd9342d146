"""The bot interface: a bot sees its seat's determinized state and returns an action.

Bots never receive the real state: the driver hands them `state.determinize(seat)`,
which for games with hidden information is only one guess consistent with what the
seat has seen. Each game may add its own bots: a `BOTS` dict in the `bots` module of
its own folder.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from hraj.core.errors import InvalidOption
from hraj.core.game import Seat, State
from hraj.core.registry import game_part


class Bot(ABC):
    """A player that chooses among the legal actions of its seat."""

    name: str = "bot"
    help: str = ""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, state: State[Any, Any], seat: Seat) -> object:
        """One of `state.legal_actions(seat)`: an action of the game, which callers hand
        back to the state (a game's own bots may return its action type)."""

    def __call__(self, state: State[Any, Any], seat: Seat) -> object:
        return self.choose(state, seat)

    def unhurried(self) -> Bot:
        """This bot with each decision bounded by its budget of work alone, never by the
        clock, so that what it plays depends on its seed and not on how busy the machine
        is (the arena, a seeded environment). A bot that reads no clock is unchanged."""
        return self


class RandomBot(Bot):
    """Picks uniformly among the legal actions: the floor every other bot must beat.

    It leaves out the optional decisions a game keeps out of random playouts
    (`State.playout_actions`: doubling the stake, resigning), which
    would end most of its games at once; `every_action=True` asks for those too."""

    name = "random"
    help = "plays a uniformly random legal move"

    def __init__(self, seed: int | None = None, every_action: bool = False) -> None:
        super().__init__(seed)
        self.every_action = every_action

    def choose(self, state: State[Any, Any], seat: Seat) -> object:
        actions = state.legal_actions(seat) if self.every_action else state.playout_actions(seat)
        return self.rng.choice(actions)


GENERIC_BOTS: dict[str, type[Bot]] = {"random": RandomBot}


def _game_bots(game_id: str) -> dict[str, type[Bot]]:
    """The `BOTS` of the game's own `bots` module, found through the registry."""
    module = game_part(game_id, "bots")
    found: object = getattr(module, "BOTS", {}) if module is not None else {}
    if not isinstance(found, dict):
        raise TypeError(f"BOTS of {game_id}'s bots is no dict")
    bots: dict[str, type[Bot]] = {}
    for name, cls in found.items():
        if not (isinstance(name, str) and isinstance(cls, type) and issubclass(cls, Bot)):
            raise TypeError(f"BOTS of {game_id}'s bots names no Bot subclass as {name!r}")
        bots[name] = cls
    return bots


def bot_names(game_id: str) -> list[str]:
    """Names of every bot that can play `game_id`."""
    return [*GENERIC_BOTS, *_game_bots(game_id)]


def make_bot(game_id: str, name: str, seed: int | None = None) -> Bot:
    """A bot by name for a game; raises InvalidOption naming the known bots."""
    bots = {**GENERIC_BOTS, **_game_bots(game_id)}
    key = name.strip().lower()
    if key not in bots:
        raise InvalidOption(
            "There is no bot {name} for {game}; choose one of: {known}.",
            name=name,
            game=game_id,
            known=", ".join(bots),
        )
    return bots[key](seed)


def _bots_attribute(game_id: str, name: str) -> object:
    module = game_part(game_id, "bots")
    return getattr(module, name, None) if module is not None else None


def bot_levels(game_id: str) -> dict[str, tuple[str, str]]:
    """Bot name -> (level, what it does), easiest first, in English (the catalogs' keys):
    the game's `LEVELS`; empty where the game names none."""
    levels = _bots_attribute(game_id, "LEVELS")
    return dict(levels) if isinstance(levels, dict) else {}


def default_bot(game_id: str) -> str:
    """The bot a new seat gets in the web and the terminal: the game's `DEFAULT_BOT`
    (its middle level), else `greedy`, else its first own bot, never the random one."""
    names = bot_names(game_id)
    chosen = _bots_attribute(game_id, "DEFAULT_BOT")
    if isinstance(chosen, str) and chosen in names:
        return chosen
    own = [name for name in names if name not in GENERIC_BOTS]
    if "greedy" in own:
        return "greedy"
    return own[0] if own else names[0]


def strongest_bot(game_id: str) -> str:
    """The bot that gives hints: the game's hardest level, else its first own bot."""
    levels = bot_levels(game_id)
    if levels:
        return list(levels)[-1]
    own = [name for name in bot_names(game_id) if name not in GENERIC_BOTS]
    return own[0] if own else bot_names(game_id)[0]
