"""`python -m hraj.app serve|verify|backup|restore`: the server's commands on their own."""

from __future__ import annotations

import typer

from hraj.app.commands import register

app = typer.Typer(add_completion=False, no_args_is_help=True, help="The hraj game server.")
register(app)

if __name__ == "__main__":
    app()
