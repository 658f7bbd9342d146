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
from collections.abc import Collection, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from hraj.core.codec import Codec, Observation, Writer, relative
from hraj.core.game import Game, Seat, State
from hraj.core.registry import game_class

#: A legal-action mask: int8, 1 for each legal action id.
Mask = npt.NDArray[np.int8]

__all__ = [
    "Codec",
    "Mask",
    "Observation",
    "Writer",
    "codec",
    "codec_for",
    "legal_ids",
    "legal_mask",
    "mask_of",
    "observe",
    "relative",
    "view_mask",
]


def codec(game: Game[Any, Any]) -> Codec[Any, Any]:
    """The codec of `game`, found next to the game's rules through the registry."""
    # the game's own package, whether its class sits in a submodule (rules.py) or in __init__
    package = sys.modules[type(game).__module__].__package__ or type(game).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.rl")
    except ModuleNotFoundError:
        raise LookupError(f"the game {game.id} has no codec ({package}.rl) for learning agents yet") from None
    made: object = module.CODEC(game)
    if not isinstance(made, Codec):
        raise TypeError(f"CODEC of {package}.rl makes no Codec")
    return made


def codec_for(game_id: str, **options: object) -> Codec[Any, Any]:
    """The codec of a game by id and options (options validated as by `hraj.game`)."""
    return codec(game_class(game_id)(**options))


def legal_ids(codec: Codec[Any, Any], state: State[Any, Any], seat: Seat) -> dict[int, object]:
    """The legal actions of `seat` by their ids, in the order the game lists them (each
    an action of the game, for `State.apply`)."""
    actions = state.legal_actions(seat)
    by_id = dict(zip(codec.action_ids(state, seat, actions), actions, strict=True))
    if len(by_id) != len(actions):
        raise AssertionError(f"{state.game.id}: two legal actions share an action id")
    return by_id


def legal_mask(codec: Codec[Any, Any], state: State[Any, Any], seat: Seat) -> tuple[Mask, dict[int, object]]:
    """The legal-action mask of `seat` (1 = legal) and the action behind each legal id."""
    by_id = legal_ids(codec, state, seat)
    return mask_of(codec, by_id), by_id


def mask_of(codec: Codec[Any, Any], ids: Collection[int]) -> Mask:
    """A new mask with 1 at each of `ids`, set in one step."""
    mask = np.zeros(codec.num_actions, dtype=np.int8)
    mask[np.fromiter(ids, dtype=np.intp, count=len(ids))] = 1
    return mask


def view_mask(
    codec: Codec[Any, Any], view: Mapping[str, object], state: State[Any, Any], seat: Seat
) -> tuple[Mask, dict[int, object]]:
    """What `legal_mask` gives for the seat whose `view` this is, read from the legal
    actions the view lists where the codec can read them back (`actions_by_text`), so
    that an environment which has made an observation of the view need not ask the state
    for them a second time; from the state otherwise."""
    table = codec.actions_by_text()
    texts = view.get("legal")
    if table is None or not isinstance(texts, list):
        return legal_mask(codec, state, seat)
    try:
        by_id = dict([table[text] for text in texts])
    except KeyError:  # a notation the table lacks: the state knows
        return legal_mask(codec, state, seat)
    if len(by_id) != len(texts):
        raise AssertionError(f"{state.game.id}: two legal actions share an action id")
    return mask_of(codec, by_id), by_id


def observe(codec: Codec[Any, Any], state: State[Any, Any], seat: Seat, out: Observation | None = None) -> Observation:
    """The observation vector of `seat`, built from `state.view(seat)` only (written into
    `out` if given)."""
    return codec.observe(state.view(seat), out)
