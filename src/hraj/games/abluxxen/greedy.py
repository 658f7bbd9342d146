"""The greedy Abluxxen bot, the easiest level and the search bots' rollout policy.

It weighs each decision by a few plain heuristics:

- a play is worth two points per card moved from hand to table, plus two per card it
  captures from opponents;
- a new top layer is at risk when an opponent is likely to hold as many cards of a
  higher value (estimated from the cards the seat cannot see); covering an exposed
  layer protects it;
- jokers are kept for when they capture or complete a set, and sets are not broken
  up without need;
- captured cards are taken into hand unless the end is near (measured: taking always
  beats taking selectively, and leaving always loses badly); a victim takes its cards
  back when they are worth more than what it could draw;
- it ends the game by emptying its hand only when that wins.

The bot sees only its determinized state, so it never uses another seat's hidden cards
beyond what everyone knows of them.
"""

from __future__ import annotations

from typing import Any

from hraj.core.bot import Bot
from hraj.core.game import Seat, State
from hraj.games.abluxxen.rules import (
    CHOOSE,
    DRAW,
    JOKER,
    OPTIONAL,
    PLAY,
    SHADOW,
    VICTIM,
    AbluxxenState,
    Move,
    set_value,
)

#: The expected worth of an unknown card from the pile, on the scale of `usefulness`.
DECK_WORTH = 1.6
#: How much of a set's two-point swing an exposed layer is expected to lose.
EXPOSURE_WEIGHT = 0.35
JOKER_KEEP = 2.5  # a joker in hand beats any card: it fits every set and captures 13s
SPLIT_PENALTY = 0.5
#: A pile this small means the end is near: take no cards into hand.
LATE_GAME_PILE = 5


def usefulness(card: int, hand: list[int]) -> float:
    """How much a card is worth to a hand: jokers most, then cards that extend a set."""
    if card == JOKER:
        return 3.0
    return 1.0 + hand[card] + card / 13


class GreedyBot(Bot):
    """Captures when it pays, keeps pairs, avoids exposing big sets to easy captures."""

    name = "greedy"
    help = "captures when it pays, keeps sets together, avoids exposing big sets"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        #: The risks of one decision by (set size, value): every play of that size and value shares one.
        self._risks: dict[tuple[int, int], float] = {}
        self._holdings: list[tuple[list[float], list[float]]] | None = None

    def choose(self, state: State[Any, Any], seat: Seat) -> Move:
        assert isinstance(state, AbluxxenState)
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        hand = state.hands[seat]
        if state.phase == PLAY:
            return self.rank_plays(state, seat, legal)[0]
        if state.phase == SHADOW:
            return max(legal, key=lambda move: usefulness(move.value, hand))
        if state.phase == CHOOSE:
            return self._take_or_leave(state, seat)
        if state.phase == VICTIM:
            return self._back_or_discard(state, seat)
        if state.phase in (DRAW, OPTIONAL):
            draws = [move for move in legal if move.kind == "draw"]
            best = max(draws, key=lambda move: self._draw_worth(state, hand, move))
            if state.phase == OPTIONAL and (self._draw_worth(state, hand, best) < 2.2 or state.pile_size < 8):
                return next(move for move in legal if move.kind == "pass")
            return best
        return legal[0]

    # --- plays ------------------------------------------------------------------------

    def rank_plays(self, state: AbluxxenState, seat: int, plays: list[Move]) -> list[Move]:
        """The plays, best first by `play_worth` (ties keep their order)."""
        self._risks = {}
        self._holdings = None
        return sorted(plays, key=lambda move: self.play_worth(state, seat, move), reverse=True)

    def play_worth(self, state: AbluxxenState, seat: int, move: Move) -> float:
        cards = move.cards
        size = len(cards)
        hand = state.hands[seat]
        if size == sum(hand):
            return 1000.0 if self._wins_by_ending(state, seat, size) else -1000.0 + size
        worth = 2.0 * size
        value = set_value(cards)
        for offset in range(1, state.players):
            victim = (seat + offset) % state.players
            layers = state.layers[victim]
            if layers and len(layers[-1]) == size and state.beats(cards, layers[-1]):
                worth += 2.0 * size
        if state.two_player and any(
            state.shadow[group] == size and state.beats(cards, (group,) * size) for group in range(1, 13)
        ):
            worth += 0.5 * size
        worth -= EXPOSURE_WEIGHT * 2 * size * self._risk(state, seat, size, value)
        own = state.layers[seat]
        if own:
            top = own[-1]
            worth += EXPOSURE_WEIGHT * 2 * len(top) * self._risk(state, seat, len(top), set_value(top))
        worth -= JOKER_KEEP * move.jokers
        if move.numbers and move.numbers < hand[move.value]:
            worth -= SPLIT_PENALTY * (hand[move.value] - move.numbers)
        return worth

    def _risk(self, state: AbluxxenState, seat: int, size: int, value: int) -> float:
        """The chance that some opponent can capture a set of `size` cards of `value`."""
        risk = self._risks.get((size, value))
        if risk is None:
            risk = self._risks[(size, value)] = self._capture_chance(state, seat, size, value)
        return risk

    def _capture_chance(self, state: AbluxxenState, seat: int, size: int, value: int) -> float:
        if self._holdings is None:
            self._holdings = self._expected_holdings(state, seat)
        safe = 1.0
        for expected, above in self._holdings:
            if state.variant == "expert" and value >= 13:
                most = expected[1]  # only 1s capture 13s and jokers
            elif value < JOKER:
                most = above[value]
            else:
                most = 0.0
            safe *= 1 - min(1.0, most / size) ** 2
        return 1 - safe

    def _expected_holdings(self, state: AbluxxenState, seat: int) -> list[tuple[list[float], list[float]]]:
        """Per opponent: the expected count of each card that can capture with it (a number
        with the opponent's jokers added), and the most of any card above each value."""
        unseen = state.pile[:]
        for other in range(state.players):
            if other != seat:
                for card in range(1, JOKER + 1):
                    unseen[card] += state.hands[other][card] - state.known[other][card]
        total = sum(unseen) or 1
        holdings = []
        for other in range(state.players):
            if other == seat:
                continue
            share = (sum(state.hands[other]) - sum(state.known[other])) / total
            jokers = state.known[other][JOKER] + unseen[JOKER] * share
            expected = [0.0] * (JOKER + 1)
            for card in range(1, JOKER + 1):
                expected[card] = state.known[other][card] + unseen[card] * share
                if card != JOKER:
                    expected[card] += jokers
            above = [0.0] * (JOKER + 1)
            for card in range(JOKER - 1, 0, -1):
                above[card] = max(above[card + 1], expected[card + 1])
            holdings.append((expected, above))
        return holdings

    def _wins_by_ending(self, state: AbluxxenState, seat: int, size: int) -> bool:
        mine = state.laid_out(seat) + size
        return all(mine >= state.score(other) for other in range(state.players) if other != seat)

    # --- captures and draws -----------------------------------------------------------

    def _take_or_leave(self, state: AbluxxenState, seat: int) -> Move:
        # Captured cards are a known set to play next turn, and the victim must draw:
        # worth taking, except near the end, when every hand card costs a point.
        take = state.pile_size > LATE_GAME_PILE
        return next(move for move in state.legal_actions(seat) if move.kind == ("take" if take else "leave"))

    def _back_or_discard(self, state: AbluxxenState, seat: int) -> Move:
        hand = state.hands[seat]
        back = sum(usefulness(card, hand) for card in state.captured)
        # after discarding: the best of the display stacks and of unknown pile cards
        choices = [_stack_worth(slot, hand) for slot in state.display if slot]
        if state.pile_size:
            choices += [DECK_WORTH] * len(state.captured)
        discard = sum(sorted(choices, reverse=True)[: len(state.captured)])
        kind = "back" if back >= discard else "discard"
        return next(move for move in state.legal_actions(seat) if move.kind == kind)

    def _draw_worth(self, state: AbluxxenState, hand: list[int], move: Move) -> float:
        if move.value == 0:
            return DECK_WORTH
        return _stack_worth(state.display[move.value - 1], hand)


def _stack_worth(stack: list[int], hand: list[int]) -> float:
    return sum(usefulness(card, hand) for card in stack)
