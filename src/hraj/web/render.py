"""Jinja2 rendering: the template environment, languages, and the table of a room.

A table is drawn from one seat's `view` only (the spectator's for watchers and
replays), so it can never show what that seat may not know. Legality is never decided
here: every clickable thing carries the notation of an action found in `view["legal"]`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TypedDict

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, FunctionLoader, StrictUndefined, select_autoescape

from hraj.core.bot import default_bot
from hraj.core.record import MOVE, Event, move_numbers
from hraj.core.registry import GAMES, game_folder
from hraj.i18n import DEFAULT_LANG, LANG_NAMES, LANGS, distinct_names, gender_of, seat_name, t, tn
from hraj.i18n import log_lines as sentences
from hraj.server.people_api import page_csrf
from hraj.web import TEMPLATE_DIR, tables

#: The cookie that remembers the chosen language.
LANG_COOKIE = "hraj_lang"
#: How many lines of the log a table shows (newest last).
LOG_LINES = 40


def pick_lang(query: str | None, cookie: str | None) -> str:
    """The page language: `?lang=`, then the cookie, then Czech."""
    for wanted in (query, cookie):
        if wanted and wanted.strip().lower() in LANGS:
            return wanted.strip().lower()
    return DEFAULT_LANG


def _game_template(name: str) -> tuple[str, str, Callable[[], bool]] | None:
    """`games/<id>.html`: the table template in the game's own folder (`table.html`)."""
    folder, _, file = name.partition("/")
    game_id = file.removesuffix(".html")
    if folder != "games" or game_id not in GAMES:
        return None
    path = game_folder(game_id) / "table.html"
    if not path.is_file():
        return None
    return path.read_text(encoding="utf-8"), str(path), lambda: True


@functools.cache
def environment() -> Environment:
    env = Environment(
        loader=ChoiceLoader([FileSystemLoader(TEMPLATE_DIR), FunctionLoader(_game_template)]),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(LANGS=LANGS, LANG_NAMES=LANG_NAMES, csrf=page_csrf.get)
    return env


def translator(lang: str) -> Callable[..., str]:
    """`_("text", name=...)` for templates: the text in `lang`, params filled in."""

    def translate(text: str, /, **params: object) -> str:
        return t(text, lang, **params)

    return translate


def plural_translator(lang: str) -> Callable[..., str]:
    """`n_("{count} player", "{count} players", count, ...)` for templates: the plural
    form `lang` uses for `count` (Czech and Slovak have three)."""

    def translate(singular: str, plural: str, count: int, /, **params: object) -> str:
        return tn(singular, plural, count, lang, **params)

    return translate


def render_page(template: str, lang: str, **context: object) -> str:
    return (
        environment()
        .get_template(template)
        .render(_=translator(lang), n_=plural_translator(lang), lang=lang, **context)
    )


# --- names and seats -----------------------------------------------------------------


def seat_names(seats: Sequence[Mapping[str, object]], lang: str, game_id: str | None = None) -> list[str]:
    """A readable name for every seat (the server's public facts of each, in seat order):
    `hraj.i18n.seat_name`, two of one name told apart by their seat numbers."""
    names = []
    for index, seat in enumerate(seats):
        if seat.get("deleted"):
            names.append(t("deleted player", lang))
            continue
        number = seat.get("seat")
        bot = str(seat.get("bot") or "?") if seat.get("kind") == "bot" and not seat.get("name") else None
        given = str(seat["name"]) if seat.get("name") else None
        names.append(seat_name(game_id, number if isinstance(number, int) else index, lang, name=given, bot=bot))
    return distinct_names(names)


def seat_genders(seats: Sequence[Mapping[str, object]]) -> list[str | None]:
    """The grammatical gender of every seat, for the log's sentences: the one its person
    gave; a bot or an unnamed seat ("Bot", "Player 2") is masculine, as those words are;
    None where a person named themselves without one (the wording that fits both)."""
    genders: list[str | None] = []
    for seat in seats:
        given = gender_of(seat.get("gender"))
        if seat.get("deleted") or (given is None and (seat.get("kind") == "bot" or not seat.get("name"))):
            given = "m"
        genders.append(given)
    return genders


# --- the log -----------------------------------------------------------------------------


def log_lines(
    game_id: str,
    events: Sequence[Event],
    names: Sequence[str],
    lang: str,
    genders: Sequence[str | None] = (),
    view: Mapping[str, object] | None = None,
) -> list[str]:
    """The readable log of the events a seat may read (`state.events_for(seat)`): one
    sentence per event ("Eva zakřížkovala červenou 5"), newest last; what is hidden from
    the seat is left out."""
    said = sentences(game_id, events, names, genders, lang, view)
    return [line for line in said if line is not None][-LOG_LINES:]


def last_line(
    game_id: str, events: Sequence[Event], seats: Sequence[Mapping[str, object]], lang: str, view: Mapping[str, object]
) -> str | None:
    """The sentence of the newest event among `events` (a replay's step), None before the first."""
    lines = log_lines(game_id, events, seat_names(seats, lang, game_id), lang, seat_genders(seats), view)
    return lines[-1] if events and lines else None


# --- the table ----------------------------------------------------------------------------


def table_context(
    game_id: str,
    view: Mapping[str, object],
    seats: Sequence[Mapping[str, object]],
    events: Sequence[Event],
    lang: str,
    params: Mapping[str, str] | None = None,
) -> dict[str, object]:
    """Everything the table templates need, built from one seat's view and the events
    that seat may read (`state.events_for(seat)`)."""
    names = seat_names(seats, lang, game_id)
    # Each line of the log with the number of its move (one numbering: the analysis and the
    # replay name moves the same way); the dice and cards between moves have none.
    numbers = move_numbers(events)
    said = [
        (numbers[index] if events[index][0] == MOVE else None, line)
        for index, line in enumerate(sentences(game_id, events, names, seat_genders(seats), lang, view))
        if line is not None
    ]
    viewer = view.get("seat")
    to_act = tables.seat_numbers(view.get("to_act"))
    legal = tables.notations(view.get("legal"))
    outcome = view.get("outcome")
    if outcome is not None:
        to_act = []
    game_parts = tables.build(game_id, view, names, lang, params or {})
    shown_in_bar = tables.notations(game_parts["bar"]) if "bar" in game_parts else legal
    return {
        "game_id": game_id,
        "view": view,
        "names": names,
        "seats": seats,
        "viewer": viewer,
        "to_act": to_act,
        "my_turn": viewer is not None and viewer in to_act and bool(legal),
        "legal": legal,
        "actions": [(action, tables.describe(game_id, action, lang, names)) for action in legal],
        "bar_actions": [(action, tables.describe(game_id, action, lang, names)) for action in shown_in_bar],
        "outcome": outcome,
        "results": _results(outcome, names) if isinstance(outcome, Mapping) else [],
        "log": said[-LOG_LINES:],
        # Every event the seat reads is a line: the newest line's number, for its mark.
        "log_total": len(said),
        "status": tables.status(game_id, view, names, lang),
        "stand_in": default_bot(game_id),
        "g": game_parts,
    }


class ResultRow(TypedDict):
    """One seat's line in the table of final scores."""

    seat: int
    name: str
    score: float
    won: bool


def _results(outcome: Mapping[str, object], names: Sequence[str]) -> list[ResultRow]:
    """The final scores best first (an outcome as `Outcome.to_json` writes it)."""
    winners = set(tables.seat_numbers(outcome.get("winners")))
    given = outcome.get("scores")
    scores = [score for score in given if isinstance(score, (int, float))] if isinstance(given, list) else []
    rows: list[ResultRow] = [
        {"seat": seat, "name": names[seat] if seat < len(names) else str(seat), "score": score, "won": seat in winners}
        for seat, score in enumerate(scores)
    ]
    rows.sort(key=lambda row: (-float(row["score"]), row["seat"]))
    return rows


def render_table(
    game_id: str,
    view: Mapping[str, object],
    seats: Sequence[Mapping[str, object]],
    events: Sequence[Event],
    lang: str,
    *,
    room_id: str,
    version: int,
    params: Mapping[str, str] | None = None,
    replay: bool = False,
) -> str:
    """The HTML fragment of a table (the part the client swaps in)."""
    context = table_context(game_id, view, seats, events, lang, params)
    return render_page("table.html", lang, room_id=room_id, version=version, replay=replay, **context)


def score_text(value: object) -> str:
    """Scores are floats in outcomes; show whole numbers without `.0`."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


environment().filters["score"] = score_text
