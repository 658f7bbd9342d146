"""A room's timer over real games: turns follow the rules' `to_act`, deadlines follow turns."""

from __future__ import annotations

import datetime as dt

import hraj
from hraj.clocks.controls import TimeControl, preset
from hraj.clocks.timing import RoomClock
from hraj.server.timekeeper import RoomTimer, new_clock


def test_a_backgammon_turn_of_roll_and_play_is_timed_as_one() -> None:
    game = hraj.game("backgammon", match_length=3, first=0)
    stored = new_clock(preset("match", "usbgf"), game)
    assert [s["reserve"] for s in stored["seats"]] == [360, 360]
    timer = RoomTimer.of("r", stored, game, heap=None)
    assert timer is not None
    state = game.new_state()
    state.apply_chance("31")  # seat 0 starts with its two dice: its play is due
    clock, change = timer.moved(state, mover=None, timed={0, 1}, version=1, now=1000.0)
    timer.committed(clock)
    assert [(row.seat, row.version, row.due) for row in change.deadlines] == [
        (0, 1, dt.datetime.fromtimestamp(1000.0 + 12 + 360, dt.UTC))
    ]
    state.apply(0, state.legal_actions(0)[0])  # seat 1 now decides: roll or double
    clock, change = timer.moved(state, mover=0, timed={0, 1}, version=2, now=1020.0)
    timer.committed(clock)
    assert timer.clock.seats[0].reserve == 352 and [row.seat for row in change.deadlines] == [1]
    state.apply(1, "roll")
    state.apply_chance("65")
    clock, _ = timer.moved(state, mover=1, timed={0, 1}, version=4, now=1030.0)
    assert clock.seats[1].started == 1020.0  # roll and play: one turn


def test_a_timeout_is_counted_and_the_view_shows_what_is_left() -> None:
    game = hraj.game("qwixx", players=2, first=0)
    timer = RoomTimer("r", RoomClock.new(TimeControl(20, 120), 2))
    state = game.new_state()
    while state.is_chance:
        state.apply_chance(state.chance_outcomes()[0][0])
    clock, _ = timer.moved(state, mover=None, timed={0, 1}, version=2, now=0.0)
    timer.committed(clock)
    view = timer.view(now=30.0)
    assert view["control"]["per_move"] == 20
    running = [s for s in view["seats"] if s["running"]]
    assert running and all(s["move"] == 0 and s["reserve"] == 110 for s in running)
    deadline = timer.clock.deadlines("r")[0]
    assert timer.applies(deadline, version=2, to_act=state.to_act)
    assert not timer.applies(deadline, version=2, to_act=())
    seat = deadline.seat
    state.apply(seat, "pass")
    clock, _ = timer.moved(state, mover=seat, timed={0, 1}, version=3, now=200.0, timed_out=seat)
    timer.committed(clock)
    assert timer.clock.seats[seat].timeouts == 1 and timer.clock.seats[seat].reserve == 0
    assert not timer.applies(deadline, version=3, to_act=state.to_act)


def test_an_untimed_room_has_no_timer() -> None:
    assert RoomTimer.of("r", None, hraj.game("trefa", players=2), heap=None) is None
