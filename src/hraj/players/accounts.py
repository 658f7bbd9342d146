"""Accounts: sign up, sign in and out, change the password, delete, download one's data.

The server calls these with what a request carried; every store call runs in a worker
thread and every password check in the bounded hashing of `hraj.players.passwords`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from hraj.players.errors import AccountError, NameTaken, TooManyAttempts, WrongCredentials
from hraj.players.identity import (
    Person,
    csrf_matches,
    csrf_token,
    guest_of,
    new_person_id,
    new_session_token,
    session_hash,
)
from hraj.players.limits import AddressLimit, SignInLimits
from hraj.players.names import check_name, check_password, name_key
from hraj.players.passwords import Hashing
from hraj.store.people import Account, People, PersonGame

#: The one answer to a sign-in with an unknown name or a wrong password.
WRONG = "The name or the password is not right."


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A new session: the account and the token its cookie carries (shown nowhere else)."""

    person: str
    name: str
    token: str
    csrf: str


class Accounts:
    def __init__(self, people: People, secret: str, by_address: AddressLimit, hashing: Hashing | None = None) -> None:
        self.people = people
        self.secret = secret
        self.hashing = hashing if hashing is not None else Hashing()
        self.limits = SignInLimits(people.engine, by_address)

    # --- who is asking -----------------------------------------------------------------

    def person(self, session: str | None, guest: str | None, csrf: str | None) -> Person | None:
        """The person a request's cookies prove (the session's account first), or None.

        Blocking: a store read for a session cookie."""
        if session:
            hashed = session_hash(self.secret, session)
            account = self.people.session_account(hashed)
            if account is not None:
                return Person(account.id, account.name, hashed, csrf_matches(self.secret, hashed, csrf), session=hashed)
        guest_id = guest_of(self.secret, guest)
        if guest_id is None:
            return None
        return Person(guest_id, None, guest_id, csrf_matches(self.secret, guest_id, csrf))

    def csrf(self, identity: str) -> str:
        return csrf_token(self.secret, identity)

    # --- signing up, in and out ----------------------------------------------------------

    async def _session(self, account: Account | tuple[str, str]) -> SignedIn:
        person, name = (account.id, account.name) if isinstance(account, Account) else account
        token = new_session_token()
        hashed = session_hash(self.secret, token)
        await asyncio.to_thread(self.people.add_session, hashed, person)
        return SignedIn(person, name, token, self.csrf(hashed))

    async def sign_up(self, name: str, password: str, guest: Person | None) -> SignedIn:
        """A new account and its first session; the guest's games become the account's (a
        browser signed in to another account is signed out of it)."""
        name = check_name(name)
        check_password(password)
        key = name_key(name)
        if await asyncio.to_thread(self.people.account_named, key) is not None:
            raise NameTaken("The name {name} is taken; choose another.", name=name)
        password_hash = await self.hashing.hash(password)
        person = new_person_id()
        if not await asyncio.to_thread(self.people.create_account, person, name, key, password_hash):
            raise NameTaken("The name {name} is taken; choose another.", name=name)
        if guest is not None and not guest.signed_in:
            await asyncio.to_thread(self.people.move_games, guest.id, person)
        elif guest is not None and guest.session is not None:
            await asyncio.to_thread(self.people.drop_session, guest.session)  # this browser's other account
        return await self._session((person, name))

    async def sign_in(self, name: str, password: str, address: str, current: Person | None) -> SignedIn:
        """A new session for the right name and password; the same answer (`WRONG`) for
        an unknown name as for a wrong password, after the same work. The session the
        browser had is ended (a new token at every sign-in)."""
        key = name_key(name)[:64]
        self._refuse_for(self.limits.address_wait(address))
        self.hashing.check_room()  # busy: refused before any store read
        self._refuse_for(await asyncio.to_thread(self.limits.name_wait, key))
        account = await asyncio.to_thread(self.people.account_named, key) if key else None
        right, rehashed = await self.hashing.verify(None if account is None else account.password_hash, password)
        if account is None or not right:
            await asyncio.to_thread(self.limits.failed, address, key)
            raise WrongCredentials(WRONG)
        await asyncio.to_thread(self.limits.succeeded, key)
        if rehashed is not None:
            await asyncio.to_thread(self.people.set_password, account.id, rehashed)
        if current is not None and current.session is not None:
            await asyncio.to_thread(self.people.drop_session, current.session)
        return await self._session(account)

    @staticmethod
    def _refuse_for(wait: int) -> None:
        if wait:
            raise TooManyAttempts("Too many failed sign-ins; try again in {seconds} s.", retry_after=wait)

    async def sign_out(self, person: Person) -> None:
        if person.session is not None:
            await asyncio.to_thread(self.people.drop_session, person.session)

    async def sign_out_everywhere(self, person: Person) -> int:
        return await asyncio.to_thread(self.people.drop_sessions, person.id)

    async def _check_password(self, person: Person, password: str) -> Account:
        account = await asyncio.to_thread(self.people.account, person.id)
        if account is None:
            raise AccountError("Sign in first.")
        right, _ = await self.hashing.verify(account.password_hash, password)
        if not right:
            raise WrongCredentials("The password is not right.")
        return account

    async def change_password(self, person: Person, old: str, new: str) -> SignedIn:
        """A new password; every session ends, this browser gets a new one."""
        check_password(new)
        account = await self._check_password(person, old)
        await asyncio.to_thread(self.people.set_password, account.id, await self.hashing.hash(new))
        await asyncio.to_thread(self.people.drop_sessions, account.id)
        return await self._session(account)

    async def delete(self, person: Person, password: str) -> None:
        account = await self._check_password(person, password)
        await asyncio.to_thread(self.people.delete_account, account.id)

    # --- one's data ----------------------------------------------------------------------

    def data(self, person: Person) -> dict[str, object]:
        """Everything the store keeps of the person, as JSON (blocking)."""
        account = self.people.account(person.id)
        games = [game_json(game) for game in self.people.games(person.id, limit=100_000)]
        return {
            "name": person.name,
            "created_at": account.created_at.isoformat() if account is not None else None,
            "sessions": self.people.session_count(person.id),
            "games": games,
            "ratings": self.people.ratings(person.id),
            "results": self.people.results(person.id),
        }


def game_json(game: PersonGame) -> dict[str, object]:
    return {
        "room": game.room,
        "game": game.game,
        "status": game.status,
        "seat": game.seat,
        "rated": game.rated,
        "outcome": game.outcome,
        "created_at": game.created_at.isoformat(),
        "updated_at": game.updated_at.isoformat(),
    }
