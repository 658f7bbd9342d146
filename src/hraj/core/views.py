"""Small helpers that every game's presentation (terminal and browser) shares."""

from __future__ import annotations

from collections.abc import Mapping


def seat_order(view: Mapping[str, object], count: int) -> list[int]:
    """The viewer's own seat first, then the others in seat order."""
    viewer = view.get("seat")
    seats = list(range(count))
    if isinstance(viewer, int) and 0 <= viewer < count:
        seats = [viewer] + [s for s in seats if s != viewer]
    return seats
