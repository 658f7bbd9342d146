"""The help pages of the `hraj` command, in the user's language.

Typer's own help pages print Click's English words ("Usage", "Options", "Show this
message and exit.", "[default: …]") and type names such as `<list[str]>`. hraj's
command classes draw the page themselves from the same parameters, every word through
the catalogs: the language is the one `main` chose from `--lang` or HRAJ_LANG.
"""

from __future__ import annotations

import os
import string
import sys
from collections.abc import Callable

from typer import core as typer_core
from typer._click import Command, Context, HelpFormatter  # Typer's bundled Click
from typer.core import TyperArgument, TyperOption

from hraj.cli.summary import rows as pairs_in_columns
from hraj.cli.summary import terminal_width, wrap
from hraj.i18n import DEFAULT_LANG, LANGS, t

#: A parameter of a command: every one Typer makes (the help option too) is one of these.
Param = TyperArgument | TyperOption

#: Values that help texts name as `{field}` (the registered games, the files they read),
#: by field name: each is computed in the page's language, and only for a page that
#: shows a text naming it, so that `hraj --help` loads no game.
HELP_FIELDS: dict[str, Callable[[str], str]] = {}


def help_text(text: str, lang: str) -> str:
    """A help text in `lang`, its `{field}`s (HELP_FIELDS) filled in."""
    template = t(text, lang)
    try:
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError:  # a brace that is no field
        return template
    if not fields or not fields <= HELP_FIELDS.keys():
        return template
    return template.format(**{name: HELP_FIELDS[name](lang) for name in fields})


def current_language() -> str:
    """The language `main` chose (it sets HRAJ_LANG); Czech when none is valid."""
    lang = os.environ.get("HRAJ_LANG", DEFAULT_LANG).strip().lower()
    return lang if lang in LANGS else DEFAULT_LANG


def _param_names(param: Param, lang: str) -> str:
    if isinstance(param, TyperArgument):
        return t(str(param.metavar or (param.name or "").upper()), lang)
    names = ", ".join(sorted([*param.opts, *param.secondary_opts], key=len))
    if not param.is_flag:
        names += " " + t(str(param.metavar or "VALUE"), lang)
    return names


def _param_help(param: Param, lang: str) -> str:
    text = help_text(param.help, lang) if param.help else ""
    default = param.default
    shows = param.show_default is not False
    if (
        shows
        and default is not None
        and not (isinstance(param, TyperOption) and param.is_flag)
        and default != []
        and not callable(default)
    ):
        text += " " + t("[default: {value}]", lang, value=default)
    return text.strip()


def help_page(command: Command, ctx: Context, lang: str, width: int = 80) -> str:
    """`command`'s help page as plain text: usage, what it does, arguments, options,
    commands. Plain text, so that `hraj --help` need not load Rich."""
    pieces = [t("[OPTIONS]", lang)]
    pieces += [_param_names(param, lang) for param in command.params if isinstance(param, TyperArgument)]
    if isinstance(command, typer_core.TyperGroup):
        pieces.append(t("COMMAND [ARGS]...", lang))
    lines = [" ".join([t("Usage:", lang), ctx.command_path, *pieces])]
    if command.help:
        lines += ["", *wrap(help_text(command.help, lang), width)]
    params = [param for param in command.get_params(ctx) if isinstance(param, Param) and not param.hidden]
    arguments = [(_param_names(p, lang), _param_help(p, lang)) for p in params if isinstance(p, TyperArgument)]
    options = [(_param_names(p, lang), _param_help(p, lang)) for p in params if isinstance(p, TyperOption)]
    commands: list[tuple[str, str]] = []
    if isinstance(command, typer_core.TyperGroup):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                commands.append((name, help_text(sub.help, lang) if sub.help else ""))
    for title, rows in (
        (t("Arguments", lang), arguments),
        (t("Options", lang), options),
        (t("Commands", lang), commands),
    ):
        if rows:
            lines += ["", title + ":", *pairs_in_columns(rows, width)]
    return "\n".join(lines) + "\n"


def print_help(command: Command, ctx: Context, lang: str | None = None) -> None:
    """Print `command`'s help page in the user's language, as wide as the terminal."""
    sys.stdout.write(help_page(command, ctx, lang or current_language(), terminal_width()))


class HelpfulCommand(typer_core.TyperCommand):
    """A Typer command whose help page speaks the user's language."""

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        print_help(self, ctx)


class HelpfulGroup(typer_core.TyperGroup):
    """The `hraj` group: its help page and every command's speak the user's language;
    commands are listed in the order they were added."""

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        print_help(self, ctx)

    def list_commands(self, ctx: Context) -> list[str]:
        return list(self.commands)
