"""The `hraj` help page, drawn without the command line's machinery.

`hraj --help` (and a bare `hraj`) print it from here: Python alone starts in about
0.015 s of CPU, Typer in 0.09 s, Babel's catalog reader in 0.06 s and the games' core
in 0.07 s (`python -m benchmarks.cli_start` prints them side by side), so the page is
drawn from this module's own texts, which the commands are declared with (ROOT_HELP,
COMMANDS, LANG_HELP), translated by the few messages it needs, read from the shared
catalogs with no library. Every other command line goes to `hraj.cli.app`. The layout
(`rows`, `wrap`, `terminal_width`) is the one `help.help_page` draws every page with,
and a test compares this page with the one drawn that way.
"""

from __future__ import annotations

import os
import sys

#: hraj.i18n's languages, which this module cannot import (it loads Babel).
LANGS = ("cs", "sk", "en")
DEFAULT_LANG = "cs"


def _(text: str) -> str:
    """Marks a text for the catalogs; the help page translates it when shown."""
    return text


ROOT_HELP = _(
    "Tabletop games: play in the terminal, replay records, pit bots against each other; hraj games lists them."
)
#: The commands in the order the help page lists them, with what each does.
COMMANDS = {
    "games": _("List the games with their options and bots."),
    "play": _("Play a game in the terminal: people at one keyboard and bots."),
    "replay": _("Show a recorded game move by move, checking every move against the rules."),
    "analyze": _("Analyse a finished game: what every decision cost against the strongest bot's best option."),
    "arena": _("Pit bots against each other: win rates and mean scores with 95% confidence intervals."),
    "export": _("Write a record in a format other programs read; hraj export --help names them."),
    "rules": _("Show the rules of a game in the terminal."),
    "bench": _("Measure random-playout games per second (the speed of the rules engine)."),
    "serve": _("Run the game server: rooms, invite links and live play over HTTP and WebSocket."),
    "verify": _("Check a finished online game: its seed matches the commitment and every roll and card."),
    "backup": _("Copy the server's SQLite database and its secret safely while it runs."),
    "restore": _("Bring a backup back as a new database, with its secret, and check every room."),
}
#: `--lang`, which every command takes.
LANG_FLAGS = ("--lang", "-l")
LANG_METAVAR = _("LANG")
LANG_HELP = _("Language: cs, sk or en.")
#: What the help page of the command itself is made of, besides the texts above.
PAGE_WORDS = ("Usage:", "[OPTIONS]", "COMMAND [ARGS]...", "Options", "Commands", "Show this message and exit.")
#: The shared catalogs that hold the page's texts (none of them in two).
CATALOGS = ("cli", "analysis", "server")
#: Exit code of a bare `hraj`: the page, as for any command line that is incomplete.
USAGE = 2


def terminal_width() -> int:
    """The terminal's width as the help pages use it (80 where unknown, at most 100),
    found as `shutil.get_terminal_size` does without importing it."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 0
        except (ValueError, OSError):
            columns = 0
    return min(columns or 80, 100)


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` characters, broken at spaces only (a longer
    word keeps a line of its own)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def rows(pairs: list[tuple[str, str]], width: int) -> list[str]:
    """Two columns: names, and their help wrapped to the rest of `width`."""
    left = min(max((len(name) for name, _ in pairs), default=0), 32)
    text_width = max(width - left - 5, 20)
    lines: list[str] = []
    for name, text in pairs:
        wrapped = wrap(text, text_width) or [""]
        if len(name) > left:
            lines.append(f"  {name}")
            lines.extend(f"  {'':{left}}   {part}" for part in wrapped)
            continue
        lines.append(f"  {name:{left}}   {wrapped[0]}".rstrip())
        lines.extend(f"  {'':{left}}   {part}" for part in wrapped[1:])
    return lines


def _unquote(text: str) -> str:
    """A quoted string of a `.po` file, its escapes read."""
    body = text.strip()[1:-1]
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    out: list[str] = []
    index = 0
    while index < len(body):
        if body[index] == "\\" and index + 1 < len(body):
            out.append(escapes.get(body[index + 1], body[index + 1]))
            index += 2
        else:
            out.append(body[index])
            index += 1
    return "".join(out)


def catalog_strings(lang: str, wanted: set[str]) -> dict[str, str]:
    """The translations of the `wanted` msgids in the shared catalogs of `lang` (those the
    commands' texts live in): simple entries only (no context, no plural), as this
    page's texts are."""
    found: dict[str, str] = {}
    if lang == "en":
        return found
    folder = os.path.join(os.path.dirname(os.path.dirname(__file__)), "locale", lang, "LC_MESSAGES")
    for domain in CATALOGS:
        with open(os.path.join(folder, f"{domain}.po"), encoding="utf-8") as handle:
            text = handle.read()
        for block in text.split("\n\n"):
            parts: dict[str, str] = {}
            field = ""
            for line in block.splitlines():
                if line.startswith("#"):
                    continue
                if line.startswith('"'):
                    parts[field] = parts.get(field, "") + _unquote(line)
                else:
                    field, _space, value = line.partition(" ")
                    parts[field] = _unquote(value)
            msgid, msgstr = parts.get("msgid"), parts.get("msgstr")
            if msgid in wanted and msgstr and "msgctxt" not in parts:
                found.setdefault(msgid, msgstr)
    return found


def page(lang: str, width: int) -> str:
    """The help page of `hraj` in `lang` at `width`."""
    texts = [ROOT_HELP, LANG_METAVAR, LANG_HELP, *PAGE_WORDS, *COMMANDS.values()]
    said = catalog_strings(lang, set(texts))

    def t(text: str) -> str:
        return said.get(text, text)

    lines = [" ".join([t("Usage:"), "hraj", t("[OPTIONS]"), t("COMMAND [ARGS]...")]), "", *wrap(t(ROOT_HELP), width)]
    options = [
        (", ".join(sorted(LANG_FLAGS, key=len)) + " " + t(LANG_METAVAR), t(LANG_HELP)),
        ("--help", t("Show this message and exit.")),
    ]
    commands = [(name, t(text)) for name, text in COMMANDS.items()]
    for title, pairs in ((t("Options"), options), (t("Commands"), commands)):
        lines += ["", title + ":", *rows(pairs, width)]
    return "\n".join(lines) + "\n"


def quick_help(args: list[str]) -> int | None:
    """Print the help page if `args` ask for nothing else (nothing at all, or `--help`
    with a `--lang`), and return the exit code; None for every other command line."""
    lang = os.environ.get("HRAJ_LANG", DEFAULT_LANG).strip().lower()
    lang = lang if lang in LANGS else DEFAULT_LANG
    rest: list[str] = []
    given = iter(args)
    for arg in given:
        if arg in LANG_FLAGS:
            lang = next(given, "").strip().lower()
        elif arg.startswith("--lang="):
            lang = arg.partition("=")[2].strip().lower()
        else:
            rest.append(arg)
    if rest != (["--help"] if args else []) or lang not in LANGS:
        return None  # the full way runs it, or says which languages there are
    sys.stdout.write(page(lang, terminal_width()) + "\n")  # the blank line Click's pages end with too
    return 0 if args else USAGE
