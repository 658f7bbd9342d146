"""Backgammon hints: every play and cube decision with its equity, in points a game.

The strongest bot values the options. A bot with a `values(state, seat)` method (an
evaluator that gives every play its equity, cube value 1, from the mover's side) is
used as it is: its list of `(action, equity)` pairs or objects with `action` and
`equity` (or `value`) is the ranking. Until there is one, the pubeval bot is turned
into estimated equities, and the adviser says they are estimates:

- a play: the pip-count chance of winning after pubeval's own choice (`winning_chance`,
  the opponent on roll), moved on the logistic scale by pubeval's score of the play
  (logit p = logit(that chance) + slope * score + intercept, `CALIBRATION`, fitted to
  pubeval's own games by `scripts/calibrate_pubeval.py`, one pair for contact and one
  for race positions), and equity = 2p - 1 (gammons left out). All plays of a roll
  share the base chance, so they rank exactly as pubeval ranks them;
- a cube decision: the pip-count chance that pubeval's cube rule reads, and equities
  of a simple cube model whose take and double points are exactly that rule's (take
  down to 22 %, double from 70 %): no double 2p - 1, plus the value of cube access
  growing from nothing at 50 % to 0.28 at 70 % (at most 1 in all), double/take
  2(2p - 1) - 0.12 (the taker's recube vig), double/pass +1.

Every play also gets its reasons: checkers hit, checkers borne off, and the number of
the opponent's 36 rolls that hit a blot it leaves (the opponent's real legal plays).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol, TypeGuard, runtime_checkable

from hraj.core.bot import Bot, make_bot, strongest_bot
from hraj.core.game import Seat, State
from hraj.core.hints import EQUITY, Adviser, Equity, OptionValue, Percent, Reason, Thresholds, rank
from hraj.core.marks import _, _n
from hraj.games.backgammon.bots import WON, PubevalBot, pubeval, winning_chance
from hraj.games.backgammon.cube import ProbabilityFunction
from hraj.games.backgammon.decisions import context, cube_analysis, playing_on
from hraj.games.backgammon.moves import BAR, OFF, Board, PlayResult, is_contact, legal_plays
from hraj.games.backgammon.notation import ACCEPT, BEAVER, DECLINE, DOUBLE, DROP, ROLL, TAKE, Action, Decision, Play
from hraj.games.backgammon.rules import BEAVERED, CUBE, DOUBLED, MOVE, RESIGNED, BackgammonState

#: gnubg's doubtful, bad and very bad (0.04, 0.08, 0.16), and its ratings by the mean
#: error per decision: supernatural/world class (0.005), expert (0.008), advanced
#: (0.012), intermediate (0.018), above that casual and beginner.
THRESHOLDS = Thresholds(0.04, 0.08, 0.16, ratings=(0.005, 0.008, 0.012, 0.018))
#: The level that plays backgammon's rollouts.
ROLLOUT_LEVEL = "net"
#: (slope, intercept) of the logistic curve from pubeval's score to a chance of
#: winning, for race and for contact positions (see the module docstring).
#: scripts/calibrate_pubeval.py --games 2000 --seed 1 (19 809 race and 89 664 contact positions).
CALIBRATION = {"race": (0.0412, 0.3561), "contact": (0.1082, -1.6212)}
#: The estimate's simple cube rule (a bot without an evaluator of its own): double from
#: 70 %, take down to 22 %, beaver from 55 %.
DOUBLE_FROM = 0.70
TAKE_DOWN_TO = 0.22
BEAVER_FROM = 0.55
#: The cube model's value of keeping access to the cube, and the taker's recube vig:
#: chosen so that its double and take points are pubeval's (70 %, 22 %).
RECUBE_VIG = -1 - 2 * (2 * TAKE_DOWN_TO - 1)  # take = drop (-1) at 22 %
CUBE_ACCESS = (2 * DOUBLE_FROM - 1) - RECUBE_VIG  # no double = double/take at 70 %
#: Each of the 21 different rolls with its weight among the 36.
ROLLS = [((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(1, a + 1)]


def _logit(chance: float) -> float:
    chance = min(max(chance, 1e-6), 1 - 1e-6)
    return math.log(chance / (1 - chance))


def play_chances(results: Sequence[PlayResult], race: bool) -> list[float]:
    """Each play's chance of winning for the mover: pubeval's score on the logistic scale
    around the pip-count chance after pubeval's best play (see the module docstring)."""
    if not results:
        return []
    slope, intercept = CALIBRATION["race" if race else "contact"]
    scores = [pubeval(result.mine, result.theirs, race) for result in results]
    best = max(range(len(results)), key=lambda index: scores[index])
    base = _logit(1 - winning_chance(results[best].theirs, results[best].mine))
    return [1.0 if score >= WON else 1 / (1 + math.exp(-(base + slope * score + intercept))) for score in scores]


def shots(mine: Board, theirs: Board) -> int:
    """How many of the opponent's 36 rolls hit one of the mover's blots (by their legal plays)."""
    if not any(mine[point] == 1 for point in range(1, BAR)) or not is_contact(mine, theirs):
        return 0
    hitting = 0
    for dice, weight in ROLLS:
        # the opponent moves: its board first; the mover's board, seen from there, is the second
        if any(result.theirs[BAR] > mine[BAR] for result in legal_plays(theirs, mine, dice)):
            hitting += weight
    return hitting


def play_reasons(before_mine: Board, before_theirs: Board, mine: Board, theirs: Board) -> tuple[Reason, ...]:
    """What a play does: hits, checkers off, and the shots it leaves."""
    found = []
    hit = theirs[BAR] - before_theirs[BAR]
    if hit:
        found.append(Reason(*_n("hits {count} checker", "hits {count} checkers"), count=hit))
    off = mine[OFF] - before_mine[OFF]
    if off:
        found.append(Reason(*_n("bears off {count} checker", "bears off {count} checkers"), count=off))
    count = shots(mine, theirs)
    if count:
        found.append(
            Reason(
                *_n("leaves a blot within reach of {count} roll", "leaves a blot within reach of {count} rolls"),
                count=count,
            )
        )
    elif is_contact(mine, theirs):
        found.append(Reason(_("leaves no shot")))
    return tuple(found)


class ValuedPlay(Protocol):
    """An item of a bot's `values`: a play and its equity (`equity`, else `value`), as
    `bots.PlayValue` is."""

    @property
    def action(self) -> Action: ...


@runtime_checkable
class ValuingBot(Protocol):
    """A bot that values every legal play of a roll itself (`bots.NetBot`), best first."""

    def values(self, state: BackgammonState, seat: Seat) -> Sequence[ValuedPlay | tuple[Action, float]]: ...

    def choose(self, state: BackgammonState, seat: Seat) -> object: ...


@runtime_checkable
class CubeBot(Protocol):
    """A bot with an evaluator of its own for the cube (`bots.NetBot.probabilities`)."""

    probabilities: ProbabilityFunction

    def choose(self, state: BackgammonState, seat: Seat) -> object: ...


def cube_equities(chance: float) -> dict[str, float]:
    """The cube model's equities for the side whose chance of winning is `chance`:
    no double, double/take, double/pass (see the module docstring)."""
    return {
        "no_double": min(2 * chance - 1 + CUBE_ACCESS * min(max(chance - 0.5, 0.0) / (DOUBLE_FROM - 0.5), 1.0), 1.0),
        "double_take": 2 * (2 * chance - 1) - RECUBE_VIG,
        "double_pass": 1.0,
    }


class BackgammonAdviser(Adviser):
    """The strongest bot's equities: its own `values` where it has one, else pubeval's estimate."""

    @property
    def unit(self) -> str:
        return EQUITY

    @property
    def thresholds(self) -> Thresholds:
        return THRESHOLDS

    def is_estimate(self) -> bool:
        return not isinstance(self._bot(), ValuingBot)

    def _bot(self) -> Bot:
        return make_bot(self.game.id, strongest_bot(self.game.id), self.seed)

    def values(
        self, state: State[Any, Any], seat: Seat, *, played: object = None, reasons: bool = True
    ) -> list[OptionValue]:
        assert isinstance(state, BackgammonState)
        if played is not None and isinstance(played, str):
            played = self.game.parse_action(played)
        bot = self._bot()
        if isinstance(bot, ValuingBot) and state.phase == MOVE:
            return self._from_evaluator(bot, state, seat, reasons)
        if isinstance(bot, CubeBot):
            return self._cube_options(bot, state, seat, played)
        assert isinstance(bot, PubevalBot)
        legal = state.legal_actions(seat)
        choice = bot.choose(state, seat)
        weighed = [action for action in legal if not _is_resignation(action) or action == played]
        options = self._plays(state, seat, reasons) if state.phase == MOVE else self._decisions(state, seat, weighed)
        options += [OptionValue(action, -float(action.level), EQUITY) for action in weighed if _is_resignation(action)]
        return rank([option for option in options if option.action in weighed], choice)

    def _plays(self, state: BackgammonState, seat: int, reasons: bool) -> list[OptionValue]:
        mine, theirs = state.boards[seat], state.boards[1 - seat]
        race = not is_contact(mine, theirs)
        results = state.plays()
        options = []
        for result, chance in zip(results, play_chances(results, race), strict=True):
            why = play_reasons(tuple(mine), tuple(theirs), result.mine, result.theirs) if reasons else ()
            options.append(OptionValue(Play(result.steps), 2 * chance - 1, EQUITY, why, {"win": chance}))
        return options

    def _decisions(self, state: BackgammonState, seat: int, legal: Sequence[Action]) -> list[OptionValue]:
        mine, theirs = state.boards[seat], state.boards[1 - seat]
        chance = winning_chance(mine, theirs) if seat == state.turn else 1 - winning_chance(theirs, mine)
        detail = {"win": chance}
        options = []
        if state.phase == CUBE:
            cube = cube_equities(chance)
            doubling = min(cube["double_take"], cube["double_pass"])
            if state.match_length and state.cube_value >= state.match_length - state.match_score[seat]:
                doubling = cube["no_double"]  # the cube already wins the match: doubling gains nothing
            for action in legal:
                if action == ROLL:
                    why = (Reason(_("chance of winning {chance}"), params={"chance": Percent(chance)}),)
                    options.append(OptionValue(action, cube["no_double"], EQUITY, why, {**detail, **cube}))
                elif action == DOUBLE:
                    why = (
                        Reason(
                            _("double/take {take}, double/pass {drop}"),
                            params={"take": Equity(cube["double_take"]), "drop": Equity(cube["double_pass"])},
                        ),
                    )
                    options.append(OptionValue(action, doubling, EQUITY, why, {**detail, **cube}))
        elif state.phase == RESIGNED:
            gammon_likely = not theirs[OFF] and chance > 0.9
            offered = float(state.resignation)
            for action in legal:
                if action == ACCEPT:
                    options.append(OptionValue(action, offered, EQUITY, (), detail))
                elif action == DECLINE:
                    value = 2 * chance - 1 + (1.0 if gammon_likely and state.resignation < 2 else 0.0)
                    options.append(OptionValue(action, value, EQUITY, (), detail))
        else:  # doubled (or a beaver came back): take, drop, beaver, in the taker's equities
            take = 2 * (2 * chance - 1) + RECUBE_VIG
            for action in legal:
                if action == TAKE:
                    options.append(OptionValue(action, take, EQUITY, (), detail))
                elif action == DROP:
                    options.append(OptionValue(action, -1.0, EQUITY, (), detail))
                elif action == BEAVER:  # pubeval beavers from 55 %, and never raccoons
                    gain = 2 * chance - 1 - (2 * BEAVER_FROM - 1) if state.phase == DOUBLED else 0.0
                    beaver = take + gain
                    options.append(OptionValue(action, beaver, EQUITY, (), detail))
        return options

    def _cube_options(self, bot: CubeBot, state: BackgammonState, seat: int, played: object) -> list[OptionValue]:
        """The bot's cube and resignation decisions valued by the cube model (`decisions`):
        gnubg's no double, double/take and double/pass, in points of the cube before the
        double (a match's winning chances turned into gnubg's EMG), from `seat`'s side."""
        legal = state.legal_actions(seat)
        weighed = [action for action in legal if not _is_resignation(action) or action == played]
        choice = bot.choose(state.copy(), seat)
        options: list[OptionValue] = []
        if state.phase == RESIGNED:
            on = playing_on(state, seat, 1 - seat, bot.probabilities)
            score = context(state, seat).score
            points = state.resignation * state.stake
            offered = points / state.cube if score is None else score.after(points)
            for action in weighed:
                if action in (ACCEPT, DECLINE):
                    options.append(OptionValue(action, offered if action == ACCEPT else on, EQUITY))
            return rank(options, choice)
        analysis = cube_analysis(state, bot.probabilities)
        no_double, double_take, double_pass = analysis.emg
        cube = {"no_double": no_double, "double_take": double_take, "double_pass": double_pass}
        why = (
            Reason(
                _("double/take {take}, double/pass {drop}"),
                params={"take": Equity(double_take), "drop": Equity(double_pass)},
            ),
        )
        doubling = (2 * double_take if analysis.beaver else double_take) if analysis.take else double_pass
        sign = 1.0 if seat == state.turn else -1.0
        values = {
            ROLL: no_double,
            DOUBLE: doubling,
            TAKE: sign * double_take * (2.0 if state.phase == BEAVERED else 1.0),
            DROP: -double_pass * (2.0 if state.phase == BEAVERED else 1.0),
            BEAVER: -2 * double_take,
        }
        for action in weighed:
            if _is_resignation(action):
                options.append(OptionValue(action, -float(action.level), EQUITY))
            elif action in values:
                options.append(OptionValue(action, values[action], EQUITY, why, dict(cube)))
        return rank(options, choice)

    def _from_evaluator(self, bot: ValuingBot, state: BackgammonState, seat: int, reasons: bool) -> list[OptionValue]:
        """An evaluator's own equities, with the reasons of each play."""
        mine, theirs = tuple(state.boards[seat]), tuple(state.boards[1 - seat])
        after = {Play(result.steps): result for result in state.plays()}
        options = []
        for item in bot.values(state, seat):
            action, equity = _pair(item)
            why: tuple[Reason, ...] = ()
            if reasons and action in after:
                why = play_reasons(mine, theirs, after[action].mine, after[action].theirs)
            options.append(OptionValue(action, equity, EQUITY, why))
        choice = bot.choose(state.copy(), seat)
        return rank(options, choice)

    #: gnubg's quasi-random dice: the first rolls of a rollout's trials spread evenly.
    stratified_chance = True

    @property
    def rollout_bot(self) -> str:
        """The net at 0-ply (`net`) plays the rollouts, as gnubg's quick rollouts do:
        `expert`'s one-roll search on top of it makes a game some 17 times as long."""
        return ROLLOUT_LEVEL

    def rollout_value(self, state: State[Any, Any], seat: Seat, start: State[Any, Any]) -> float | None:
        """The points of the game being played when the rollout began, for `seat`, per
        point of the cube then (gnubg's cubeful equity at cube 1); a match plays on no further."""
        assert isinstance(state, BackgammonState) and isinstance(start, BackgammonState)
        if len(state.games) <= len(start.games):
            return None
        winner, points, _ = state.games[len(start.games)]
        return (points if winner == seat else -points) / start.cube


def _pair(item: ValuedPlay | tuple[Action, float]) -> tuple[Action, float]:
    """(action, equity) from an evaluator's item: a pair, or an object with `action` and `equity`/`value`."""
    if isinstance(item, tuple) and len(item) == 2:
        return item[0], float(item[1])
    return item.action, float(getattr(item, "equity", getattr(item, "value", 0.0)))


def _is_resignation(action: object) -> TypeGuard[Decision]:
    return isinstance(action, Decision) and action.word == "resign"


ADVISER = BackgammonAdviser
