"""Time controls and presets: what each grants, as the practice they follow says."""

from __future__ import annotations

import pytest

from hraj.clocks.controls import ClockError, TimeControl, custom, preset, presets


def test_usbgf_preset_gives_twelve_seconds_and_two_minutes_per_match_point() -> None:
    control = preset("match", "usbgf")
    assert control.per_move == 12
    assert control.reserve_for(match_points=5) == 600
    assert control.reserve_for(match_points=1) == 120


def test_online_backgammon_preset_gives_thirty_seconds_a_move_and_75_a_game() -> None:
    control = preset("match", "online")
    assert (control.per_move, control.reserve_for(7), control.per_game) == (30, 75, True)


def test_other_games_get_a_time_per_move_and_a_small_reserve() -> None:
    control = preset("moves", "normal")
    assert (control.per_move, control.reserve_for(9)) == (20, 120)


@pytest.mark.parametrize("days", [1, 2, 3, 7])
def test_correspondence_gives_whole_days_per_move(days: int) -> None:
    for family in ("moves", "match"):
        control = preset(family, f"days-{days}")
        assert control.correspondence and control.days == days and control.reserve == 0


def test_every_family_offers_live_and_correspondence_presets() -> None:
    for family in ("moves", "match"):
        offered = presets(family)
        assert sum(not p.control.correspondence for p in offered) >= 3
        assert [p.control.days for p in offered if p.control.correspondence] == [1, 2, 3, 7]


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(ClockError) as caught:
        preset("moves", "bullet")
    assert "normal" in str(caught.value) and "days-7" in str(caught.value)


def test_a_control_round_trips_through_json_and_scales() -> None:
    control = preset("match", "usbgf")
    assert TimeControl.from_json(control.to_json()) == control
    short = control.scaled(0.1)
    assert (short.per_move, short.reserve, short.per_point) == pytest.approx((1.2, 12, True))


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"kind": "live"},
        {"kind": "blitz", "per_move": 5},
        {"kind": "live", "per_move": -1},
        {"kind": "live", "per_move": 0},
        {"kind": "live", "per_move": True},
        {"kind": "live", "per_move": 5, "per_point": "yes"},
    ],
)
def test_malformed_controls_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(ClockError):
        TimeControl.from_json(data)


def test_custom_controls_stay_within_a_day() -> None:
    assert custom(5, 30) == TimeControl(5, 30)
    for per_move, reserve in [(0, 10), (90_000, 0), (5, -1)]:
        with pytest.raises(ClockError):
            custom(per_move, reserve)
