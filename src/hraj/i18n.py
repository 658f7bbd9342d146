"""Translations: gettext catalogs read at run time with Babel.

Message ids are the English texts (templates with `{name}` fields), so English needs
no catalog and an error's template is its translation key. Each part of hraj owns a
domain (`core`, `cli`, `qwixx`, ...) in `locale/<lang>/LC_MESSAGES/<domain>.po`; all
domains of a language are merged. Reading `.po` directly keeps the install free of a
compile step.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

from babel.messages.pofile import read_po

from hraj.core.errors import HrajError

LANGS = ("cs", "sk", "en")
DEFAULT_LANG = "cs"
LANG_NAMES = {"cs": "čeština", "sk": "slovenčina", "en": "English"}


def check_lang(lang: str) -> str:
    """A supported language code; raises HrajError naming the choices otherwise."""
    code = lang.strip().lower()
    if code not in LANGS:
        raise HrajError("Unknown language {lang}; choose one of: {known}.", lang=lang, known=", ".join(LANGS))
    return code


@functools.cache
def catalog(lang: str) -> dict[str, str]:
    """Every translated message of `lang`, from all of its domains."""
    messages: dict[str, str] = {}
    folder = resources.files("hraj").joinpath("locale", lang, "LC_MESSAGES")
    if not folder.is_dir():
        return messages
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if not entry.name.endswith(".po"):
            continue
        with entry.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                if message.id and isinstance(message.id, str) and message.string and not message.fuzzy:
                    messages[message.id] = str(message.string)
    return messages


def t(text: str, lang: str = DEFAULT_LANG, /, **params: Any) -> str:
    """`text` in `lang` (English when no translation exists), with `params` filled in."""
    template = catalog(lang).get(text, text) if lang != "en" else text
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return text.format(**params)


def error_text(error: HrajError, lang: str = DEFAULT_LANG) -> str:
    """The reason of an error in the player's language."""
    return t(error.key, lang, **{name: _param_text(value, lang) for name, value in error.params.items()})


def _param_text(value: Any, lang: str) -> Any:
    """Nested reasons and plain words (row or colour names) are translated too."""
    if isinstance(value, HrajError):
        return error_text(value, lang)
    if isinstance(value, str) and lang != "en":
        return catalog(lang).get(value, value)
    return value
