"""Usage errors of the `hraj` command as one line in the user's language.

Typer (on its bundled copy of Click) reports a mistyped command line with English
exceptions; `usage_error_text` rebuilds each kind from the facts it carries (the
unknown command, the missing argument, the option without a value) with hraj's own
translated texts, so no English and no traceback reaches a Czech or Slovak user.
"""

from __future__ import annotations

import re
import signal
from types import FrameType

from typer._click import exceptions as click_errors  # Typer's bundled Click: its error classes

from hraj.cli.help import current_language
from hraj.i18n import t

UsageError = click_errors.UsageError
NoArgsIsHelp = click_errors.NoArgsIsHelpError

#: The exit code of a usage error (as Click and most command-line tools use it).
USAGE = 2
#: The exit code of a defect in hraj itself (reported in one line; HRAJ_DEBUG=1 shows the traceback).
INTERNAL = 1
#: The exit code after Ctrl-C: 128 + SIGINT, as shells report it.
INTERRUPTED = 130


class Interrupted(BaseException):
    """Ctrl-C, raised past Typer (which would turn a KeyboardInterrupt into a silent
    exit) to `main`, which says "Interrupted." and exits 130. A BaseException, so that
    no `except Exception` on the way swallows it."""


def raise_interrupted(signum: int, frame: FrameType | None) -> None:
    """SIGINT handler: raise Interrupted wherever the program is."""
    raise Interrupted


def catch_ctrl_c() -> None:
    """Make Ctrl-C raise Interrupted instead of KeyboardInterrupt."""
    signal.signal(signal.SIGINT, raise_interrupted)


def _name(param: object) -> str:
    """How a person typed (or should type) a parameter: `--games` or `GAME`."""
    opts = getattr(param, "opts", None) or []
    if getattr(param, "param_type_name", "") == "argument":
        metavar = getattr(param, "metavar", None) or str(getattr(param, "name", "")).upper()
        return t(str(metavar), current_language()).strip("[]")
    long_names = [opt for opt in opts if opt.startswith("--")]
    return str((long_names or opts or [getattr(param, "name", "")])[0])


def usage_error_text(error: click_errors.UsageError, lang: str) -> str:
    """One line that says what is wrong with the command line, and where to read more."""
    ctx = error.ctx
    command = ctx.command_path if ctx is not None else "hraj"
    hint = t("See {command} --help.", lang, command=command)
    if isinstance(error, click_errors.NoSuchOption):
        message = t("Unknown option {name}.", lang, name=error.option_name)
        if error.possibilities:
            message += " " + t("Did you mean {name}?", lang, name=error.possibilities[0])
        return f"{message} {hint}"
    if isinstance(error, click_errors.MissingParameter):
        param = error.param
        if param is not None and param.param_type_name == "argument":
            return t("Missing argument {name}.", lang, name=_name(param)) + " " + hint
        return t("Missing option {name}.", lang, name=_name(param)) + " " + hint
    if isinstance(error, click_errors.BadParameter):
        reason = t(error.message, lang)
        if error.param is None:
            return f"{reason} {hint}"
        return t("Invalid value of {name}: {reason}", lang, name=_name(error.param), reason=reason)
    if isinstance(error, click_errors.BadOptionUsage):
        if "does not take" in error.message:
            return t("Option {name} takes no value.", lang, name=error.option_name) + " " + hint
        return t("Option {name} needs a value.", lang, name=error.option_name) + " " + hint
    unknown = re.fullmatch(r"No such command '(?P<name>.*)'\.", error.message)
    if unknown is not None:
        known = (
            list(ctx.command.list_commands(ctx)) if ctx is not None and hasattr(ctx.command, "list_commands") else []
        )
        return t(
            "There is no command {name}; choose one of: {known}.", lang, name=unknown["name"], known=", ".join(known)
        )
    extra = re.fullmatch(r"Got unexpected extra arguments? ?(?:\(s\))? \((?P<args>.*)\)", error.message)
    if extra is not None:
        return t("Unexpected argument: {args}.", lang, args=extra["args"]) + " " + hint
    if error.message == "Missing command.":
        return t("Name a command.", lang) + " " + hint
    return f"{t(error.message, lang)} {hint}"
