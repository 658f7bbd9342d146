"""Each game says which clocks fit it, and what a match clock needs of it."""

from __future__ import annotations

import hraj
from hraj.clocks.controls import presets


def test_backgammon_is_timed_as_a_match_and_the_others_by_moves() -> None:
    families = {game_id: hraj.game(game_id).clock_family for game_id in hraj.GAMES}
    assert families == {"qwixx": "moves", "trefa": "moves", "backgammon": "match", "abluxxen": "moves"}
    assert presets(families["backgammon"])[0].id == "usbgf"


def test_a_match_counts_its_points_and_its_games() -> None:
    match = hraj.game("backgammon", match_length=5, first=0)
    assert match.match_points == 5 and hraj.game("backgammon").match_points == 1
    state = match.new_state()
    assert state.match_game == 1
    assert hraj.game("qwixx", players=2).match_points == 1 and hraj.game("qwixx", players=2).new_state().match_game == 1
