"""Pairing seeks: by rating, the range widening with waiting, the longest-waiting first."""

from __future__ import annotations

from hraj.clocks.seeks import (
    BOT_OFFER_AFTER_S,
    RANGE_MAX,
    RANGE_START,
    Waiting,
    bot_near,
    choose_group,
    rating_range,
    seek_key,
)


def test_the_range_starts_narrow_and_widens_with_waiting_up_to_a_limit() -> None:
    assert rating_range(0) == RANGE_START
    assert rating_range(10) > rating_range(5) > rating_range(0)
    assert rating_range(3600) == RANGE_MAX
    assert BOT_OFFER_AFTER_S == 30


def test_two_close_ratings_are_paired_at_once_and_far_ones_only_after_waiting() -> None:
    close = [Waiting("a", 1500, 0.0), Waiting("b", 1600, 0.0)]
    assert [w.id for w in choose_group(close, 2, now=0.0) or []] == ["a", "b"]
    far = [Waiting("a", 1500, 0.0), Waiting("b", 1900, 0.0)]
    assert choose_group(far, 2, now=1.0) is None
    assert [w.id for w in choose_group(far, 2, now=12.0) or []] == ["a", "b"]


def test_both_must_accept_a_newcomer_has_a_narrow_range() -> None:
    # a has waited long (wide range), b just came: b's own range still decides.
    seekers = [Waiting("a", 1500, 0.0), Waiting("b", 1900, 59.0)]
    assert choose_group(seekers, 2, now=60.0) is None


def test_the_longest_waiting_is_served_first_with_the_closest_rating() -> None:
    seekers = [Waiting("new", 1600, 50.0), Waiting("old", 1500, 0.0), Waiting("near", 1510, 40.0)]
    group = choose_group(seekers, 2, now=50.0)
    assert [w.id for w in group or []] == ["old", "near"]


def test_a_multiplayer_table_fills_up_to_its_player_count() -> None:
    seekers = [Waiting(f"s{n}", 1500 + 10 * n, float(n)) for n in range(3)]
    assert choose_group(seekers, 4, now=5.0) is None
    seekers.append(Waiting("s3", 1480, 4.0))
    assert sorted(w.id for w in choose_group(seekers, 4, now=5.0) or []) == ["s0", "s1", "s2", "s3"]


def test_a_bot_of_similar_rating_is_offered() -> None:
    levels = {"random": 800.0, "greedy": 1400.0, "expert": 1700.0}
    assert bot_near(1500, levels, "greedy") == "greedy"
    assert bot_near(1650, levels, "greedy") == "expert"
    assert bot_near(1550, levels, "greedy") == "greedy"  # a tie goes to the weaker
    assert bot_near(1500, {}, "greedy") == "greedy"


def test_only_seeks_of_the_same_game_options_rating_and_clock_share_a_key() -> None:
    clock = {"kind": "live", "per_move": 20, "reserve": 120, "per_point": False, "per_game": False}
    base = seek_key("g", {"a": 1, "b": 2}, 2, False, clock)
    assert base == seek_key("g", {"b": 2, "a": 1}, 2, False, dict(reversed(list(clock.items()))))
    assert base != seek_key("g", {"a": 1, "b": 2}, 2, True, clock)
    assert base != seek_key("g", {"a": 1, "b": 2}, 3, False, clock)
    assert base != seek_key("g", {"a": 1, "b": 2}, 2, False, None)


def test_one_person_is_never_paired_with_themselves() -> None:
    twice = [Waiting("tab1", 1500, 0.0, "eva"), Waiting("tab2", 1500, 1.0, "eva")]
    assert choose_group(twice, 2, now=2.0) is None
    twice.append(Waiting("petr", 1500, 2.0, "petr"))
    assert [w.id for w in choose_group(twice, 2, now=2.0) or []] == ["tab1", "petr"]
    unknown = [Waiting("a", 1500, 0.0), Waiting("b", 1500, 0.0)]  # browsers without a cookie
    assert choose_group(unknown, 2, now=0.0) is not None
