"""Terminal play for every game: people at one keyboard and bots around one table.

The loop asks the state who acts, draws the table from that seat's view only, lists
the legal actions, and checks every input through the game's own parser and rules.
A game plugs in with a module `tui` in its own folder that provides `render(view, lang,
names)`, `NOTATION_HELP`, and optionally `describe(action, lang)`. What is secret is
the game's to say (`events_for`, `view`, `Game.hidden_hands`), never the renderer's.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.text import Text

from hraj.core.bot import Bot, make_bot
from hraj.core.errors import HrajError, InvalidOption
from hraj.core.game import Game, State
from hraj.core.record import HIDDEN, Event
from hraj.core.registry import game_part
from hraj.i18n import GENDERS, distinct_names, error_text, log_lines, seat_name, t, tn
from hraj.tui.screen import LAST_MOVES, Layout, choices, clear_all, lines_of

PEOPLE = {"me", "human", "person", "já", "ja", "clovek", "člověk"}
QUIT = {"q", "quit", "konec", "koniec", "exit"}
HELP = {"?", "help", "napoveda", "nápověda", "pomoc", "pomocník", "pomocnik"}
HINT = {"hint", "rada", "tip"}
UNDO = {"undo", "zpět", "zpet", "späť", "spat"}
ALL = {"all", "vše", "vse", "všetko", "vsetko"}


@dataclass
class SeatPlayer:
    """Who sits in a seat: a person (bot is None) or a bot."""

    name: str
    bot: Bot | None
    #: The grammatical gender the log's sentences use ("m", "f"); None: not given.
    gender: str | None = None


COMMANDS_HELP = (
    "At any prompt: a number or a move plays it; hint shows what the best bot would play; "
    "undo takes back your last move (against bots); all lists every legal move; q quits."
)


class QuitGame(Exception):
    """A person chose to leave the game."""


def name_and_gender(text: str) -> tuple[str, str | None]:
    """`Eva:f` -> ("Eva", "f"): a name may end with `:m` or `:f`, the grammatical gender
    the log's Czech and Slovak sentences use for that player."""
    name, colon, gender = text.rpartition(":")
    if colon and gender.strip().lower() in GENDERS:
        return name.strip(), gender.strip().lower()
    return text.strip(), None


def parse_seats(game_id: str, text: str, seed: int, lang: str) -> list[SeatPlayer]:
    """Seats from `me,greedy,human:Eva:f`; unknown words get an error that lists choices.
    A bot, and a person left unnamed ("Player 2"), is masculine as those words are."""
    players: list[SeatPlayer] = []
    for number, raw in enumerate(filter(None, (part.strip() for part in text.split(","))), start=1):
        word, _, rest = raw.partition(":")
        name, gender = name_and_gender(rest)
        if word.lower() in PEOPLE:
            players.append(SeatPlayer(name or t("Player {n}", lang, n=number), None, gender if name else "m"))
        else:
            bot = make_bot(game_id, word, seed * 1000 + number)
            players.append(SeatPlayer(name or seat_name(game_id, number - 1, lang, bot=bot.name), bot, gender or "m"))
    if not players:
        raise InvalidOption("Name at least one seat, for example: me,greedy.")
    # A seat has one name everywhere: a bot its level as the menus say it ("Bot (Expert)"),
    # two of one kind their seat numbers too, as the web table says them.
    names = distinct_names([player.name for player in players])
    return [SeatPlayer(name, player.bot, player.gender) for name, player in zip(names, players, strict=True)]


def renderer(game_id: str) -> ModuleType:
    """The `tui` module of the game's own folder."""
    module = game_part(game_id, "tui")
    if module is None:
        raise InvalidOption("{game} cannot be played in the terminal yet.", game=game_id)
    return module


def describe_with(view_module: ModuleType, text: str, lang: str) -> str:
    """An action or forced step in the words of the game's renderer (notation if it has none)."""
    describe: Callable[[str, str], str] | None = getattr(view_module, "describe", None)
    if describe is not None:
        try:
            return describe(text, lang)
        except (KeyError, IndexError, ValueError):
            return text
    return text


#: How the log's lines look: chance dim, forced steps yellow, decisions plain.
EVENT_STYLES = {"chance": "dim", "auto": "yellow", "move": ""}


def event_lines(
    game_id: str,
    events: Sequence[Event],
    names: Sequence[str],
    genders: Sequence[str | None],
    lang: str,
    view: Mapping[str, object] | None = None,
) -> list[Text | None]:
    """Every event as the sentence the web's log shows too ("Eva zakřížkovala červenou
    5"), styled by kind; None for an event the reader may not read. Names are plain text,
    never read as markup."""
    said = log_lines(game_id, events, names, genders, lang, view)
    return [
        None if line is None else Text(line, style=EVENT_STYLES.get(kind, ""))
        for (kind, _, _), line in zip(events, said, strict=True)
    ]


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
        advisor: Bot | None = None,
    ) -> None:
        self.game = game
        #: The bot whose choice `hint` shows (the game's best bot).
        self.advisor = advisor
        self.hint_rng = random.Random(seed + 1)
        self.hint_seed = seed + 7
        self.has_adviser = game_part(game.id, "hints") is not None
        self.players = list(players)
        self.lang = lang
        self.rng = random.Random(seed)
        self.console = console or Console(emoji=False)
        self.ask = ask or self.console.input
        self.view_module = renderer(game.id)
        self.names = [player.name for player in self.players]
        self.genders = [player.gender for player in self.players]
        self.people = [seat for seat, player in enumerate(self.players) if player.bot is None]
        self.hide_between_people = game.hidden_hands and len(self.people) > 1
        self.last_person: int | None = None
        #: A person's answer is pending unseen by the others: clear the screen before the next person.
        self.answer_hidden = False
        #: Whose events the shared screen prints: the one person's, else a spectator's,
        #: so that nobody at the keyboard reads a card that is not theirs.
        self.viewer: int | None = self.people[0] if len(self.people) == 1 else None
        self.shown: list[Event] = []
        #: The newest lines of the log, shown again after the screen is cleared for a person.
        self.recent: deque[Text] = deque(maxlen=LAST_MOVES)

    @property
    def layout(self) -> Layout:
        """The lines of the screen now (a terminal may be resized during a game)."""
        return Layout(self.console.height)

    def describe(self, action: object) -> str:
        return describe_with(self.view_module, str(action), self.lang)

    def draw(self, seat: int | None) -> int:
        """Print the table as `seat` sees it; returns the lines it took."""
        body: RenderableType = self.view_module.render(self.game_state.view(seat), self.lang, self.names)
        self.console.print(body)
        return lines_of(self.console, body)

    def run(self, state: State[Any, Any] | None = None) -> State[Any, Any]:
        """Play until the end (or until a person quits: QuitGame carries the state)."""
        self.game_state = state if state is not None else self.game.new_state()
        if state is not None:
            self.shown = state.events_for(self.viewer)  # a resumed game: only what happens from now
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
        readable later (an answer once all have answered) is printed then, but the
        cards revealed when the game ends are left to the final table."""
        events = self.game_state.events_for(self.viewer)
        over = self.game_state.is_over
        lines = self.event_lines(events)
        for index, (_, _, text) in enumerate(events):
            seen_before = index < len(self.shown)
            line = lines[index]
            if line is None or text == HIDDEN or (seen_before and (over or self.shown[index][2] != HIDDEN)):
                continue
            self.console.print(line)
            self.recent.append(line)
        self.shown = events

    def event_lines(self, events: Sequence[Event]) -> list[Text | None]:
        """The events as the log's sentences, in this table's names and genders."""
        return event_lines(self.game.id, events, self.names, self.genders, self.lang, self.game_state.view(self.viewer))

    def secret_answer(self) -> bool:
        """Several people answer the same question at once (a roll every seat may use): each
        answer stays hidden from the others until all are in."""
        return len([seat for seat in self.game_state.to_act if seat in self.people]) > 1

    def play_person(self, seat: int) -> None:
        """Ask a person until the rules accept their move, and apply it."""
        if self.last_person != seat and (self.hide_between_people or self.answer_hidden):
            self.answer_hidden = False
            clear_all(self.console)
            self.ask(
                t(
                    "{name}, it is your turn. Make sure nobody else looks, then press Enter.",
                    self.lang,
                    name=escape(self.names[seat]),
                )
            )
            for line in self.recent:  # the last moves, as anyone at the table may read them
                self.console.print(line)
        self.last_person = seat
        rows = self.layout.choice_rows(self.draw(seat))
        legal = self.game_state.legal_actions(seat)
        self.list_choices(legal, rows=rows)
        while True:
            text = self.ask(f"[bold]{escape(self.names[seat])}[/bold] > ").strip()
            if text.lower() in QUIT:
                raise QuitGame
            if text.lower() in HELP or not text:
                self.console.print(t(self.view_module.NOTATION_HELP, self.lang), markup=False)
                self.console.print(t(COMMANDS_HELP, self.lang), markup=False)
                self.list_choices(legal, rows=rows)
                continue
            if text.lower() in ALL:
                self.list_choices(legal, everything=True)
                continue
            if text.lower() in HINT:
                self.hint(seat)
                continue
            if text.lower() in UNDO:
                if self.undo(seat):
                    return
                continue
            chosen: object = text  # a move's notation, or the listed move its number picks
            if text.isdigit():
                if not 1 <= int(text) <= len(legal):
                    self.console.print(Text(self.out_of_range(len(legal)), style="red"))
                    continue
                chosen = legal[int(text) - 1]
            secret = self.secret_answer()
            try:
                self.game_state.apply(seat, chosen)  # refused input changes nothing
                self.answer_hidden = secret
                if chosen is text:
                    self.say_how_recorded(seat, text)
                return
            except HrajError as error:
                self.console.print(Text(error_text(error, self.lang), style="red"))

    def say_how_recorded(self, seat: int, typed: str) -> None:
        """A typed move the record writes otherwise (`13/8` as `13/9 9/8`) is said so,
        for the log's line to read as the move just made."""
        recorded = next(
            text for kind, who, text in reversed(self.game_state.events()) if kind == "move" and who == seat
        )
        if " ".join(typed.lower().split()) != recorded.lower():
            self.console.print(
                Text(t("{typed} is recorded as {move}.", self.lang, typed=typed, move=recorded), style="dim")
            )

    def hint(self, seat: int) -> None:
        """Every option ranked by the game's strongest bot, with its value and reasons
        (`hraj.core.hints`); where a game has no adviser, the best bot's choice."""
        from hraj.analysis.game import hint
        from hraj.tui.analysis import hint_table

        if self.advisor is None:
            self.console.print(t("No hints in this game.", self.lang))
            return
        found = hint(self.game_state, seat, seed=self.hint_seed, rng=self.hint_rng) if self.has_adviser else None
        if found is not None:
            options, used = found
            self.console.print(hint_table(options, self.lang, self.describe, estimate=used.is_estimate()))
            return
        choice = self.advisor.choose(self.game_state.determinize(seat, self.hint_rng), seat)
        advice = t("{bot} would play: {move}", self.lang, bot=self.advisor.name, move=self.describe(choice))
        self.console.print(
            Text(advice + (f"  ({choice})" if self.describe(choice) != str(choice) else ""), style="green")
        )

    def undo(self, seat: int) -> bool:
        """Take back this seat's last decision, with everything after it; only when every
        other seat is a bot (at a shared keyboard the others have seen it)."""
        if len(self.people) != 1:
            self.console.print(t("Undo is only for a game against bots.", self.lang))
            return False
        events = self.game_state.events()
        last = max(
            (index for index, (kind, who, _) in enumerate(events) if kind == "move" and who == seat), default=None
        )
        if last is None:
            self.console.print(t("You have made no move to undo.", self.lang))
            return False
        self.game_state = self.game.replay_events(events[:last], whole=False)
        self.shown = self.game_state.events_for(self.viewer)
        self.console.print(t("Your last move is taken back.", self.lang))
        return True

    def out_of_range(self, count: int) -> str:
        """Why a number is no choice: the choices are numbered 1 to `count`."""
        return tn(
            "There is only {count} choice: type 1.",
            "There are {count} choices: type a number from 1 to {count}.",
            count,
            self.lang,
        )

    def list_choices(self, legal: Sequence[object], *, rows: int | None = None, everything: bool = False) -> None:
        """The numbered choices in at most `rows` rows (all with None or `everything`)."""
        self.console.print(choices(legal, self.describe, self.lang, self.console.width, None if everything else rows))

    def finish(self) -> None:
        """The final table, then the scores on a line (the winners starred) and the winners."""
        self.draw(None)
        outcome = self.game_state.outcome
        assert outcome is not None
        scores = ", ".join(
            f"{self.names[seat]} {score:g}{' ★' if seat in outcome.winners else ''}"
            for seat, score in enumerate(outcome.scores)
        )
        self.console.print(Text(t("Final scores", self.lang) + ": " + scores, style="bold"))
        winners = ", ".join(self.names[seat] for seat in outcome.winners)
        self.console.print(
            tn("Winner: {names}", "Winners: {names}", len(outcome.winners), self.lang, names=winners), markup=False
        )
