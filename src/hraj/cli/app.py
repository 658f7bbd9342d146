"""The `hraj` command line: its Typer app, the commands in the order the help page
lists them, and how every outcome ends (exit codes, one line per error).

Every user error becomes one clear line in the user's language and exit code 2; no
traceback reaches a user. Ctrl-C says "Interrupted." and exits 130. The language of
messages and help comes from `--lang` (anywhere on the line) or the HRAJ_LANG
environment variable, Czech by default.

Each command lives in a module of its own here, which adds it to `commands`, a Typer
app of its own; this module puts them together. The modules import only Typer and
hraj's core at the top: each command imports what it needs (Rich tables, bots, the
terminal table), and `serve`/`verify` import the server (FastAPI, SQLAlchemy) only when
they run. The help page of `hraj` itself does not come here at all (`hraj.cli.summary`).
"""

from __future__ import annotations

import os
import sys

import typer

from hraj.cli import analyze, arena, bench, export, games, play, replay, rules, server
from hraj.cli.common import LangOption
from hraj.cli.errors import (
    INTERNAL,
    INTERRUPTED,
    USAGE,
    Interrupted,
    NoArgsIsHelp,
    UsageError,
    catch_ctrl_c,
    usage_error_text,
)
from hraj.cli.help import HelpfulGroup, current_language, print_help
from hraj.cli.summary import ROOT_HELP
from hraj.core import HrajError
from hraj.i18n import DEFAULT_LANG, check_lang, error_text, t

app = typer.Typer(
    name="hraj",
    cls=HelpfulGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback(help=ROOT_HELP)
def root(lang: LangOption = None) -> None:
    """`--lang` before the command also sets the language (main reads it first)."""
    if lang:
        check_lang(lang)


for _module in (games, play, replay, analyze, arena, export, rules, bench, server):  # summary.COMMANDS's order
    app.registered_commands += _module.commands.registered_commands


def language_of(args: list[str]) -> str:
    """The language the command line asks for (`--lang X`, `-l X`, `--lang=X`), else
    HRAJ_LANG, else Czech; raises HrajError for an unknown one."""
    chosen: str | None = None
    for index, arg in enumerate(args):
        if arg in ("--lang", "-l") and index + 1 < len(args):
            chosen = args[index + 1]
        elif arg.startswith("--lang="):
            chosen = arg.partition("=")[2]
    if chosen is not None:
        return check_lang(chosen)
    return current_language()


def fail(message: str, code: int = USAGE) -> None:
    """Print one error line on stderr, as plain text, and exit."""
    print(f"{t('Error', current_language())}: {message}", file=sys.stderr)
    sys.exit(code)


def run(args: list[str]) -> None:
    """Run the command line `args`; usage errors and refused input become one translated
    line (exit 2), Ctrl-C "Interrupted." (exit 130)."""
    try:
        lang = language_of(args)
    except HrajError as error:
        fail(error_text(error, DEFAULT_LANG))
        return
    os.environ["HRAJ_LANG"] = lang  # help pages, defaults and the server commands follow it
    catch_ctrl_c()
    command = typer.main.get_command(app)
    try:
        code = command.main(args, prog_name="hraj", standalone_mode=False)
    except NoArgsIsHelp as error:
        if error.ctx is not None:
            print_help(error.ctx.command, error.ctx, lang)
        sys.exit(USAGE)
    except UsageError as error:
        fail(usage_error_text(error, lang))
    except HrajError as error:
        fail(error_text(error, lang))
    except (Interrupted, KeyboardInterrupt, typer.Abort):
        print(t("Interrupted.", lang), file=sys.stderr)
        sys.exit(INTERRUPTED)
    except Exception as error:  # a defect of hraj: one line for the user, the details on request
        if os.environ.get("HRAJ_DEBUG"):
            raise
        fail(
            t(
                "hraj failed unexpectedly ({kind}: {error}). HRAJ_DEBUG=1 shows the details.",
                lang,
                kind=type(error).__name__,
                error=error,
            ),
            INTERNAL,
        )
    sys.exit(code if isinstance(code, int) else 0)
