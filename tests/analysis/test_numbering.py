"""One numbering of moves: every analysed decision names the move the replay shows it at.

Before, the analysis counted events (a deal of 45 cards was 45 of them), the replay
counted turns and the log numbered its last lines: "move 186" of an analysis was a
position no replay step had. Now move n is the n-th decision of any seat, in all four
games, and the replay's move n is the position where that decision was made."""

from __future__ import annotations

import random
from typing import Any

import pytest

import hraj
from hraj.analysis.game import analyse
from hraj.core.bot import make_bot, strongest_bot
from hraj.core.driver import play_game
from hraj.core.record import MOVE, move_events, move_numbers
from hraj.games.abluxxen import hints as abluxxen_hints
from hraj.tui.replay import Replay
from hraj.web.replays import position_end

CASES: list[tuple[str, dict[str, Any]]] = [
    ("qwixx", {"players": 3}),
    ("trefa", {"players": 2}),
    ("backgammon", {}),
    ("abluxxen", {"players": 3}),
]


def record(game_id: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """A random player in seat 0 against the strongest level (greedy for Abluxxen: no clock)."""
    game = hraj.game(game_id, **options)
    other = "greedy" if game_id == "abluxxen" else strongest_bot(game_id)
    bots = [make_bot(game_id, "random" if seat == 0 else other, seed + seat) for seat in range(game.players)]
    return dict(play_game(game.new_state(), bots, random.Random(seed)).record())


@pytest.fixture(autouse=True)
def quick_abluxxen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(abluxxen_hints, "QUICK_DEALS", 2)
    monkeypatch.setattr(abluxxen_hints, "QUICK_HORIZON", 2)


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=[game for game, _ in CASES])
def test_every_analysed_decision_is_the_replay_s_position_of_its_move(game_id: str, options: dict[str, Any]) -> None:
    game = hraj.game(game_id, **options)
    played = record(game_id, options, 3)
    events = [tuple(event) for event in played["events"]]
    result = analyse(game, played, seed=3)
    moves = move_events(events)
    assert result.decisions and result.moves == len(moves)
    for decision in result.decisions:
        assert 1 <= decision.move <= len(moves)
        assert moves[decision.move - 1] == decision.event == position_end(events, decision.move)
        kind, seat, text = events[decision.event]
        assert (kind, seat, text) == (MOVE, decision.seat, decision.played)
        # the replay at that move is the position the seat decided in: its option is legal there
        before = game.replay_events(events[: position_end(events, decision.move)], whole=False)
        assert decision.seat in before.to_act
        assert text in {str(action) for action in before.legal_actions(decision.seat)}
    assert max(d.move for d in result.worst(len(result.decisions))) <= len(moves)


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=[game for game, _ in CASES])
def test_the_terminal_replay_steps_by_the_same_moves(game_id: str, options: dict[str, Any]) -> None:
    from rich.console import Console

    game = hraj.game(game_id, **options)
    played = record(game_id, options, 5)
    final = game.replay(played)
    names = [f"P{seat}" for seat in range(game.players)]
    replay = Replay(game, final, names, "en", Console(file=None, width=120, record=True))
    events = final.events()
    moves = move_events(events)
    assert [frame.number for frame in replay.frames] == list(range(1, len(moves) + 2))
    for frame in replay.frames[:-1]:
        expected = game.replay_events(events[: position_end(events, frame.number)], whole=False)
        assert frame.state.view(None) == expected.view(None)
    assert replay.frames[-1].state.is_over


def test_every_event_is_logged_under_the_move_it_follows() -> None:
    events = [("chance", None, "31"), ("move", 0, "8/5 6/5"), ("move", 1, "roll"), ("chance", None, "64")]
    assert move_numbers(events) == [0, 1, 2, 2]
