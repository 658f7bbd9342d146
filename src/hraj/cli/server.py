"""`hraj serve`, `verify`, `backup` and `restore`: the server's commands, forwarded to the server,
which `hraj` loads only when one of them runs."""

from __future__ import annotations

import typer

from hraj.cli.help import HelpfulCommand, HelpfulGroup
from hraj.cli.summary import COMMANDS
from hraj.core import InvalidOption

commands = typer.Typer()


#: The commands that run the server, and what each does.
SERVER_COMMANDS = {name: COMMANDS[name] for name in ("serve", "verify", "backup", "restore")}


def _server_command(name: str) -> None:
    """Add `name` as a command that loads the server (FastAPI, SQLAlchemy) only when run:
    its own options, help and checks are `hraj.app.commands`."""

    @commands.command(
        name,
        cls=HelpfulCommand,
        help=SERVER_COMMANDS[name],
        add_help_option=False,
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )
    def delegate(ctx: typer.Context) -> None:
        try:
            from hraj.app import commands as app_commands
        except ModuleNotFoundError:  # installed without the server
            raise InvalidOption("This installation of hraj has no server.") from None
        server = typer.Typer(cls=HelpfulGroup, add_completion=False, pretty_exceptions_enable=False)
        app_commands.register(server)
        for info in server.registered_commands:
            info.cls = HelpfulCommand  # its help page in the user's language too
        group = typer.main.get_command(server)
        command = group.get_command(ctx, name)  # type: ignore[attr-defined]
        code = command.main(list(ctx.args), prog_name=f"hraj {name}", standalone_mode=False)
        if isinstance(code, int) and code:
            raise typer.Exit(code)


for _name in SERVER_COMMANDS:
    _server_command(_name)
