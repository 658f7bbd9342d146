"""Translations: gettext catalogs read at run time with Babel.

Message ids are the English texts (templates with `{name}` fields), so English needs
no catalog and an error's template is its translation key. Each part of hraj owns a
domain (`core`, `cli`, `qwixx`, ...) in `locale/<lang>/LC_MESSAGES/<domain>.po`; all
domains of a language are merged. Reading `.po` directly keeps the install free of a
compile step.

Counted phrases go through `tn` (gettext's `ngettext` with each language's Plural-Forms:
Czech and Slovak have three forms, 1 / 2-4 / 5+), and numbers through `number` and
`percent` (Babel's locale data: `1 622` and `99,9 %` in Czech, `1,622` and `99.9%` in
English).
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.core import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

from hraj.core.errors import HrajError

#: The catalogs ship inside the package (importlib.resources would cost `hraj --help` the zipfile machinery).
LOCALE = Path(__file__).resolve().parent / "locale"
LANGS = ("cs", "sk", "en")
DEFAULT_LANG = "cs"
LANG_NAMES = {"cs": "čeština", "sk": "slovenčina", "en": "English"}


def check_lang(lang: str) -> str:
    """A supported language code; raises HrajError naming the choices otherwise."""
    code = lang.strip().lower()
    if code not in LANGS:
        raise HrajError("Unknown language {lang}; choose one of: {known}.", lang=lang, known=", ".join(LANGS))
    return code


def _messages(lang: str) -> Iterator[Message]:
    """The translated, non-fuzzy messages of every domain of `lang`."""
    folder = LOCALE / lang / "LC_MESSAGES"
    if not folder.is_dir():
        return
    for entry in sorted(folder.glob("*.po")):
        with entry.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                if message.id and message.string and not message.fuzzy:
                    yield message


@functools.cache
def catalog(lang: str) -> dict[str, str]:
    """Every translated message of `lang`, from all of its domains; a plural message
    appears under its singular id with its first form."""
    messages: dict[str, str] = {}
    for message in _messages(lang):
        if isinstance(message.id, str):
            messages[message.id] = str(message.string)
        elif isinstance(message.string, tuple | list) and message.string[0]:
            messages[message.id[0]] = str(message.string[0])
    return messages


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """`lang`'s catalogs as one gettext translation, for `ngettext` with its Plural-Forms."""
    if lang == "en":
        return gettext.NullTranslations()
    merged = Catalog(locale=lang)
    for message in _messages(lang):
        merged[message.id] = message
    compiled = io.BytesIO()
    write_mo(compiled, merged)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def tn(singular: str, plural: str, count: int, lang: str = DEFAULT_LANG, /, **params: Any) -> str:
    """A phrase about `count` things in the plural form `lang` uses for it; `{count}`
    in the text becomes the number, written as the language writes numbers."""
    template = translations(lang).ngettext(singular, plural, count)
    fields = {"count": number(count, lang), **params}
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):
        return (singular if count == 1 else plural).format(**fields)


def number(value: float, lang: str = DEFAULT_LANG, /, digits: int | None = None) -> str:
    """`value` as `lang` writes numbers (`1 622`, `3,25`); `digits` fixes the decimals."""
    if digits is None:
        pattern = "#,##0" if float(value).is_integer() else "#,##0.###"
    else:
        pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=lang)


def percent(fraction: float, lang: str = DEFAULT_LANG, /, digits: int = 1) -> str:
    """`fraction` as a percentage the way `lang` writes it: `99,9 %` (cs), `99.9%` (en)."""
    pattern = str(Locale.parse(lang).percent_formats[None].pattern)
    pattern = pattern.replace("#,##0", "#,##0" + ("." + "0" * digits if digits else ""))
    return format_percent(fraction, format=pattern, locale=lang)


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


def bot_label(game_id: str, name: str, lang: str) -> str:
    """`Advanced – plays ...` in `lang` for a bot with a level, else the bot's name."""
    from hraj.core.bot import bot_levels

    level = bot_levels(game_id).get(name)
    if level is None:
        return name
    return f"{t(level[0], lang)} – {t(level[1], lang)}"


def translated_levels(game_id: str, lang: str) -> dict[str, tuple[str, str]]:
    """Bot name -> (level, what it does) in `lang`, for the bots that have a level."""
    from hraj.core.bot import bot_levels

    return {name: (t(level, lang), t(text, lang)) for name, (level, text) in bot_levels(game_id).items()}
