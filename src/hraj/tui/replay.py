"""A recorded game in the terminal: all at once, or move by move with back and jump.

The record is checked as a whole before anything is shown (`game.replay`); the
replay then keeps one frame per move, numbered as every part of hraj numbers moves
(`hraj.core.record.move_events`): frame n is the position where move n was made
(the dice or cards before it already there), with the lines that led to it and the
move itself; after the last move comes the end. Stepping back or jumping to a move
costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text

from hraj.core.game import Game, State
from hraj.core.record import MOVE
from hraj.i18n import t
from hraj.tui.play import event_lines, renderer

BACK = {"b", "back", "z", "zpět", "zpet", "späť", "spat"}
QUIT = {"q", "quit", "konec", "koniec", "exit"}
STEP_HELP = "Go through the game move by move: Enter next, b back, a number jumps to that move, q quits."


@dataclass
class Frame:
    """The position where move `number` was made, the lines that led to it and, below
    the table, the move itself (none for the end, which comes after the last move)."""

    number: int
    lines: list[Text]
    state: State[Any, Any]
    move: Text | None = None


class Replay:
    """Shows a replayed game with the players' names."""

    def __init__(
        self,
        game: Game[Any, Any],
        final: State[Any, Any],
        names: Sequence[str],
        lang: str,
        console: Console,
        genders: Sequence[str | None] = (),
    ) -> None:
        self.view_module = renderer(game.id)
        self.names = list(names)
        self.genders = list(genders) or [None] * len(self.names)
        self.lang = lang
        self.console = console
        self.frames = self._frames(game, final)
        self.final = final

    def _frames(self, game: Game[Any, Any], final: State[Any, Any]) -> list[Frame]:
        state = game.new_state()
        frames: list[Frame] = []
        lines: list[Text] = []
        events = final.events()
        said = event_lines(game.id, events, self.names, self.genders, self.lang, final.view(None))
        for index, (kind, seat, text) in enumerate(events):
            sentence = said[index]
            line = sentence.copy() if isinstance(sentence, Text) else Text(sentence if sentence is not None else text)
            if kind == MOVE:
                assert seat is not None
                number = len(frames) + 1
                frames.append(Frame(number, lines, state.copy(), Text(f"{number}. ", style="bold").append(line)))
                lines = []
                state.apply(seat, text)
            else:
                if kind == "chance":
                    state.apply_chance(text)
                lines.append(line)
        frames.append(Frame(len(frames) + 1, lines, state.copy()))
        return frames

    def board(self, state: State[Any, Any]) -> RenderableType:
        body: RenderableType = self.view_module.render(state.view(None), self.lang, self.names)
        return body

    def show(self, frame: Frame) -> None:
        for line in frame.lines:
            self.console.print(line)
        self.console.print(self.board(frame.state))
        if frame.move is not None:
            self.console.print(Text("→ ").append(frame.move))

    def show_all(self) -> None:
        for frame in self.frames:
            self.show(frame)
        self.scores()

    def scores(self) -> None:
        outcome = self.final.outcome
        if outcome is not None:
            scores = ", ".join(f"{self.names[s]} {score:g}" for s, score in enumerate(outcome.scores))
            self.console.print(Text(t("Final scores", self.lang) + ": " + scores))

    def step_through(self, ask: Callable[[str], str]) -> None:
        """Enter: next; b: back; a number: that move; q (or the end of input): quit."""
        moves = len(self.frames) - 1
        index, shown = 0, -1
        while True:
            frame = self.frames[index]
            if index != shown:  # an answer that is no step draws nothing again
                if frame.move is None:
                    title = t("The end, after move {total}", self.lang, total=moves)
                else:
                    title = t("Move {number} of {total}", self.lang, number=frame.number, total=moves)
                self.console.rule(Text(title))
                self.show(frame)
                if frame.move is None:
                    self.scores()
                shown = index
            if frame.move is None:
                prompt = t("The end. b back, a number jumps, q quits: ", self.lang)
            else:
                prompt = t(
                    "Move {number} of {total}. Enter next, b back, a number jumps, q quits: ",
                    self.lang,
                    number=frame.number,
                    total=moves,
                )
            try:
                answer = ask(prompt).strip().lower()
            except EOFError:  # input ran out: the replay simply ends
                return
            if answer in QUIT:
                return
            if answer in BACK:
                index = max(0, index - 1)
            elif answer.isdigit():
                index = min(max(int(answer), 1), len(self.frames)) - 1
            elif answer:  # anything else is no step: said, and asked again
                self.console.print(Text(t(STEP_HELP, self.lang), style="red"))
            elif index == len(self.frames) - 1:
                return
            else:
                index += 1
