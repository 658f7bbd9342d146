"""Reading records: a hraj JSON record or a file of another program (each game's
`formats` module reads its own), checked to name a game and brought to today's form;
and the help texts that name what each command reads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import hraj
from hraj.cli.common import os_reason
from hraj.cli.help import HELP_FIELDS, current_language
from hraj.core import InvalidRecord, game_class
from hraj.core.record import parse_record
from hraj.i18n import list_text, t

if TYPE_CHECKING:
    from hraj.core.game import Game


def read_file(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as error:
        lang = current_language()
        raise InvalidRecord("Cannot read {path}: {why}", path=str(path), why=os_reason(error, lang)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # older programs wrote Latin-1


def game_formats() -> list[tuple[str, ModuleType]]:
    """Every game's `formats` module (the files and position texts other programs write),
    found through the registry."""
    from hraj.core.registry import game_part

    return [(game_id, module) for game_id in hraj.GAMES if (module := game_part(game_id, "formats")) is not None]


def formats_say(part: str, lang: str) -> list[str]:
    """What every game's `formats` module says in its `part` (RECORD_FILES,
    POSITION_TEXTS, EXPORT_CHOICES), in `lang`, for the help pages."""
    return [t(getattr(module, part), lang) for _, module in game_formats() if hasattr(module, part)]


def sources(lang: str, *, positions: bool, room: bool = False) -> str:
    """What a command reads, "a hraj record (.json), <each game's files> or …", in `lang`."""
    found = [t("a hraj record (.json)", lang), *formats_say("RECORD_FILES", lang)]
    if room:
        found.append(t("the code of a room the server stored", lang))
    if positions:
        found += formats_say("POSITION_TEXTS", lang)
    return list_text(found, lang, "or")


def export_formats(lang: str) -> str:
    """`--format`'s choices, game by game, in `lang`."""
    return "; ".join(
        f"{t(game_class(game_id).name, lang)}: {t(module.EXPORT_CHOICES, lang)}"
        for game_id, module in game_formats()
        if hasattr(module, "EXPORT_CHOICES")
    )


#: Help texts that name the registered games or their files: filled in only on the pages
#: that show them, so `hraj --help` loads no game.
HELP_FIELDS.update(
    games=lambda lang: ", ".join(hraj.GAMES),
    replay_sources=lambda lang: sources(lang, positions=True),
    analyze_sources=lambda lang: sources(lang, positions=True, room=True),
    export_sources=lambda lang: sources(lang, positions=False),
    export_formats=export_formats,
)


def load_records(path: Path) -> list[object]:
    """Records from a hraj JSON record or a file a game can import (its `formats.load_file`),
    each as read: `record_game` and the game's replay check them. A file that holds none
    (`[]`) is refused, so that no command shows or saves nothing and says it is done."""
    text = read_file(path)
    records: list[object] | None = None
    if path.suffix.lower() != ".json":
        importers = [module for _, module in game_formats() if hasattr(module, "load_file")]
        for module in importers[:1]:  # one importing game today; several would try each in turn
            records = module.load_file(path)
    if records is None:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidRecord("{path} is not valid JSON (line {line}).", path=str(path), line=error.lineno) from None
        records = data if isinstance(data, list) else [data]
    if not records:
        raise InvalidRecord("{path} holds no record.", path=str(path))
    return records


def record_game(record: object) -> tuple[Mapping[str, object], Game[Any, Any]]:
    """A record read from a file, checked to be an object that names a game, and that
    game with the record's options (the game's replay checks the rest). A record an
    earlier version wrote comes back with its events in today's form (`upgrade_events`),
    so everything that reads it afterwards sees one form."""
    game_id = record.get("game") if isinstance(record, Mapping) else None
    if not isinstance(record, Mapping) or not isinstance(game_id, str):
        raise InvalidRecord("The record names no game.")
    options = record.get("options", {})
    game = game_class(game_id)(**(options if isinstance(options, dict) else {}))
    events = parse_record(record)[2]
    upgraded = game.upgrade_events(events)
    if upgraded != events:
        record = {**record, "events": [list(event) for event in upgraded]}
    return record, game


def record_names(record: Mapping[str, object], players: int, lang: str) -> list[str]:
    """The players' names a record keeps, else "Player 1", "Player 2", …"""
    names = record.get("players")
    if isinstance(names, list) and len(names) == players and all(isinstance(name, str) and name for name in names):
        return list(names)
    return [t("Player {n}", lang, n=seat + 1) for seat in range(players)]
