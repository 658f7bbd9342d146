"""Backgammon's exchange formats: gnubg Position ID and Match ID, XGID, `.mat` files.

The API that `hraj replay FILE` uses:

- `load_file(path)`: the hraj records of a `.mat` file (one per match, one per game of
  a money session);
- `state_from_text(text)`: the state of a position written as gnubg's Position ID and
  Match ID (`4HPwATDgc/ABMA:cAgAAAAAAAAA`, or gnubg's `Position ID:` / `Match ID:`
  lines) or as an XGID; `load_position(path)` reads it from a file;
- `is_position_text(text)`: whether a text holds such a position rather than a match;
- `export_mat(record)`, `position_text(state)`: the way back.

The codecs themselves (`position_id`, `match_id`, `xgid`, `mat`) know nothing of the
rules; `positions` and `mat_record` connect them to the game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from hraj.core.marks import _
from hraj.core.record import Record
from hraj.games.backgammon.formats.errors import FormatError
from hraj.games.backgammon.formats.mat_record import export_mat, export_session, records_from_mat
from hraj.games.backgammon.formats.positions import gnubg_ids, state_from_gnubg, state_from_xgid, xgid
from hraj.games.backgammon.rules import Backgammon, BackgammonState

__all__ = [
    "FormatError",
    "export_mat",
    "export_records",
    "is_position_text",
    "load_file",
    "load_position",
    "position_text",
    "read_text",
    "records_from_mat",
    "state_from_text",
]

_XGID = re.compile(r"(?:XGID=)?([-a-oA-O]{26}(?::[-\w]+){8,9})")
_POSITION_ID = re.compile(r"(?<![A-Za-z0-9+/])([A-Za-z0-9+/]{14})(?![A-Za-z0-9+/])")
_MATCH_ID = re.compile(r"(?<![A-Za-z0-9+/])([A-Za-z0-9+/]{12})(?![A-Za-z0-9+/])")
_LABELLED = re.compile(r"position\s*id\s*:?\s*(\S{14}).*?match\s*id\s*:?\s*(\S{12})", re.IGNORECASE | re.DOTALL)
_DEFAULT_MATCH_ID = "MAEAAAAAAAAE"  # money game without Jacoby, centred cube, player 0 to play


def read_text(path: str | Path) -> str:
    """A file's text: UTF-8, or Latin-1 as older programs wrote it."""
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def is_position_text(text: str) -> bool:
    """Does `text` hold a position (an XGID or gnubg IDs) rather than a `.mat` match?"""
    if re.search(r"^\s*\d+\s+point\s+match", text, re.IGNORECASE | re.MULTILINE):
        return False
    return bool(_XGID.search(text) or _POSITION_ID.search(text))


def load_file(path: str | Path) -> list[Record]:
    """The records of a `.mat` file; raises FormatError for a position file (see load_position)."""
    text = read_text(path)
    if is_position_text(text):
        raise FormatError("{path} holds a position, not a match; it has no record to replay.", path=str(path))
    return records_from_mat(text)


def load_position(path: str | Path, **options: object) -> BackgammonState:
    """The state of the position in a file (gnubg IDs or XGID)."""
    return state_from_text(read_text(path), **options)


def state_from_text(text: str, **options: object) -> BackgammonState:
    """The state of a position in text: an XGID, or a Position ID with an optional Match ID.

    A Position ID alone sets up a money game with player 0 to play. `options` add game
    options the IDs do not carry (e.g. `jacoby=True`). Raises FormatError otherwise.
    """
    found = _XGID.search(text)
    if found is not None:
        return state_from_xgid(found.group(0), **options)
    labelled = _LABELLED.search(text)
    if labelled is not None:
        return state_from_gnubg(labelled.group(1), labelled.group(2), **options)
    position = _POSITION_ID.search(text)
    if position is None:
        raise FormatError("No XGID, Position ID or Match ID found in: {text}", text=text.strip()[:80])
    rest = (text[: position.start()] + " " + text[position.end() :]).replace(":", " ").strip()
    if rest and not _MATCH_ID.fullmatch(rest):
        raise FormatError(
            "{rest} after the Position ID is no Match ID: that is 12 letters, digits, + or /.", rest=rest[:40]
        )
    return state_from_gnubg(position.group(1), rest or _DEFAULT_MATCH_ID, **options)


#: What the `hraj` command says of these formats in its help, in the catalogs' words:
#: the files `load_file` reads, the texts `state_from_text` reads, and `--format`'s choices.
RECORD_FILES = _("a backgammon .mat file")
POSITION_TEXTS = _("a backgammon position as an XGID or gnubg IDs")
EXPORT_CHOICES = _("mat (the whole match, the default), xgid or gnubgid (the position at the end of the record)")
#: What `export_records` writes; the first is the default.
EXPORT_FORMATS = ("mat", "xgid", "gnubgid")
#: The formats that hold comments, where `hraj export --analysis` writes each game's analysis.
COMMENTED_FORMATS = ("mat",)


def comments(lines: Sequence[str]) -> str:
    """Comment lines for the head of a `.mat` file; gnubg skips them when it imports."""
    return "".join(f"; {line}\n" for line in lines)


def export_records(records: Sequence[Mapping[str, object]], to: str) -> str:
    """Backgammon records as `.mat` text (a money session's games as one session), or the
    position at the end of the last record as an XGID or gnubg's `Position:Match` IDs."""
    if to not in EXPORT_FORMATS:
        raise FormatError("Export to mat, xgid or gnubgid, not {format}.", format=to)
    if not records:
        raise FormatError("There is no record to write.")
    for record in records:
        if record.get("game") != Backgammon.id:
            raise FormatError("Only backgammon records can be written as .mat, XGID or gnubg IDs.")
    if to == "mat":
        return export_session(records)
    options = records[-1].get("options", {})
    state = Backgammon(**(options if isinstance(options, dict) else {})).replay(records[-1])
    assert isinstance(state, BackgammonState)
    if to == "xgid":
        return xgid(state) + "\n"
    return ":".join(gnubg_ids(state)) + "\n"


def position_text(state: BackgammonState) -> str:
    """A state's position in every notation: gnubg's `Position:Match` ID and the XGID."""
    position_id, match_id = gnubg_ids(state)
    return f"{position_id}:{match_id}\n{xgid(state)}\n"
