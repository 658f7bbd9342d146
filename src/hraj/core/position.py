"""The frame shared by the games' compact position texts: `<active seat>: <sheet> / <sheet> ...`.

Games of score sheets write one part per seat after the seat that acts next; this module
splits and checks that frame so each game parses only its own sheets.
"""

from __future__ import annotations

from hraj.core.errors import InvalidAction


def split_position(text: str, players: int, game_name: str) -> tuple[int, list[str]]:
    """(active seat, one text per seat) of a position text; InvalidAction with the reason."""
    head, sep, body = text.partition(":")
    if not sep or not (head.strip().isascii() and head.strip().isdigit()):
        raise InvalidAction(
            "A {game} position starts with the active seat and a colon: {text}", game=game_name, text=text
        )
    active = int(head)  # ASCII digits only: int() refuses "²", which str.isdigit() lets through
    if active >= players:
        raise InvalidAction("Seat {seat} is not at this table.", seat=active)
    sheets = [part.strip() for part in body.split("/")]
    if len(sheets) != players:
        raise InvalidAction(
            "The position has {found} sheets for {players} players.", found=len(sheets), players=players
        )
    return active, sheets


def join_position(active: int, sheets: list[str]) -> str:
    """The inverse of `split_position`."""
    return f"{active}: " + " / ".join(sheets)
