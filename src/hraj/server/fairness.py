"""Fair dice and shuffles: a secret seed per room, committed at the start, revealed at the end.

Each room draws its seed from `secrets` and publishes `commitment(seed)`, the SHA-256
of the seed's hex text. Every chance event of the room comes, in order, from one
`random.Random(int(seed, 16))` used for nothing else, through the game's own
`sample_chance`. Once the game is over the room reveals the seed, and
`replay_with_seed` (behind `hraj verify`) redraws every chance outcome from it and
compares it with the record.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import hraj
from hraj.core.errors import HrajError, InvalidRecord
from hraj.core.game import Game, State
from hraj.core.record import CHANCE, MOVE, Event, parse_record

SEED_BYTES = 32


def new_seed() -> str:
    """A fresh room seed: 64 hex digits from the operating system's secure source."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """The SHA-256 (hex) of the seed's text: what a room shows before the game."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


def chance_rng(seed: str) -> random.Random:
    """The one generator that draws every chance outcome of a room."""
    return random.Random(int(seed, 16))


def replay_with_seed(game: Game[Any, Any], events: Sequence[Event], seed: str) -> tuple[State[Any, Any], random.Random]:
    """Replay `events`, drawing each chance outcome from the seed and checking it.

    Returns the state after the last event and the chance generator, positioned to
    draw the next outcome, so a live room can go on from where its log stops.
    Raises InvalidRecord at the first event that does not replay or whose chance
    outcome is not the one the seed gives.
    """
    rng = chance_rng(seed)
    state = game.new_state()
    for number, (kind, seat, text) in enumerate(events, start=1):
        try:
            if kind == CHANCE:
                if not state.is_chance:
                    raise InvalidRecord(
                        "Event {number} ({text}) is a chance outcome, but none is due.", number=number, text=text
                    )
                drawn = state.sample_chance(rng)
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
    return state, rng


@dataclass(frozen=True, slots=True)
class Verified:
    """What `verify_record` confirmed."""

    game: str
    events: int
    chance_events: int
    commitment: str
    over: bool


def verify_record(record: Mapping[str, Any]) -> Verified:
    """Check a room's exported record: the seed matches its commitment and every
    chance outcome is the one the seed gives; raises InvalidRecord otherwise."""
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
    if not hmac.compare_digest(commitment(seed), committed):
        raise InvalidRecord("The revealed seed does not match the commitment {commitment}.", commitment=committed)
    game_id, options, events = parse_record(record)
    try:
        game = hraj.game(game_id, **options)
    except HrajError as error:
        raise InvalidRecord("The record's game cannot be set up: {why}", why=str(error)) from None
    state, _ = replay_with_seed(game, events, seed)
    return Verified(
        game=game_id,
        events=len(events),
        chance_events=sum(1 for kind, _, _ in events if kind == CHANCE),
        commitment=committed,
        over=state.is_over,
    )


def load_record(text: str) -> Any:
    """The JSON of a record file, or InvalidRecord saying why it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidRecord("The record is not valid JSON: {why}", why=str(error)) from None
