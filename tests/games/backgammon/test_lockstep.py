"""Games in lockstep: a batch's legal plays are exactly the engine's, and games played as
arrays are the games the one-at-a-time path plays on the same dice."""

from __future__ import annotations

import random

import numpy as np

from hraj.games.backgammon.afterstates import afterstates, swap
from hraj.games.backgammon.bots import pubeval, pubeval_scores
from hraj.games.backgammon.duel import (
    duel,
    game_dice,
    lockstep_duel,
    net_player,
    play_game,
    pubeval_player,
    pubeval_policy,
    summary,
)
from hraj.games.backgammon.evaluator import shipped
from hraj.games.backgammon.lockstep import (
    Dice,
    batch_afterstates,
    game_points,
    legal_origins,
    net_policy,
    opening_rolls,
    play,
    random_policy,
)
from hraj.games.backgammon.lockstep import swap as batch_swap
from hraj.games.backgammon.moves import START, can_step

from .test_afterstates import _positions


def _batch(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = random.Random(seed)
    positions = np.array([mine + theirs for mine, theirs in _positions(count, seed)], dtype=np.int8)
    dice = np.array([(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(count)])
    return positions, dice


def test_a_batch_has_exactly_the_engines_plays_in_thousands_of_random_positions() -> None:
    positions, dice = _batch(3000, seed=21)
    found = batch_afterstates(positions, dice)
    assert found.starts[0] == 0 and found.starts[-1] == len(found.positions)
    assert (found.counts() >= 1).all()
    for index, position in enumerate(positions):
        _, expected = afterstates(position, (int(dice[index, 0]), int(dice[index, 1])))
        rows = found.positions[found.starts[index] : found.starts[index + 1]]
        assert (found.source[found.starts[index] : found.starts[index + 1]] == index).all()
        seen = [tuple(row) for row in rows.tolist()]
        assert len(seen) == len(set(seen)), index
        assert set(seen) == {tuple(row) for row in expected.tolist()}, (position.tolist(), dice[index])


def test_legal_origins_are_the_engines_single_steps() -> None:
    positions, _ = _batch(1500, seed=22)
    for die in range(1, 7):
        legal = legal_origins(positions, np.full(len(positions), die))
        for index, position in enumerate(positions):
            mine, theirs = position[:26].tolist(), position[26:].tolist()
            expected = [origin for origin in range(1, 26) if can_step(mine, theirs, origin, die)]
            assert np.flatnonzero(legal[index]).tolist() == expected


def test_forced_plays_in_a_batch() -> None:
    empty = [0] * 26
    on_bar = list(empty)
    on_bar[25], on_bar[0] = 2, 13
    closed = list(empty)
    for point in range(1, 6):  # the opponent holds the mover's 20-24 points: only a 6 enters
        closed[point] = 2
    closed[0] = 5
    bear = list(empty)
    bear[6], bear[0] = 1, 14  # one checker on the 6 point, all home
    only_larger = list(empty)
    only_larger[24], only_larger[0] = 1, 14
    blocker = list(empty)
    blocker[2] = blocker[8] = 2  # the opponent holds the mover's 23 and 17 points
    blocker[0] = 11
    positions = np.array([on_bar + closed, bear + empty, only_larger + blocker], dtype=np.int8)
    found = batch_afterstates(positions, np.array([[6, 5], [5, 3], [6, 1]]))
    entered = found.positions[found.starts[0] : found.starts[1]]
    assert len(entered) == 1 and entered[0][25] == 1 and entered[0][19] == 1  # bar/19; the 5 is blocked
    borne = found.positions[found.starts[1] : found.starts[2]]
    assert len(borne) == 1 and borne[0][0] == 15  # 6/1/off and 6/3/off end alike
    larger = found.positions[found.starts[2] : found.starts[3]]
    assert len(larger) == 1 and larger[0][18] == 1 and larger[0][24] == 0  # 24/18, then the 1 is blocked


def test_random_playouts_end_every_game_with_a_score_and_repeat_for_a_seed() -> None:
    start = np.tile(np.array(START + START, dtype=np.int8), (300, 1))
    results = []
    for _ in range(2):
        rng = np.random.default_rng(5)
        results.append(play(start, random_policy(rng), Dice(300, rng, opening_rolls(300, rng)[:, np.newaxis])))
    first, second = results
    assert (first.points == second.points).all() and (first.turns == second.turns).all()
    assert set(np.abs(first.points).tolist()) <= {1.0, 2.0, 3.0} and (first.turns < 2000).all()
    assert 1.0 in np.abs(first.points) and 2.0 in np.abs(first.points)  # random games are often gammons


def test_game_points_count_gammons_and_backgammons() -> None:
    won = [15] + [0] * 25
    single = [3] + [12] + [0] * 24
    gammon = [0, 0, 0, 0, 0, 0, 15] + [0] * 19
    backgammon = [0] * 25 + [1]
    backgammon[6] = 14
    positions = np.array([won + single, won + gammon, won + backgammon], dtype=np.int8)
    assert game_points(positions).tolist() == [1.0, 2.0, 3.0]


def test_net_games_in_lockstep_are_the_games_played_one_at_a_time() -> None:
    net = shipped()
    policy = net_policy(net)
    pairs = 12
    rolls = np.array([game_dice(seed) for seed in range(pairs)])  # (pairs, 400, 2)
    start = np.tile(np.array(START + START, dtype=np.int8), (pairs, 1))
    played = play(start, policy, Dice(pairs, np.random.default_rng(0), rolls))
    player = net_player(net)
    expected = [play_game(player, player, rolls[index]) for index in range(pairs)]
    assert played.points.tolist() == expected


def test_swap_in_a_batch_matches_the_single_swap() -> None:
    positions, _ = _batch(50, seed=23)
    assert (batch_swap(positions) == swap(positions)).all()


def test_a_duel_in_lockstep_is_the_duel_played_one_game_at_a_time() -> None:
    net = shipped()
    one_by_one = duel(net_player(net), pubeval_player, pairs=6, seed=3)
    together = summary(lockstep_duel(net_policy(net), pubeval_policy, pairs=6, seed=3))
    assert together == one_by_one


def test_pubeval_scores_a_batch_as_it_scores_one_position() -> None:
    positions, _ = _batch(400, seed=24)
    race = np.random.default_rng(1).random(len(positions)) < 0.5
    expected = [
        pubeval(tuple(row[:26].tolist()), tuple(row[26:].tolist()), bool(flag))
        for row, flag in zip(positions, race, strict=True)
    ]
    assert np.allclose(pubeval_scores(positions, race), expected)
