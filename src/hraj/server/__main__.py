"""`python -m hraj.server serve|verify`: the server's commands on their own."""

from __future__ import annotations

import typer

from hraj.server.commands import register

app = typer.Typer(add_completion=False, no_args_is_help=True, help="The hraj game server.")
register(app)

if __name__ == "__main__":
    app()
