"""Pig with two dice: a tiny game that lives only in the tests, to prove that a game is
one folder plus one entry point.

The active seat rolls two dice and adds them to its turn total, then rolls again or
holds (banking the total). A 1 on either die loses the turn total and passes the turn
(a forced step, logged as `bust`); two 1s also lose everything banked (`snake eyes`).
The first seat to bank the goal wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from hraj.core.errors import InvalidAction
from hraj.core.game import Game, Option, Outcome, Seat, State, int_in, optional_seat, winners_by_score
from hraj.core.record import EventLog

ROLL, HOLD = "roll", "hold"
FIRST, DICE, DECIDE, OVER = "first", "dice", "decide", "over"


class Pig(Game[str, str]):
    """Two-dice Pig for 2 to 4 players."""

    id = "pig"
    name = "Pig"
    options_spec: ClassVar[Mapping[str, Option]] = {
        "players": Option(2, "number of players, 2-4", int_in(2, 4)),
        "goal": Option(50, "points that win", int_in(10, 500)),
        "first": Option(None, "seat that starts (random if not given)", optional_seat),
    }

    @classmethod
    def conformance_options(cls) -> list[dict[str, Any]]:
        return [{}, {"players": 3, "goal": 30, "first": 1}]

    def new_state(self) -> PigState:
        return PigState(self)

    def parse_action(self, text: str) -> str:
        word = str(text).strip().lower()
        if word not in (ROLL, HOLD):
            raise InvalidAction("{text} is not a move of {game}.", text=text, game=self.name)
        return word

    def parse_chance(self, text: str) -> str:
        words = str(text).split()
        if len(words) == 2 and words[0] == "first" and words[1].isdigit():
            return f"first {int(words[1])}"
        if len(words) == 1 and len(words[0]) == 2 and all(c in "123456" for c in words[0]):
            return words[0]
        raise InvalidAction("{text} is not a roll of {game}.", text=text, game=self.name)


class PigState(State[str, str]):
    """One position of Pig."""

    def __init__(self, game: Pig) -> None:
        self.game = game
        self._log: EventLog = None
        self.players = game.players
        self.goal: int = game.int_option("goal")
        self.scores = [0] * self.players
        self.turn_total = 0
        self.dice: tuple[int, int] | None = None
        first = game.first
        self.active = 0 if first is None else first
        self.phase = FIRST if first is None else DICE

    @property
    def to_act(self) -> tuple[Seat, ...]:
        return (self.active,) if self.phase == DECIDE else ()

    @property
    def is_chance(self) -> bool:
        return self.phase in (FIRST, DICE)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = tuple(float(score) for score in self.scores)
        return Outcome(scores, winners_by_score(scores), "goal")

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if self.phase == FIRST:
            return [(f"first {seat}", 1 / self.players) for seat in range(self.players)]
        if self.phase == DICE:
            return [(f"{a}{b}", 1 / 36) for a in range(1, 7) for b in range(1, 7)]
        return []

    def legal_actions(self, seat: Seat) -> list[str]:
        return [ROLL, HOLD] if self.phase == DECIDE and seat == self.active else []

    def _apply(self, seat: Seat, action: str) -> None:
        if action == ROLL:
            self.phase = DICE
            return
        self.scores[seat] += self.turn_total
        if self.scores[seat] >= self.goal:
            self.phase = OVER
            return
        self._next_seat()

    def _apply_chance(self, outcome: str) -> None:
        if outcome.startswith("first "):
            self.active = int(outcome.split()[1])
            self.phase = DICE
            return
        a, b = int(outcome[0]), int(outcome[1])
        self.dice = (a, b)
        if a == 1 and b == 1:
            self.scores[self.active] = 0
            self._record_auto(self.active, "snake eyes")
            self._next_seat()
        elif 1 in (a, b):
            self._record_auto(self.active, "bust")
            self._next_seat()
        else:
            self.turn_total += a + b
            self.phase = DECIDE

    def _next_seat(self) -> None:
        self.turn_total = 0
        self.active = (self.active + 1) % self.players
        self.phase = DICE

    def view(self, seat: Seat | None) -> dict[str, Any]:
        return {
            "game": "pig",
            "players": self.players,
            "goal": self.goal,
            "phase": self.phase,
            "active": self.active,
            "to_act": list(self.to_act),
            "seat": seat,
            "scores": list(self.scores),
            "turn_total": self.turn_total,
            "dice": None if self.dice is None else list(self.dice),
            "legal": self.legal_actions(seat) if seat is not None else [],
            "outcome": self.outcome_json(),
        }

    def copy(self) -> PigState:
        new = PigState.__new__(PigState)
        new.__dict__.update(self.__dict__)
        new.scores = list(self.scores)
        return new

    def sample_chance(self, rng: random.Random) -> str:
        if self.phase == FIRST:
            return f"first {rng.randrange(self.players)}"
        return f"{rng.randint(1, 6)}{rng.randint(1, 6)}"
