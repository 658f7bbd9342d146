"""The option sets the adapters are checked on: every game's conformance variants."""

from __future__ import annotations

import json

import pytest

import hraj
from hraj.core import game_class

CASES = [
    pytest.param(game_id, options, id=f"{game_id}-{json.dumps(options, sort_keys=True)}")
    for game_id in hraj.GAMES
    for options in game_class(game_id).conformance_options()
]
#: The option sets of at most two players (every variant of backgammon and the
#: two-player Abluxxen among them), for the slower checks.
SMALL = [
    pytest.param(game_id, options, id=f"{game_id}-{json.dumps(options, sort_keys=True)}")
    for game_id in hraj.GAMES
    for options in game_class(game_id).conformance_options()
    if game_class(game_id)(**options).players <= 2
]
