"""Abluxxen (Kořist; Kramer & Kiesling, AMIGO 2022) as a state machine, after seed 004.

A turn: the active seat plays a set (cards of one value, jokers allowed). Then every
opponent, left neighbour first, whose top layer has as many cards and a lower value
is captured from: the capturer takes the cards into hand or leaves them; a victim
whose cards went to the capturer, or who discards them, draws as many, card by card
from the display or the pile, and the display is refilled after each drawer. A turn
without a capture may end with one optional draw (base game). Two players add the
shadow offer, captured from before the opponent.

Cards are ints: 1-13, and 14 for a joker (a set of jokers alone is worth 14). Hands,
the pile, the discard pile and the shadow offer are count vectors indexed by card.
The draw pile has no order: every card taken from it is a chance event, so its order
can never leak and any position can be set up by choosing the cards.

Every seat knows more than its own hand: cards that went into a hand face up (a
captured set taken, a set taken back, a display card) are public until played. That
public knowledge is kept per hand in `known`, shown in every view and respected by
`determinize`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from hraj.core.errors import IllegalAction, InvalidAction
from hraj.core.game import FORFEIT, Game, Option, Outcome, Seat, State, int_in, one_of
from hraj.core.jsondata import GameOptions
from hraj.core.record import EventLog
from hraj.core.start import FIRST_OPTION, First, parse_first
from hraj.games.abluxxen.view import AbluxxenView, SeatView

JOKER = 14
CARDS = range(1, JOKER + 1)
COPIES = 8  # of each number 1-13
JOKERS = 5
HAND_SIZE = 13
DISPLAY_SLOTS = 6
SHADOW_SIZE = 13
TWO_PLAYER_JOKERS = 2  # each seat's jokers dealt face up in the 2-player game
VARIANTS = ("base", "advanced", "expert")

# Phases. Chance: FIRST_SEAT, DEAL, DRAW_CARD, REFILL, SHADOW_FILL. Decisions: the rest.
FIRST_SEAT, DEAL, PLAY, SHADOW, CHOOSE, VICTIM, DRAW, DRAW_CARD, REFILL, SHADOW_FILL, OPTIONAL, OVER = range(12)
PHASE_NAMES = (
    "first",
    "deal",
    "play",
    "shadow",
    "choose",
    "victim",
    "draw",
    "draw_card",
    "refill",
    "shadow_fill",
    "optional_draw",
    "over",
)
CHANCE_PHASES = frozenset({FIRST_SEAT, DEAL, DRAW_CARD, REFILL, SHADOW_FILL})
#: Where a dealt card goes (`deal_target`): a seat number, DISPLAY_TARGET + slot, or the shadow offer.
DISPLAY_TARGET = 10
SHADOW_TARGET = DISPLAY_TARGET + DISPLAY_SLOTS


def card_text(card: int) -> str:
    return "J" if card == JOKER else str(card)


def cards_of(counts: Sequence[int]) -> list[int]:
    """The cards of a count vector, ascending, jokers last."""
    return [card for card in CARDS for _ in range(counts[card])]


@functools.lru_cache(maxsize=1 << 12)
def _card_tuple(counts: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(cards_of(counts))


def _cards(counts: tuple[int, ...]) -> list[int]:
    """`cards_of`, kept per count vector: hands and piles change seldom between views."""
    return list(_card_tuple(counts))


def set_value(cards: Iterable[int]) -> int:
    """A set's value: its number, or 14 for jokers alone."""
    return min(cards)


def full_deck() -> list[int]:
    counts = [0] * (JOKER + 1)
    for card in range(1, 14):
        counts[card] = COPIES
    counts[JOKER] = JOKERS
    return counts


class Move(NamedTuple):
    """A decision. Printed `play 4 4 4 J`, `take`, `leave`, `back`, `discard`,
    `draw deck`, `draw slot 3`, `pass`, `shadow 5`.

    `value` is the number of a play (0 for jokers alone), the display slot of a draw
    (1-6; 0 for the pile) or the value group of a shadow capture.
    """

    kind: str
    value: int = 0
    numbers: int = 0
    jokers: int = 0

    @property
    def cards(self) -> tuple[int, ...]:
        return (self.value,) * self.numbers + (JOKER,) * self.jokers

    def __str__(self) -> str:
        if self.kind == "play":
            return "play " + " ".join(map(card_text, self.cards))
        if self.kind == "draw":
            return "draw deck" if self.value == 0 else f"draw slot {self.value}"
        if self.kind == "shadow":
            return f"shadow {self.value}"
        return self.kind


TAKE, LEAVE, BACK, DISCARD, PASS = (Move(word) for word in ("take", "leave", "back", "discard", "pass"))
DRAW_DECK = Move("draw", 0)


def play(*cards: int) -> Move:
    """The play of these cards (14 = joker), e.g. play(4, 4, 4, JOKER)."""
    numbers = {card for card in cards if card != JOKER}
    if not cards or len(numbers) > 1:
        raise ValueError("a set is one or more cards of one value, jokers allowed")
    value = numbers.pop() if numbers else 0
    return Move("play", value, len(cards) - cards.count(JOKER), cards.count(JOKER))


@dataclass(frozen=True, slots=True)
class Card:
    """A card turned from the hidden pile. Printed `1`...`13` or `J`."""

    value: int

    def __str__(self) -> str:
        return card_text(self.value)


Chance = Card | First

_WORDS = {
    "take": TAKE,
    "leave": LEAVE,
    "back": BACK,
    "discard": DISCARD,
    "pass": PASS,
}
_JOKER_WORDS = {"j", "joker", "ž", "žolík", "zolik", "žolik"}


def parse_card(word: str) -> int | None:
    """A card from `7`, `13`, `J` (or joker, žolík); None if the word is no card."""
    word = word.strip().lower()
    if word in _JOKER_WORDS:
        return JOKER
    if _is_number(word) and len(word) <= 2 and 1 <= int(word) <= 13:
        return int(word)
    return None


class Abluxxen(Game[Move, Chance]):
    """Abluxxen for 3-5 players, and for 2 with the shadow offer."""

    id = "abluxxen"
    order = 4
    name = "Abluxxen"
    hidden_hands = True
    options_spec: ClassVar[Mapping[str, Option]] = {
        "players": Option(4, "number of players, 2-5 (2 play with the shadow offer)", int_in(2, 5)),
        "first": FIRST_OPTION,
        "variant": Option(
            "base",
            "base; advanced (no draw without a capture); expert (advanced, and 1s capture 13s and jokers)",
            one_of(*VARIANTS),
        ),
    }

    @classmethod
    def conformance_options(cls) -> list[GameOptions]:
        return [
            {"players": 3},
            {"players": 4},
            {"players": 5, "first": 2},
            {"players": 4, "variant": "advanced"},
            {"players": 3, "variant": "expert"},
            {"players": 2},
            {"players": 2, "variant": "expert", "first": 1},
        ]

    @property
    def variant(self) -> str:
        return str(self.options["variant"])

    def new_state(self) -> AbluxxenState:
        return AbluxxenState(self)

    def parse_action(self, text: str) -> Move:
        if not isinstance(text, str):
            raise InvalidAction("An action must be text, like play 4 4 J, take or draw deck.")
        words = text.replace(",", " ").lower().split()
        if not words:
            raise InvalidAction("Write an action, like play 4 4 J, take, back, draw deck or pass.")
        head = words[0]
        if len(words) == 1 and head in _WORDS:
            return _WORDS[head]
        if head in {"draw", "deck", "slot", "pile"}:
            rest = words[1:] if head == "draw" else words
            if rest in (["deck"], ["pile"]):
                return DRAW_DECK
            if rest and rest[0] == "slot":
                rest = rest[1:]
            if len(rest) == 1 and _is_number(rest[0]) and len(rest[0]) == 1 and 1 <= int(rest[0]) <= DISPLAY_SLOTS:
                return Move("draw", int(rest[0]))
            raise InvalidAction("Draw with draw deck or draw slot 1 to 6, not {text}.", text=text.strip())
        if head == "shadow":
            value = parse_card(words[1]) if len(words) == 2 else None
            if value is None or value >= 13:
                raise InvalidAction(
                    "Capture in the shadow offer with shadow and a value from 1 to 12, not {text}.",
                    text=text.strip(),
                )
            return Move("shadow", value)
        if head == "play":
            words = words[1:]
        cards = [parse_card(word) for word in words]
        if not words or None in cards:
            raise InvalidAction(
                "{text} is not an Abluxxen action: play cards like play 4 4 J, or take, leave, back, "
                "discard, draw deck, draw slot 3, pass, shadow 5.",
                text=text.strip(),
            )
        try:
            return play(*(card for card in cards if card is not None))
        except ValueError:
            raise InvalidAction(
                "A set is cards of one value, with jokers if you like; {text} mixes values.", text=text.strip()
            ) from None

    def parse_chance(self, text: str) -> Chance:
        first = parse_first(text)
        if first is not None:
            return first
        words = text.lower().split()
        card = parse_card(words[0]) if len(words) == 1 else None
        if card is None:
            raise InvalidAction("{text} is not a card of Abluxxen; write 1 to 13 or J.", text=text.strip())
        return Card(card)


@functools.lru_cache(maxsize=1 << 10)
def _move_text(move: Move) -> str:
    return str(move)


@functools.lru_cache(maxsize=1 << 12)
def _play_texts(hand: tuple[int, ...]) -> tuple[str, ...]:
    """The notation of every set a hand can play, in `legal_actions` order."""
    return tuple(str(move) for move in AbluxxenState._plays(hand))


class AbluxxenState(State[Move, Chance]):
    """An Abluxxen position; see the module docstring for the shape of a turn."""

    __slots__ = (
        "_log",
        "active",
        "captured",
        "captured_any",
        "checking",
        "discard",
        "display",
        "drawer",
        "end_reason",
        "game",
        "hands",
        "known",
        "layers",
        "optional_draw",
        "owed",
        "phase",
        "pile",
        "pile_size",
        "players",
        "shadow",
        "two_player",
        "variant",
        "victim",
    )

    def __init__(self, game: Abluxxen) -> None:
        self.game = game
        self._log: EventLog = None
        self.players = game.players
        self.variant = game.variant
        self.two_player = self.players == 2
        #: The unseen cards: the draw pile (no order) and, while dealing, what is left to deal.
        self.pile = full_deck()
        self.pile_size = sum(self.pile)
        self.hands = [[0] * (JOKER + 1) for _ in range(self.players)]
        #: known[seat]: cards publicly known to be in that seat's hand (a sub-multiset of it).
        self.known = [[0] * (JOKER + 1) for _ in range(self.players)]
        #: layers[seat]: laid-out sets, oldest first; each sorted, jokers last.
        self.layers: list[list[tuple[int, ...]]] = [[] for _ in range(self.players)]
        #: display[slot]: the cards lying there, bottom first ([] = empty; stacks only with 2 players).
        self.display: list[list[int]] = [[] for _ in range(DISPLAY_SLOTS)]
        self.discard = [0] * (JOKER + 1)
        self.shadow = [0] * (JOKER + 1)
        if self.two_player:
            for seat in range(2):
                self.hands[seat][JOKER] = TWO_PLAYER_JOKERS
                self.known[seat][JOKER] = TWO_PLAYER_JOKERS
            self.pile[JOKER] -= 2 * TWO_PLAYER_JOKERS
            self.pile_size -= 2 * TWO_PLAYER_JOKERS
        first = game.first
        self.active: int = 0 if first is None else first
        self.phase = FIRST_SEAT if first is None else DEAL
        # The turn in progress.
        self.checking = 0  # offset of the next opponent to compare with (1 = left neighbour)
        self.captured: tuple[int, ...] = ()  # the captured set awaiting take/leave or back/discard
        self.victim = 0
        self.drawer = 0
        self.owed = 0
        self.captured_any = False
        self.optional_draw = False
        self.end_reason = ""

    def copy(self) -> AbluxxenState:
        new = AbluxxenState.__new__(AbluxxenState)
        new.game = self.game
        new._log = self._log
        new.players = self.players
        new.variant = self.variant
        new.two_player = self.two_player
        new.pile = self.pile[:]
        new.pile_size = self.pile_size
        new.hands = [hand[:] for hand in self.hands]
        new.known = [known[:] for known in self.known]
        new.layers = [layers[:] for layers in self.layers]
        new.display = [slot[:] for slot in self.display]
        new.discard = self.discard[:]
        new.shadow = self.shadow[:]
        new.active = self.active
        new.phase = self.phase
        new.checking = self.checking
        new.captured = self.captured
        new.victim = self.victim
        new.drawer = self.drawer
        new.owed = self.owed
        new.captured_any = self.captured_any
        new.optional_draw = self.optional_draw
        new.end_reason = self.end_reason
        return new

    # --- the contract ---------------------------------------------------------------

    @property
    def to_act(self) -> tuple[Seat, ...]:
        phase = self.phase
        if phase in (PLAY, SHADOW, CHOOSE, OPTIONAL):
            return (self.active,)
        if phase == VICTIM:
            return (self.victim,)
        if phase == DRAW:
            return (self.drawer,)
        return ()

    @property
    def is_chance(self) -> bool:
        return self.phase in CHANCE_PHASES

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = tuple(float(self.score(seat)) for seat in range(self.players))
        hands = [self.hand_size(seat) for seat in range(self.players)]
        best = max(scores)
        tied = [seat for seat in range(self.players) if scores[seat] == best]
        fewest = min(hands[seat] for seat in tied)
        winners = tuple(seat for seat in tied if hands[seat] == fewest)
        return Outcome(
            scores,
            winners,
            self.end_reason,
            {"hand": hands, "laid_out": [self.laid_out(seat) for seat in range(self.players)]},
        )

    def _forfeit(self, seat: Seat) -> None:
        self.phase = OVER
        self.end_reason = FORFEIT

    def chance_outcomes(self) -> list[tuple[Chance, float]]:
        if self.phase == FIRST_SEAT:
            return [(First(seat), 1 / self.players) for seat in range(self.players)]
        if self.phase not in CHANCE_PHASES:
            return []
        return [(Card(card), self.pile[card] / self.pile_size) for card in CARDS if self.pile[card]]

    def sample_chance(self, rng: random.Random) -> Chance:
        if self.phase == FIRST_SEAT:
            return First(rng.randrange(self.players))
        index = rng.randrange(self.pile_size)
        for card in CARDS:
            index -= self.pile[card]
            if index < 0:
                return Card(card)
        raise AssertionError("the pile counts do not add up")

    def _is_possible_chance(self, outcome: Chance) -> bool:
        if isinstance(outcome, First):
            return self.phase == FIRST_SEAT and 0 <= outcome.seat < self.players
        return (
            self.phase in CHANCE_PHASES
            and self.phase != FIRST_SEAT
            and 1 <= outcome.value <= JOKER
            and self.pile[outcome.value] > 0
        )

    def legal_actions(self, seat: Seat) -> list[Move]:
        if seat not in self.to_act:
            return []
        phase = self.phase
        if phase == PLAY:
            return self._plays(self.hands[seat])
        if phase == SHADOW:
            return [Move("shadow", value) for value in self.shadow_targets()]
        if phase == CHOOSE:
            return [TAKE, LEAVE]
        if phase == VICTIM:
            return [BACK, DISCARD]
        draws = self._draws()
        return [PASS, *draws] if phase == OPTIONAL else draws

    @staticmethod
    def _plays(hand: Sequence[int]) -> list[Move]:
        jokers = hand[JOKER]
        moves = [Move("play", 0, 0, j) for j in range(1, jokers + 1)]
        for value in range(1, 14):
            for count in range(1, hand[value] + 1):
                moves.extend(Move("play", value, count, j) for j in range(jokers + 1))
        return moves

    def _draws(self) -> list[Move]:
        draws = [DRAW_DECK] if self.pile_size else []
        draws.extend(Move("draw", slot + 1) for slot in range(DISPLAY_SLOTS) if self.display[slot])
        return draws

    def _why_illegal(self, seat: Seat, action: Move) -> IllegalAction:
        phase = self.phase
        if phase == PLAY and action.kind == "play":
            hand = self.hands[seat]
            if hand[JOKER] < action.jokers or (action.numbers and hand[action.value] < action.numbers):
                return IllegalAction("You do not hold the cards {cards}.", cards=str(action)[5:])
        if phase in (DRAW, OPTIONAL) and action.kind == "draw":
            if action.value == 0:
                return IllegalAction("The draw pile is empty.")
            return IllegalAction("Display slot {slot} is empty.", slot=action.value)
        if phase == SHADOW and action.kind == "shadow":
            return IllegalAction("Your set captures no group of {value} in the shadow offer.", value=action.value)
        prompts = {
            PLAY: "Play one card, or several of one value with jokers if you like, e.g. play 4 4 J.",
            SHADOW: "Choose the group of the shadow offer to capture, e.g. shadow 5.",
            CHOOSE: "Decide whether to take the captured cards into your hand: take or leave.",
            VICTIM: "Take your captured cards back into your hand, or discard them and draw: back or discard.",
            DRAW: "Draw a card: draw deck, or draw slot 1 to 6.",
            OPTIONAL: "You may draw one card (draw deck or draw slot 1 to 6), or pass.",
        }
        if phase in prompts:
            return IllegalAction(prompts[phase])
        return super()._why_illegal(seat, action)

    # --- applying decisions ---------------------------------------------------------

    def _apply(self, seat: Seat, action: Move) -> None:
        kind = action.kind
        if kind == "play":
            self._play(action)
        elif kind == "shadow":
            self._shadow_capture(action.value)
        elif kind == "take":
            _add(self.hands[self.active], self.captured)
            _add(self.known[self.active], self.captured)
            self._start_draw(self.victim, len(self.captured))
        elif kind == "leave":
            self.phase = VICTIM
        elif kind == "back":
            _add(self.hands[self.victim], self.captured)
            _add(self.known[self.victim], self.captured)
            self.captured = ()
            self._next_capture()
        elif kind == "discard":
            _add(self.discard, self.captured)
            self._start_draw(self.victim, len(self.captured))
        elif kind == "pass":
            self._end_turn()
        elif kind == "draw":
            if self.phase == OPTIONAL:
                self.optional_draw = True
                self.drawer, self.owed = self.active, 1
            if action.value == 0:
                self.phase = DRAW_CARD
            else:
                stack = self.display[action.value - 1]
                self.display[action.value - 1] = []
                _add(self.hands[self.drawer], stack)
                _add(self.known[self.drawer], stack)
                self._after_one_draw()

    def _play(self, action: Move) -> None:
        cards = action.cards
        hand, known = self.hands[self.active], self.known[self.active]
        for card in cards:
            hand[card] -= 1
            # others cannot tell whether the known copy or a hidden one was played
            known[card] = max(known[card] - 1, 0)
        self.layers[self.active].append(cards)
        if not any(hand):
            self._end("hand_empty")  # no capturing with the last cards
            return
        self.checking = 1
        self.captured_any = False
        self.optional_draw = False
        if self.two_player:
            targets = self.shadow_targets()
            if len(targets) == 1:
                self._record_auto(self.active, f"shadow {targets[0]}")
                self._shadow_capture(targets[0])
                return
            if targets:
                self.phase = SHADOW
                return
        self._next_capture()

    def shadow_targets(self) -> list[int]:
        """Value groups of the shadow offer that the active seat's new set captures."""
        played = self.layers[self.active][-1]
        return [
            value
            for value in range(1, 13)
            if self.shadow[value] == len(played) and self.beats(played, (value,) * len(played))
        ]

    def beats(self, played: tuple[int, ...], target: tuple[int, ...]) -> bool:
        """The capture rule for sets of equal size: a higher value, or 1s on 13s/jokers (expert)."""
        mine, theirs = set_value(played), set_value(target)
        return theirs < mine or (self.variant == "expert" and mine == 1 and theirs >= 13)

    def _shadow_capture(self, value: int) -> None:
        count = self.shadow[value]
        self.shadow[value] = 0
        self.hands[self.active][value] += count
        self.known[self.active][value] += count
        self.captured_any = True
        self._fill_shadow_or_go_on()

    def _fill_shadow_or_go_on(self) -> None:
        if self.pile_size and sum(self.shadow) < SHADOW_SIZE:
            self.phase = SHADOW_FILL
        else:
            self._next_capture()

    def _next_capture(self) -> None:
        """Compare the new set with the next opponents, clockwise, once around."""
        played = self.layers[self.active][-1]
        while self.checking < self.players:
            victim = (self.active + self.checking) % self.players
            self.checking += 1
            layers = self.layers[victim]
            if layers and len(layers[-1]) == len(played) and self.beats(played, layers[-1]):
                self.captured = layers.pop()
                self.victim = victim
                self.captured_any = True
                self._record_auto(self.active, f"capture {victim}")
                self.phase = CHOOSE
                return
        if not self.captured_any and self.variant == "base":
            self.phase = OPTIONAL
            return
        self._end_turn()

    def _start_draw(self, drawer: int, count: int) -> None:
        self.captured = ()
        self.drawer, self.owed = drawer, count
        self.phase = DRAW

    def _after_one_draw(self) -> None:
        self.owed -= 1
        if not self.pile_size and not any(self.display):
            self._end("pile_empty")  # the last card is gone, even in the middle of an owed draw
        elif self.owed:
            self.phase = DRAW
        elif self.pile_size and not all(self.display):
            self.phase = REFILL
        else:
            self._after_refill()

    def _after_refill(self) -> None:
        if self.optional_draw:
            self._end_turn()
        else:
            self._next_capture()

    def _end_turn(self) -> None:
        self.active = (self.active + 1) % self.players
        self.phase = PLAY
        self.captured = ()
        self.checking = 0
        self.captured_any = False
        self.optional_draw = False

    def _end(self, reason: str) -> None:
        self.phase = OVER
        self.end_reason = reason

    # --- applying chance ------------------------------------------------------------

    def _chance_readers(self, outcome: Chance) -> tuple[Seat, ...] | None:
        """A card dealt or drawn into a hand is its owner's secret; the first seat, the
        display and the shadow offer are turned face up."""
        if isinstance(outcome, First):
            return None
        if self.phase == DEAL:
            target = self.deal_target()
            return (target,) if target is not None and target < DISPLAY_TARGET else None
        if self.phase == DRAW_CARD:
            return (self.drawer,)
        return None

    def _apply_chance(self, outcome: Chance) -> None:
        if isinstance(outcome, First):
            self.active = outcome.seat
            self.phase = DEAL
            return
        card = outcome.value
        self.pile[card] -= 1
        self.pile_size -= 1
        phase = self.phase
        if phase == DEAL:
            self._deal(card)
        elif phase == DRAW_CARD:
            self.hands[self.drawer][card] += 1
            self._after_one_draw()
        elif phase == REFILL:
            self.display[self.display.index([])] = [card]
            if not self.pile_size or all(self.display):
                self._after_refill()
        else:  # SHADOW_FILL
            self._to_shadow(card)
            if not self.pile_size or sum(self.shadow) >= SHADOW_SIZE:
                self._next_capture()

    def deal_target(self) -> int | None:
        """Where the next dealt card goes: a seat, DISPLAY + slot, SHADOW_TARGET, or None when done."""
        for seat in range(self.players):
            if sum(self.hands[seat]) < HAND_SIZE:
                return seat
        for slot in range(DISPLAY_SLOTS):
            if not self.display[slot]:
                return DISPLAY_TARGET + slot
        if self.two_player and sum(self.shadow) < SHADOW_SIZE and self.pile_size:
            return SHADOW_TARGET
        return None

    def _deal(self, card: int) -> None:
        target = self.deal_target()
        assert target is not None
        if target < DISPLAY_TARGET:
            self.hands[target][card] += 1
        elif target < SHADOW_TARGET:
            self.display[target - DISPLAY_TARGET] = [card]
        else:
            self._to_shadow(card)
        if self.deal_target() is None:
            self.phase = PLAY

    def _to_shadow(self, card: int) -> None:
        """A card turned for the shadow offer: a joker or 13 goes onto the display instead."""
        if card < 13:
            self.shadow[card] += 1
            return
        self.display[self.divert_slot()].append(card)

    def divert_slot(self) -> int:
        """The display slot a diverted joker or 13 lands on: the lowest-valued card with
        nothing on top (a joker ranks 14), leftmost on ties; if every card has something on
        top, the lowest-valued slot anyway."""
        filled = [slot for slot in range(DISPLAY_SLOTS) if self.display[slot]]
        bare = [slot for slot in filled if len(self.display[slot]) == 1]
        candidates = bare or filled
        if not candidates:
            return 0
        return min(candidates, key=lambda slot: (self.display[slot][0], slot))

    # --- scoring and views ----------------------------------------------------------

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def laid_out(self, seat: int) -> int:
        return sum(len(layer) for layer in self.layers[seat])

    def score(self, seat: int) -> int:
        """+1 per laid-out card (every layer), -1 per card in hand."""
        return self.laid_out(seat) - self.hand_size(seat)

    def view(self, seat: Seat | None) -> AbluxxenView:
        me = seat if seat is not None and 0 <= seat < self.players else None
        phase = self.phase
        pending = phase in (CHOOSE, VICTIM)
        drawing = phase in (DRAW, DRAW_CARD)
        over = phase == OVER
        seats: list[SeatView] = []
        for s in range(self.players):
            hand = self.hands[s]
            layers = self.layers[s]
            hand_size = sum(hand)
            laid_out = sum(map(len, layers))
            seats.append(
                {
                    "hand_size": hand_size,
                    "known": _cards(tuple(self.known[s])),
                    # Hidden cards are revealed to all once the game is over.
                    "revealed": _cards(tuple(hand)) if over else None,
                    "layers": [list(layer) for layer in layers],
                    "top": list(layers[-1]) if layers else [],
                    "laid_out": laid_out,
                    "score": laid_out - hand_size,
                }
            )
        return {
            "game": "abluxxen",
            "players": self.players,
            "variant": self.variant,
            "two_player": self.two_player,
            "phase": PHASE_NAMES[phase],
            "active": None if phase == FIRST_SEAT else self.active,
            "to_act": list(self.to_act),
            "seat": seat,
            "hand": None if me is None else _cards(tuple(self.hands[me])),
            "seats": seats,
            "display": [list(slot) for slot in self.display],
            "pile": self.pile_size,
            "discard": _cards(tuple(self.discard)),
            "shadow": [[value] * self.shadow[value] for value in range(1, 13) if self.shadow[value]]
            if self.two_player
            else None,
            "captured_this_turn": self.captured_any,
            "capture": {"victim": self.victim, "cards": list(self.captured)} if pending else None,
            "draw": {"seat": self.drawer, "owed": self.owed} if drawing else None,
            "legal": self._legal_texts(me) if me is not None else [],
            "outcome": self.outcome_json(),
        }

    def _legal_texts(self, seat: Seat) -> list[str]:
        """The notation of every legal action of `seat`, as `legal_actions` orders them;
        a hand's plays are written once per hand."""
        if self.phase == PLAY and seat in self.to_act:
            return list(_play_texts(tuple(self.hands[seat])))
        return [_move_text(action) for action in self.legal_actions(seat)]

    def determinize(self, seat: Seat, rng: random.Random) -> AbluxxenState:
        """A full state consistent with what `seat` has seen: the cards it cannot see
        (the pile, and other hands beyond what is publicly known of them) dealt anew at
        random. The history is dropped, since it would show the real cards. Once the
        game is over every hand is revealed, so nothing is resampled."""
        if self.phase == OVER:
            return self.copy()
        state = self.copy()
        state._log = None
        others = [s for s in range(self.players) if s != seat]
        pool = cards_of(self.pile)
        for other in others:
            pool.extend(cards_of([h - k for h, k in zip(self.hands[other], self.known[other], strict=True)]))
        rng.shuffle(pool)
        start = 0
        for other in others:
            hidden = self.hand_size(other) - sum(self.known[other])
            hand = self.known[other][:]
            _add(hand, pool[start : start + hidden])
            start += hidden
            state.hands[other] = hand
        pile = [0] * (JOKER + 1)
        _add(pile, pool[start:])
        state.pile = pile
        return state

    # --- position notation ----------------------------------------------------------

    def position(self) -> str:
        """Compact text of the table: `0: 1,1,4,J [7,7,7 3] / ... ; display 3 5 8 13+J - 2 ; discard 4,4`.

        The number before the colon is the active seat. Seats are separated by `/`: each
        is its hand, then its layers (oldest first) in brackets. Cards are written 1-13
        and J, joined by commas; `-` is nothing. The display lists its six slots (a stack
        bottom first, joined by `+`). With two players `; shadow 2,2 5` lists the shadow
        offer's groups. The pile is whatever of the 109 cards is not elsewhere.
        """
        seats = []
        for seat in range(self.players):
            layers = " ".join(_cards_text(layer) for layer in self.layers[seat])
            seats.append(f"{_cards_text(cards_of(self.hands[seat]))} [{layers}]")
        display = " ".join("+".join(map(card_text, slot)) if slot else "-" for slot in self.display)
        text = f"{self.active}: " + " / ".join(seats) + f" ; display {display} ; discard "
        text += _cards_text(cards_of(self.discard))
        if self.two_player:
            groups = [_cards_text([value] * self.shadow[value]) for value in range(1, 13) if self.shadow[value]]
            text += " ; shadow " + (" ".join(groups) or "-")
        return text

    @classmethod
    def from_position(cls, game: Abluxxen, text: str) -> AbluxxenState:
        """The state at the start of the active seat's turn described by `position()` text.

        Nothing is publicly known about any hand (the history is not part of the text).
        """
        head, sep, body = text.partition(":")
        if not sep or not _is_number(head.strip()) or int(head) >= game.players:
            raise InvalidAction("An Abluxxen position starts with the active seat and a colon: {text}", text=text)
        parts = [part.strip() for part in body.split(";")]
        seats = [seat.strip() for seat in parts[0].split("/")]
        if len(seats) != game.players:
            raise InvalidAction(
                "The position has {found} seats for {players} players.", found=len(seats), players=game.players
            )
        state = cls(game)
        state.active = int(head)
        state.phase = PLAY
        state.hands = [[0] * (JOKER + 1) for _ in range(game.players)]
        state.known = [[0] * (JOKER + 1) for _ in range(game.players)]
        used = [0] * (JOKER + 1)
        for seat, seat_text in enumerate(seats):
            hand_text, bracket, rest = seat_text.partition("[")
            if not bracket or not rest.endswith("]"):
                raise InvalidAction("Seat {seat} needs its layers in brackets: {text}", seat=seat, text=seat_text)
            _add(state.hands[seat], _parse_cards(hand_text))
            for layer_text in rest[:-1].split():
                layer = tuple(sorted(_parse_cards(layer_text)))
                try:
                    play(*layer)
                except ValueError:
                    raise InvalidAction("{layer} is not a set of one value.", layer=layer_text) from None
                state.layers[seat].append(layer)
                _add(used, layer)
            _add(used, cards_of(state.hands[seat]))
        sections = {}
        for part in parts[1:]:
            name, _, rest = part.partition(" ")
            sections[name] = rest.strip()
        slots = sections.get("display", "").split()
        if len(slots) != DISPLAY_SLOTS:
            raise InvalidAction("The display has six slots: {text}", text=sections.get("display", ""))
        state.display = [[] if slot == "-" else _parse_cards(slot.replace("+", ",")) for slot in slots]
        for slot in state.display:
            _add(used, slot)
        _add(state.discard, _parse_cards(sections.get("discard", "-")))
        _add(used, cards_of(state.discard))
        state.shadow = [0] * (JOKER + 1)
        if game.players == 2:
            for group in sections.get("shadow", "-").split():
                _add(state.shadow, _parse_cards(group))
            if state.shadow[13] or state.shadow[JOKER]:
                raise InvalidAction("The shadow offer holds no 13s or jokers.")
            _add(used, cards_of(state.shadow))
        deck = full_deck()
        state.pile = [deck[card] - used[card] for card in range(JOKER + 1)]
        state.pile[0] = 0
        if min(state.pile) < 0:
            raise InvalidAction("The position holds more cards than the game has: {text}", text=text)
        state.pile_size = sum(state.pile)
        return state


def _is_number(text: str) -> bool:
    """Plain ASCII digits (str.isdigit also accepts superscripts that int() refuses)."""
    return text.isascii() and text.isdigit()


def _add(counts: list[int], cards: Iterable[int]) -> None:
    for card in cards:
        counts[card] += 1


def _cards_text(cards: Sequence[int]) -> str:
    return ",".join(map(card_text, cards)) if cards else "-"


def _parse_cards(text: str) -> list[int]:
    text = text.strip()
    if text in {"", "-"}:
        return []
    cards = [parse_card(word) for word in text.split(",")]
    if None in cards:
        raise InvalidAction("{text} is not a list of cards (1 to 13, J).", text=text)
    return [card for card in cards if card is not None]
