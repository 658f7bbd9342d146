"""Every game's screens fit an 80×24 terminal with the last moves in sight.

A person plays whole seeded games against bots, at the most seats each game takes and
at two, in Czech (long words) and English. At every prompt the 23 lines above it (the
24th is the prompt's own) must hold the whole table, the heading of the choices and
the log's newest lines; at the end, the final table, the scores and the last move.
"""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

import hraj
from hraj.i18n import t
from hraj.tui.play import TerminalTable, parse_seats, renderer
from hraj.tui.screen import LAST_MOVES, choices, lines_of

WIDTH, HEIGHT = 80, 24
MOST_SEATS = {"qwixx": 5, "trefa": 6, "backgammon": 2, "abluxxen": 5}
#: The bot each game's other seats get: quick, and playing long enough games.
BOTS = {"qwixx": "random", "trefa": "greedy", "backgammon": "pubeval", "abluxxen": "greedy"}
NAMES = ["Kristýna Nováková", "Bot", "Bot", "Bot", "Bot", "Bot"]
#: Choices the person leaves alone, so that a game runs long enough to check.
GIVING_UP = ("resign", "drop")


def plain(console: Console) -> list[str]:
    return [line.rstrip() for line in console.export_text(clear=False).splitlines()]


def first_line(console: Console, table: TerminalTable, seat: int | None) -> str:
    """The first line of the table as `seat` sees it now, drawn on a console like `console`."""
    probe = Console(record=True, width=WIDTH, height=HEIGHT, color_system=None, file=io.StringIO())
    probe.print(renderer(table.game.id).render(table.game_state.view(seat), table.lang, table.names))
    return plain(probe)[0]


def assert_in_sight(screen: list[str], wanted: list[str], what: str) -> None:
    """`wanted` lines stand in `screen` in this order (a line may recur earlier, off screen)."""
    at = 0
    for line in wanted:
        found = [index for index in range(at, len(screen)) if screen[index] == line]
        assert found, f"{what}: {line!r} is not on the 80×24 screen:\n" + "\n".join(screen)
        at = found[0] + 1


def play_through(game_id: str, seats: int, lang: str, seed: int) -> int:
    """Plays one game as seat 0 and checks every screen; returns how many it checked."""
    console = Console(record=True, width=WIDTH, height=HEIGHT, color_system=None, file=io.StringIO())
    options = {} if game_id == "backgammon" else {"players": seats}
    game = hraj.game(game_id, **options)
    players = parse_seats(game_id, ",".join(["me"] + [BOTS[game_id]] * (seats - 1)), seed=seed, lang=lang)
    players[0].name = NAMES[0]
    rng = random.Random(seed)
    checked = 0
    printed = 0

    def ask(prompt: str) -> str:
        nonlocal checked, printed
        everything = plain(console)
        screen = everything[-(HEIGHT - 1) :]
        # the newest lines of the log printed since the last prompt (the person may act twice)
        new = everything[printed:]
        printed = len(everything)
        recent = [line.plain for line in table.recent if line.plain in new][-LAST_MOVES:]
        wanted = [*recent, first_line(console, table, 0)]
        assert_in_sight(screen, wanted, f"{game_id} with {seats}, {lang}, seed {seed}")
        heading = choices([], str, lang, WIDTH, 1)
        assert plain_text(heading) in screen
        checked += 1
        legal = [str(action) for action in table.game_state.legal_actions(table.game_state.to_act[0])]
        playing = [number for number, action in enumerate(legal, start=1) if not action.startswith(GIVING_UP)]
        return str(rng.choice(playing or [1]))

    table = TerminalTable(game, players, lang=lang, seed=seed, console=console, ask=ask)
    table.run()
    end = plain(console)[-HEIGHT:]
    assert_in_sight(end, [*[line.plain for line in table.recent][-1:], first_line(console, table, None)], "the end")
    assert any(line.startswith(t("Final scores", lang)) for line in end)
    return checked


def plain_text(renderable: object) -> str:
    probe = Console(record=True, width=WIDTH, color_system=None, file=io.StringIO())
    probe.print(renderable)
    return probe.export_text().rstrip()


@pytest.mark.parametrize("lang", ["cs", "en"])
@pytest.mark.parametrize("game_id", sorted(MOST_SEATS))
def test_every_screen_of_a_game_at_the_most_seats_fits_80_by_24(game_id: str, lang: str) -> None:
    assert play_through(game_id, MOST_SEATS[game_id], lang, seed=3) > 5


@pytest.mark.parametrize("game_id", sorted(MOST_SEATS))
def test_every_screen_of_a_two_player_game_fits_80_by_24(game_id: str) -> None:
    assert play_through(game_id, 2, "cs", seed=8) > 5


def test_choices_that_do_not_fit_are_cut_with_a_note_and_all_lists_them() -> None:
    actions = [f"write {letters}" for letters in ("k", "w", "r", "y", "g", "b") * 6]
    console = Console(record=True, width=WIDTH, color_system=None, file=io.StringIO())
    cut = choices(actions, str, "cs", WIDTH, 3)
    assert lines_of(console, cut) == 1 + 3
    assert "12 write b" in plain_text(cut) and "13 write k" not in plain_text(cut)
    assert "… a ještě 24 dalších: vypíšete je příkazem all." in plain_text(cut)
    whole = choices(actions, str, "cs", WIDTH, None)
    assert "36 write b" in plain_text(whole)
