"""Password hashing: Argon2id through argon2-cffi, bounded so sign-ins cannot starve games.

The parameters are RFC 9106's second recommendation (64 MiB of memory, 3 passes, 4
lanes), argon2-cffi's `RFC_9106_LOW_MEMORY` profile: the first one needs 2 GiB a hash,
more than a small server has. One hash takes a quarter of a second of CPU, so hashing
runs in worker processes at a lower priority than the server (`nice`), the running
rooms keep the processor first; at most `waiting` requests queue for a worker, and
any beyond them are answered at once that the server is busy (`Busy`), so a flood of
sign-ins costs the games nothing but its own refusals.
`benchmarks/sign_in_flood.py` measures a room's moves during 50 sign-ins a second.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import secrets
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from argon2.profiles import RFC_9106_LOW_MEMORY

from hraj.players.errors import Busy

#: The hasher of every account's password.
HASHER = PasswordHasher.from_parameters(RFC_9106_LOW_MEMORY)
#: How much lower the workers' priority is than the server's.
NICENESS = 10
T = TypeVar("T")


#: How often a worker looks whether the server that started it is still there (seconds).
ORPHAN_CHECK_S = 1.0


def _start_worker(server: int) -> None:
    """A worker runs below the server's priority and ends when the server does, even when
    the server was killed and could not shut its pool down (a restarted server would
    otherwise leave a 100-MB orphan behind at every crash)."""
    os.nice(NICENESS)

    def end_with_the_server() -> None:
        while os.getppid() == server:
            time.sleep(ORPHAN_CHECK_S)
        os._exit(0)

    threading.Thread(target=end_with_the_server, name="end-with-the-server", daemon=True).start()


def hash_password(password: str) -> str:
    return HASHER.hash(password)


def verify_password(password_hash: str, password: str) -> tuple[bool, str | None]:
    """Whether the password is right, and its new hash when the stored one's parameters are old."""
    try:
        HASHER.verify(password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False, None
    return True, HASHER.hash(password) if HASHER.check_needs_rehash(password_hash) else None


class Hashing:
    """Hashes and checks passwords in `workers` processes of lower priority, with at most
    `waiting` requests queued behind them (beyond: `Busy`)."""

    def __init__(self, workers: int = 1, waiting: int = 8) -> None:
        self.workers = workers
        self.waiting = waiting
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._slots: asyncio.Semaphore | None = None
        self._queued = 0
        self._dummy: str | None = None

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # Spawned, never forked: the server has threads, and a forked child would inherit their locks.
            context = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
            )
        return self._pool

    def check_room(self) -> None:
        """Raise Busy at once when no check could start or wait now: a sign-in refused this
        way costs no store read and no thread (a flood of them must cost the games nothing)."""
        if self._queued >= self.workers + self.waiting:
            raise Busy("Too many sign-ins at this moment; try again in a few seconds.")

    async def _run(self, work: Callable[..., T], *args: str) -> T:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        self.check_room()
        self._queued += 1
        try:
            async with self._slots:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(self._executor(), work, *args)
        finally:
            self._queued -= 1

    async def hash(self, password: str) -> str:
        return await self._run(hash_password, password)

    async def verify(self, password_hash: str | None, password: str) -> tuple[bool, str | None]:
        """Check a password against its hash, or against a dummy hash when there is none
        (the same work, so an unknown name answers as slowly as a wrong password)."""
        if password_hash is None:
            if self._dummy is None:
                # A hash of no one's password, made once, with the parameters of the others.
                self._dummy = await self._run(hash_password, secrets.token_urlsafe(16))
            await self._run(verify_password, self._dummy, password)
            return False, None
        return await self._run(verify_password, password_hash, password)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
