"""Password hashing: Argon2id with RFC 9106's parameters, bounded, at a lower priority."""

from __future__ import annotations

import asyncio
import os

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
