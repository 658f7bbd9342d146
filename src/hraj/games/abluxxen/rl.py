"""Abluxxen for learning agents: 654 action ids, and an observation of one seat's view.

Action ids: 0 `take`, 1 `leave`, 2 `back`, 3 `discard`, 4 `pass`, 5 `draw deck`,
6-11 `draw slot 1-6`, 12-24 `shadow 1-13`, 25-29 a set of one to five jokers alone,
and `30 + 6 * (8 * (value - 1) + count - 1) + jokers` a set of `count` cards of `value`
with `jokers` jokers. Chance ids: the card turned (`1`-`13` -> 0-12, `J` -> 13), or the
seat of `first N`. The observation layout is documented in docs/rl.md; it holds the
seat's own hand and what is publicly known of the others, never their hidden cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from hraj.core.codec import ActionTableCodec, Writer, seen_from
from hraj.core.start import First
from hraj.games.abluxxen.rules import (
    COPIES,
    DISPLAY_SLOTS,
    FIRST_SEAT,
    HAND_SIZE,
    JOKER,
    JOKERS,
    PHASE_NAMES,
    AbluxxenState,
    Card,
    Move,
    full_deck,
)
from hraj.games.abluxxen.view import AbluxxenView

_WORDS = {"take": 0, "leave": 1, "back": 2, "discard": 3, "pass": 4}
_DRAW = 5
_SHADOW = _DRAW + 1 + DISPLAY_SLOTS - 1  # shadow v -> _SHADOW + v, v = 1..13
_JOKERS_ALONE = _SHADOW + 13 + 1  # j jokers -> _JOKERS_ALONE + j - 1
_SETS = _JOKERS_ALONE + JOKERS
NUM_ACTIONS = _SETS + 13 * COPIES * (JOKERS + 1)
DECK = sum(full_deck())
_SEAT = 1 + JOKER + JOKER + 1 + 1 + 1 + 1


def move_id(action: Move) -> int:
    kind = action.kind
    if kind == "play":
        if action.value == 0:
            return _JOKERS_ALONE + action.jokers - 1
        return _SETS + (JOKERS + 1) * (COPIES * (action.value - 1) + action.numbers - 1) + action.jokers
    if kind == "draw":
        return _DRAW + action.value
    if kind == "shadow":
        return _SHADOW + action.value
    return _WORDS[kind]


def _every_move() -> list[Move]:
    """Every action of the game, whatever the hand or the table."""
    moves = [Move(word) for word in _WORDS]
    moves += [Move("draw", slot) for slot in range(DISPLAY_SLOTS + 1)]
    moves += [Move("shadow", value) for value in range(1, 14)]
    moves += [Move("play", 0, 0, jokers) for jokers in range(1, JOKERS + 1)]
    moves += [
        Move("play", value, count, jokers)
        for value in range(1, 14)
        for count in range(1, COPIES + 1)
        for jokers in range(JOKERS + 1)
    ]
    return moves


#: The id of every action, worked out once.
MOVE_IDS: dict[Move, int] = {move: move_id(move) for move in _every_move()}
#: A card counts this much in its cell: the counts of 1-13 and J are divided by the copies in the deck.
_PER_COPY = 1 / COPIES
_PHASE_IDS = {name: number for number, name in enumerate(PHASE_NAMES)}


def _shadow_cells(shadow: list[list[int]]) -> list[float]:
    """The two-player shadow offer: per value 1-13, its group's size over the copies."""
    cells = [0.0] * 13
    for group in shadow:
        cells[group[0] - 1] = len(group) / COPIES
    return cells


class AbluxxenCodec(ActionTableCodec[AbluxxenView, AbluxxenState]):
    """Abluxxen for 2-5 seats, every variant; the observation grows with the seats."""

    ids = MOVE_IDS

    @property
    def observation_size(self) -> int:
        players = self.game.players
        tail = 1 + JOKER + 13 + 1 + (players + JOKER) + (players + 1)
        return len(PHASE_NAMES) + 2 * players + JOKER + _SEAT * players + DISPLAY_SLOTS * JOKER + tail

    def encode(self, view: AbluxxenView, put: Writer) -> None:
        players = self.game.players
        me = view["seat"]
        put.one_hot(_PHASE_IDS[view["phase"]], len(PHASE_NAMES))
        put.seat(view["active"], me, players)
        put.seats(view["to_act"], me, players)
        put.counts(view["hand"] or (), JOKER, _PER_COPY, 1)
        for seat in seen_from(view["seats"], me):
            put.value(seat["hand_size"] / DECK)
            put.counts(seat["known"], JOKER, _PER_COPY, 1)
            top = seat["top"]
            put.one_hot(min(top) - 1 if top else None, JOKER)
            put.values(
                (len(top) / HAND_SIZE, len(seat["layers"]) / DECK, seat["laid_out"] / DECK, seat["score"] / DECK)
            )
        for slot in view["display"]:
            put.counts(slot, JOKER, _PER_COPY, 1)
        put.value(view["pile"] / DECK)
        put.counts(view["discard"], JOKER, _PER_COPY, 1)
        shadow = view["shadow"]
        if shadow:
            put.values(_shadow_cells(shadow))
        else:
            put.skip(13)
        put.value(float(view["captured_this_turn"]))
        capture = view["capture"]
        put.seat(capture["victim"] if capture else None, me, players)
        put.counts(capture["cards"] if capture else (), JOKER, _PER_COPY, 1)
        draw = view["draw"]
        put.seat(draw["seat"] if draw else None, me, players)
        put.value(draw["owed"] / HAND_SIZE if draw else 0.0)

    # --- chance -----------------------------------------------------------------------------

    @property
    def num_chance_ids(self) -> int:
        return JOKER

    def chance_id(self, state: AbluxxenState, outcome: Card | First) -> int:
        if isinstance(outcome, First):
            return outcome.seat
        return outcome.value - 1

    def chance_step_outcomes(self, state: AbluxxenState, drawn: Sequence[int]) -> list[tuple[int, float]]:
        return [
            (outcome.seat if isinstance(outcome, First) else outcome.value - 1, p)
            for outcome, p in state.chance_outcomes()
        ]

    def chance_outcome(self, state: AbluxxenState, drawn: Sequence[int]) -> Card | First:
        """The seat or card of a chance id, read back without listing the outcomes (the
        state refuses one that is not possible now)."""
        (only,) = drawn
        return First(only) if state.phase == FIRST_SEAT else Card(only + 1)

    # --- bounds -----------------------------------------------------------------------------

    def max_game_length(self) -> int:
        return 20_000

    def score_range(self) -> tuple[float, float]:
        return (-float(DECK), float(DECK))


CODEC = AbluxxenCodec
