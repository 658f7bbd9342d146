"""The registry checks what a game's package names (its class, bots, adviser) before anyone uses it."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

import hraj
from hraj.core.bot import bot_names
from hraj.core.hints import adviser
from hraj.core.registry import GROUP, game_class, register, unregister
from hraj.games.qwixx import bots, hints


def test_an_entry_point_that_names_no_game_class_is_refused_by_its_name() -> None:
    game_id = register(EntryPoint(name="notagame", value="random:Random", group=GROUP))
    try:
        with pytest.raises(TypeError, match=r"notagame = random:Random .* names no Game subclass"):
            game_class("notagame")
    finally:
        unregister(game_id)
    assert game_class("qwixx").id == "qwixx"


def test_a_game_part_that_names_no_bot_or_adviser_class_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "BOTS", {"broken": object})
    with pytest.raises(TypeError, match="names no Bot subclass as 'broken'"):
        bot_names("qwixx")
    monkeypatch.setattr(hints, "ADVISER", object)
    with pytest.raises(TypeError, match="is no Adviser subclass"):
        adviser(hraj.game("qwixx"))
