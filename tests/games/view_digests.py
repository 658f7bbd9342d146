"""Digests of the JSON that every game's views serialise to, over seeded random games of
every conformance option set: the browser, the server protocol and stored records read
that JSON, so a faster or typed view must give it byte for byte.

Regenerate (only when a view's content is meant to change):
`.venv/bin/python -m tests.games.view_digests > tests/games/view_digests.json`.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections.abc import Mapping

import hraj
from hraj.core.jsondata import GameOptions
from hraj.core.registry import game_class

#: Decisions and chance events looked at per game, so that the test stays fast.
STEPS = 250


def view_digest(game_id: str, options: Mapping[str, object], seed: int) -> str:
    """SHA-256 of the views of every seat and of a spectator, at the first `STEPS` steps
    of a seeded game and at its end."""
    game = hraj.game(game_id, **options)
    state = game.new_state()
    rng = random.Random(seed)
    digest = hashlib.sha256()
    for step in itertools.count():
        if step < STEPS or state.is_over:
            for seat in [None, *range(game.players)]:
                digest.update(json.dumps(state.view(seat), ensure_ascii=False).encode())
        if state.is_over:
            break
        if state.is_chance:
            state.apply_chance(state.sample_chance(rng), check=False)
        else:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)), check=False)
    return digest.hexdigest()


def cases() -> list[tuple[str, GameOptions]]:
    return [(game_id, options) for game_id in hraj.GAMES for options in game_class(game_id).conformance_options()]


def digests() -> dict[str, str]:
    return {
        f"{game_id} {json.dumps(options, sort_keys=True)}": view_digest(game_id, options, seed=number)
        for number, (game_id, options) in enumerate(cases())
    }


if __name__ == "__main__":
    print(json.dumps(digests(), indent=1))
