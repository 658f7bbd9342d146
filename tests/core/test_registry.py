"""The registry checks what an entry point names before anyone uses it as a game."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from hraj.core.registry import GROUP, game_class, register, unregister


def test_an_entry_point_that_names_no_game_class_is_refused_by_its_name() -> None:
    game_id = register(EntryPoint(name="notagame", value="random:Random", group=GROUP))
    try:
        with pytest.raises(TypeError, match=r"notagame = random:Random .* names no Game subclass"):
            game_class("notagame")
    finally:
        unregister(game_id)
    assert game_class("qwixx").id == "qwixx"
