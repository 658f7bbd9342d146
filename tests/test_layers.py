"""The import graph: arrows point down only (core ← games ← bots/… ← cli), no cycle, and
no code outside a game's folder names a game.

Read from the source with `ast`, so a lazy import inside a function counts as well.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import hraj

SOURCE = Path(hraj.__file__).parent
GAME_IDS = ("qwixx", "trefa", "backgammon", "abluxxen")
#: What each layer may import of hraj (besides itself). The top package `hraj` only
#: re-exports the core.
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "i18n": {"core"},
    "games": {"core", "i18n"},
    "bots": {"core", "i18n"},
    "analysis": {"core", "i18n", "bots"},
    "rl": {"core", "i18n"},
    "store": {"core", "i18n"},
    "players": {"core", "i18n", "store", "bots"},
    "clocks": {"core", "i18n", "store"},
    "tui": {"core", "i18n", "analysis"},
    "server": {"core", "i18n", "store", "players", "clocks"},
    "web": {"core", "i18n", "server", "store", "analysis", "players", "clocks"},
    "app": {"core", "i18n", "server", "store", "web", "players", "clocks"},
    "cli": {"core", "i18n", "bots", "analysis", "tui", "server", "store", "app", "games"},
    "__init__": {"core"},
    "__main__": {"cli"},
}
#: `import hraj` is the core's public face, allowed wherever the core is.
for _layer, _below in ALLOWED.items():
    if "core" in _below:
        _below.add("__init__")
#: Known wrong-way edges, to be removed (none left: `app` composes the server and the web).
NOT_YET_UNTANGLED: set[tuple[str, str]] = set()
#: Code that still names a game outside its folder, to be moved into the game's own
#: folder (none left).
NOT_YET_MOVED: set[str] = set()


def layer(path: Path) -> str:
    parts = path.relative_to(SOURCE).parts
    return parts[0].removesuffix(".py")


def imported(path: Path) -> set[str]:
    """The hraj modules a file imports, as dotted names."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name == "hraj" or name.startswith("hraj.")}


def target(name: str) -> str:
    """The layer a dotted hraj name belongs to (`hraj` itself and its re-exports: `__init__`)."""
    parts = name.split(".")
    if len(parts) > 1 and ((SOURCE / parts[1]).is_dir() or (SOURCE / f"{parts[1]}.py").is_file()):
        return parts[1]
    return "__init__"


def graph() -> dict[str, set[str]]:
    """layer -> the layers it imports."""
    edges: dict[str, set[str]] = {}
    for path in SOURCE.rglob("*.py"):
        here = layer(path)
        edges.setdefault(here, set()).update(there for there in map(target, imported(path)) if there != here)
    return edges


def test_every_layer_imports_only_the_layers_below_it() -> None:
    wrong = {
        here: sorted(t for t in there - ALLOWED.get(here, set()) if (here, t) not in NOT_YET_UNTANGLED)
        for here, there in graph().items()
    }
    assert not {here: there for here, there in wrong.items() if there}


def test_the_layers_have_no_cycle() -> None:
    edges = {here: {t for t in there if (here, t) not in NOT_YET_UNTANGLED} for here, there in graph().items()}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in edges.get(start, set()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    assert not [here for here in edges if reaches(here, here, {here})]


def test_a_game_imports_no_other_game() -> None:
    for path in (SOURCE / "games").rglob("*.py"):
        own = path.relative_to(SOURCE / "games").parts[0]
        others = {name.split(".")[2] for name in imported(path) if name.startswith("hraj.games.")} - {own}
        assert not others, f"{path} imports {others}"


#: A game's id as a word, in any case ("Qwixx", "backgammon's").
NAMES_A_GAME = re.compile(r"\b(?:" + "|".join(GAME_IDS) + r")\b", re.IGNORECASE)


def strings_of_text(text: str) -> list[tuple[int, str]]:
    """Every string constant of Python source, with its line."""
    return [
        (node.lineno, node.value)
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def strings_of(path: Path) -> list[tuple[int, str]]:
    """Every string of a Python file (docstrings, help texts, messages, f-string parts),
    with its line; a template's or script's whole text."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return [(number, line) for number, line in enumerate(text.splitlines(), start=1)]
    return strings_of_text(text)


def test_no_code_outside_the_games_names_a_game() -> None:
    """Not in a branch, an import, a help text, a message or a docstring: a game from
    another package must find every place it needs open, and no text lists the four."""
    naming = []
    for path in SOURCE.rglob("*"):
        relative = path.relative_to(SOURCE)
        if relative.parts[0] in ("games", "locale") or path.suffix not in (".py", ".html", ".js", ".css"):
            continue
        if str(relative) in NOT_YET_MOVED:
            continue
        naming += [
            f"{relative}:{line}: {found.group(0)}"
            for line, text in strings_of(path)
            for found in NAMES_A_GAME.finditer(text)
        ]
        code = path.read_text(encoding="utf-8")
        naming += [f"{relative}: games.{g}" for g in GAME_IDS if f"games.{g}" in code]
    assert not naming


def test_the_game_check_sees_strings_and_docstrings() -> None:
    """The check above would catch a help text or a docstring that names a game."""
    sample = 'def f() -> None:\n    """Like Backgammon\'s cube."""\n    help = "The game: qwixx."\n'
    found = [text for _, text in strings_of_text(sample) if NAMES_A_GAME.search(text)]
    assert len(found) == 2
