"""Each game's phrases live in its own folder's catalog, none in the shared ones."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_game_phrase_is_left_in_the_shared_catalogs() -> None:
    """What `scripts/move_game_phrases.py` would move: a message of the shared catalogs
    that only one game's folder uses. Run the script after adding such a phrase there."""
    path = ROOT / "scripts" / "move_game_phrases.py"
    spec = importlib.util.spec_from_file_location("move_game_phrases", path)
    assert spec is not None and spec.loader is not None
    mover = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mover  # its dataclass looks its module up
    spec.loader.exec_module(mover)
    assert mover.movable() == {}
