"""A recorded game in the terminal: all at once, or move by move with back and jump.

The record is checked as a whole before anything is shown (`game.replay`); the
replay then keeps one frame per decision: the events that led to it and the table
after it, so stepping back or jumping to a move costs nothing. Answers that several
seats give to one question at once take effect together and make one frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text

from hraj.core.game import AskedTogether, Game, State
from hraj.i18n import t
from hraj.tui.play import event_lines, renderer

BACK = {"b", "back", "z", "zpět", "zpet", "späť", "spat"}
QUIT = {"q", "quit", "konec", "koniec", "exit"}
STEP_HELP = "Go through the game move by move: Enter next, b back, a number jumps to that move, q quits."


@dataclass
class Frame:
    """The table after one decision, with the lines that lead to it."""

    number: int
    lines: list[Text]
    state: State[Any, Any]


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
        # Answers that several seats give to one question take effect together: one frame.
        asked = AskedTogether(events)
        for number, (kind, seat, text) in enumerate(events, start=1):
            asked(number - 1, state)
            if kind == "chance":
                state.apply_chance(text)
            elif kind == "move":
                assert seat is not None
                state.apply(seat, text)
            sentence = said[number - 1]
            line = Text(f"{number}. ", style="dim").append(sentence if sentence is not None else Text(text))
            lines.append(line)
            if kind == "move" and not asked.waiting:
                frames.append(Frame(len(frames) + 1, lines, state.copy()))
                lines = []
        if frames and lines:  # what the rules did after the last decision (the end) belongs to it
            frames[-1] = Frame(frames[-1].number, frames[-1].lines + lines, state.copy())
        elif not frames:
            frames.append(Frame(1, lines, state.copy()))
        return frames

    def board(self, state: State[Any, Any]) -> RenderableType:
        body: RenderableType = self.view_module.render(state.view(None), self.lang, self.names)
        return body

    def show(self, frame: Frame) -> None:
        for line in frame.lines:
            self.console.print(line)
        self.console.print(self.board(frame.state))

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
        prompt = t("Move {number} of {total}. Enter next, b back, a number jumps, q quits: ", self.lang)
        index, shown = 0, -1
        while True:
            frame = self.frames[index]
            if index != shown:
                self.console.rule(
                    Text(t("Move {number} of {total}", self.lang, number=frame.number, total=len(self.frames)))
                )
                self.show(frame)
                if index == len(self.frames) - 1:
                    self.scores()
                shown = index
            try:
                answer = ask(prompt.format(number=frame.number, total=len(self.frames))).strip().lower()
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
