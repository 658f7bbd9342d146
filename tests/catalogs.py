"""The gettext catalogs as files: the shared ones in `hraj/locale` and each registered
game's own, in its folder (`<game>/locale/<lang>/LC_MESSAGES/<id>.po`)."""

from __future__ import annotations

import string
from pathlib import Path

from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from hraj.core.registry import game_locales
from hraj.i18n import LOCALE


def shared_files(lang: str) -> list[Path]:
    return sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po"))


def game_file(folder: Path, game_id: str, lang: str) -> Path:
    return folder / lang / "LC_MESSAGES" / f"{game_id}.po"


def game_files(lang: str) -> list[Path]:
    """The registered games' own catalogs of `lang` that exist."""
    return [path for game_id, folder in game_locales() if (path := game_file(folder, game_id, lang)).is_file()]


def po_files(lang: str) -> list[Path]:
    return [*shared_files(lang), *game_files(lang)]


def messages(path: Path, lang: str) -> list[Message]:
    with path.open("rb") as handle:
        return [message for message in read_po(handle, locale=lang) if message.id]


def po_strings(lang: str, game: str | None = None) -> dict[str, str]:
    """msgid -> msgstr of every catalog of `lang` (or of `game`'s own alone), untranslated
    ones too (English lists its msgids with empty strings); a plural message under its
    singular with its first form."""
    found: dict[str, str] = {}
    paths = po_files(lang) if game is None else [game_file(dict(game_locales())[game], game, lang)]
    for path in paths:
        for message in messages(path, lang):
            if message.context:
                continue
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            string = message.string if isinstance(message.string, str) else (message.string or [""])[0]
            found[str(msgid)] = str(string or "")
    return found


def _key(message: Message) -> tuple[str | None, str]:
    return message.context, str(message.id if isinstance(message.id, str) else message.id[0])


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def gaps_of_game(game_id: str, lang: str) -> list[str]:
    """What a game's own catalog of `lang` lacks against its English one: a msgid
    missing or untranslated, or a translation that changes the fields."""
    folder = dict(game_locales())[game_id]
    english = game_file(folder, game_id, "en")
    if not english.is_file():
        return []  # a game with no words of its own
    path = game_file(folder, game_id, lang)
    if not path.is_file():
        return [f"{path} is missing"]
    wanted = {_key(message): message for message in messages(english, "en")}
    given = {_key(message): message for message in messages(path, lang)}
    gaps = [f"missing: {key}" for key in wanted.keys() - given.keys()]
    for key, message in given.items():
        forms = [message.string] if isinstance(message.string, str) else list(message.string or [])
        if not all(forms):
            gaps.append(f"untranslated: {key}")
        elif any(_fields(form) != _fields(key[1]) for form in forms):
            gaps.append(f"fields differ: {key}")
    return gaps
