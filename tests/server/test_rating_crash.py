"""Ratings survive a SIGKILL at the moment a game ends: never rated twice, never left unrated.

A real server process is killed at the end of a rated game, inside the transaction that
stores the end (after the ratings are written) or right after its commit
(`tests/server/crash_at_end.py`). After a restart the game is finished (if its end was
lost) and each player's rating is the formula applied exactly once. On PostgreSQL two
processes finish games of the same two players at once, one of them is killed at its
first end, and the ratings form one unbroken chain: no two games read the same rating.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from hraj.players.rating import MODEL, Skill, openskill_game, places
from hraj.store import Store
from hraj.store.schema import people, ratings, results
from tests.server.live import LiveServer
from tests.store.databases import database_url

PASSWORD = "correct horse battery"
CRASHING = "tests.server.crash_at_end"


def person(base: str, name: str) -> tuple[httpx.Client, dict[str, str]]:
    client = httpx.Client(base_url=base, timeout=30)
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client, {"X-CSRF-Token": answer.json()["csrf"]}


def rated_room(
    eva: tuple[httpx.Client, dict[str, str]], petr: tuple[httpx.Client, dict[str, str]]
) -> tuple[str, list[str]]:
    made = eva[0].post(
        "/api/rooms", json={"game": "qwixx", "seats": [{}, {}], "claim": 0, "rated": True}, headers=eva[1]
    )
    assert made.status_code == 201, made.text
    body = made.json()
    joined = petr[0].post(f"/api/rooms/{body['room']}/claim", json={"invite": body["invite"]}, headers=petr[1])
    assert joined.status_code == 200, joined.text
    return body["room"], [body["token"], joined.json()["token"]]


def play(bases: list[str], room: str, tokens: list[str], seed: int, deadline: float = 240, dies: bool = False) -> None:
    """Random legal moves until the game is over, through the first server that answers
    (or, when the server `dies`, until it stops answering)."""
    rng = random.Random(seed)
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        for base in bases:
            try:
                with httpx.Client(base_url=base, timeout=10) as http:
                    if http.get(f"/api/rooms/{room}").json()["status"] == "over":
                        return
                    for token in tokens:
                        auth = {"Authorization": f"Bearer {token}"}
                        legal = http.get(f"/api/rooms/{room}/view", headers=auth).json()["view"]["legal"]
                        if legal:
                            http.post(f"/api/rooms/{room}/actions", json={"action": rng.choice(legal)}, headers=auth)
                break
            except (httpx.TransportError, KeyError, ValueError):
                if dies:
                    raise
                time.sleep(0.2)  # a server died or is taking the rooms over
    raise AssertionError(f"room {room} did not end")


def stored(url: str) -> tuple[dict[str, list[tuple[float, float]]], dict[str, tuple[float, int]], list[Any]]:
    """Per person name: the (before, after) of each rated result; name -> (rating, games); the results."""
    store = Store(url)
    try:
        with store.engine.connect() as connection:
            names = dict(connection.execute(sa.select(people.c.id, people.c.name)).all())
            rows = list(connection.execute(results.select()).all())
            rated = {names[r.person]: (r.rating, r.games) for r in connection.execute(ratings.select())}
    finally:
        store.close()
    chains: dict[str, list[tuple[float, float]]] = {}
    for row in rows:
        if row.person is not None and row.rated:
            chains.setdefault(names[row.person], []).append((row.before, row.after))
    return chains, rated, rows


def one_chain(links: list[tuple[float, float]], start: float) -> float:
    """Follow the ratings from `start` through every game; each game must start where the one before ended."""
    left = list(links)
    current = start
    while left:
        following = [link for link in left if link[0] == current]
        assert len(following) == 1, f"{len(following)} games were rated from {current}: {links}"
        left.remove(following[0])
        current = following[0][1]
    return current


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["inside", "after"])
def test_a_kill_at_the_end_of_a_rated_game_rates_it_exactly_once(mode: str, tmp_path: Path) -> None:
    url = next(database_url("sqlite", tmp_path))
    crashing = LiveServer(url, env={"HRAJ_CRASH": mode}, module=CRASHING)
    base = crashing.start()
    eva, petr = person(base, "Eva"), person(base, "Petr")
    room, tokens = rated_room(eva, petr)
    with pytest.raises(httpx.TransportError):
        play([base], room, tokens, seed=5, dies=True)
    assert crashing.process is not None and crashing.process.wait(30) == -9
    chains, rated, rows = stored(url)
    if mode == "inside":
        assert (chains, rated, rows) == ({}, {}, []), "the end and its ratings were lost together"
    else:
        assert {name: games for name, (_, games) in rated.items()} == {"Eva": 1, "Petr": 1}
    again = LiveServer(url)
    base = again.start()
    play([base], room, tokens, seed=6)
    summary = httpx.get(f"{base}/api/rooms/{room}").json()
    again.stop()
    chains, rated, _ = stored(url)
    expected = openskill_game([Skill(MODEL.mu, MODEL.sigma)] * 2, places(summary["outcome"]))
    assert {name: games for name, (_, games) in rated.items()} == {"Eva": 1, "Petr": 1}
    assert rated["Eva"][0] == pytest.approx(expected[0].rating)
    assert rated["Petr"][0] == pytest.approx(expected[1].rating)
    assert [len(chains[name]) for name in ("Eva", "Petr")] == [1, 1]


@pytest.mark.slow
def test_two_processes_finishing_games_at_once_rate_each_once_even_when_one_is_killed(tmp_path: Path) -> None:
    url = next(database_url("postgres", tmp_path))
    env = {"HRAJ_LEASE": "2", "HRAJ_BOT_PACE": "0.02"}
    crashing = LiveServer(url, env={**env, "HRAJ_CRASH": "inside"}, module=CRASHING)
    steady = LiveServer(url, env=env)
    bases = [crashing.start(), steady.start()]
    eva, petr = person(bases[1], "Eva"), person(bases[1], "Petr")
    games = []
    for number in range(6):
        client = eva if number % 2 else petr
        host = httpx.Client(base_url=bases[number % 2], timeout=30, cookies=client[0].cookies)
        other = petr if client is eva else eva
        joiner = httpx.Client(base_url=bases[number % 2], timeout=30, cookies=other[0].cookies)
        games.append(rated_room((host, client[1]), (joiner, other[1])))
    threads = [
        threading.Thread(target=play, args=([bases[n % 2], bases[1]], room, tokens, n), daemon=True)
        for n, (room, tokens) in enumerate(games)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert crashing.process is not None and crashing.process.wait(30) == -9
    for number, (room, tokens) in enumerate(games):
        play([bases[1]], room, tokens, seed=100 + number)  # any game the thread gave up on
    steady.stop()
    chains, rated, _ = stored(url)
    assert {name: games for name, (_, games) in rated.items()} == {"Eva": 6, "Petr": 6}
    for name, (rating, _) in rated.items():
        assert len(chains[name]) == 6
        assert one_chain(chains[name], MODEL.mu) == rating
