"""Abluxxen search bots: flat Monte Carlo over determinizations of what the seat cannot see.

A bot receives only its seat's determinized state. For every decision it deals the unseen
cards anew many times (`determinize` keeps everything public: the seat's own hand, the
cards publicly known in other hands, layers, display, discard pile, shadow offer and hand
sizes), tries each candidate option in every deal, and plays the rest out with a fast
greedy policy for every seat. Each deal is shared by all candidates (common random
numbers), so the comparison between options is much sharper than the noise of one deal.

A rollout that reaches the end scores the seat's share of the win; one cut off after
`horizon` turns scores a logistic guess from the score margin and the cards in hand, so
the value of every option is an estimated win probability.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from hraj.bots.base import Bot
from hraj.core.game import Seat, State
from hraj.games.abluxxen.greedy import EXPOSURE_WEIGHT, JOKER_KEEP, SPLIT_PENALTY, GreedyBot
from hraj.games.abluxxen.rules import (
    DRAW_CARD,
    OVER,
    PLAY,
    REFILL,
    SHADOW_FILL,
    AbluxxenState,
    Move,
    set_value,
)

#: Phases a rollout resolves by drawing a card from the pile.
_CARD_PHASES = frozenset({DRAW_CARD, REFILL, SHADOW_FILL})
#: Score margin (laid out minus hand, against the best opponent) worth one logit of winning.
MARGIN_SCALE = 4.0


@dataclass(frozen=True)
class OptionValue:
    """An option with its estimated chance of winning (a shared win counts as a share)."""

    action: Move
    win: float
    samples: int


class FastGreedy(GreedyBot):
    """Greedy without the exposure estimate for the plays it makes itself: the rollout policy.

    The risk estimate costs most of greedy's time; in rollouts it is kept only for the
    decision of whether to cover an exposed layer, weighed by a flat rate.
    """

    name = "fast-greedy"

    def play_worth(self, state: AbluxxenState, seat: int, move: Move) -> float:
        cards = move.cards
        size = len(cards)
        hand = state.hands[seat]
        if size == state.hand_size(seat):
            return 1000.0 if self._wins_by_ending(state, seat, size) else -1000.0 + size
        worth = 2.0 * size
        for offset in range(1, state.players):
            layers = state.layers[(seat + offset) % state.players]
            if layers and len(layers[-1]) == size and state.beats(cards, layers[-1]):
                worth += 2.0 * size
        # a high set is harder to capture; a low one is likely to be taken
        worth -= EXPOSURE_WEIGHT * size * (1.0 - set_value(cards) / 14)
        worth -= JOKER_KEEP * move.jokers
        if move.numbers and move.numbers < hand[move.value]:
            worth -= SPLIT_PENALTY * (hand[move.value] - move.numbers)
        return worth


def rollout(state: AbluxxenState, policy: GreedyBot, rng: random.Random, turns: int) -> AbluxxenState:
    """Play `state` on with `policy` for every seat until the end or `turns` turn starts."""
    started = 0
    while True:
        phase = state.phase
        if phase == OVER:
            return state
        if phase in _CARD_PHASES:
            state.apply_chance(state.sample_chance(rng), check=False)
            continue
        if phase == PLAY:
            started += 1
            if started > turns:
                return state
        seat = state.to_act[0]
        state.apply(seat, policy.choose(state, seat), check=False)


def win_share(state: AbluxxenState, seat: int) -> float:
    """The seat's share of the win when the game is over, else a guess from the score margin."""
    outcome = state.outcome
    if outcome is not None:
        return 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    mine = state.score(seat)
    best = max(state.score(other) for other in range(state.players) if other != seat)
    return 1 / (1 + math.exp(-(mine - best) / MARGIN_SCALE))


class SearchBot(Bot):
    """Tries each option in many deals of the unseen cards, plays on greedily, keeps the best.

    `deals` bounds the number of determinizations per decision and `seconds` the time;
    `horizon` is the number of turns a rollout plays before it is judged by the margin;
    `width` keeps only the best plays by greedy's judgement as candidates. The estimates
    start from a prior worth `prior_deals` deals: every option as good as the average,
    greedy's own choice `greedy_edge` better, so the search leaves greedy's choice only
    when the deals show a clear gain.
    """

    name = "strategist"
    help = "the strongest: tries each option in many deals of the unseen cards, looking eight turns ahead"
    deals = 24
    seconds = 0.8
    horizon = 8
    width = 6
    prior_deals = 8.0
    greedy_edge = 0.05

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.policy: GreedyBot = GreedyBot(seed)
        self.judge = GreedyBot(seed)

    def choose(self, state: State[Any, Any], seat: Seat) -> Move:
        values = self.values(state, seat)
        return max(values, key=lambda option: option.win).action

    def candidates(self, state: AbluxxenState, seat: int) -> list[Move]:
        """The options worth searching, greedy's choice first: all, except plays beyond the `width` best."""
        legal = state.legal_actions(seat)
        if state.phase == PLAY:
            return self.judge.rank_plays(state, seat, legal)[: self.width]
        first = self.judge.choose(state, seat)
        return [first, *(move for move in legal if move != first)]

    def values(self, state: State[Any, Any], seat: Seat) -> list[OptionValue]:
        """Every searched option with its estimated chance of winning, best first."""
        if not isinstance(state, AbluxxenState):
            raise TypeError("an Abluxxen bot plays Abluxxen positions only")
        options = self.candidates(state, seat)
        totals = [0.0] * len(options)
        deadline = time.perf_counter() + self.seconds
        deals = 0
        while deals < self.deals and (deals < 2 or time.perf_counter() < deadline):
            deal = state.determinize(seat, self.rng)
            seed = self.rng.getrandbits(32)
            for index, option in enumerate(options):
                trial = deal.copy()
                trial.apply(seat, option, check=False)
                rollout(trial, self.policy, random.Random(seed), self.horizon)
                totals[index] += win_share(trial, seat)
            deals += 1
        average = sum(totals) / (deals * len(options))
        values = []
        for index, option in enumerate(options):
            prior = min(1.0, average + (self.greedy_edge if index == 0 else 0.0))
            win = (totals[index] + self.prior_deals * prior) / (deals + self.prior_deals)
            values.append(OptionValue(option, win, deals))
        return sorted(values, key=lambda option: option.win, reverse=True)


class QuickSearchBot(SearchBot):
    """The middle level: the same search with fewer deals and a shorter look ahead."""

    name = "planner"
    help = "tries each option in a few deals of the unseen cards, looking four turns ahead"
    deals = 8
    seconds = 0.4
    horizon = 4
    width = 4
