"""hraj's games as OpenSpiel Python games: `pyspiel.load_game("hraj_qwixx(players=2)")`.

Importing this module registers one game per hraj game, `hraj_<id>`, whose parameters
are the game's options (an option that is unset by default is the empty string) and
`reward` (`win`: each winner's share of one win, constant-sum; `score`: the final
scores, general-sum).

How the contract maps onto OpenSpiel:

- Sequential dynamics. A simultaneous decision (every seat answering one roll) is
  asked seat after seat in seat order; an answer stays hidden from the seats asked
  after it, so those games are imperfect-information games.
- Explicit stochastic chance. A roll of several dice is one chance step per die (a
  roll of six dice is six steps of six outcomes, not one of 46 656), so chance nodes stay
  small; a card or a roll of two dice read as one is one step.
- Observations are a seat's float32 vector of docs/rl.md, made from its view alone;
  there is no information-state tensor (algorithms that need perfect recall, like
  CFR, can build one from the observation history).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeAlias

import numpy as np
import pyspiel

import hraj
from hraj.core.errors import InvalidOption
from hraj.core.game import Game, State
from hraj.core.registry import game_class
from hraj.rl.codec import Codec, codec, legal_ids
from hraj.rl.rewards import Reward, check_reward, final_rewards

PREFIX = "hraj_"
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
MAX_PLAYERS = 8


def short_name(game_id: str) -> str:
    return PREFIX + game_id


#: The value of an OpenSpiel parameter that leaves its option unset (OpenSpiel has no None).
UNSET_NUMBER = -1
UNSET_TEXT = ""

#: The value of an OpenSpiel game parameter, as hraj declares them (OpenSpiel's are typed
#: and never None).
Parameter: TypeAlias = int | bool | str


def _parameters(game_id: str) -> dict[str, Parameter]:
    """OpenSpiel parameters with their defaults: the game's options and `reward`.

    An option that is unset by default (`first`) becomes -1 if it takes a number and
    the empty string otherwise, since OpenSpiel parameters are typed and never None."""
    params: dict[str, Parameter] = {"reward": "win"}
    for name, option in game_class(game_id).options_spec.items():
        if option.local_only:
            continue  # a path on the machine is no parameter of a game
        if option.default is not None:
            params[name] = option.default
            continue
        try:
            takes_number = isinstance(option.check(0), int)
        except ValueError:
            takes_number = False
        params[name] = UNSET_NUMBER if takes_number else UNSET_TEXT
    return params


def _seat_counts(game_id: str) -> tuple[int, int]:
    """The fewest and most seats the game allows, found by asking it."""
    cls = game_class(game_id)
    if "players" not in cls.options_spec:
        players = cls().players
        return players, players
    allowed = []
    for players in range(1, MAX_PLAYERS + 1):
        try:
            cls(players=players)
        except InvalidOption:
            continue
        allowed.append(players)
    return min(allowed), max(allowed)


def _game_type(game_id: str, codec: Codec[Any, Any] | None, reward: str) -> pyspiel.GameType:
    lowest, highest = _seat_counts(game_id)
    perfect = codec is not None and codec.perfect_information
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"hraj {game_class(game_id).name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION
        if perfect
        else pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM if reward == "win" else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=highest,
        min_num_players=lowest,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game_id),
    )


class HrajSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One hraj game with fixed options, as OpenSpiel sees it."""

    def __init__(self, game_id: str, params: Mapping[str, object] | None = None) -> None:
        given = dict(params or {})
        reward = check_reward(str(given.pop("reward", "win")))
        defaults = _parameters(game_id)
        options = {
            name: value
            for name, value in given.items()
            if not (value == defaults.get(name) and value in (UNSET_NUMBER, UNSET_TEXT))
        }
        self.hraj_game: Game[Any, Any] = hraj.game(game_id, **options)
        self.codec = codec(self.hraj_game)
        self.reward_kind = reward
        low, high = (0.0, 1.0) if reward == "win" else self.codec.score_range()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_actions,
            max_chance_outcomes=self.codec.num_chance_ids,
            num_players=self.hraj_game.players,
            min_utility=low,
            max_utility=high,
            utility_sum=1.0 if reward == "win" else None,
            max_game_length=self.codec.max_game_length(),
        )
        super().__init__(_game_type(game_id, self.codec, reward), info, params or {})

    def new_initial_state(self) -> HrajSpielState:
        return HrajSpielState(self, self.hraj_game.new_state())

    def make_py_observer(self, iig_obs_type: object = None, params: object = None) -> HrajObserver:
        """The one observer there is, whatever OpenSpiel asks for: a seat's observation."""
        return HrajObserver(self.codec)


class _Position:
    """Everything a state holds, in one object: OpenSpiel clones a Python state by
    deep-copying each attribute, and this copies the position cheaply and shares the rest."""

    __slots__ = ("codec", "drawn", "legal", "player", "reward_kind", "state")

    def __init__(self, state: State[Any, Any], codec: Codec[Any, Any], reward_kind: Reward, drawn: list[int]) -> None:
        self.state = state
        self.codec = codec
        self.reward_kind = reward_kind
        #: The chance ids drawn so far of a roll in progress (one per die).
        self.drawn = drawn
        self.legal: dict[int, object] | None = None
        #: Who acts now as OpenSpiel numbers it, once asked (pyspiel asks several times a node).
        self.player: int | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> _Position:
        return _Position(self.state.copy(), self.codec, self.reward_kind, self.drawn[:])


class HrajSpielState(pyspiel.State):  # type: ignore[misc]
    """A position: the hraj state plus the dice drawn so far of a roll in progress."""

    def __init__(self, game: HrajSpielGame, state: State[Any, Any]) -> None:
        super().__init__(game)
        self.position = _Position(state, game.codec, game.reward_kind, [])

    @property
    def hraj_state(self) -> State[Any, Any]:
        return self.position.state

    @property
    def codec(self) -> Codec[Any, Any]:
        return self.position.codec

    def current_player(self) -> int:
        position = self.position
        player = position.player
        if player is None:
            state = position.state
            if state.is_over:
                player = _TERMINAL
            elif state.is_chance:
                player = _CHANCE
            else:
                player = int(state.to_act[0])
            position.player = player
        return player

    def _legal_ids(self) -> dict[int, object]:
        position = self.position
        if position.legal is None:
            state = position.state
            position.legal = legal_ids(position.codec, state, state.to_act[0])
        return position.legal

    def _legal_actions(self, player: int) -> list[int]:
        if player < 0 or player != self.current_player():
            return []
        return sorted(self._legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.codec.chance_step_outcomes(self.hraj_state, self.position.drawn)

    def _apply_action(self, action: int) -> None:
        position = self.position
        state = position.state
        drawn = position.drawn
        position.player = None
        if state.is_chance:
            drawn.append(int(action))
            if len(drawn) == self.codec.chance_steps(state):
                outcome = self.codec.chance_outcome(state, drawn)
                drawn.clear()
                state.apply_chance(outcome)
            return
        chosen = self._legal_ids().get(int(action))
        if chosen is None:
            raise ValueError(f"action {action} is not legal now")
        self.position.legal = None
        state.apply(state.to_act[0], chosen, check=False)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {action}"
        state = self.hraj_state
        if not state.is_over and not state.is_chance and player == state.to_act[0]:
            chosen = self._legal_ids().get(int(action))
            if chosen is not None:
                return str(chosen)
        return f"action {action}"

    def is_terminal(self) -> bool:
        return bool(self.hraj_state.is_over)

    def returns(self) -> list[float]:
        outcome = self.hraj_state.outcome
        if outcome is None:
            return [0.0] * self.hraj_state.game.players
        return final_rewards(outcome, self.position.reward_kind)

    def __str__(self) -> str:
        """The ids played so far (chance and decisions): short, and one per history.
        A seat's view as text is `observation_string(seat)`."""
        return " ".join(map(str, self.history()))


class HrajObserver:
    """OpenSpiel's observer: a seat's observation vector and its view as text."""

    def __init__(self, codec: Codec[Any, Any]) -> None:
        self.codec = codec
        self.tensor = np.zeros(codec.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HrajSpielState, player: int) -> None:
        self.codec.observe(state.hraj_state.view(player), self.tensor)

    def string_from(self, state: HrajSpielState, player: int) -> str:
        view = dict(state.hraj_state.view(player))
        view.pop("legal", None)
        return json.dumps(view, sort_keys=True, ensure_ascii=False)


def _game_class(game_id: str) -> type[HrajSpielGame]:
    """A subclass per game: OpenSpiel keeps the class it is given as the game's factory."""

    def make(self: HrajSpielGame, params: Mapping[str, object] | None = None) -> None:
        HrajSpielGame.__init__(self, game_id, params)

    return type(f"HrajSpiel_{game_id}", (HrajSpielGame,), {"__init__": make})


def register_games() -> list[str]:
    """Register `hraj_<id>` for every hraj game with a codec (again is harmless)."""
    names = []
    registered = set(pyspiel.registered_names())
    for game_id in hraj.GAMES:
        name = short_name(game_id)
        if name not in registered:
            default = codec(hraj.game(game_id))
            pyspiel.register_game(_game_type(game_id, default, "win"), _game_class(game_id))
        names.append(name)
    return names


register_games()
