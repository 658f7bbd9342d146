"""Abluxxen bots, easiest first: `greedy` (plain heuristics), `planner` and `strategist`
(flat Monte Carlo over deals of the unseen cards, with greedy rollouts).

Every bot sees only its determinized state, so none uses another seat's hidden cards
beyond what everyone knows of them.
"""

from __future__ import annotations

from hraj.core.bot import Bot
from hraj.core.marks import _
from hraj.games.abluxxen.greedy import GreedyBot
from hraj.games.abluxxen.search import QuickSearchBot, SearchBot

__all__ = ["BOTS", "DEFAULT_BOT", "LEVELS", "GreedyBot", "QuickSearchBot", "SearchBot"]

BOTS: dict[str, type[Bot]] = {"greedy": GreedyBot, "planner": QuickSearchBot, "strategist": SearchBot}


#: The bot a new seat gets in the web and the terminal: the middle level.
DEFAULT_BOT = "planner"
#: Each level, easiest first: its name and what it does (the bot's own description,
#: with its measured strength).
LEVELS: dict[str, tuple[str, str]] = {
    "greedy": (_("Beginner"), GreedyBot.help),
    "planner": (_("Advanced"), QuickSearchBot.help),
    "strategist": (_("Master"), SearchBot.help),
}
