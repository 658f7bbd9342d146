"""No message of the protocol carries what its receiver may not see.

Many seeded rooms are played to the end through real WebSocket clients (one per
person seat, plus a spectator per room), and every message each connection received
is kept. Afterwards each room's record is replayed and every message is checked:

- a `state` message is exactly `view(seat)` of the state at its version, for the
  connection's own seat (None for a spectator): nothing added, nothing of another seat;
- pending simultaneous choices (Qwixx's white-sum answers) are invisible: replacing
  another seat's pending answer with any other legal answer leaves the view unchanged;
- games with hidden hands: the view is the same for every determinization the
  receiving seat could not tell apart;
- the seed appears in no message before the final `state`, and no seat token ever appears;
- every message has only the fields the protocol documents.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest

import hraj
from hraj.core import game_class
from hraj.core.errors import HrajError
from hraj.core.game import State
from hraj.core.record import CHANCE, MOVE
from hraj.server.fairness import room_commitment
from tests.server.live import Client, ThreadServer, claim, create_room, play

QWIXX_ROOMS = 24
ABLUXXEN_ROOMS = 8
OTHER_ROOMS = 4
FIELDS = {
    "welcome": {
        "type",
        "protocol",
        "room",
        "game",
        "options",
        "seat",
        "version",
        "head",
        "commitment",
        "dice",
        "absent_after",
        "seats",
    },
    "state": {"type", "room", "version", "head", "status", "view", "seed"},
    "seats": {"type", "room", "seats"},
    "ack": {"type", "id", "version", "head"},
    "pong": {"type", "id", "version"},
    "error": {"type", "code", "message", "key", "params", "text", "id"},
}


def player_counts(game_id: str) -> list[int]:
    """The numbers of players the game allows (up to 5)."""
    cls = game_class(game_id)
    if "players" not in cls.options_spec:
        return [hraj.game(game_id).players]
    counts = []
    for players in range(1, 6):
        try:
            cls(players=players)
        except HrajError:
            continue
        counts.append(players)
    return counts


def rooms_to_play() -> list[tuple[str, int, int]]:
    """(game, players, bot seats) of each room: every registered game, Qwixx and
    Abluxxen (simultaneous answers, hidden hands) most of all."""
    rooms = [("qwixx", 1 + number % 5, (number // 5) % 2) for number in range(QWIXX_ROOMS)]
    for game_id in hraj.GAMES:
        if game_id == "qwixx":
            continue
        counts = player_counts(game_id)
        number_of_rooms = ABLUXXEN_ROOMS if game_id == "abluxxen" else OTHER_ROOMS
        for number in range(number_of_rooms):
            players = counts[number % len(counts)]
            rooms.append((game_id, players, number % 2 if players > 1 else 0))
    return rooms


def states_by_version(record: dict[str, Any]) -> list[State[Any, Any]]:
    """states[v]: the state after the first v events of the record."""
    game = hraj.game(record["game"], **record["options"])
    state = game.new_state()
    states = [state.copy()]
    for number, (kind, seat, text) in enumerate(record["events"]):
        if kind == CHANCE:
            state.apply_chance(text)
        elif kind == MOVE:
            state.apply(seat, text)
        else:
            state.check_auto_event(number, seat, text)
        states.append(state.copy())
    return states


def pending_moves(record: dict[str, Any], states: list[State[Any, Any]], version: int) -> list[int]:
    """Versions of the moves still hidden at `version`: Qwixx answers of an open white step."""
    if record["game"] != "qwixx" or states[version].view(None)["phase"] != "white":
        return []
    events = record["events"]
    last_chance = max(v for v in range(1, version + 1) if events[v - 1][0] == CHANCE)
    return [v for v in range(last_chance + 1, version + 1) if events[v - 1][0] == MOVE]


def check_pending_choices_are_invisible(
    record: dict[str, Any], states: list[State[Any, Any]], version: int, seat: int | None
) -> int:
    """Every other legal answer in place of each pending one gives `seat` the same view."""
    checked = 0
    events = record["events"]
    seen = states[version].view(seat)
    for pending in pending_moves(record, states, version):
        _, mover, actual = events[pending - 1]
        if mover == seat:
            continue
        for alternative in states[pending - 1].legal_actions(mover):
            if str(alternative) == actual:
                continue
            other = states[pending - 1].copy()
            other.apply(mover, alternative)
            for _, later_seat, text in events[pending:version]:
                other.apply(later_seat, text)
            assert other.view(seat) == seen, f"seat {seat} could tell seat {mover}'s pending answer at v{version}"
            checked += 1
    return checked


def check_determinizations_look_alike(state: State[Any, Any], seat: int | None, seen: dict[str, Any]) -> int:
    if seat is None or state.game.id == "qwixx":
        return 0
    for seed in range(3):
        assert state.determinize(seat, random.Random(seed)).view(seat) == seen
    return 3


@pytest.mark.slow
def test_no_message_carries_what_its_receiver_may_not_see(tmp_path: Path) -> None:
    with ThreadServer(f"sqlite:///{tmp_path / 'hraj.db'}", seed="leaks") as server:
        rooms, tokens, records = play_every_room(server)
    check_every_message(rooms, tokens, records)


def play_every_room(server: ThreadServer) -> tuple[list[tuple[dict[str, Any], list[Client]]], list[str], list[Any]]:
    """Create, fill and play every room to its end; every client keeps what it received."""
    base = server.url
    plan = rooms_to_play()
    rooms: list[tuple[dict[str, Any], list[Client]]] = []
    tokens: list[str] = []
    for game, players, bots in plan:
        seats = [{"kind": "person"}] * (players - bots) + [{"kind": "bot", "bot": "random"}] * bots
        body = create_room(base, game, seats)
        clients = [Client(server.ws_url, body["room"], None)]  # the spectator
        for number in range(players - bots):
            token = claim(base, body["room"], body["invite"], number)
            tokens.append(token)
            clients.append(Client(server.ws_url, body["room"], token))
        rooms.append((body, clients))

    async def play_all() -> None:
        everyone = [client for _, clients in rooms for client in clients]
        for client in everyone:
            await client.connect()
        await asyncio.gather(
            *(play(client, random.Random(f"leak-{n}")) for n, client in enumerate(everyone) if client.token),
        )
        for client in everyone:  # the spectators see the end too
            while client.state is None or client.state["status"] != "over":
                await client.changed()
            await client.close()

    asyncio.run(play_all())
    records = [httpx.get(f"{base}/api/rooms/{body['room']}/record", timeout=30).json() for body, _ in rooms]
    return rooms, tokens, records


def check_every_message(
    rooms: list[tuple[dict[str, Any], list[Client]]], tokens: list[str], records: list[dict[str, Any]]
) -> None:
    messages = counterfactuals = 0
    for (body, clients), record in zip(rooms, records, strict=True):
        seed = record["room"]["seed"]
        assert room_commitment(seed, body["room"]) == body["commitment"]
        states = states_by_version(record)
        checked: set[tuple[int, int | None]] = set()
        for client in clients:
            seat = None if client.token is None else client.messages[0]["seat"]
            finals = 0
            for message, raw in zip(client.messages, client.raw, strict=True):
                messages += 1
                kind = message["type"]
                assert set(message) <= FIELDS[kind], message
                for token in tokens:
                    assert token not in raw
                if kind == "welcome":
                    assert message["seat"] == seat and message["commitment"] == body["commitment"]
                if kind != "state":
                    assert seed not in raw
                    continue
                version = message["version"]
                assert message["view"] == states[version].view(seat)
                if message["status"] == "over":
                    finals += 1
                    assert message["seed"] == seed and version == len(record["events"])
                else:
                    assert "seed" not in message and seed not in raw
                if (version, seat) not in checked:
                    checked.add((version, seat))
                    counterfactuals += check_pending_choices_are_invisible(record, states, version, seat)
                    counterfactuals += check_determinizations_look_alike(states[version], seat, message["view"])
            assert finals == 1, "every connection sees the end exactly once"
    print(f"leak test: {len(rooms)} rooms, {messages} messages, {counterfactuals} counterfactual views")
    assert messages > 1000 and counterfactuals > 100
