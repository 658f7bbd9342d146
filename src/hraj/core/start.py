"""The seat that starts: the `first` option, and the draw where it names no seat.

Where the `first` option names no seat (and nothing else, such as an opening roll of
one die each, decides), a game's first chance event picks the seat that starts, printed
`first 2`. The option, the outcome and its notation are the same in every game, so they
live here.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from hraj.core.game import Option, optional_seat

#: The `first` option of a game whose starting seat, where the option names none, is
#: drawn by its first chance event (`First`).
FIRST_OPTION = Option(None, "starting seat (0-based); random if not given", optional_seat)


class First(NamedTuple):
    """The random choice of the starting seat. Printed `first 2`."""

    seat: int

    def __str__(self) -> str:
        return f"first {self.seat}"


_FIRST = re.compile(r"^\s*first\s+([0-9])\s*$", re.IGNORECASE)


def parse_first(text: str) -> First | None:
    """The draw written `first 2` (in any case, with any spaces around); None for any
    other text, which the game reads as its other chance outcomes."""
    match = _FIRST.match(text)
    return None if match is None else First(int(match.group(1)))
