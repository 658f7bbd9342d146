"""The cube model: Janowski's textbook thresholds in money play, the match table's cases."""

from __future__ import annotations

import pytest

from hraj.games.backgammon.cube import (
    CubeContext,
    Outcomes,
    Owner,
    analyse,
    cube_efficiency,
    janowski_points,
)
from hraj.games.backgammon.match_equity import MatchScore, emg
from hraj.games.backgammon.moves import START

from .helpers import position

LIVE = 0.68


def money(x: float = LIVE, **context: object) -> CubeContext:
    return CubeContext(efficiency=x, **context)  # type: ignore[arg-type]


def taker_point(x: float) -> float:
    """The taker's take point without gammons: one minus where the doubler's
    double-take equity reaches +1 (the pass)."""
    low, high = 0.5, 1.0
    for _ in range(50):
        middle = (low + high) / 2
        if analyse(Outcomes(middle), money(x)).double_take < 1.0:
            low = middle
        else:
            high = middle
    return 1.0 - (low + high) / 2


def test_janowski_live_points_without_gammons_are_20_and_80_percent() -> None:
    assert janowski_points(Outcomes(0.7)) == pytest.approx((0.2, 0.8))


@pytest.mark.parametrize(("x", "take_point"), [(0.0, 0.25), (LIVE, 0.5 / (2 + LIVE / 2)), (1.0, 0.2)])
def test_take_point_dead_cube_25_percent_live_cube_by_janowski(x: float, take_point: float) -> None:
    """Dead cube: 25%; with efficiency x the take point is 0.5 / (2 + x/2): about 21.4% at 0.68."""
    assert taker_point(x) == pytest.approx(take_point, abs=1e-6)
    assert round(taker_point(LIVE), 3) == 0.214


def test_a_75_percent_race_without_gammons_is_double_take() -> None:
    analysis = analyse(Outcomes(0.75), money(0.65))
    assert analysis.double and analysis.take
    assert analysis.verdict == "Double, take"
    assert analysis.no_double < analysis.double_take < analysis.double_pass == 1.0


def test_below_the_double_point_no_double_and_past_the_take_point_double_pass() -> None:
    assert analyse(Outcomes(0.6), money()).verdict == "No double, take"
    assert analyse(Outcomes(0.82), money()).verdict == "Double, pass"


def test_many_gammons_make_a_position_too_good_to_double() -> None:
    analysis = analyse(Outcomes(0.85, 0.5, 0.02, 0.01), money())
    assert analysis.too_good and not analysis.double
    assert analysis.verdict == "Too good to double, pass"
    assert analysis.no_double > 1.0


def test_an_owned_cube_is_worth_more_than_a_centred_one_and_theirs_less() -> None:
    outcomes = Outcomes(0.6, 0.1, 0.0, 0.05)
    mine = analyse(outcomes, money(owner=Owner.MINE)).no_double
    centred = analyse(outcomes, money()).no_double
    theirs = analyse(outcomes, money(owner=Owner.THEIRS)).no_double
    dead = outcomes.cubeless_equity
    assert mine > centred > theirs
    assert theirs < dead < mine
    assert not analyse(outcomes, money(owner=Owner.THEIRS)).may_double


def test_jacoby_counts_gammons_single_while_the_cube_is_centred() -> None:
    outcomes = Outcomes(0.7, 0.3, 0.0, 0.05)
    plain = analyse(outcomes, money()).no_double
    jacoby = analyse(outcomes, money(jacoby=True)).no_double
    assert jacoby < plain
    # once doubled gammons count: the double-take equity is the same
    assert analyse(outcomes, money(jacoby=True)).double_take == pytest.approx(analyse(outcomes, money()).double_take)


def test_beaver_when_the_take_favours_the_taker() -> None:
    analysis = analyse(Outcomes(0.4), money(beavers=True))
    assert analysis.take and analysis.beaver and analysis.double_take < 0
    assert analysis.verdict == "No double, beaver"
    assert not analyse(Outcomes(0.4), money()).beaver  # beavers off


def test_no_cube_means_cubeless_equity() -> None:
    outcomes = Outcomes(0.7, 0.2, 0.01, 0.05)
    analysis = analyse(outcomes, CubeContext(efficiency=0.0, cube_in_play=False))
    assert not analysis.may_double and analysis.verdict == "No double available"
    assert analysis.no_double == pytest.approx(outcomes.cubeless_equity)


def test_cube_efficiency_is_gnubgs() -> None:
    assert cube_efficiency(START, START) == 0.68
    race = position({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 12: 5})
    assert 0.6 <= cube_efficiency(tuple(race.boards[0]), tuple(race.boards[1])) <= 0.7
    bearoff = position({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 4: 5})
    assert cube_efficiency(tuple(bearoff.boards[0]), tuple(bearoff.boards[1])) == 0.6


def test_outcomes_are_clipped_to_a_consistent_order() -> None:
    outcomes = Outcomes.of([1.2, 0.3, 0.5, -0.1, 0.2])
    assert outcomes == Outcomes(1.0, 0.3, 0.3, 0.0, 0.0)
    with pytest.raises(ValueError, match="Five"):
        Outcomes.of([0.5])
    assert outcomes.flipped().flipped() == outcomes


# --- match play -------------------------------------------------------------------------


def match(
    away: int, opponent_away: int, *, crawford: bool = False, done: bool = False, **context: object
) -> CubeContext:
    score = MatchScore(away, opponent_away, crawford, done or crawford)
    return CubeContext(score=score, **context)  # type: ignore[arg-type]


def test_crawford_game_never_doubles() -> None:
    analysis = analyse(Outcomes(0.9), match(3, 1, crawford=True))
    assert not analysis.may_double and not analysis.double


@pytest.mark.parametrize("p", [0.3, 0.45, 0.55, 0.65])
@pytest.mark.parametrize("away", [2, 3, 4, 5, 7])
def test_post_crawford_the_trailer_doubles_at_once(p: float, away: int) -> None:
    analysis = analyse(Outcomes(p), match(away, 1, done=True))
    assert analysis.may_double and analysis.double


def test_post_crawford_the_leader_has_a_dead_cube() -> None:
    assert not analyse(Outcomes(0.9), match(1, 4, done=True)).may_double


def test_free_drop_the_leader_passes_at_30_percent_against_4_away() -> None:
    """1-away against 4-away post-Crawford: passing gives up a point the trailer hardly
    needs (3-away is worth about as much as 4-away), so the leader passes at 30% where
    a money player takes."""
    trailer = Outcomes(0.7)
    assert not analyse(trailer, match(4, 1, done=True)).take
    assert analyse(trailer, money()).take
    assert analyse(Outcomes(0.6), match(4, 1, done=True)).take


def test_a_cube_that_wins_the_match_is_dead() -> None:
    assert not analyse(Outcomes(0.9), match(2, 5, cube=2, owner=Owner.MINE)).may_double


def test_match_equities_lie_between_losing_and_winning_the_gammons() -> None:
    context = match(7, 7)
    analysis = analyse(Outcomes(0.75, 0.15, 0.01, 0.05), context)
    score = context.score
    assert score is not None
    assert score.after(-3) < analysis.no_double < score.after(3)
    assert analysis.double_pass == score.after(1)
    no_double, _, double_pass = analysis.emg
    assert double_pass == pytest.approx(1.0)
    assert no_double == pytest.approx(emg(analysis.no_double, score, 1))


def test_at_dmp_nobody_doubles() -> None:
    """Double match point (1-away each): the cube is dead for both."""
    assert not analyse(Outcomes(0.9), match(1, 1, done=True)).may_double
