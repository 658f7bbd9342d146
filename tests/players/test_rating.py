"""The rating formulas: FIBS with experience for matches, Plackett–Luce for places."""

from __future__ import annotations

import math

import pytest

from hraj.core.game import OutcomeJson
from hraj.players.rating import (
    Skill,
    display,
    display_deviation,
    fibs_k,
    fibs_match,
    fibs_upset,
    from_display,
    openskill_game,
    places,
)


def outcome(scores: list[float], winners: list[int]) -> OutcomeJson:
    return {"scores": scores, "winners": winners, "reason": "", "details": {}}


def test_places_put_the_winners_first_then_scores_with_ties_sharing() -> None:
    assert places(outcome([30, 45, 45, 12], [1, 2])) == [3, 1, 1, 4]
    assert places(outcome([7, 7, 3], [0, 1])) == [1, 1, 3]


def test_a_winner_by_a_tiebreak_is_ahead_of_an_equal_score() -> None:
    # Abluxxen: equal points, the one with fewer cards in hand wins.
    assert places(outcome([20, 20, 5], [1])) == [2, 1, 3]


def test_a_player_who_left_is_last_whatever_the_stand_in_scored() -> None:
    assert places(outcome([50, 10, 30], [0]), left=[0]) == [3, 2, 1]
    assert places(outcome([1, -1], [0]), left=[0]) == [2, 1]
    assert places(outcome([50, 10, 30], [0]), left=[0, 2]) == [2, 1, 2]


@pytest.mark.parametrize(("experience", "k"), [(0, 5.0), (100, 4.0), (250, 2.5), (400, 1.0), (5000, 1.0)])
def test_fibs_k_falls_with_experience_to_one(experience: int, k: float) -> None:
    assert fibs_k(experience) == pytest.approx(k)


def test_fibs_newcomers_of_equal_rating_move_ten_points_in_a_one_point_match() -> None:
    # D = 0: P_upset = 1/2; change = 4 · K · √1 · 1/2 with K = 5.
    after = fibs_match([Skill(1500.0), Skill(1500.0)], winner=0, length=1)
    assert [s.rating for s in after] == [pytest.approx(1510.0), pytest.approx(1490.0)]
    assert [s.experience for s in after] == [1, 1]


def test_fibs_favourite_and_underdog_in_a_five_point_match() -> None:
    # D = 100, n = 5: P_upset = 1/(10^(100·√5/2000) + 1) = 0.43599.
    upset = fibs_upset(1600, 1500, 5)
    assert upset == pytest.approx(1 / (10 ** (100 * math.sqrt(5) / 2000) + 1))
    assert upset == pytest.approx(0.43599, abs=1e-5)
    old = [Skill(1600.0, None, 1000), Skill(1500.0, None, 1000)]
    favourite = fibs_match(old, winner=0, length=5)  # K = 1 for both: change 4·√5·P_upset
    assert favourite[0].rating - 1600 == pytest.approx(4 * math.sqrt(5) * upset)
    underdog = fibs_match(old, winner=1, length=5)  # the upset pays 4·√5·(1 − P_upset)
    assert underdog[1].rating - 1500 == pytest.approx(4 * math.sqrt(5) * (1 - upset))
    assert underdog[0].rating - 1600 == pytest.approx(-4 * math.sqrt(5) * (1 - upset))


def test_fibs_each_player_moves_by_their_own_experience() -> None:
    after = fibs_match([Skill(1500.0, None, 0), Skill(1500.0, None, 300)], winner=1, length=1)
    assert after[0].rating == pytest.approx(1500 - 2 * 5)
    assert after[1].rating == pytest.approx(1500 + 2 * 2)


def test_a_bots_anchor_never_moves() -> None:
    bot = Skill(1650.0, None, 0, fixed=True)
    after = fibs_match([Skill(1500.0), bot], winner=0, length=3)
    assert after[1] == bot and after[0].rating > 1500
    placed = openskill_game([Skill(25.0, 25 / 3), Skill(30.0, 1.0, fixed=True)], [1, 2])
    assert placed[1] == Skill(30.0, 1.0, fixed=True) and placed[0].rating > 25


def test_openskill_two_newcomers_the_packages_numbers() -> None:
    after = openskill_game([Skill(25.0, 25 / 3), Skill(25.0, 25 / 3)], [1, 2])
    assert after[0].rating == pytest.approx(27.635389, abs=1e-5)
    assert after[1].rating == pytest.approx(22.364611, abs=1e-5)
    assert after[0].deviation == pytest.approx(8.065901, abs=1e-5)
    tied = openskill_game([Skill(25.0, 25 / 3), Skill(25.0, 25 / 3)], [1, 1])
    assert tied[0].rating == pytest.approx(25.0) and tied[1].rating == pytest.approx(25.0)


def test_the_shown_scale_is_centred_on_1500() -> None:
    assert display(25.0) == 1500 and display(30.0) == 1650 and display_deviation(25 / 3) == pytest.approx(250)
    assert from_display(1650) == pytest.approx(30.0)
