"""Bot levels: the name and description a person sees for a bot, and each game's default.

A game's bots module may define `LEVELS` (bot name -> (level, what it does), English
texts of the catalogs) and `DEFAULT_BOT`, the bot a new seat gets in the web and the
terminal. Games without them show bare bot names and default to `greedy`, else to their first
own bot (never the random one).
"""

from __future__ import annotations

import importlib

from hraj.bots.base import GENERIC_BOTS, bot_names
from hraj.i18n import t


def _module_attr(game_id: str, name: str) -> object:
    try:
        module = importlib.import_module(f"hraj.games.{game_id}.bots")
    except ModuleNotFoundError:
        return None
    return getattr(module, name, None)


def bot_levels(game_id: str) -> dict[str, tuple[str, str]]:
    """Bot name -> (level, description), untranslated; empty where the game names none."""
    levels = _module_attr(game_id, "LEVELS")
    return dict(levels) if isinstance(levels, dict) else {}


def default_bot(game_id: str) -> str:
    """The bot a new seat gets: the game's DEFAULT_BOT, else greedy, else the first bot."""
    names = bot_names(game_id)
    chosen = _module_attr(game_id, "DEFAULT_BOT")
    if isinstance(chosen, str) and chosen in names:
        return chosen
    if "greedy" in names:
        return "greedy"
    own = [name for name in names if name not in GENERIC_BOTS]
    return own[0] if own else names[0]


def bot_label(game_id: str, name: str, lang: str) -> str:
    """`Advanced – plays ...` in `lang` for a bot with a level, else the bot's name."""
    level = bot_levels(game_id).get(name)
    if level is None:
        return name
    return f"{t(level[0], lang)} – {t(level[1], lang)}"


def translated_levels(game_id: str, lang: str) -> dict[str, tuple[str, str]]:
    """Bot name -> (level, description) in `lang`, for the bots that have a level."""
    return {name: (t(level, lang), t(text, lang)) for name, (level, text) in bot_levels(game_id).items()}


def strongest_bot(game_id: str) -> str:
    """The bot that gives hints: the game's hardest level, else its first own bot."""
    levels = bot_levels(game_id)
    if levels:
        return list(levels)[-1]
    own = [name for name in bot_names(game_id) if name not in GENERIC_BOTS]
    return own[0] if own else bot_names(game_id)[0]
