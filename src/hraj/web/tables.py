"""What a game's table shows, from a seat's view: the shell around each game's `web` module.

Each game's folder has a module `web` with `build(view, names, lang, params)` (plain
rows, cells and cards for its `table.html`), `describe(action, lang, names)` (an
action's notation in words for buttons and the log), `describe_chance(text, names,
lang)` and `status(view, who, lang)` (both may answer None for the general wording).
Nothing here decides legality or secrecy, and nothing names a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType

from hraj.core.record import starting_seat
from hraj.core.registry import game_part
from hraj.i18n import t


def seat_numbers(value: object) -> list[int]:
    """A view's list of seats (`to_act`) as numbers; [] where the view has none."""
    if not isinstance(value, (list, tuple)):
        return []
    return [seat for seat in value if isinstance(seat, int) and not isinstance(seat, bool)]


def notations(value: object) -> list[str]:
    """A view's list of actions (`legal`) as their notation; [] where the view has none."""
    if not isinstance(value, (list, tuple)):
        return []
    return [action for action in value if isinstance(action, str)]


def _look(game_id: str) -> ModuleType | None:
    return game_part(game_id, "web")


def describe(game_id: str, action: str, lang: str, names: Sequence[str] = ()) -> str:
    """An action's notation in words, for a button or a line of the log."""
    look = _look(game_id)
    return action if look is None else str(look.describe(action, lang, names))


def describe_chance(game_id: str, text: str, names: Sequence[str], lang: str) -> str:
    """A chance outcome in words for the log (only outcomes the seat may read reach this)."""
    seat = starting_seat(text)
    if seat is not None:
        return t("{name} starts", lang, name=names[seat] if seat < len(names) else str(seat))
    look = _look(game_id)
    said = None if look is None else look.describe_chance(text, names, lang)
    return str(said) if said is not None else t("Chance: {outcome}", lang, outcome=text)


def status(game_id: str, view: Mapping[str, object], names: Sequence[str], lang: str) -> str:
    """One line: whose turn it is and what they are deciding."""
    if view.get("outcome") is not None:
        return t("The game is over.", lang)
    to_act = [names[s] for s in seat_numbers(view.get("to_act")) if s < len(names)]
    if not to_act:
        return t("Waiting for the dice or cards…", lang)
    who = ", ".join(to_act)
    look = _look(game_id)
    said = None if look is None else look.status(view, who, lang)
    return str(said) if said is not None else t("To act: {who}", lang, who=who)


def build(
    game_id: str, view: Mapping[str, object], names: Sequence[str], lang: str, params: Mapping[str, str]
) -> dict[str, object]:
    """The parts of the game's own table template (its context, `g` in the template)."""
    look = _look(game_id)
    parts: dict[str, object] = {} if look is None else look.build(view, names, lang, params)
    return parts
