"""Move each game's phrases from the shared catalogs into the game's own catalog.

    .venv/bin/python scripts/move_game_phrases.py [--dry-run]

A message of `src/hraj/locale/<lang>/LC_MESSAGES/*.po` belongs to a game when its msgid
(or plural msgid) is a string of that game's folder (`src/hraj/games/<id>/`: a Python
string constant, or a quoted text of a template) and of no other game and of no code
outside `games/`; a message of a shared file named after a game (`qwixx.po`) that no
code names at all belongs to that game too. Such messages move, with every context
(the log's genders) and comment, to `src/hraj/games/<id>/locale/<lang>/LC_MESSAGES/<id>.po`
in all three languages; a message already there is kept as it is and dropped from the
shared file. Everything else stays, except that what a shared file named after a game
keeps (words several games use) moves to the shared `games.po`, so that no shared
catalog is named after a game. A shared file left without messages is removed.

The files are edited entry by entry (blocks between blank lines), not rewritten, so the
rest of each file keeps its order and wrapping. Running it again moves only what was
added to the shared catalogs since, e.g. after a merge.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "hraj"
LOCALE = SOURCE / "locale"
GAMES = SOURCE / "games"
LANGS = ("cs", "sk", "en")


@dataclass
class Entry:
    """One message of a .po file as its text block: its context, msgid and plural msgid."""

    block: str
    context: str | None
    msgid: str
    plural: str | None

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid


def _quoted(lines: list[str], keyword: str) -> str | None:
    """The value of `keyword "..."` with its continuation lines, unescaped."""
    for index, line in enumerate(lines):
        if line.startswith(keyword + " "):
            parts = [line[len(keyword) + 1 :]]
            for more in lines[index + 1 :]:
                if not more.startswith('"'):
                    break
                parts.append(more)
            return "".join(ast.literal_eval(part) for part in parts)
    return None


def parse(text: str) -> tuple[str, list[Entry]]:
    """A .po file's header block and its entries, each with its block's text."""
    blocks = re.split(r"\n\s*\n", text.strip("\n"))
    entries = []
    for block in blocks[1:]:
        lines = block.splitlines()
        msgid = _quoted(lines, "msgid")
        if msgid is None:
            continue
        entries.append(Entry(block, _quoted(lines, "msgctxt"), msgid, _quoted(lines, "msgid_plural")))
    return blocks[0], entries


def strings_of(folder: Path, skip: Iterable[Path] = ()) -> set[str]:
    """The Python string constants and the quoted texts of templates under `folder`."""
    skipped = list(skip)
    found: set[str] = set()
    for path in folder.rglob("*"):
        if any(path.is_relative_to(other) for other in skipped) or not path.is_file():
            continue
        if path.suffix == ".py":
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found.update(n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str))
        elif path.suffix in (".html", ".js"):
            text = path.read_text(encoding="utf-8")
            found.update(match[1] for match in re.findall(r"""(['"])((?:(?!\1).)+)\1""", text))
            found.update(match[1] for match in re.findall(r"""_\((['"])((?:(?!\1).)+)\1""", text))
    return found


def owners(ids: list[str]) -> tuple[dict[str, set[str]], set[str]]:
    """Each game's strings, and the strings of the code outside `games/`."""
    per_game = {game_id: strings_of(GAMES / game_id) for game_id in ids}
    shared = strings_of(SOURCE, skip=[GAMES, LOCALE])
    return per_game, shared


def owner_of(entry: Entry, domain: str, per_game: dict[str, set[str]], shared: set[str]) -> str | None:
    """The game a message belongs to, or None if it stays shared."""
    texts = [entry.msgid, *([entry.plural] if entry.plural else [])]
    if any(text in shared for text in texts):
        return None
    users = {game_id for game_id, strings in per_game.items() if any(text in strings for text in texts)}
    if len(users) == 1:
        return users.pop()
    if not users and domain in per_game:
        return domain
    return None


def game_catalog(game_id: str, lang: str) -> Path:
    return GAMES / game_id / "locale" / lang / "LC_MESSAGES" / f"{game_id}.po"


LANGUAGE_NAMES = {"cs": "Czech", "sk": "Slovak", "en": "English"}


def new_header(header: str, lang: str, whose: str) -> str:
    """A new file's header: a line saying whose words it holds, and the metadata entry
    (language, plural forms) of the shared file the words come from."""
    metadata = header[header.index('msgid ""') :]
    return f"# {LANGUAGE_NAMES[lang]} words of {whose}, for hraj's gettext catalogs.\n{metadata}"


def append(target: Path, header: str, entries: list[Entry]) -> None:
    """Add `entries` to the .po file `target` (made with `header` if new), each once."""
    if target.is_file():
        header, present = parse(target.read_text(encoding="utf-8"))
    else:
        present = []
    known = {entry.key for entry in present}
    # A msgid in two shared files read as the later file's (`hraj.i18n` merged them in
    # name order), so the later one is the one to keep.
    latest = {entry.key: entry for entry in entries if entry.key not in known}
    added = list(latest.values())
    target.parent.mkdir(parents=True, exist_ok=True)
    blocks = [header, *(entry.block for entry in present), *(entry.block for entry in added)]
    target.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")


def game_ids() -> list[str]:
    return sorted(path.name for path in GAMES.iterdir() if (path / "rules.py").is_file())


def decide() -> dict[str, str | None]:
    """msgid -> the game it moves to (None: it stays shared). The decision is made once
    per msgid, from every language's files, so that the three languages move the same
    messages: a msgid claimed differently in two files stays shared."""
    per_game, shared = owners(game_ids())
    claims: dict[str, set[str | None]] = {}
    for lang in LANGS:
        for path in sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po")):
            for entry in parse(path.read_text(encoding="utf-8"))[1]:
                claims.setdefault(entry.msgid, set()).add(owner_of(entry, path.stem, per_game, shared))
    return {msgid: next(iter(found)) if len(found) == 1 else None for msgid, found in claims.items()}


def movable() -> dict[str, list[str]]:
    """Each game's msgids that the shared catalogs still hold (and this script would move)."""
    found: dict[str, list[str]] = {}
    for msgid, owner in decide().items():
        if owner is not None:
            found.setdefault(owner, []).append(msgid)
    return {game_id: sorted(msgids) for game_id, msgids in found.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dry-run", action="store_true", help="say what would move; change nothing")
    dry = parser.parse_args().dry_run
    ids = game_ids()
    decided = decide()
    moved_count: dict[str, int] = dict.fromkeys(ids, 0)
    for lang in LANGS:
        moving: dict[str, list[Entry]] = {game_id: [] for game_id in ids}
        headers: dict[str, str] = {}
        common: list[Entry] = []  # what shared files named after a game keep
        common_header = ""
        for path in sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po")):
            header, entries = parse(path.read_text(encoding="utf-8"))
            kept = [entry for entry in entries if decided.get(entry.msgid) is None]
            if path.stem in ids:
                common += kept
                common_header = common_header or header
                kept = []
            for entry in entries:
                owner = decided.get(entry.msgid)
                if owner is not None:
                    moving[owner].append(entry)
                    headers.setdefault(owner, header)
            if len(kept) == len(entries) or dry:
                continue
            if kept:
                path.write_text("\n\n".join([header, *(entry.block for entry in kept)]) + "\n", encoding="utf-8")
            else:
                path.unlink()
        if common and not dry:
            append(LOCALE / lang / "LC_MESSAGES" / "games.po", new_header(common_header, lang, "several games"), common)
        for game_id, entries in moving.items():
            if not entries:
                continue
            if lang == "cs":
                moved_count[game_id] = len({entry.key for entry in entries})
            if not dry:
                append(game_catalog(game_id, lang), new_header(headers[game_id], lang, game_id), entries)
    for game_id, count in moved_count.items():
        print(f"{game_id}: {count} entries {'would move' if dry else 'moved'} (each gender context apart)")


if __name__ == "__main__":
    main()
