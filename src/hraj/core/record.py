"""Records: a game id, its options and the ordered events, as plain JSON.

Inside a state the events live in a persistent linked list (each entry points to the
one before), so `State.copy` shares the whole history for free; a bot that copies a
position thousands of times never copies its past.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NotRequired, TypeAlias, TypedDict

from hraj.core.errors import InvalidRecord
from hraj.core.jsondata import GameOptions, JsonValue, OptionSetting

RECORD_FORMAT = "hraj-record"
RECORD_VERSION = 1

#: Event kinds: a chance outcome, a seat's decision, a forced step the rules made.
CHANCE = "chance"
MOVE = "move"
AUTO = "auto"
KINDS = (CHANCE, MOVE, AUTO)

#: One event: (kind, seat or None, canonical notation).
Event = tuple[str, int | None, str]
#: The text of an event that a seat may not read (yet): its kind and seat stay, so every
#: seat's copy of the record has the same length and versions agree.
HIDDEN = "?"
#: One event as a record writes it: [kind, seat or null, notation].
EventRow = list[str | int | None]


class Record(TypedDict):
    """A record as hraj writes it (`make_record`), with what the places that publish it add."""

    format: str
    version: int
    game: str
    options: GameOptions
    events: list[EventRow]
    players: NotRequired[list[str]]
    """The players' names by seat, where the game was played among named players."""
    seats: NotRequired[str]
    """A saved terminal game's seats as `hraj play --seats` reads them."""
    room: NotRequired[dict[str, JsonValue]]
    """An online game's room: its id and what verifies its dice (see `hraj verify`)."""


#: The linked history: None, or (kind, seat, action or outcome or text, previous).
#: Actions and outcomes are immutable and print their notation, so they are kept as
#: they are and printed only when the history is read.
EventLog: TypeAlias = "tuple[str, int | None, object, EventLog] | None"


def starting_seat(text: str) -> int | None:
    """The seat a chance outcome `first N` (the draw of who starts) names; None for any other."""
    word, _, rest = text.partition(" ")
    return int(rest) if word == "first" and rest.isdigit() else None


class Secret:
    """A logged item (a dealt or drawn card) that only `seats` may read before the game is over."""

    __slots__ = ("item", "seats")

    def __init__(self, item: object, seats: tuple[int, ...]) -> None:
        self.item = item
        self.seats = seats

    def __str__(self) -> str:
        return str(self.item)


def log_events(log: EventLog) -> list[Event]:
    """Unwind a linked history into a list, oldest event first."""
    events: list[Event] = []
    while log is not None:
        kind, seat, item, log = log
        events.append((kind, seat, item if isinstance(item, str) else str(item)))
    events.reverse()
    return events


def log_events_for(log: EventLog, seat: int | None) -> list[Event]:
    """Like `log_events`, but a `Secret` that `seat` may not read has the text HIDDEN."""
    events: list[Event] = []
    while log is not None:
        kind, who, item, log = log
        if isinstance(item, Secret) and seat not in item.seats:
            events.append((kind, who, HIDDEN))
        else:
            events.append((kind, who, item if isinstance(item, str) else str(item)))
    events.reverse()
    return events


def move_events(events: Sequence[Event]) -> list[int]:
    """The index in `events` of every move, in order: move number n (1-based) is the
    event at `move_events(events)[n - 1]`.

    A move is one decision of one seat (a `move` event): a play of the checkers, a cube
    decision, a cross or a pass (each seat's answer to a roll is a move of its own), a
    reroll, a stop, a play of cards, a draw (docs/analysis.md lists them per game). Chance events and forced
    steps are not moves; they belong to the move before them. The replay, the analysis,
    the log and every link count moves by this one numbering."""
    return [index for index, (kind, _, _) in enumerate(events) if kind == MOVE]


def move_numbers(events: Sequence[Event]) -> list[int]:
    """For every event, the number of the last move made by then (0 before the first):
    a chance or forced event shows in the log under the move it follows."""
    numbers: list[int] = []
    made = 0
    for kind, _, _ in events:
        made += kind == MOVE
        numbers.append(made)
    return numbers


def make_record(game_id: str, options: Mapping[str, OptionSetting], events: Sequence[Event]) -> Record:
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": game_id,
        "options": dict(options),
        "events": [[kind, seat, text] for kind, seat, text in events],
    }


def parse_record(record: object) -> tuple[str, dict[str, object], list[Event]]:
    """Check a record's shape and return (game id, options, events); the options are
    checked by the game they belong to."""
    if not isinstance(record, Mapping):
        raise InvalidRecord("A record must be a JSON object.")
    if record.get("format") != RECORD_FORMAT:
        raise InvalidRecord("This is not a hraj record (its format field is missing or wrong).")
    if record.get("version") != RECORD_VERSION:
        raise InvalidRecord("Record version {version} is not supported.", version=record.get("version"))
    game_id = record.get("game")
    options = record.get("options", {})
    raw_events = record.get("events")
    if not isinstance(game_id, str):
        raise InvalidRecord("The record names no game.")
    if not isinstance(options, Mapping):
        raise InvalidRecord("The record's options must be a JSON object.")
    if not isinstance(raw_events, list):
        raise InvalidRecord("The record's events must be a list.")
    events: list[Event] = []
    for number, raw in enumerate(raw_events, start=1):
        if (
            not isinstance(raw, (list, tuple))
            or len(raw) != 3
            or raw[0] not in KINDS
            or not isinstance(raw[2], str)
            or not (raw[1] is None or (isinstance(raw[1], int) and not isinstance(raw[1], bool)))
            or (raw[0] == MOVE and raw[1] is None)
        ):
            raise InvalidRecord("Event {number} is malformed: {raw}", number=number, raw=raw)
        events.append((raw[0], raw[1], raw[2]))
    return game_id, dict(options), events
