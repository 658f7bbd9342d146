"""A room's clock: turns, the per-move time, the reserve, and deadlines."""

from __future__ import annotations

import pytest

from hraj.clocks.controls import TimeControl
from hraj.clocks.timing import Deadline, RoomClock

USBGF = TimeControl(12, 120, per_point=True)


def test_a_turn_within_the_delay_costs_no_reserve() -> None:
    clock = RoomClock.new(USBGF, 2, match_points=5)
    clock.advance(after=[0], mover=None, now=100.0, version=1, timed={0, 1})
    assert clock.deadline("r", 0) == Deadline(100.0 + 12 + 600, "r", 0, 1)
    clock.advance(after=[1], mover=0, now=110.0, version=2, timed={0, 1})
    assert clock.seats[0].reserve == 600 and clock.seats[0].started is None
    assert clock.deadline("r", 0) is None and clock.deadline("r", 1) == Deadline(110.0 + 612, "r", 1, 2)


def test_a_turn_beyond_the_delay_pays_the_overrun_from_the_reserve() -> None:
    # USBGF: a 20 s turn under a 12 s delay uses 8 s of the reserve.
    clock = RoomClock.new(USBGF, 2, match_points=5)
    clock.advance(after=[0], mover=None, now=0.0, version=1, timed={0, 1})
    clock.advance(after=[1], mover=0, now=20.0, version=2, timed={0, 1})
    assert clock.seats[0].reserve == 592


def test_own_decisions_in_a_row_are_one_turn() -> None:
    # Backgammon: "roll", the dice, then the play: the delay is granted once.
    clock = RoomClock.new(USBGF, 2)
    clock.advance(after=[0], mover=None, now=0.0, version=1, timed={0, 1})
    clock.advance(after=[0], mover=0, now=10.0, version=3, timed={0, 1})
    assert clock.seats[0].started == 0.0 and clock.deadline("r", 0) == Deadline(132.0, "r", 0, 1)
    clock.advance(after=[1], mover=0, now=15.0, version=4, timed={0, 1})
    assert clock.seats[0].reserve == 117


def test_a_question_to_several_seats_keeps_each_ones_turn() -> None:
    clock = RoomClock.new(TimeControl(20, 120), 3)
    clock.advance(after=[0, 1, 2], mover=None, now=0.0, version=1, timed={0, 1, 2})
    clock.advance(after=[0, 2], mover=1, now=5.0, version=2, timed={0, 1, 2})
    assert [s.started for s in clock.seats] == [0.0, None, 0.0]
    assert clock.deadline("r", 2) == Deadline(140.0, "r", 2, 1)


def test_seats_played_by_bots_run_no_clock() -> None:
    clock = RoomClock.new(TimeControl(20, 120), 2)
    clock.advance(after=[1], mover=None, now=0.0, version=1, timed={0})
    assert clock.deadlines("r") == []


def test_the_end_of_the_game_stops_every_clock() -> None:
    clock = RoomClock.new(TimeControl(20, 120), 2)
    clock.advance(after=[0, 1], mover=None, now=0.0, version=1, timed={0, 1})
    clock.advance(after=[], mover=0, now=30.0, version=2, timed={0, 1}, over=True)
    assert clock.deadlines("r") == [] and [s.reserve for s in clock.seats] == [110, 110]


def test_the_reserve_never_goes_below_zero() -> None:
    clock = RoomClock.new(TimeControl(5, 10), 2)
    clock.advance(after=[0], mover=None, now=0.0, version=1, timed={0, 1})
    clock.advance(after=[1], mover=0, now=100.0, version=2, timed={0, 1})
    assert clock.seats[0].reserve == 0
    clock.advance(after=[0], mover=1, now=101.0, version=3, timed={0, 1})
    assert clock.deadline("r", 0) == Deadline(106.0, "r", 0, 3)


def test_a_per_game_reserve_is_refilled_at_each_new_game_of_the_match() -> None:
    clock = RoomClock.new(TimeControl(30, 75, per_game=True), 2, match_points=7)
    clock.advance(after=[0], mover=None, now=0.0, version=1, timed={0, 1})
    clock.advance(after=[1], mover=0, now=100.0, version=2, timed={0, 1})
    assert clock.seats[0].reserve == 5
    clock.advance(after=[1], mover=0, now=101.0, version=3, timed={0, 1}, game=2)
    assert [s.reserve for s in clock.seats] == [75, 75] and clock.game == 2


def test_time_left_counts_the_per_move_time_first_then_the_reserve() -> None:
    clock = RoomClock.new(TimeControl(20, 120), 2)
    assert clock.left(0, 0.0) == (20, 120)
    clock.advance(after=[0], mover=None, now=0.0, version=1, timed={0, 1})
    assert clock.left(0, 5.0) == (15, 120)
    assert clock.left(0, 50.0) == (0, 90)
    assert clock.left(0, 500.0) == (0, 0)


def test_the_clock_round_trips_through_json() -> None:
    clock = RoomClock.new(USBGF, 2, match_points=3)
    clock.advance(after=[0], mover=None, now=12.5, version=4, timed={0, 1})
    clock.timed_out(1)
    again = RoomClock.from_json(clock.to_json(), match_points=3)
    assert again == clock and again.deadlines("r") == clock.deadlines("r")
    copied = clock.copy()
    copied.advance(after=[1], mover=0, now=20.0, version=5, timed={0, 1})
    assert clock.seats[0].started == pytest.approx(12.5)
