"""Abluxxen hints: the options the strongest bot, `strategist`, weighs, with its chances.

A value is `strategist`'s estimated chance of winning: each option tried in the same
deals of the cards the seat cannot see, played on by greedy rollouts. It searches every
option of a decision except plays, where it weighs the six best by greedy's judgement;
analysis adds the play a player made, in the same deals. The adviser is given the
seat's own determinized state, so no value ever rests on a hidden card.

Analysis (`quick`) uses the strongest level's own search, 12 deals, six turns ahead,
six plays weighed, without its time limit, so that the same seed always gives the
same figures whatever the machine's load.
"""

from __future__ import annotations

from typing import Any

from hraj.core.bot import make_bot, strongest_bot
from hraj.core.game import Seat, State
from hraj.core.hints import WIN, Adviser, OptionValue, Reason, Thresholds, rank
from hraj.core.marks import _, _n
from hraj.games.abluxxen.rules import PLAY, AbluxxenState, Move
from hraj.games.abluxxen.search import SearchBot

THRESHOLDS = Thresholds(0.04, 0.08, 0.16, ratings=(0.015, 0.02, 0.025, 0.03), stake=0.01)
#: The level that plays Abluxxen's rollouts.
ROLLOUT_LEVEL = "greedy"
#: Analysis settings: deals, turns ahead, plays weighed (the strongest level's).
QUICK_DEALS, QUICK_HORIZON, QUICK_WIDTH = 12, 6, 6


def move_reasons(state: AbluxxenState, seat: int, move: Move) -> tuple[Reason, ...]:
    """What a play captures and what it leaves in hand; what taking cards does."""
    if move.kind == "take":
        return (
            Reason(*_n("takes {count} card into hand", "takes {count} cards into hand"), count=len(state.captured)),
        )
    if move.kind != "play" or state.phase != PLAY:
        return ()
    played = move.cards
    captured = 0
    for step in range(1, state.players):
        layers = state.layers[(seat + step) % state.players]
        if layers and len(layers[-1]) == len(played) and state.beats(played, layers[-1]):
            captured += len(layers[-1])
    left = state.hand_size(seat) - len(played)
    found = [Reason(*_n("captures {count} card", "captures {count} cards"), count=captured)] if captured else []
    if left == 0:
        return (*found, Reason(_("empties the hand and ends the game")))
    return (*found, Reason(*_n("keeps {count} card in hand", "keeps {count} cards in hand"), count=left))


class AbluxxenAdviser(Adviser):
    """`strategist`'s searched options (and the played one) with their chances of winning."""

    @property
    def unit(self) -> str:
        return WIN

    @property
    def thresholds(self) -> Thresholds:
        return THRESHOLDS

    @property
    def rollout_bot(self) -> str:
        """`greedy` plays the rollouts: `strategist` weighs its options by greedy's
        playouts itself, and its own search in every seat would make one playout last
        minutes."""
        return ROLLOUT_LEVEL

    def bot(self) -> SearchBot:
        """The strongest bot of this seed; for analysis with the quick settings."""
        bot = make_bot(self.game.id, strongest_bot(self.game.id), self.seed)
        assert isinstance(bot, SearchBot)
        if self.quick:
            bot.deals, bot.horizon, bot.width = QUICK_DEALS, QUICK_HORIZON, QUICK_WIDTH
            bot.unhurried()
        return bot

    def values(
        self, state: State[Any, Any], seat: Seat, *, played: object = None, reasons: bool = True
    ) -> list[OptionValue]:
        assert isinstance(state, AbluxxenState)
        extra: tuple[Move, ...] = ()
        if played is not None:
            extra = (played if isinstance(played, Move) else state.game.parse_action(str(played)),)
        found = self.bot().values(state, seat, extra=extra)
        options = [
            OptionValue(
                option.action,
                option.win,
                WIN,
                move_reasons(state, seat, option.action) if reasons else (),
                {"deals": option.samples},
            )
            for option in found
        ]
        return rank(options, found[0].action)


ADVISER = AbluxxenAdviser
