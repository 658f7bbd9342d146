"""Every message of the server, the store, the people and the commands that run them has
Czech and Slovak (domains `server` and `people`)."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file

from hraj.i18n import catalog, error_text
from hraj.server.protocol import ServerError, error_body
from hraj.server.settings import SettingsError
from hraj.store import StoreError

SOURCE = Path(__file__).resolve().parents[2] / "src" / "hraj"
LOCALE = SOURCE / "locale"
#: The callables whose argument is an English template: errors and `t`/`_` of the commands.
KEYWORDS = dict.fromkeys(
    (
        "t",
        "_",
        "HrajError",
        "InvalidRecord",
        "StoreError",
        "Missing",
        "SettingsError",
        "AccountError",
        "NameTaken",
        "WrongCredentials",
        "TooManyAttempts",
        "Busy",
        "ClockError",
    ),
    (1,),
) | {"ServerError": (2,)}
FILES = [
    path for name in ("server", "store", "app", "players", "clocks") for path in sorted((SOURCE / name).glob("*.py"))
]


def messages() -> list[str]:
    found: list[str] = []
    for path in FILES:
        for _, message, _, _ in extract_from_file("python", path, keywords=KEYWORDS):
            text = message[0] if isinstance(message, tuple) else message
            if text and text not in found:
                found.append(text)
    return found


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_extraction_finds_the_templates() -> None:
    found = messages()
    assert "There is no room {room}." in found  # a ServerError: its template is the second argument
    assert "The revealed seed does not match the commitment {commitment} of room {room}." in found  # InvalidRecord
    assert "Room {room} has no seat {seat}." in found  # StoreError
    assert "{name}: expected a number from {low} to {high}, got {number}" in found  # SettingsError
    assert "NOT verified: {why}" in found  # hraj verify
    assert len(found) > 60


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_every_server_message_is_translated(lang: str) -> None:
    missing = [text for text in messages() if text not in catalog(lang)]
    assert not missing, f"missing {lang} translations in server.po: {missing}"


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_server_translations_keep_every_placeholder(lang: str) -> None:
    translated = catalog(lang)
    for text in messages():
        if text in translated:
            assert fields(translated[text]) == fields(text), text


@pytest.mark.parametrize("lang", ["cs", "sk", "en"])
def test_the_server_domain_exists_in_every_language(lang: str) -> None:
    assert (LOCALE / lang / "LC_MESSAGES" / "server.po").is_file()


def test_a_socket_error_carries_the_players_language() -> None:
    error = ServerError("seat_taken", "Seat {seat} is taken or is a bot's.", seat=1)
    czech = error_body(error, "cs")
    assert czech["message"] == "Seat 1 is taken or is a bot's."  # English stays for logs and clients
    assert czech["text"] == "Místo 1 je obsazené nebo patří botovi."
    assert error_body(error, "sk")["text"] == "Miesto 1 je obsadené alebo patrí botovi."
    assert "text" not in error_body(error, "en")


def test_store_and_settings_errors_are_translatable() -> None:
    assert error_text(StoreError("Room {room} has no seat {seat}.", room="abc", seat=7), "cs") == (
        "Místnost abc nemá místo 7."
    )
    problem = SettingsError("secret: must be at least {length} characters long", length=16)
    assert str(problem) == "secret: must be at least 16 characters long"
    assert error_text(problem, "sk") == "secret: musí mať aspoň 16 znakov"
