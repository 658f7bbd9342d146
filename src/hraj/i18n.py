"""Translations: gettext catalogs read at run time with Babel.

Message ids are the English texts (templates with `{name}` fields), so English needs
no catalog and an error's template is its translation key. Each shared part of hraj owns
a domain (`core`, `cli`, `web`, ...) in `locale/<lang>/LC_MESSAGES/<domain>.po`, and
each game one of its own in its folder, `<game>/locale/<lang>/LC_MESSAGES/<id>.po`
(found through the registry, so a game from another package brings its own Czech).
A msgid is looked up in the shared domains, then in the games'; `t_in(game, ...)` and
`catalog(lang, game)` look in that game's domain first. Reading `.po` directly keeps
the install free of a compile step.

Counted phrases go through `tn` (gettext's `ngettext` with each language's Plural-Forms:
Czech and Slovak have three forms, 1 / 2-4 / 5+), and numbers through `number` and
`percent` (Babel's locale data: `1 622` and `99,9 %` in Czech, `1,622` and `99.9%` in
English).

Sentences about a player (the log's "Eva crossed red 5") agree with the player's
grammatical gender in Czech and Slovak: `tg` and `tgn` look the English text up under the
gettext context `masculine`, `feminine` or `unknown` (a gender nobody gave), so each
language writes its own forms ("Eva zakřížkovala", "Petr zakřížkoval", "Eva – zakřížkováno").
Each game's `log` module words its events this way (`log_lines`).
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from babel.core import Locale
from babel.lists import format_list
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

from hraj.core.errors import HrajError
from hraj.core.record import starting_seat
from hraj.core.registry import game_locales, generation

#: The catalogs ship inside the package (importlib.resources would cost `hraj --help` the zipfile machinery).
LOCALE = Path(__file__).resolve().parent / "locale"
LANGS = ("cs", "sk", "en")
DEFAULT_LANG = "cs"
LANG_NAMES = {"cs": "čeština", "sk": "slovenčina", "en": "English"}
#: A player's grammatical gender, as a seat stores it: masculine or feminine (None: not given).
GENDERS = ("m", "f")
#: The gettext context of each gender; `unknown` is the wording that fits both.
GENDER_CONTEXTS = {"m": "masculine", "f": "feminine", None: "unknown"}


def check_lang(lang: str) -> str:
    """A supported language code; raises HrajError naming the choices otherwise."""
    code = lang.strip().lower()
    if code not in LANGS:
        raise HrajError("Unknown language {lang}; choose one of: {known}.", lang=lang, known=", ".join(LANGS))
    return code


@functools.cache
def _read(path: Path, lang: str) -> tuple[Message, ...]:
    """The translated, non-fuzzy messages of one `.po` file."""
    with path.open("rb") as handle:
        return tuple(
            message for message in read_po(handle, locale=lang) if message.id and message.string and not message.fuzzy
        )


def _domains(lang: str, game: str | None) -> list[Path]:
    """The `.po` files of `lang`, the one that wins a msgid first: `game`'s own domain
    (when given), the shared domains (the later file first, as they always merged), then
    the other games' domains."""
    folder = LOCALE / lang / "LC_MESSAGES"
    shared = sorted(folder.glob("*.po"), reverse=True) if folder.is_dir() else []
    games = [(name, where / lang / "LC_MESSAGES" / f"{name}.po") for name, where in game_locales()]
    own = [path for name, path in games if name == game]
    others = [path for name, path in games if name != game]
    return [path for path in [*own, *shared, *others] if path.is_file()]


def _messages(lang: str, game: str | None = None) -> Iterator[Message]:
    """The translated messages of every domain of `lang`, the one that wins last."""
    for path in reversed(_domains(lang, game)):
        yield from _read(path, lang)


def catalog(lang: str, game: str | None = None) -> dict[str, str]:
    """Every translated message of `lang`, from all of its domains (`game`'s first); a
    plural message appears under its singular id with its first form."""
    return _catalog(lang, game, generation())


@functools.cache
def _catalog(lang: str, game: str | None, _generation: int) -> dict[str, str]:
    messages: dict[str, str] = {}
    for message in _messages(lang, game):
        if message.context:
            continue  # gendered sentences are read through `tg` / `tgn`
        if isinstance(message.id, str):
            messages[message.id] = str(message.string)
        elif isinstance(message.string, tuple | list) and message.string[0]:
            messages[message.id[0]] = str(message.string[0])
    return messages


def translations(lang: str, game: str | None = None) -> gettext.NullTranslations:
    """`lang`'s catalogs (`game`'s first) as one gettext translation, for `ngettext`
    with its Plural-Forms and `pgettext` with the log's gender contexts."""
    return _translations(lang, game, generation())


@functools.cache
def _translations(lang: str, game: str | None, _generation: int) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    merged = Catalog(locale=lang)
    for message in _messages(lang, game):
        merged[message.id] = message
    compiled = io.BytesIO()
    write_mo(compiled, merged)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def tn(singular: str, plural: str, count: int, lang: str = DEFAULT_LANG, /, **params: object) -> str:
    """A phrase about `count` things in the plural form `lang` uses for it; `{count}`
    in the text becomes the number, written as the language writes numbers."""
    template = translations(lang).ngettext(singular, plural, count)
    fields = {"count": number(count, lang), **params}
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):
        return (singular if count == 1 else plural).format(**fields)


def gender_of(value: object) -> str | None:
    """A stored gender as one of GENDERS, or None when not given (or not understood)."""
    return value if isinstance(value, str) and value in GENDERS else None


def _fill(template: str, fallback: str, params: Mapping[str, object]) -> str:
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return fallback.format(**params)


def tx(context: str, text: str, lang: str = DEFAULT_LANG, /) -> str:
    """A word in a grammatical `context` (gettext's msgctxt), such as a colour as the
    object of a sentence ("zapsala černou"); the plain translation when none is given."""
    if lang == "en":
        return text
    said = translations(lang).pgettext(context, text)
    return t(text, lang) if said == text else said


def tg(text: str, gender: str | None, lang: str = DEFAULT_LANG, /, **params: object) -> str:
    """`text` said of a player of grammatical `gender` ("m", "f", None for not given):
    the translation under the gender's gettext context, params filled in."""
    context = GENDER_CONTEXTS.get(gender, "unknown")
    template = translations(lang).pgettext(context, text)
    return _fill(template, text, params)


def tgn(
    singular: str, plural: str, count: int, gender: str | None, lang: str = DEFAULT_LANG, /, **params: object
) -> str:
    """`tg` for a phrase about `count` things: the gender's form in the language's plural form."""
    context = GENDER_CONTEXTS.get(gender, "unknown")
    template = translations(lang).npgettext(context, singular, plural, count)
    return _fill(template, singular if count == 1 else plural, {"count": number(count, lang), **params})


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


def list_text(items: Sequence[str], lang: str = DEFAULT_LANG, style: str = "standard", /) -> str:
    """Words as `lang` lists them: "a, b a c" (cs), "a, b, and c" (en); `style` "or"
    for a choice ("a, b nebo c")."""
    return format_list(list(items), style=style, locale=lang)  # type: ignore[arg-type]


def t(text: str, lang: str = DEFAULT_LANG, /, **params: object) -> str:
    """`text` in `lang` (English when no translation exists), with `params` filled in."""
    template = catalog(lang).get(text, text) if lang != "en" else text
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return text.format(**params)


def t_in(game: str, text: str, lang: str = DEFAULT_LANG, /, **params: object) -> str:
    """`t` in the words of one game: its own catalog first, then the shared ones."""
    template = catalog(lang, game).get(text, text) if lang != "en" else text
    return _fill(template, text, params) if params else template


def error_text(error: HrajError, lang: str = DEFAULT_LANG) -> str:
    """The reason of an error in the player's language."""
    return t(error.key, lang, **{name: _param_text(value, lang) for name, value in error.params.items()})


def _param_text(value: object, lang: str) -> object:
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
    return f"{t_in(game_id, level[0], lang)} – {t_in(game_id, level[1], lang)}"


def bot_name(game_id: str, name: str, lang: str) -> str:
    """A bot as the menus name it: its level ("Beginner") where it has one, else its own
    name ("Random", "Pubeval"), in `lang`."""
    from hraj.core.bot import bot_levels

    level = bot_levels(game_id).get(name)
    return t_in(game_id, level[0] if level is not None else name[:1].upper() + name[1:], lang)


def seat_name(game_id: str | None, seat: int, lang: str, *, name: str | None = None, bot: str | None = None) -> str:
    """A seat's one name everywhere (the table, the log, the review, the terminal, `hraj
    analyze`): the name its person gave, else a bot's level as the menus say it ("Bot
    (Expert)"), else "Player 2"."""
    if name:
        return name
    if bot:
        return t("Bot ({bot})", lang, bot=bot_name(game_id, bot, lang) if game_id else bot)
    return t("Player {number}", lang, number=seat + 1)


def distinct_names(names: Sequence[str]) -> list[str]:
    """Two seats of one name (two bots of one level) get their seat numbers, so that the
    log tells them apart."""
    return [f"{name} {seat + 1}" if names.count(name) > 1 else name for seat, name in enumerate(names)]


def translated_levels(game_id: str, lang: str) -> dict[str, tuple[str, str]]:
    """Bot name -> (level, what it does) in `lang`, for the bots that have a level."""
    from hraj.core.bot import bot_levels

    return {
        name: (t_in(game_id, level, lang), t_in(game_id, text, lang))
        for name, (level, text) in bot_levels(game_id).items()
    }


def _forfeits_said(
    said: list[str | None],
    events: Sequence[tuple[str, int | None, str]],
    names: Sequence[str],
    genders: Sequence[str | None],
    lang: str,
) -> list[str | None]:
    """A seat's loss by forfeit (its time ran out), said the same way in every game."""
    from hraj.core.game import FORFEIT
    from hraj.core.record import MOVE

    for index, (kind, seat, text) in enumerate(events):
        if kind == MOVE and text == FORFEIT and seat is not None and 0 <= seat < len(names) and index < len(said):
            gender = genders[seat] if seat < len(genders) else None
            said[index] = tg("{name} ran out of time and lost the game", gender, lang, name=names[seat])
    return said


def log_lines(
    game_id: str,
    events: Sequence[tuple[str, int | None, str]],
    names: Sequence[str],
    genders: Sequence[str | None],
    lang: str,
    view: Mapping[str, object] | None = None,
) -> list[str | None]:
    """One sentence per event ("Eva zakřížkovala červenou 5"), in the words of the game's
    `log` module (`lines(events, names, genders, lang, view)`); None for an event the
    seat may not read. `view` is the current view of the reader, for what the events
    leave out (the variant of a match)."""
    from hraj.core.record import CHANCE, HIDDEN
    from hraj.core.registry import game_part

    narrator = game_part(game_id, "log")
    if narrator is not None:
        said: list[str | None] = narrator.lines(events, names, genders, lang, view)
        return _forfeits_said(said, events, names, genders, lang)
    lines: list[str | None] = []
    for kind, seat, text in events:
        if text == HIDDEN:
            lines.append(None)
        elif kind == CHANCE:
            lines.append(chance_line(text, names, lang))
        else:
            who = names[seat] if seat is not None and 0 <= seat < len(names) else "—"
            lines.append(f"{who}: {text}")
    return lines


def chance_line(text: str, names: Sequence[str], lang: str) -> str:
    """A chance outcome every game may log: who starts (`first 1`), else the notation."""
    first = starting_seat(text)
    if first is not None and first < len(names):
        return t("{name} starts", lang, name=names[first])
    return t("Chance: {outcome}", lang, outcome=text)


def name_of(names: Sequence[str], seat: int | None) -> str:
    """A seat's name for a sentence; a dash for a seat the names do not cover."""
    return names[seat] if seat is not None and 0 <= seat < len(names) else "—"


def gender_at(genders: Sequence[str | None], seat: int | None) -> str | None:
    return genders[seat] if seat is not None and 0 <= seat < len(genders) else None
