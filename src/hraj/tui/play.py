"""Terminal play for every game: people at one keyboard and bots around one table.

The loop asks the state who acts, draws the table from that seat's view only, lists
the legal actions, and checks every input through the game's own parser and rules.
A game plugs in with a module `tui` in its own folder that provides `render(view, lang,
names)`, `NOTATION_HELP`, and optionally `describe(action, lang)`. What is secret is
the game's to say (`events_for`, `view`, `Game.hidden_hands`), never the renderer's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from rich.console import Console, RenderableType
from rich.table import Table

from hraj.core.bot import Bot, make_bot
from hraj.core.errors import HrajError, InvalidOption
from hraj.core.game import Game, State
from hraj.core.record import CHANCE, HIDDEN, MOVE, Event
from hraj.core.registry import game_part
from hraj.i18n import error_text, t

PEOPLE = {"me", "human", "person", "já", "ja", "clovek", "člověk"}
QUIT = {"q", "quit", "konec", "exit"}
HELP = {"?", "help", "napoveda", "nápověda", "pomoc"}
LIST_LIMIT = 40


@dataclass
class SeatPlayer:
    """Who sits in a seat: a person (bot is None) or a bot."""

    name: str
    bot: Bot | None


class QuitGame(Exception):
    """A person chose to leave the game."""


def parse_seats(game_id: str, text: str, seed: int, lang: str) -> list[SeatPlayer]:
    """Seats from `me,greedy,human:Eva`; unknown words get an error that lists choices."""
    players: list[SeatPlayer] = []
    for number, raw in enumerate(filter(None, (part.strip() for part in text.split(","))), start=1):
        word, _, name = raw.partition(":")
        if word.lower() in PEOPLE:
            players.append(SeatPlayer(name.strip() or t("Player {n}", lang, n=number), None))
        else:
            bot = make_bot(game_id, word, seed * 1000 + number)
            players.append(SeatPlayer(name.strip() or f"{bot.name} {number}", bot))
    if not players:
        raise InvalidOption("Name at least one seat, for example: me,greedy.")
    return players


def renderer(game_id: str) -> ModuleType:
    """The `tui` module of the game's own folder."""
    module = game_part(game_id, "tui")
    if module is None:
        raise InvalidOption("{game} cannot be played in the terminal yet.", game=game_id)
    return module


class TerminalTable:
    """Runs one game in a terminal, reading people's moves from `ask`."""

    def __init__(
        self,
        game: Game[Any, Any],
        players: Sequence[SeatPlayer],
        *,
        lang: str,
        seed: int,
        console: Console | None = None,
        ask: Callable[[str], str] | None = None,
    ) -> None:
        self.game = game
        self.players = list(players)
        self.lang = lang
        self.rng = random.Random(seed)
        self.console = console or Console()
        self.ask = ask or self.console.input
        self.view_module = renderer(game.id)
        self.names = [player.name for player in self.players]
        self.people = [seat for seat, player in enumerate(self.players) if player.bot is None]
        self.hide_between_people = game.hidden_hands and len(self.people) > 1
        self.last_person: int | None = None
        #: Whose events the shared screen prints: the one person's, else a spectator's,
        #: so that nobody at the keyboard reads a card that is not theirs.
        self.viewer: int | None = self.people[0] if len(self.people) == 1 else None
        self.shown: list[Event] = []

    def describe(self, action: Any) -> str:
        describe: Callable[[str, str], str] | None = getattr(self.view_module, "describe", None)
        text = str(action)
        return describe(text, self.lang) if describe is not None else text

    def draw(self, seat: int | None) -> None:
        body: RenderableType = self.view_module.render(self.game_state.view(seat), self.lang, self.names)
        self.console.print(body)

    def run(self, state: State[Any, Any] | None = None) -> State[Any, Any]:
        """Play until the end (or until a person quits: QuitGame carries the state)."""
        self.game_state = state if state is not None else self.game.new_state()
        while not self.game_state.is_over:
            if self.game_state.is_chance:
                self.game_state.apply_chance(self.game_state.sample_chance(self.rng), check=False)
            else:
                seat = self.game_state.to_act[0]
                bot = self.players[seat].bot
                if bot is not None:
                    self.game_state.apply(seat, bot.choose(self.game_state.determinize(seat, self.rng), seat))
                else:
                    self.play_person(seat)
            self.show_new_events()
        self.finish()
        return self.game_state

    def show_new_events(self) -> None:
        """Print what the viewer may read and has not seen yet, as the record has it
        (canonical moves, chance, and the steps the rules made by themselves, such as a
        penalty). The game decides what is secret (`events_for`); an event that becomes
        readable later (a Qwixx answer once all have answered) is printed then, but the
        cards revealed when the game ends are left to the final table."""
        events = self.game_state.events_for(self.viewer)
        over = self.game_state.is_over
        for index, event in enumerate(events):
            seen_before = index < len(self.shown)
            if event[2] == HIDDEN or (seen_before and (over or self.shown[index][2] != HIDDEN)):
                continue
            self.console.print(self.event_line(event))
        self.shown = events

    def event_line(self, event: Event) -> str:
        """One event as the terminal prints it (rich markup)."""
        kind, seat, text = event
        if kind == CHANCE:
            return f"[dim]{t('Chance', self.lang)}: {text}[/dim]"
        if kind == MOVE:
            assert seat is not None
            return f"[bold]{self.names[seat]}[/bold]: {self.describe(text)}"
        who = self.names[seat] if seat is not None else t("Rules", self.lang)
        return f"[yellow]{who}: {t(text, self.lang)}[/yellow]"  # e.g. "penalty"

    def play_person(self, seat: int) -> None:
        """Ask a person until the rules accept their move, and apply it."""
        if self.hide_between_people and self.last_person != seat:
            self.console.clear()
            self.ask(
                t(
                    "{name}, it is your turn. Make sure nobody else looks, then press Enter.",
                    self.lang,
                    name=self.names[seat],
                )
            )
        self.last_person = seat
        self.draw(seat)
        legal = self.game_state.legal_actions(seat)
        self.list_choices(legal)
        while True:
            text = self.ask(f"[bold]{self.names[seat]}[/bold] > ").strip()
            if text.lower() in QUIT:
                raise QuitGame
            if text.lower() in HELP or not text:
                self.console.print(t(self.view_module.NOTATION_HELP, self.lang))
                self.list_choices(legal)
                continue
            chosen: Any = text
            if text.isdigit() and 1 <= int(text) <= len(legal) and len(legal) <= LIST_LIMIT:
                chosen = legal[int(text) - 1]
            try:
                self.game_state.apply(seat, chosen)  # refused input changes nothing
                return
            except HrajError as error:
                self.console.print(f"[red]{error_text(error, self.lang)}[/red]")

    def list_choices(self, legal: Sequence[Any]) -> None:
        if len(legal) > LIST_LIMIT:
            examples = ", ".join(str(action) for action in legal[:5])
            self.console.print(
                t("{count} legal moves, for example: {examples}", self.lang, count=len(legal), examples=examples)
            )
            return
        table = Table(show_header=False, box=None, padding=(0, 2))
        for number, action in enumerate(legal, start=1):
            description = self.describe(action)
            label = description if description == str(action) else f"{description}  [dim]({action})[/dim]"
            table.add_row(f"[cyan]{number}[/cyan]", label)
        self.console.print(t("Your choices (type the number or the move; ? for help, q to quit):", self.lang))
        self.console.print(table)

    def finish(self) -> None:
        self.draw(None)
        outcome = self.game_state.outcome
        assert outcome is not None
        table = Table(title=t("Final scores", self.lang))
        table.add_column(t("Player", self.lang))
        table.add_column(t("Points", self.lang), justify="right")
        for seat, score in enumerate(outcome.scores):
            mark = " ★" if seat in outcome.winners else ""
            table.add_row(self.names[seat] + mark, f"{score:g}")
        self.console.print(table)
        winners = ", ".join(self.names[seat] for seat in outcome.winners)
        self.console.print(t("Winner: {names}", self.lang, names=winners))
