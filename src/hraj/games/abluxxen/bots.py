"""Abluxxen bots, easiest first: `greedy` (plain heuristics), `planner` and `strategist`
(flat Monte Carlo over deals of the unseen cards, with greedy rollouts).

Every bot sees only its determinized state, so none uses another seat's hidden cards
beyond what everyone knows of them.
"""

from __future__ import annotations

from hraj.bots.base import Bot
from hraj.games.abluxxen.greedy import GreedyBot
from hraj.games.abluxxen.search import QuickSearchBot, SearchBot

__all__ = ["BOTS", "GreedyBot", "QuickSearchBot", "SearchBot"]

BOTS: dict[str, type[Bot]] = {"greedy": GreedyBot, "planner": QuickSearchBot, "strategist": SearchBot}
