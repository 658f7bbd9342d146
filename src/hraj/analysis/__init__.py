"""Hints and post-game analysis, built on the option values of each game's strongest bot
(`hraj.core.hints`): what each decision of a finished game cost its player."""

from hraj.analysis.game import Analysis, Decision, PlayerSummary, analyse, hint

__all__ = ["Analysis", "Decision", "PlayerSummary", "analyse", "hint"]
