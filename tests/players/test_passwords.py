"""Password hashing: Argon2id with RFC 9106's parameters, bounded, at a lower priority."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

from argon2 import extract_parameters
from argon2.profiles import RFC_9106_LOW_MEMORY

from hraj.players.errors import Busy
from hraj.players.passwords import NICENESS, Hashing, hash_password, verify_password


def test_a_hash_is_argon2id_with_rfc_9106_parameters_and_checks_only_its_password() -> None:
    hashed = hash_password("correct horse battery")
    assert hashed.startswith("$argon2id$")
    assert extract_parameters(hashed) == RFC_9106_LOW_MEMORY
    assert verify_password(hashed, "correct horse battery") == (True, None)
    assert verify_password(hashed, "correct horse batterz") == (False, None)
    assert verify_password("not a hash", "x") == (False, None)


def _niceness() -> int:
    return os.nice(0)


def test_beyond_the_workers_and_the_waiting_checks_are_refused_at_once() -> None:
    hashing = Hashing(workers=1, waiting=2)

    async def flood() -> list[str]:
        hashed = await hashing.hash("correct horse battery")

        async def one() -> str:
            try:
                right, _ = await hashing.verify(hashed, "correct horse battery")
            except Busy:
                return "busy"
            return "right" if right else "wrong"

        return await asyncio.gather(*(one() for _ in range(10)))

    try:
        answers = asyncio.run(flood())
        workers_niceness = hashing._executor().submit(_niceness).result(60)
    finally:
        hashing.close()
    assert sorted(answers) == ["busy"] * 7 + ["right"] * 3, "one hashing and two waiting, the rest refused"
    assert workers_niceness >= os.nice(0) + NICENESS, "the hashing process yields to the server"


def test_an_unknown_account_is_checked_against_a_dummy_hash() -> None:
    hashing = Hashing()
    try:
        assert asyncio.run(hashing.verify(None, "whatever it is")) == (False, None)
        assert hashing._dummy is not None and hashing._dummy.startswith("$argon2id$")
    finally:
        hashing.close()


_SERVER = """
import asyncio, sys
from hraj.players.passwords import Hashing
hashing = Hashing()
asyncio.run(hashing.hash("a password of some length"))
print(*hashing._pool._processes, flush=True)
sys.stdin.read()
"""


def test_the_hashing_workers_end_when_their_server_is_killed() -> None:
    server = subprocess.Popen([sys.executable, "-c", _SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    workers = [int(pid) for pid in server.stdout.readline().split()]
    assert workers and all(_alive(pid) for pid in workers)
    server.send_signal(signal.SIGKILL)
    server.wait()
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers), "a worker outlived its killed server"


def _alive(pid: int) -> bool:
    """Whether the process runs: an ended one that nobody has reaped yet (a zombie) does not."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
