"""Action ids and observation tensors: the fixed-size layer that learning code needs.

A game's contract speaks in actions and views of any shape; learning code wants a
fixed number of action ids and a fixed-length vector. Each game says how, in a small
codec of its own (`hraj.games.<id>.rl.CODEC`); this module finds it through the
registry and does the game-independent rest: the legal-action mask, turning an id back
into the legal action it stands for, and splitting big dice rolls into one chance
step per die for search libraries that list every chance outcome.

An observation is built from `state.view(seat)` alone, never from the state, so
nothing a seat may not see can reach an agent.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import numpy as np
import numpy.typing as npt

from hraj.core.codec import Codec, Writer, relative
from hraj.core.game import Game, Seat, State
from hraj.core.registry import game_class

#: An observation vector: float32, one cell per entry of the game's layout (docs/rl.md).
Observation = npt.NDArray[np.float32]
#: A legal-action mask: int8, 1 for each legal action id.
Mask = npt.NDArray[np.int8]

__all__ = ["Codec", "Mask", "Observation", "Writer", "codec", "codec_for", "legal_mask", "observe", "relative"]


def codec(game: Game[Any, Any]) -> Codec:
    """The codec of `game`, found next to the game's rules through the registry."""
    # the game's own package, whether its class sits in a submodule (rules.py) or in __init__
    package = sys.modules[type(game).__module__].__package__ or type(game).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.rl")
    except ModuleNotFoundError:
        raise LookupError(f"the game {game.id} has no codec ({package}.rl) for learning agents yet") from None
    made: Codec = module.CODEC(game)
    return made


def codec_for(game_id: str, **options: Any) -> Codec:
    """The codec of a game by id and options (options validated as by `hraj.game`)."""
    return codec(game_class(game_id)(**options))


def legal_mask(codec: Codec, state: State[Any, Any], seat: Seat) -> tuple[Mask, dict[int, Any]]:
    """The legal-action mask of `seat` (1 = legal) and the action behind each legal id."""
    mask = np.zeros(codec.num_actions, dtype=np.int8)
    actions = state.legal_actions(seat)
    ids = codec.action_ids(state, seat, actions)
    by_id = dict(zip(ids, actions, strict=True))
    if len(by_id) != len(actions):
        raise AssertionError(f"{state.game.id}: two legal actions share an action id")
    mask[ids] = 1
    return mask, by_id


def observe(codec: Codec, state: State[Any, Any], seat: Seat) -> Observation:
    """The observation vector of `seat`, built from `state.view(seat)` only."""
    cells = codec.observe(state.view(seat))
    if len(cells) != codec.observation_size:
        raise AssertionError(f"{state.game.id}: the observation has {len(cells)} cells, not {codec.observation_size}")
    return np.array(cells, dtype=np.float32)
