"""The end of a game in the store (SQLite and PostgreSQL): places, and ratings moved once."""

from __future__ import annotations

import pytest

from hraj.core.game import OutcomeJson
from hraj.core.jsondata import GameOptions
from hraj.players import results as results_module
from hraj.players.anchors import BotRating
from hraj.players.rating import Skill, fibs_match, openskill_game
from hraj.players.results import install
from hraj.store import AppendBatch, NewRoom, NewSeat, StaleVersion, Store
from hraj.store.db import OVER
from hraj.store.people import People
from hraj.store.schema import ratings, results

EVA, PETR, JAN = "e" * 32, "p" * 32, "j" * 32
TWO: GameOptions = {"players": 2, "first": None}


def outcome(scores: list[float], winners: list[int]) -> OutcomeJson:
    return {"scores": scores, "winners": winners, "reason": "", "details": {}}


def setup(store: Store, game: str, options: GameOptions, seats: list[NewSeat], rated: bool = True) -> None:
    install(store)
    people = People(store)
    for person, name in ((EVA, "Eva"), (PETR, "Petr"), (JAN, "Jan")):
        people.create_account(person, name, name.lower(), "hash")
    store.create_room(
        NewRoom(
            id="room1",
            game=game,
            options=options,
            seed="ab" * 32,
            commitment="cd" * 32,
            invite_hash="ef" * 32,
            host_hash="01" * 32,
            seats=seats,
            rated=rated,
        )
    )


def end(store: Store, result: OutcomeJson, after: int = 0, left: tuple[int, ...] = ()) -> None:
    store.append([AppendBatch("room1", after, [("move", 0, "pass")], status=OVER, outcome=result, left=left)])


def rating_rows(store: Store) -> dict[str, tuple[float, float | None, int, int]]:
    with store.engine.connect() as connection:
        return {
            row.person: (row.rating, row.deviation, row.experience, row.games)
            for row in connection.execute(ratings.select())
        }


def result_rows(store: Store) -> list[tuple[int, str | None, str | None, int, bool, bool]]:
    with store.engine.connect() as connection:
        return [
            (row.seat, row.person, row.bot, row.place, row.left, row.rated)
            for row in connection.execute(results.select().order_by(results.c.seat))
        ]


def test_a_rated_three_player_game_moves_each_rating_by_plackett_luce(store: Store) -> None:
    seats = [NewSeat("person", person=p) for p in (EVA, PETR, JAN)]
    setup(store, "qwixx", {"players": 3, "first": None}, seats)
    end(store, outcome([40, 55, 40], [1]))
    expected = openskill_game([Skill(25.0, 25 / 3)] * 3, [2, 1, 2])
    rows = rating_rows(store)
    for person, skill in zip((EVA, PETR, JAN), expected, strict=True):
        assert rows[person][0] == pytest.approx(skill.rating)
        assert rows[person][1] == pytest.approx(skill.deviation)
        assert rows[person][3] == 1
    assert result_rows(store) == [
        (0, EVA, None, 2, False, True),
        (1, PETR, None, 1, False, True),
        (2, JAN, None, 2, False, True),
    ]


def test_an_end_that_is_stored_again_rates_nothing_twice(store: Store) -> None:
    setup(
        store, "qwixx", {"players": 2, "first": None}, [NewSeat("person", person=EVA), NewSeat("person", person=PETR)]
    )
    end(store, outcome([40, 20], [0]))
    first = rating_rows(store)
    with pytest.raises(StaleVersion):
        end(store, outcome([40, 20], [0]))
    assert rating_rows(store) == first
    assert len(result_rows(store)) == 2


def test_an_unrated_game_keeps_places_but_moves_no_rating(store: Store) -> None:
    seats = [NewSeat("person", person=EVA), NewSeat("bot", bot="greedy")]
    setup(store, "qwixx", {"players": 2, "first": None}, seats, rated=False)
    end(store, outcome([10, 20], [1]))
    assert rating_rows(store) == {}
    assert result_rows(store) == [(0, EVA, None, 2, False, False), (1, None, "greedy", 1, False, False)]


def test_a_match_against_a_bot_moves_the_person_by_fibs_and_never_the_bot(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(results_module, "bot_rating", lambda game, bot: BotRating(1650.0, 30.0, "fibs"))
    seats = [NewSeat("person", person=EVA), NewSeat("bot", bot="net")]
    setup(store, "backgammon", {"match_length": 3, "first": None}, seats)
    end(store, outcome([3.0, 1.0], [0]))
    expected = fibs_match([Skill(1500.0), Skill(1650.0, fixed=True)], winner=0, length=3)
    rows = rating_rows(store)
    assert list(rows) == [EVA] and rows[EVA][0] == pytest.approx(expected[0].rating)
    assert rows[EVA][1:] == (None, 3, 1)
    assert expected[0].rating > 1500 + 10 * 3**0.5, "beating a stronger bot pays more than an equal's win"


def test_a_player_who_left_to_a_bot_counts_as_last(store: Store) -> None:
    setup(
        store, "qwixx", {"players": 2, "first": None}, [NewSeat("person", person=EVA), NewSeat("person", person=PETR)]
    )
    end(store, outcome([40, 20], [0]), left=(0,))
    rows = rating_rows(store)
    assert rows[PETR][0] > 25 > rows[EVA][0]
    assert result_rows(store) == [(0, EVA, None, 2, True, True), (1, PETR, None, 1, False, True)]


def test_a_rated_room_with_a_seat_of_nobody_or_an_uncalibrated_bot_is_not_rated(store: Store) -> None:
    setup(store, "qwixx", {"players": 2, "first": None}, [NewSeat("person", person=EVA), NewSeat("person")])
    end(store, outcome([40, 20], [0]))
    assert rating_rows(store) == {} and [row[5] for row in result_rows(store)] == [False, False]
