"""The game contract: what every game of hraj implements and every client relies on.

A `Game` holds validated options and makes states; a `State` is one position that
changes in place as actions and chance outcomes are applied. Subclasses implement the
underscored hooks; the public methods here add parsing, legality checks and the
event log once, so no game repeats them and bots can opt out of the checks.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypedDict, TypeVar

from hraj.core.errors import HrajError, IllegalAction, InvalidOption, InvalidRecord
from hraj.core.jsondata import GameOptions, OptionSetting
from hraj.core.record import (
    AUTO,
    CHANCE,
    MOVE,
    Event,
    EventLog,
    Record,
    Secret,
    log_events,
    log_events_for,
    make_record,
    parse_record,
)

#: A seat number, 0-based; seat 0 sits left of seat 1 and so on clockwise.
Seat = int

A = TypeVar("A")  # the game's action type
C = TypeVar("C")  # the game's chance outcome type


class OutcomeJson(TypedDict):
    """An outcome as views, records and the server's messages write it."""

    scores: list[float]
    winners: list[Seat]
    reason: str
    details: dict[str, object]
    """What else the game tells of the end (rows, points, ...); its own shape per game."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: final scores, the winners (ties share), and why."""

    scores: tuple[float, ...]
    winners: tuple[Seat, ...]
    reason: str
    details: Mapping[str, object] = field(default_factory=dict)
    """JSON-able figures of the end in the game's own shape (rows, points, ...)."""

    def to_json(self) -> OutcomeJson:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "reason": self.reason,
            "details": dict(self.details),
        }


#: The notation of a seat that loses by forfeit: its time ran out where that loses the
#: game (a rated game of two). It is no legal action and no player sends it; the server's
#: clock does, and a record replays it like any other move of that seat.
FORFEIT = "forfeit"


def after_forfeit(outcome: Outcome, seat: Seat) -> Outcome:
    """The outcome of a game that `seat` lost by forfeit: the others' scores stand, and
    the winners are the best of the others (the seat can win nothing)."""
    others = [s for s in range(len(outcome.scores)) if s != seat]
    winners = tuple(s for s in outcome.winners if s != seat)
    if not winners:
        best = max(outcome.scores[s] for s in others)
        winners = tuple(s for s in others if outcome.scores[s] == best)
    return Outcome(outcome.scores, winners, FORFEIT, {**outcome.details, "forfeited": seat})


def winners_by_score(scores: Sequence[float]) -> tuple[Seat, ...]:
    """All seats with the highest score (a tie is a shared victory)."""
    best = max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == best)


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a game: its default, a check, and a line of help."""

    default: OptionSetting
    help: str
    check: Callable[[object], OptionSetting]
    """Returns the value normalised, or raises ValueError whose argument is the reason
    (a HrajError, so that it can be translated, or plain English text)."""
    local_only: bool = False
    """The option reads the machine the game runs on (a file path): only the local
    command line may set it, never a client of the server."""
    bots_alone_max: int | None = None
    """The largest value a game of bots alone may have on a server that bounds them: an
    option that makes a match longer (points to play) would otherwise let bots play on
    for months. None: any value."""


@dataclass(frozen=True, slots=True)
class IntIn:
    """An option check for an integer in [low, high] (numeric strings accepted); forms
    read the range from its `bounds`."""

    low: int
    high: int

    @property
    def bounds(self) -> tuple[int, int]:
        return (self.low, self.high)

    def __call__(self, value: object) -> int:
        low, high = self.low, self.high
        reason = HrajError("expected a whole number from {low} to {high}", low=low, high=high)
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError(reason)
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise ValueError(reason) from None
        if not low <= number <= high or (isinstance(value, float) and value != number):
            raise ValueError(reason)
        return number


def int_in(low: int, high: int) -> IntIn:
    """An option check for an integer in [low, high] (numeric strings accepted)."""
    return IntIn(low, high)


def boolean(value: object) -> bool:
    """An option check for on/off values, lenient about how people write them."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in {"1", "true", "yes", "on", "ano"}:
        return True
    if text in {"0", "false", "no", "off", "ne"}:
        return False
    raise ValueError(HrajError("expected yes or no"))


def one_of(*choices: str) -> Callable[[object], str]:
    """An option check for one word out of a fixed set."""

    def check(value: object) -> str:
        text = str(value).strip().lower()
        if text not in choices:
            raise ValueError(HrajError("expected one of {choices}", choices=", ".join(choices)))
        return text

    return check


def optional_seat(value: object) -> int | None:
    """The `first` option: a seat number, or None for a random start."""
    if value is None or value == "" or str(value).lower() in {"random", "none"}:
        return None
    return int_in(0, 5)(value)


@dataclass(frozen=True, slots=True)
class RatedAs:
    """How a finished game of these options moves its players' ratings: by the places of
    its outcome (any number of seats), or as a match of `points` points between two."""

    kind: Literal["places", "match"]
    points: int = 0


class Game(ABC, Generic[A, C]):
    """A game with fixed options: makes states, parses notation, replays records."""

    id: ClassVar[str]
    name: ClassVar[str]
    options_spec: ClassVar[Mapping[str, Option]]
    order: ClassVar[int] = 100
    """Where the game is listed among the registered ones (lower first, then by id)."""
    hidden_hands: ClassVar[bool] = False
    """Each seat holds cards the others may not see: a screen shared by several people
    hides the table between their turns."""
    clock_family: ClassVar[str] = "moves"
    """Which clocks fit the game (`hraj.clocks`): "moves", a time per move and a small
    reserve; "match", a delay per move and a reserve per match point, as clubs and
    servers time a match."""

    def __init__(self, **options: object) -> None:
        self.options: GameOptions = self._validate(options)
        self.players: int = self.int_option("players") if "players" in self.options else 2
        #: The seat that starts (the `first` option), or None where chance decides.
        self.first: Seat | None = self.int_option("first") if self.options.get("first") is not None else None
        if self.first is not None and self.first >= self.players:
            raise InvalidOption(
                "Option first={first} names no seat; seats are 0 to {last}.",
                first=self.first,
                last=self.players - 1,
            )

    @property
    def match_points(self) -> int:
        """Points the match is played to, 1 where it is no match: a "match" clock's
        reserve grows with them."""
        return 1

    def rated_as(self) -> RatedAs | None:
        """How a game of these options is rated: by its places where two or more play
        (the default), None where it is not rated (a game alone)."""
        return RatedAs("places") if self.players >= 2 else None

    def int_option(self, name: str) -> int:
        """The value of a whole-number option (its check made it one)."""
        value = self.options[name]
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"option {name} of {self.id} is not a whole number: {value!r}")
        return value

    def text_option(self, name: str) -> str | None:
        """The value of an option that is a word or a path, or None where it is not given."""
        value = self.options[name]
        if value is not None and not isinstance(value, str):
            raise TypeError(f"option {name} of {self.id} is not text: {value!r}")
        return value

    @classmethod
    def _validate(cls, given: Mapping[str, object]) -> GameOptions:
        unknown = sorted(set(given) - set(cls.options_spec))
        if unknown:
            raise InvalidOption(
                "Unknown option {name} for {game}; known options: {known}.",
                name=unknown[0],
                game=cls.id,
                known=", ".join(cls.options_spec) or "none",
            )
        options: GameOptions = {}
        for name, spec in cls.options_spec.items():
            value = given.get(name, spec.default)
            try:
                options[name] = spec.check(value) if value is not None else None
            except ValueError as error:
                raise InvalidOption(
                    "Option {name}={value} is not valid for {game}: {why}.",
                    name=name,
                    value=value,
                    game=cls.id,
                    why=error.args[0] if error.args and isinstance(error.args[0], HrajError) else str(error),
                ) from None
        return options

    @classmethod
    def conformance_options(cls) -> list[GameOptions]:
        """Option sets that the conformance suite plays; each game lists its variants."""
        return [{}]

    @abstractmethod
    def new_state(self) -> State[A, C]:
        """The position before anything happened (usually a chance node)."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """An action from its notation; raises InvalidAction for anything else."""

    @abstractmethod
    def parse_chance(self, text: str) -> C:
        """A chance outcome from its notation; raises InvalidAction for anything else."""

    def upgrade_events(self, events: Sequence[Event]) -> list[Event]:
        """A record's events in the form the rules record them now. A game whose log
        changed form since records were first written puts back what older records
        leave out; the default changes nothing. Anything that does not replay is left
        as it is, for the replay to refuse with its own message."""
        return list(events)

    def replay(self, record: object) -> State[A, C]:
        """Rebuild the state of a record event by event, checking every step."""
        game_id, options, events = parse_record(record)
        if game_id != self.id:
            raise InvalidRecord("The record is of {found}, not {expected}.", found=game_id, expected=self.id)
        if self._validate(options) != self.options:
            raise InvalidRecord("The record's options differ from this game's options.")
        return self.replay_events(events)

    def replay_events(
        self,
        events: Sequence[Event],
        *,
        whole: bool = True,
        before: Callable[[int, State[A, C]], None] | None = None,
    ) -> State[A, C]:
        """The state after `events`. A whole record must be the entire log its replay
        makes; `whole=False` replays the first events of one (a replay's step), where
        the forced steps the rules make after the last event come along. `before(index,
        state)` is shown the position before each event, for a caller that needs more
        of the game than its end (who was asked at once, say)."""
        state = self.new_state()
        for number, (kind, seat, text) in enumerate(events, start=1):
            if before is not None:
                before(number - 1, state)
            try:
                if kind == CHANCE:
                    state.apply_chance(text)
                elif kind == MOVE:
                    assert seat is not None
                    state.apply(seat, text)
                else:
                    state.check_auto_event(number - 1, seat, text)
            except IllegalAction as error:
                raise InvalidRecord(
                    "Event {number} ({text}) does not replay: {why}", number=number, text=text, why=error
                ) from None
            except InvalidRecord:
                raise
            except Exception as error:  # InvalidAction and friends
                raise InvalidRecord(
                    "Event {number} ({text}) does not replay: {why}", number=number, text=text, why=error
                ) from None
        _check_same_log(state.events(), events, whole=whole)
        return state


class AskedTogether:
    """Watches a replay, event by event, for the decisions several seats were asked at
    once (`to_act` naming more than one seat, as when every player answers the same
    roll): such answers take effect together, so a replay shows them as one step. Call it
    with each event's index and the position before it (`replay_events(before=...)`)."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.events = events
        #: The seats of the question in progress that have not answered yet.
        self.waiting: set[int] = set()
        #: The indices of the decisions given as such answers.
        self.indices: set[int] = set()

    def __call__(self, index: int, state: State[Any, Any]) -> None:
        kind, seat, _ = self.events[index]
        if kind != MOVE or seat is None:
            return
        if not self.waiting and len(state.to_act) > 1:
            self.waiting = set(state.to_act)
        if seat in self.waiting:
            self.indices.add(index)
            self.waiting.discard(seat)


def _check_same_log(rebuilt: Sequence[Event], recorded: Sequence[Event], *, whole: bool = True) -> None:
    """A record must be the whole log its replay makes: a forced step left out (the last
    `auto` event of a game, say) or loosely written notation makes it refused."""
    for number, (made, given) in enumerate(zip(rebuilt, recorded, strict=False), start=1):
        if made != given:
            raise InvalidRecord(
                "Event {number} ({text}) is not what the rules record there: {expected}.",
                number=number,
                text=given[2],
                expected=made[2],
            )
    if len(rebuilt) > len(recorded) and (whole or any(kind != AUTO for kind, _, _ in rebuilt[len(recorded) :])):
        missing = rebuilt[len(recorded)]
        raise InvalidRecord(
            "The record ends before event {number} ({text}), which the rules make.",
            number=len(recorded) + 1,
            text=missing[2],
        )


class State(ABC, Generic[A, C]):
    """One position of a game. Mutable: `apply` and `apply_chance` change it in place.

    Subclasses set `self.game` and keep `self._log` up to date through `_record`.
    """

    game: Game[A, C]
    _log: EventLog

    # --- what a subclass implements -------------------------------------------------

    @property
    @abstractmethod
    def to_act(self) -> tuple[Seat, ...]:
        """Seats that must decide now; () at a chance node and at the end."""

    @property
    @abstractmethod
    def is_chance(self) -> bool:
        """True when a random event is due."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    def outcome(self) -> Outcome | None:
        """Scores and winners once the game is over; None while it goes on. A seat that
        lost by forfeit wins nothing, whatever the scores (`after_forfeit`)."""
        found = self._outcome()
        seat = self.forfeited
        return found if found is None or seat is None else after_forfeit(found, seat)

    @abstractmethod
    def _outcome(self) -> Outcome | None:
        """Scores and winners once the game is over, as the rules count them; None while
        it goes on."""

    def outcome_json(self) -> OutcomeJson | None:
        """The outcome as views write it (`Outcome.to_json`); None while the game goes on."""
        outcome = self.outcome
        return None if outcome is None else outcome.to_json()

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[C, float]]:
        """Every possible chance outcome now, with its probability."""

    @abstractmethod
    def legal_actions(self, seat: Seat) -> list[A]:
        """Everything `seat` may do now; [] if it is not that seat's decision."""

    @abstractmethod
    def _apply(self, seat: Seat, action: A) -> None:
        """Change the state by a legal action (already checked)."""

    @abstractmethod
    def _apply_chance(self, outcome: C) -> None:
        """Change the state by a possible chance outcome (already checked)."""

    @abstractmethod
    def view(self, seat: Seat | None) -> Mapping[str, object]:
        """JSON-able dict of exactly what `seat` may know; None is a spectator."""

    @abstractmethod
    def copy(self) -> State[A, C]:
        """An independent copy; sharing the immutable event log is fine."""

    def _why_illegal(self, seat: Seat, action: A) -> IllegalAction:
        """The reason an action that is not in legal_actions is refused; games refine it."""
        return IllegalAction("{action} is not a legal move now.", action=str(action))

    def _canonical(self, seat: Seat, action: A) -> A:
        """The legal action that a loosely written one stands for (a move written
        as its start and end for the steps it takes); raises IllegalAction with the reason if it stands for none."""
        return action

    def _canonical_chance(self, outcome: C) -> C:
        """The canonical form of a chance outcome written another way (a roll `13` as `31`)."""
        return outcome

    def _chance_readers(self, outcome: C) -> tuple[Seat, ...] | None:
        """Who may read this chance outcome before the game is over: None for everyone
        (dice, a card turned face up), else the seats that may (a card dealt or drawn
        into a hand: its owner). Games with hidden cards override it."""
        return None

    def _hide_pending(self, events: list[Event], seat: Seat | None) -> list[Event]:
        """Mask decisions that stay secret for a while (answers that every seat gives at once
        until every seat has answered); `events` is `seat`'s copy, changed in place."""
        return events

    def _is_possible_chance(self, outcome: C) -> bool:
        return any(outcome == possible for possible, _ in self.chance_outcomes())

    def sample_chance(self, rng: random.Random) -> C:
        """One chance outcome drawn from `rng`; games with many outcomes override it."""
        outcomes = self.chance_outcomes()
        weights = [probability for _, probability in outcomes]
        return rng.choices([outcome for outcome, _ in outcomes], weights)[0]

    @property
    def match_game(self) -> int:
        """Which game of a match is being played (1, 2, ...); 1 where there is no match.
        A clock whose reserve is given per game refills it when this grows."""
        return 1

    def playout_actions(self, seat: Seat) -> list[A]:
        """What a random playout chooses from: every legal action, unless the game leaves
        out optional decisions that would end most random games at once (doubling
        the stake, resigning)."""
        return self.legal_actions(seat)

    def determinize(self, seat: Seat, rng: random.Random) -> State[A, C]:
        """A full state consistent with what `seat` knows: what a bot may search on.

        Games with hidden information override this to drop or resample what the
        seat cannot see; for the others it is a plain copy.
        """
        return self.copy()

    # --- the public contract, shared by every game -------------------------------------

    def apply(self, seat: Seat, action: A | str, *, check: bool = True) -> None:
        """Apply `seat`'s action (an action or its notation).

        Raises InvalidAction for text that is no action of the game and IllegalAction
        for an action that is not legal now. Bots that took the action from
        `legal_actions` may pass `check=False` to skip the second look-up.
        """
        if isinstance(action, str):
            if action.strip().lower() == FORFEIT:
                self.forfeit(seat)
                return
            action = self.game.parse_action(action)
        if check:
            if self.is_over:
                raise IllegalAction("The game is over.")
            if self.is_chance:
                raise IllegalAction("The dice or cards must come first.")
            if seat not in self.to_act:
                raise IllegalAction("It is not seat {seat}'s decision now.", seat=seat)
            action = self._canonical(seat, action)
            if action not in self.legal_actions(seat):
                raise self._why_illegal(seat, action)
        self._log = (MOVE, seat, action, self._log)  # printed only when the record is read
        self._apply(seat, action)

    def forfeit(self, seat: Seat) -> None:
        """`seat`, which must act now, loses the game by forfeit (its time ran out in a
        rated game of two): recorded as its move `forfeit`; the game is over, and the seat
        is among no winners. Each game says how its end is scored (`_forfeit`)."""
        if self.is_over:
            raise IllegalAction("The game is over.")
        if seat not in self.to_act:
            raise IllegalAction("It is not seat {seat}'s decision now.", seat=seat)
        self._log = (MOVE, seat, FORFEIT, self._log)
        self._forfeit(seat)

    def _forfeit(self, seat: Seat) -> None:
        """End the game with `seat` losing by forfeit; games override it."""
        raise IllegalAction("This game cannot be lost by forfeit.")

    @property
    def forfeited(self) -> Seat | None:
        """The seat that lost the game by forfeit, or None (read from the log, so a copy
        of the state knows it too)."""
        if not self.is_over:
            return None
        log = self._log
        while log is not None:
            kind, seat, item, log = log
            if kind == MOVE:
                return seat if item == FORFEIT else None
        return None

    def apply_chance(self, outcome: C | str, *, check: bool = True) -> None:
        """Resolve the pending chance event with `outcome` (an outcome or its notation)."""
        if isinstance(outcome, str):
            outcome = self.game.parse_chance(outcome)
        outcome = self._canonical_chance(outcome)
        if check:
            if not self.is_chance:
                raise IllegalAction("No dice roll or card draw is due now.")
            if not self._is_possible_chance(outcome):
                raise IllegalAction("{outcome} cannot happen now.", outcome=str(outcome))
        readers = self._chance_readers(outcome)
        self._log = (CHANCE, None, outcome if readers is None else Secret(outcome, readers), self._log)
        self._apply_chance(outcome)

    def _record(self, kind: str, seat: Seat | None, text: str) -> None:
        self._log = (kind, seat, text, self._log)

    def _record_auto(self, seat: Seat | None, text: str) -> None:
        """Log a forced step the rules made by themselves (a penalty, a cross-out...)."""
        self._record(AUTO, seat, text)

    def check_auto_event(self, index: int, seat: Seat | None, text: str) -> None:
        """During replay: the forced step at `index` must be the one the rules made."""
        events = self.events()
        if index >= len(events) or events[index] != (AUTO, seat, text):
            raise InvalidRecord(
                "Event {number} ({text}) is a forced step the rules did not make.", number=index + 1, text=text
            )

    def events(self) -> list[Event]:
        """Every event so far, oldest first."""
        return log_events(self._log)

    def events_for(self, seat: Seat | None) -> list[Event]:
        """The events as `seat` may read them (None: a spectator). Same length and order
        as `events()`; an event the seat may not read yet keeps its kind and seat, and
        its text is HIDDEN. Once the game is over nothing is hidden. Every surface that
        shows events (terminal, web, server, replay, download) shows these."""
        if self.is_over:
            return self.events()
        return self._hide_pending(log_events_for(self._log, seat), seat)

    def record(self) -> Record:
        """A JSON-able record that `game.replay` turns back into this state."""
        return make_record(self.game.id, self.game.options, self.events())

    def record_for(self, seat: Seat | None) -> Record:
        """The record as `seat` may read it: `events_for(seat)` (the whole record once over)."""
        return make_record(self.game.id, self.game.options, self.events_for(seat))

    def __eq__(self, other: object) -> bool:
        """Two states are equal when they are of one game and their histories match."""
        if not isinstance(other, State):
            return NotImplemented
        return self.record() == other.record() and self.view(None) == other.view(None)

    __hash__ = None  # type: ignore[assignment]
