"""Replays keep the players' names; stepping goes forward, back, jumps and quits."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from rich.console import Console

import hraj
from hraj.core import random_playout
from hraj.tui.replay import Replay
from tests.cli.helpers import hraj as run_hraj


def finished_qwixx(seed: int = 4) -> hraj.State:  # type: ignore[type-arg]
    state = hraj.game("qwixx", players=2).new_state()
    random_playout(state, random.Random(seed))
    return state


def test_stepping_goes_forward_back_jumps_and_quits() -> None:
    final = finished_qwixx()
    console = Console(record=True, width=100, color_system=None)
    replay = Replay(hraj.game("qwixx", players=2), final, ["Eva", "Petr"], "en", console)
    prompts: list[str] = []
    answers = iter(["", "", "b", "5", "q"])

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    replay.step_through(ask)
    total = len(replay.frames) - 1
    shown = [prompt.split(".")[0] for prompt in prompts]
    assert shown == [f"Move {n} of {total}" for n in (1, 2, 3, 2, 5)]
    assert "Eva" in console.export_text()


def test_replay_from_the_command_line_shows_the_saved_names(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    final = finished_qwixx()
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**final.record(), "players": ["Eva", "Petr"]}), encoding="utf-8")
    ran = run_hraj(capsys, monkeypatch, "replay", str(path), lang="cs")
    assert ran.code == 0, ran.err
    assert "Eva" in ran.out and "Petr" in ran.out and "Hráč 1" not in ran.out
    assert "Konečné skóre: Eva" in ran.out


def test_each_answer_to_one_white_sum_is_a_move_of_its_own() -> None:
    final = finished_qwixx()
    replay = Replay(hraj.game("qwixx", players=2), final, ["Eva", "Petr"], "en", Console(record=True))
    answers = sum(1 for kind, _, _ in final.events() if kind == "move")
    # every decision is a move, numbered as the analysis numbers it; the end comes after them
    assert len(replay.frames) == answers + 1
    assert all(frame.move is not None for frame in replay.frames[:-1]) and replay.frames[-1].move is None


def test_an_answer_that_is_no_step_is_explained_and_moves_nothing() -> None:
    final = finished_qwixx()
    console = Console(record=True, width=100, color_system=None)
    replay = Replay(hraj.game("qwixx", players=2), final, ["Eva", "Petr"], "cs", console)
    prompts: list[str] = []
    answers = iter(["", "abc", "", "q"])

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    replay.step_through(ask)
    assert [prompt.split(".")[0].split()[1] for prompt in prompts] == ["1", "2", "2", "3"]
    text = console.export_text()
    assert "Procházejte hru tah po tahu: Enter další" in text
    assert text.count("Tah 2 z") == 1  # the frame is not drawn again
