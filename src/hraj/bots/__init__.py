"""Game-independent players and the arena that pits them against each other."""

from hraj.core.bot import Bot, RandomBot, bot_names, make_bot

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot"]
