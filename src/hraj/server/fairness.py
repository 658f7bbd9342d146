"""Fair dice and shuffles: a secret seed per room, committed at the start, revealed at the end.

Each room draws its seed from `secrets` and publishes its commitment, a SHA-256 of
the seed's hex text (`room_commitment`). Every chance event of the room is drawn by the
game's own `sample_chance` from a generator derived from the seed; which generator,
and what the commitment covers, is the room's **dice version**:

- version 3 (every room made since it exists): the numbers of version 2; the
  commitment is the SHA-256 of the room's id, a colon and the seed, so that a record
  relabelled with another room's id no longer matches its commitment;
- version 2: the chance event at position `i` of the log draws from
  `DerivedDice(seed, i)`, whose every number comes from HMAC-SHA256(seed,
  "i:counter") by rejection sampling (docs/protocol.md spells it out), so the outcomes
  do not depend on CPython's `random` algorithms and anyone can recompute them in a
  few lines of another language; the commitment is the SHA-256 of the seed alone;
- version 1 (older rooms): every chance event draws, in order, from one
  `random.Random(int(seed, 16))`.

Once the game is over the room reveals the seed, and `replay_with_seed` (behind
`hraj verify` and room recovery) redraws every chance outcome and compares it with the
record.
"""

from __future__ import annotations

import bisect
import hashlib
import hmac
import itertools
import json
import random
import secrets
from collections.abc import Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

import hraj
from hraj.core.errors import HrajError, InvalidRecord
from hraj.core.game import Game, State
from hraj.core.record import CHANCE, MOVE, Event, parse_record

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

SEED_BYTES = 32
#: Dice versions: 1 draws from CPython's `random.Random`, 2 from HMAC-SHA256, 3 as 2 with a
#: commitment that names the room (see the module's text).
DICE_V1, DICE_V2, DICE_V3 = 1, 2, 3
DICE_VERSIONS = (DICE_V1, DICE_V2, DICE_V3)
#: The version of every new room.
DICE_CURRENT = DICE_V3

T = TypeVar("T")


def new_seed() -> str:
    """A fresh room seed: 64 hex digits from the operating system's secure source."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """The SHA-256 (hex) of the seed's text: what a room of dice version 1 or 2 shows
    before the game."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


def room_commitment(seed: str, room_id: str, dice: int = DICE_CURRENT) -> str:
    """What a room shows of its seed before the game: from dice version 3 on, the SHA-256
    (hex) of `"{room_id}:{seed}"`, binding the seed to the room; before, of the seed alone."""
    if dice < DICE_V3:
        return commitment(seed)
    return hashlib.sha256(f"{room_id}:{seed}".encode()).hexdigest()


def chance_rng(seed: str) -> random.Random:
    """Dice version 1: the one generator that draws every chance outcome of a room, in order."""
    return random.Random(int(seed, 16))


def replay_with_seed(
    game: Game[Any, Any], events: Sequence[Event], seed: str, dice: int = DICE_V1
) -> tuple[State[Any, Any], Dice]:
    """Replay `events`, drawing each chance outcome from the seed and checking it.

    Returns the state after the last event and the room's dice, positioned to draw
    the next outcome, so a live room can go on from where its log stops. Raises
    InvalidRecord at the first event that does not replay, whose chance outcome is not
    the one the seed gives, or that the rules would have written otherwise (a move in
    a loose notation, a forced step left out or added).
    """
    source = Dice(seed, dice)
    state = game.new_state()
    replay_onto(state, source, events)
    _same_as_rules(state.events(), events)
    return state, source


def replay_onto(state: State[Any, Any], source: Dice, events: Sequence[Event], first: int = 1) -> None:
    """Apply `events`, numbered from `first`, onto `state` as `replay_with_seed` does:
    a room that follows another process's commits catches up this way, event by event."""
    for number, (kind, seat, text) in enumerate(events, start=first):
        try:
            if kind == CHANCE:
                if not state.is_chance:
                    raise InvalidRecord(
                        "Event {number} ({text}) is a chance outcome, but none is due.", number=number, text=text
                    )
                drawn = state.sample_chance(source.rng(number - 1))
                if str(drawn) != text:
                    raise InvalidRecord(
                        "Event {number}: the seed gives {drawn}, but the record says {text}.",
                        number=number,
                        drawn=str(drawn),
                        text=text,
                    )
                state.apply_chance(drawn, check=False)
            elif kind == MOVE:
                if seat is None:
                    raise InvalidRecord("Event {number} ({text}) is a move without a seat.", number=number, text=text)
                state.apply(seat, text)
            else:
                state.check_auto_event(number - 1, seat, text)
        except InvalidRecord:
            raise
        except HrajError as error:
            raise InvalidRecord(
                "Event {number} ({text}) does not replay: {why}", number=number, text=text, why=str(error)
            ) from None


def _same_as_rules(rebuilt: Sequence[Event], events: Sequence[Event]) -> None:
    """The rebuilt log must be the record itself: the same notation, no forced step left
    out or added (compared once at the end: the log is a list built anew on each read)."""
    for number, (ours, theirs) in enumerate(zip(rebuilt, events, strict=False), start=1):
        if ours != tuple(theirs):
            raise InvalidRecord(
                "Event {number}: the rules write {expected}, but the record says {text}.",
                number=number,
                expected=_event_text(ours),
                text=theirs[2],
            )
    if len(rebuilt) > len(events):
        # The rules wrote steps after the record's last event: it was cut short.
        raise InvalidRecord(
            "The record is unfinished: the game is not over after its {count} events.", count=len(events)
        )


def _event_text(event: Event) -> str:
    return event[2]


class DerivedDice(random.Random):
    """Dice version 2: the numbers of the chance event at log position `index`.

    Word `j` is the first four bytes (big-endian) of HMAC-SHA256 with the seed's hex
    text as key and the ASCII text `"{index}:{j}"` as message. A number below `n` is
    the next word `w` with `w < 2**32 - 2**32 % n`, taken modulo `n` (words above are
    skipped, so every number is exactly equally likely). `randrange`, `randint`,
    `choice`, `shuffle` and `choices` are defined on that alone, never on CPython's
    algorithms; the games' `sample_chance` use only `randrange` and `randint`.
    """

    def __init__(self, seed: str, index: int) -> None:
        super().__init__(0)
        self._key = seed.encode("ascii")
        self._index = index
        self._counter = 0

    def word(self) -> int:
        message = f"{self._index}:{self._counter}".encode("ascii")
        self._counter += 1
        return int.from_bytes(hmac.new(self._key, message, hashlib.sha256).digest()[:4], "big")

    def below(self, n: int) -> int:
        """A number from 0 to n - 1, each equally likely."""
        if not 0 < n <= WORD:
            raise ValueError(f"cannot draw below {n}")
        limit = WORD - WORD % n
        while True:
            word = self.word()
            if word < limit:
                return word % n

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        count = len(range(start, stop, step))
        return start + step * self.below(count)

    def randint(self, a: int, b: int) -> int:
        return a + self.below(b - a + 1)

    def random(self) -> float:
        """A float in [0, 1): two words give 53 bits."""
        return ((self.word() << 21) ^ (self.word() >> 11)) / 2**53

    def getrandbits(self, k: int) -> int:
        value, bits = 0, 0
        while bits < k:
            value, bits = (value << 32) | self.word(), bits + 32
        return value >> (bits - k)

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, x: MutableSequence[T]) -> None:
        for i in reversed(range(1, len(x))):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def choices(
        self,
        population: SupportsLenAndGetItem[T],
        weights: Sequence[float | Fraction] | None = None,
        *,
        cum_weights: Sequence[float | Fraction] | None = None,
        k: int = 1,
    ) -> list[T]:
        if weights is None and cum_weights is None:
            return [self.choice(population) for _ in range(k)]
        if cum_weights is None:
            cum_weights = list(itertools.accumulate(weights or ()))
        total = cum_weights[-1]
        return [population[bisect.bisect(cum_weights, self.random() * total, 0, len(population) - 1)] for _ in range(k)]


WORD = 1 << 32


class Dice:
    """The chance generator of a room, of either version, with an undo for a failed commit."""

    def __init__(self, seed: str, version: int = DICE_CURRENT) -> None:
        if version not in DICE_VERSIONS:
            raise InvalidRecord("Dice version {version} is unknown.", version=version)
        self.seed = seed
        self.version = version
        self._sequence = chance_rng(seed) if version == DICE_V1 else None

    def rng(self, index: int) -> random.Random:
        """The generator for the chance event at log position `index` (0 is the first event)."""
        if self._sequence is not None:
            return self._sequence
        return DerivedDice(self.seed, index)

    def mark(self) -> tuple[object, ...] | None:
        """Where the generator stands (version 1 only has a position)."""
        return None if self._sequence is None else self._sequence.getstate()

    def rewind(self, mark: tuple[object, ...] | None) -> None:
        """Back to `mark`: the outcomes drawn since are drawn again, the same."""
        if self._sequence is not None and mark is not None:
            self._sequence.setstate(mark)


def chain_start(commitment_hex: str) -> str:
    """The head of a room's hash chain before its first event."""
    return hashlib.sha256(f"hraj-chain-1:{commitment_hex}".encode("ascii")).hexdigest()


def chain_next(head: str, event: Event) -> str:
    """The head after `event`: SHA-256 of the previous head (hex) and the event's fields,
    one line each (kind, seat or nothing, text). Every acknowledgement carries it, so a
    player who kept it can show that a record was edited afterwards."""
    kind, seat, text = event
    return hashlib.sha256(f"{head}\n{kind}\n{'' if seat is None else seat}\n{text}".encode()).hexdigest()


def chain_head(commitment_hex: str, events: Sequence[Event]) -> str:
    head = chain_start(commitment_hex)
    for event in events:
        head = chain_next(head, event)
    return head


@dataclass(frozen=True, slots=True)
class Verified:
    """What `verify_record` confirmed."""

    game: str
    events: int
    chance_events: int
    commitment: str
    over: bool
    dice: int
    head: str


def verify_record(record: object, head: str | None = None) -> Verified:
    """Check a room's exported record; raises InvalidRecord saying what is wrong.

    The seed must match its commitment, every chance outcome must be the one the seed
    gives (by the record's dice version, 1 when it names none), every decision must be
    legal and written as the rules write it, the game must be over (a record cut short
    is "unfinished"), and the hash chain must end at the record's `head` and at
    `head`, a value a player kept from an acknowledgement, when either is given.
    """
    if not isinstance(record, Mapping):
        raise InvalidRecord("A record must be a JSON object.")
    room = record.get("room")
    if not isinstance(room, Mapping) or not isinstance(room.get("seed"), str) or not room.get("commitment"):
        raise InvalidRecord("The record has no revealed seed; only finished online games can be verified.")
    seed, committed = str(room["seed"]), str(room["commitment"])
    try:
        int(seed, 16)
    except ValueError:
        raise InvalidRecord("The record's seed is not hexadecimal.") from None
    dice = room.get("dice", DICE_V1)
    # `==`, as `in` compares: a version written 2.0 is version 2; true is no version.
    version = None if isinstance(dice, bool) else next((known for known in DICE_VERSIONS if known == dice), None)
    if version is None:
        raise InvalidRecord("Dice version {version} is unknown.", version=str(dice))
    room_id = room.get("id")
    if version >= DICE_V3 and not isinstance(room_id, str):
        raise InvalidRecord("The record does not name its room.")
    if not hmac.compare_digest(room_commitment(seed, str(room_id), version), committed):
        raise InvalidRecord(
            "The revealed seed does not match the commitment {commitment} of room {room}.",
            commitment=committed,
            room=str(room_id),
        )
    game_id, options, events = parse_record(record)
    try:
        game = hraj.game(game_id, **options)
    except HrajError as error:
        raise InvalidRecord("The record's game cannot be set up: {why}", why=str(error)) from None
    state, _ = replay_with_seed(game, events, seed, version)
    computed = chain_head(committed, events)
    for claimed in (room.get("head"), head):
        if claimed is not None and not hmac.compare_digest(str(claimed), computed):
            raise InvalidRecord(
                "The hash chain of the events ends at {computed}, not at {claimed}: the record was changed.",
                computed=computed,
                claimed=str(claimed),
            )
    if not state.is_over:
        raise InvalidRecord(
            "The record is unfinished: the game is not over after its {count} events.", count=len(events)
        )
    return Verified(
        game=game_id,
        events=len(events),
        chance_events=sum(1 for kind, _, _ in events if kind == CHANCE),
        commitment=committed,
        over=state.is_over,
        dice=version,
        head=computed,
    )


def load_record(text: str) -> object:
    """The JSON of a record file, or InvalidRecord saying why it is not JSON; its shape
    is checked by `verify_record`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidRecord("The record is not valid JSON: {why}", why=str(error)) from None
