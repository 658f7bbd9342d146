"""Where the bot interface used to live; it is `hraj.core.bot` now. Kept so that code
written against the old path goes on working."""

from hraj.core.bot import GENERIC_BOTS, Bot, RandomBot, bot_names, make_bot

__all__ = ["GENERIC_BOTS", "Bot", "RandomBot", "bot_names", "make_bot"]
