"""The `hraj` command (`main`): play, replay, analyse, export, arena, bench, games, rules,
and serve/verify/backup/restore with the server.

`hraj --help` must start fast, so this package imports nothing at all: its help page
comes from `hraj.cli.summary`, and every other command line from `hraj.cli.app`.
"""

from __future__ import annotations


def main(argv: list[str] | None = None) -> None:
    """Entry point: the help page of `hraj` at once, everything else through the app."""
    import sys

    from hraj.cli.summary import quick_help

    args = list(sys.argv[1:] if argv is None else argv)
    code = quick_help(args)
    if code is not None:
        sys.exit(code)
    from hraj.cli.app import run

    run(args)
