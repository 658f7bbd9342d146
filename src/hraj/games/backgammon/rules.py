"""Backgammon (vrhcáby) as a state machine: seed 003 plus the standard rules.

One state is a whole match (a money game is a match of one game): from the first
roll to the match winner, the score carried from game to game.

A turn: the player on roll first chooses `roll`, `double` where they may offer the
cube (the opponent answers `take`, `drop` or, with beavers, `beaver`: an immediate
redouble, up to three in a row as in gnubg), or `resign 1|2|3`. Then the player picks
one of the legal plays; a roll that cannot be played at all is a forced step logged
as `no move`. The player on roll may also resign instead of moving, and a doubled
player instead of answering the cube; the opponent answers `accept` or `decline`. A
declined offer cannot be repeated at the same or a lower level before the next other
action. The seed variant has neither cube nor resignations: its dice come at once.

Every game starts with the opening roll (chance outcome: seat 0's die then seat 1's
die, never equal: ties are rolled again), except the first game when the `first`
option names the starter, and every game of the seed variant, where the starter rolls
two dice: the first game's starter is `first` (or a chance event `first N`), each later
game's starter is the previous game's loser.

Boards are kept per seat from that seat's own side (see `moves`): `boards[s][p]` is how
many checkers seat s has on its point p, with 0 = borne off and 25 = the bar.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from hraj.core.errors import HrajError, IllegalAction, InvalidOption
from hraj.core.game import FORFEIT, Game, Option, Outcome, RatedAs, Seat, State, boolean, int_in, one_of, optional_seat
from hraj.core.jsondata import GameOptions
from hraj.core.record import CHANCE, Event, EventLog
from hraj.core.record import MOVE as MOVE_EVENT
from hraj.core.start import First
from hraj.games.backgammon.moves import (
    BAR,
    CHECKERS,
    HOME_SIZE,
    OFF,
    POINTS,
    START,
    Board,
    PlayResult,
    Steps,
    apply_step,
    can_step,
    pip_count,
    play_results,
    play_steps,
    step_target,
)
from hraj.games.backgammon.notation import (
    ACCEPT,
    BEAVER,
    DECLINE,
    DOUBLE,
    DROP,
    RESIGN_LEVELS,
    ROLL,
    TAKE,
    Action,
    ChanceOutcome,
    Decision,
    Play,
    Roll,
    parse_action,
    parse_chance,
    plays_of,
    steps_text,
)
from hraj.games.backgammon.view import BackgammonView

#: The highest cube a double may reach: gnubg's limit (its MAX_CUBE), so that every
#: game played here can be read by gnubg.
MAX_CUBE = 1 << 12
#: The highest cube a position may show: gnubg's Match ID holds log2 of the cube in four bits.
MAX_POSITION_CUBE = 1 << 15
#: Immediate redoubles after a double (beaver, raccoon, and one more), as gnubg's default.
MAX_BEAVERS = 3
#: The longest match the Match ID can hold (15 bits).
MAX_MATCH_LENGTH = (1 << 15) - 1
#: The longest match two bots may play alone on a server that bounds them: a 25-point
#: match (the longest commonly played) is a few thousand moves, a 32,767-point one months.
BOTS_ALONE_MATCH_LENGTH = 25

# Phases. Chance: OPENING (one die each), CHOOSE_FIRST (seed: who starts), DICE.
# Decisions: CUBE (roll or double), MOVE (play the dice), DOUBLED (take/drop/beaver),
# BEAVERED (the doubler takes or drops the beaver), RESIGNED (accept or decline).
OPENING, CHOOSE_FIRST, DICE, CUBE, MOVE, DOUBLED, BEAVERED, RESIGNED, OVER = range(9)
PHASE_NAMES = ("opening", "choose_first", "dice", "cube", "move", "doubled", "beavered", "resigned", "over")

#: Ways a game ends, as written in outcomes and views.
WIN_KINDS = {1: "single", 2: "gammon", 3: "backgammon"}

NO_MOVE = "no move"
RESIGNS = [Decision("resign", level) for level in RESIGN_LEVELS]
_RESIGN_TEXTS = [str(resign) for resign in RESIGNS]


ALL_DICE = [Roll(a, b) for a in range(1, 7) for b in range(1, a + 1)]
#: `_ROLLS[a][b]`: the roll of dice showing a and b, high die first (index 0 unused).
_ROLLS = [[Roll(max(a, b), min(a, b)) for b in range(7)] for a in range(7)]


class Backgammon(Game[Action, ChanceOutcome]):
    """Backgammon for two: money game or match, with or without the cube, or the seed's rules."""

    id = "backgammon"
    order = 3
    name = "Backgammon"
    clock_family = "match"
    options_spec: ClassVar[dict[str, Option]] = {
        "variant": Option(
            "standard",
            "standard (cube, gammons, opening roll) or seed (the seed rulebook only)",
            one_of("standard", "seed"),
        ),
        "first": Option(None, "seat that starts the first game with two dice; else the opening roll", optional_seat),
        "cube": Option(True, "play with the doubling cube", boolean),
        "match_length": Option(
            0,
            "points to win the match; 0 is a money game",
            int_in(0, MAX_MATCH_LENGTH),
            bots_alone_max=BOTS_ALONE_MATCH_LENGTH,
        ),
        "jacoby": Option(False, "money play: gammons count single unless the cube was turned", boolean),
        "beavers": Option(
            False, "money play: a doubled player may redouble at once, keeping the cube (raccoons too)", boolean
        ),
    }

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        if self.options["variant"] == "seed":
            if self.options["jacoby"] or self.options["beavers"]:
                raise InvalidOption("The seed variant has no cube, so no Jacoby rule and no beavers.")
            self.options["cube"] = False
        if self.int_option("match_length") and (self.options["jacoby"] or self.options["beavers"]):
            raise InvalidOption("The Jacoby rule and beavers are money-game rules; match play does not use them.")
        self.seed_rules: bool = self.options["variant"] == "seed"
        self.match_length: int = self.int_option("match_length")
        self.cube_in_play: bool = bool(self.options["cube"])

    @property
    def match_points(self) -> int:
        return max(1, self.match_length)

    def rated_as(self) -> RatedAs | None:
        """A match is rated as a match of its length (the FIBS formula); a money game is not rated."""
        return RatedAs("match", self.match_length) if self.match_length else None

    @classmethod
    def conformance_options(cls) -> list[GameOptions]:
        return [
            {},
            {"match_length": 5},
            {"variant": "seed"},
            {"variant": "seed", "first": 1},
            {"cube": False},
            {"jacoby": True, "beavers": True},
            {"first": 0},
        ]

    def upgrade_events(self, events: Sequence[Event]) -> list[Event]:
        """Records written before every turn began with `roll, double or resign` left the
        `roll` out wherever the player on roll could not double (cube switched off, a
        Crawford game, the cube on the other side): the dice came straight after the
        last move. The `roll` is put back before such dice, so those records replay."""
        state = self.new_state()
        upgraded: list[Event] = []
        for kind, seat, text in events:
            try:
                if kind == CHANCE:
                    if not state.is_chance and state.phase == CUBE:
                        on_roll = state.to_act[0]
                        state.apply(on_roll, "roll")
                        upgraded.append((MOVE_EVENT, on_roll, "roll"))
                    state.apply_chance(text)
                elif kind == MOVE_EVENT and seat is not None:
                    state.apply(seat, text)
            except HrajError:
                return list(events)
            upgraded.append((kind, seat, text))
        return upgraded

    def new_state(self) -> BackgammonState:
        return BackgammonState(self)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def parse_chance(self, text: str) -> ChanceOutcome:
        return parse_chance(text)


class BackgammonState(State[Action, ChanceOutcome]):
    """A backgammon match in progress; see the module docstring."""

    __slots__ = (
        "_legal",
        "_log",
        "boards",
        "crawford",
        "crawford_done",
        "cube",
        "declined",
        "dice_rolled",
        "game",
        "game_number",
        "games",
        "offers",
        "owner",
        "phase",
        "resign_level",
        "resigner",
        "resume_phase",
        "score",
        "turn",
    )

    def __init__(self, game: Backgammon) -> None:
        self.game: Backgammon = game
        self._log: EventLog = None
        self.score = [0, 0]
        self.crawford = False
        self.crawford_done = False
        #: Results of finished games: (winner, points, how: single/gammon/backgammon/drop/resign).
        self.games: list[tuple[int, int, str]] = []
        self.game_number = 0
        self.boards: list[list[int]] = [list(START), list(START)]
        self.cube = 1
        self.owner: int | None = None
        self.turn = 0
        self.dice_rolled: Roll | None = None
        #: The steps of the legal plays of `dice_rolled`, worked out once when the dice come.
        self._legal: tuple[Steps, ...] = ()
        self.resign_level = 0
        #: The seat offering the resignation on the table.
        self.resigner = 0
        #: The highest resignation declined since the last other action (0: none).
        self.declined = 0
        #: Doubles offered in a row and not yet answered: 1 a double, 2 a beaver, 3 a raccoon...
        self.offers = 0
        self.resume_phase = MOVE
        self.phase = OPENING
        first = game.first
        self._start_game(starter=first)

    def copy(self) -> BackgammonState:
        new = BackgammonState.__new__(BackgammonState)
        new.game = self.game
        new._log = self._log
        new.score = self.score[:]
        new.crawford = self.crawford
        new.crawford_done = self.crawford_done
        new.games = self.games[:]
        new.game_number = self.game_number
        new.boards = [self.boards[0][:], self.boards[1][:]]
        new.cube = self.cube
        new.owner = self.owner
        new.turn = self.turn
        new.dice_rolled = self.dice_rolled
        new._legal = self._legal
        new.resign_level = self.resign_level
        new.resigner = self.resigner
        new.declined = self.declined
        new.offers = self.offers
        new.resume_phase = self.resume_phase
        new.phase = self.phase
        return new

    # --- the flow of a match ------------------------------------------------------------

    def _start_game(self, starter: int | None) -> None:
        """Set up the next game; `starter` rolls two dice, None means the usual start."""
        self.game_number += 1
        self.boards = [list(START), list(START)]
        self.cube = 1
        self.owner = None
        self.dice_rolled = None
        self.resign_level = 0
        self.declined = 0
        self.offers = 0
        if starter is not None:
            self.turn = starter
            self.phase = DICE
        elif self.game.seed_rules:
            self.phase = CHOOSE_FIRST
        else:
            self.phase = OPENING

    def cube_available(self, seat: int) -> bool:
        """May `seat` offer the cube at the start of its turn?"""
        return (
            self.game.cube_in_play
            and not self.crawford
            and self.owner in (None, seat)
            and self.cube < MAX_CUBE
            and not self.cube_is_dead(seat)
        )

    def cube_is_dead(self, seat: int) -> bool:
        """In a match, does `seat` win the match by winning at the cube's value now?

        gnubg refuses such a double ("the cube is dead"), and so does hraj, so that
        every match played here reads in gnubg."""
        length = self.game.match_length
        return length > 0 and self.score[seat] + self.cube >= length

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.dice_rolled = None
        # Before the roll the player chooses roll, double or resign; the seed variant
        # has neither cube nor resignations, so its dice come at once.
        self.phase = DICE if self.game.seed_rules else CUBE

    def _set_dice(self, roll: Roll) -> None:
        """The player on roll has these dice: play them, or lose the turn if nothing is legal."""
        self.dice_rolled = roll if roll.first >= roll.second else Roll(roll.second, roll.first)
        self.phase = MOVE
        mine, theirs = self.boards[self.turn], self.boards[1 - self.turn]
        self._legal = play_steps(tuple(mine), tuple(theirs), self.dice_rolled)
        if not self._legal:
            self._record_auto(self.turn, NO_MOVE)
            self._begin_turn(1 - self.turn)

    def _end_game(self, winner: int, points: int, how: str) -> None:
        """Score a finished game and start the next one, or end the match."""
        self.score[winner] += points
        self.games.append((winner, points, how))
        self._record_auto(winner, f"wins {points}")
        length = self.game.match_length
        if length == 0 or self.score[winner] >= length:
            self.phase = OVER
            if how != "resign":  # a resignation after the roll leaves the dice showing, as in gnubg
                self.dice_rolled = None
            return
        self.crawford = False
        if not self.crawford_done and max(self.score) == length - 1 and not self.game.seed_rules:
            self.crawford = True
            self.crawford_done = True
        self._start_game(starter=1 - winner if self.game.seed_rules else None)

    def _forfeit(self, seat: int) -> None:
        """`seat`'s time ran out in a rated match: as established servers rule, it
        resigns the game with a backgammon and loses the match (the winner is given the
        points that end it, at least the backgammon's at the cube's value)."""
        winner = 1 - seat
        points = 1 if self.game.seed_rules else 3 * self.stake
        if self.game.match_length:
            points = max(points, self.game.match_length - self.score[winner])
        self.resign_level = 0
        self._end_game(winner, points, FORFEIT)

    def game_value(self, multiplier: int) -> int:
        """Points for a game played out to a win of `multiplier` (1 single, 2 gammon, 3 backgammon) now.

        The Jacoby rule counts gammons single while the cube is centred, as gnubg does."""
        if self.game.seed_rules:
            return 1
        jacoby = self.game.options["jacoby"] and self.owner is None
        return self.cube * (1 if jacoby else multiplier)

    @property
    def stake(self) -> int:
        """The cube value a drop or a resignation counts now: with a beaver pending, the
        beavered cube (gnubg's reading)."""
        return self.cube << max(0, self.offers - 1)

    def win_multiplier(self, winner: int) -> int:
        """1, 2 or 3 by the loser's checkers when the winner bore off the last one."""
        loser = self.boards[1 - winner]
        if loser[OFF]:
            return 1
        # the winner's home board is the loser's points 19-24
        if loser[BAR] or any(loser[POINTS - HOME_SIZE + 1 : POINTS + 1]):
            return 3
        return 2

    # --- the contract ---------------------------------------------------------------------

    @property
    def to_act(self) -> tuple[Seat, ...]:
        if self.phase in (CUBE, MOVE, BEAVERED):
            return (self.turn,)
        if self.phase == DOUBLED:
            return (1 - self.turn,)
        if self.phase == RESIGNED:
            return (1 - self.resigner,)
        return ()

    @property
    def is_chance(self) -> bool:
        return self.phase in (OPENING, CHOOSE_FIRST, DICE)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        winner, points, how = self.games[-1]
        if self.game.match_length:
            scores = (float(self.score[0]), float(self.score[1]))
        else:
            scores = (float(points), -float(points)) if winner == 0 else (-float(points), float(points))
        details = {"games": [{"winner": w, "points": p, "how": h} for w, p, h in self.games], "cube": self.cube}
        return Outcome(scores, (winner,), how, details)

    def chance_outcomes(self) -> list[tuple[ChanceOutcome, float]]:
        if self.phase == OPENING:
            return [(Roll(a, b), 1 / 30) for a in range(1, 7) for b in range(1, 7) if a != b]
        if self.phase == CHOOSE_FIRST:
            return [(First(0), 0.5), (First(1), 0.5)]
        if self.phase == DICE:
            return [(roll, (1 if roll.first == roll.second else 2) / 36) for roll in ALL_DICE]
        return []

    def sample_chance(self, rng: random.Random) -> ChanceOutcome:
        if self.phase == CHOOSE_FIRST:
            return First(rng.randrange(2))
        if self.phase == OPENING:
            first = rng.randint(1, 6)
            second = rng.randrange(1, 6)  # five faces differ from the first die
            return Roll(first, second + (second >= first))
        return _ROLLS[rng.randint(1, 6)][rng.randint(1, 6)]

    def _is_possible_chance(self, outcome: ChanceOutcome) -> bool:
        if isinstance(outcome, First):
            return self.phase == CHOOSE_FIRST and outcome.seat in (0, 1)
        if self.phase == OPENING:
            return outcome.first != outcome.second
        return self.phase == DICE and outcome.first >= outcome.second

    def _canonical_chance(self, outcome: ChanceOutcome) -> ChanceOutcome:
        """A normal roll written low die first (`13`) is read as `31`."""
        if isinstance(outcome, Roll) and self.phase == DICE and outcome.first < outcome.second:
            return Roll(outcome.second, outcome.first)
        return outcome

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        if isinstance(outcome, First):
            self.turn = outcome.seat
            self.phase = DICE
        elif self.phase == OPENING:
            self.turn = 0 if outcome.first > outcome.second else 1
            self._set_dice(outcome)
        else:
            self._set_dice(outcome)

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.to_act:
            return []
        phase = self.phase
        actions: list[Action]
        if phase == MOVE:
            actions = plays_of(self.play_steps())
        elif phase == CUBE:
            actions = [ROLL, DOUBLE] if self.cube_available(seat) else [ROLL]
        elif phase in (DOUBLED, BEAVERED):
            actions = [TAKE, DROP]
            if self._beaver_allowed():
                actions.append(BEAVER)
        else:  # RESIGNED
            return [ACCEPT, DECLINE]
        if not self.game.seed_rules:
            actions += RESIGNS[self.declined :]
        return actions

    def playout_actions(self, seat: Seat) -> list[Action]:
        """A random playout plays the checkers out: it rolls, takes a double it is
        offered and declines a resignation, but never doubles, beavers or resigns.
        Random resignations would end nearly every random game at once."""
        if seat not in self.to_act:
            return []
        phase = self.phase
        if phase == MOVE:
            return plays_of(self._legal)
        if phase == CUBE:
            return [ROLL]
        if phase == RESIGNED:
            return [DECLINE]
        return [TAKE]

    def _beaver_allowed(self) -> bool:
        """Another immediate redouble: beavers on, fewer than three so far, the cube within gnubg's limit."""
        return (
            bool(self.game.options["beavers"])
            and self.offers <= MAX_BEAVERS
            and self.cube << (self.offers + 1) <= MAX_CUBE
        )

    def _canonical(self, seat: Seat, action: Action) -> Action:
        """A typed play (`13/7`, `8/2 6/1`, `13/11(2)`) counts as the legal play with the
        same resulting position, and is logged in canonical form."""
        if isinstance(action, Play) and self.phase == MOVE and seat == self.turn:
            return self._resolve(action)
        return action

    def _apply(self, seat: Seat, action: Action) -> None:
        if isinstance(action, Play):
            self.declined = 0
            self._play(action)
            return
        word = action.word
        if word not in ("resign", "accept", "decline"):
            self.declined = 0
        if word == "roll":
            self.phase = DICE
        elif word in ("double", "beaver"):
            self.offers += 1
            self.phase = DOUBLED if self.offers % 2 else BEAVERED
        elif word == "take":
            # As gnubg: the cube goes up by every offer, and the player not on roll owns
            # it (the doubled player, who keeps it after beavering).
            self.cube <<= self.offers
            self.owner = 1 - self.turn
            self.offers = 0
            self.phase = DICE
        elif word == "drop":
            value = self.stake
            if self.offers > 1:  # a beaver dropped: the beaverer had taken the cube, as gnubg keeps it
                self.owner = 1 - self.turn
            self.offers = 0
            self.cube = value
            self._end_game(1 - seat, value, "drop")
        elif word == "resign":
            self.resign_level = action.level
            self.resigner = seat
            self.resume_phase = self.phase
            self.phase = RESIGNED
        elif word == "accept":
            # The level, and a double still unanswered, stay after the match's last game,
            # as gnubg shows them; a beaver had given the beaverer the cube.
            level = self.resign_level
            self.cube = self.stake
            if self.offers > 1:
                self.owner = 1 - self.turn
            # As gnubg: an offer scores level times the cube; the Jacoby rule scores
            # games played out, not offers.
            self._end_game(seat, self.cube * level, "resign")
        elif word == "decline":
            self.declined = max(self.declined, self.resign_level)
            self.resign_level = 0
            self.phase = self.resume_phase

    def _play(self, play: Play) -> None:
        mine, theirs = self.boards[self.turn], self.boards[1 - self.turn]
        for origin, target in play.steps:
            mine[origin] -= 1
            mine[target] += 1
            if target != OFF and theirs[BAR - target] == 1:  # a blot is hit
                theirs[BAR - target] = 0
                theirs[BAR] += 1
        if mine[OFF] == CHECKERS:
            multiplier = self.win_multiplier(self.turn)
            how = "win" if self.game.seed_rules else WIN_KINDS[multiplier]
            self._end_game(self.turn, self.game_value(multiplier), how)
            return
        self._begin_turn(1 - self.turn)

    def _why_no_double(self, seat: Seat, word: str) -> IllegalAction | None:
        """Why `seat` may not double (or beaver) now, where a rule forbids it."""
        if not self.game.cube_in_play:
            return IllegalAction("This game is played without the doubling cube.")
        if self.crawford:
            return IllegalAction("No doubling in the Crawford game.")
        if word == "beaver":
            if not self.game.options["beavers"]:
                return IllegalAction("Beavers are not played in this game.")
            if self.phase in (DOUBLED, BEAVERED) and self.offers > MAX_BEAVERS:
                return IllegalAction("At most {count} beavers in a row.", count=MAX_BEAVERS)
            return None
        if self.phase != CUBE or seat != self.turn:
            return None
        if self.owner not in (None, seat):
            return IllegalAction("Only the owner of the cube may redouble.")
        if self.cube >= MAX_CUBE:
            return IllegalAction("The cube is at {most}, the most it can show.", most=MAX_CUBE)
        if self.cube_is_dead(seat):
            return IllegalAction("The cube is dead: winning this game at its value already wins the match.")
        return None

    # --- plays -----------------------------------------------------------------------------

    def plays(self) -> tuple[PlayResult, ...]:
        """The legal plays of the player on roll with the dice rolled (empty without dice)."""
        if self.dice_rolled is None or self.phase != MOVE:
            return ()
        mine, theirs = self.boards[self.turn], self.boards[1 - self.turn]
        return play_results(tuple(mine), tuple(theirs), self._legal)

    def play_steps(self) -> tuple[Steps, ...]:
        """The steps of each of `plays()`, without the positions after them: the fast path.

        Worked out when the dice come (`_set_dice`); the boards change only by a play,
        which ends the turn, so they stay valid for the whole turn."""
        if self.dice_rolled is None or self.phase != MOVE:
            return ()
        return self._legal

    def _resolve(self, typed: Play) -> Play:
        """The legal play a person meant by `typed`; IllegalAction with a reason if none."""
        legal = self.plays()
        canonical = Play(typed.steps)
        if any(play.steps == canonical.steps for play in legal):
            return canonical
        assert self.dice_rolled is not None
        mine, theirs = self.boards[self.turn], self.boards[1 - self.turn]
        reached = _expand(mine, theirs, typed.steps, self.dice_rolled)
        by_position = {(play.mine, play.theirs): play for play in legal}
        matches = [by_position[key] for key in reached if key in by_position]
        if not matches:
            raise self._why_illegal(self.turn, typed)
        if len(matches) > 1:
            # one checker passing a blot on the way or not: the hit marks decide
            destinations = {target for _, target in typed.steps}
            marked = set(typed.hits)
            fitting = [
                play
                for play in matches
                if marked <= (points := _hit_points(theirs, play.theirs)) and points <= marked | destinations
            ]
            if len(fitting) != 1:
                raise IllegalAction(
                    "{play} can be played in more than one way; write each step, e.g. {example}.",
                    play=str(typed),
                    example=str(Play(matches[0].steps)),
                )
            matches = fitting
        return Play(matches[0].steps)

    def _why_illegal(self, seat: Seat, action: Action) -> IllegalAction:
        if not isinstance(action, Play) or self.phase != MOVE or self.dice_rolled is None:
            if self.phase == MOVE and isinstance(action, Decision) and action.word in ("roll", "double"):
                return IllegalAction("The dice are already rolled; play them.")
            if isinstance(action, Play) and self.phase == CUBE:
                return IllegalAction("Roll first (roll), or double.")
            if isinstance(action, Play) and self.phase in (DOUBLED, BEAVERED):
                return IllegalAction("Answer the double first: take or drop.")
            if isinstance(action, Play) and self.phase == RESIGNED:
                return IllegalAction("Answer the resignation first: accept or decline.")
            if isinstance(action, Decision) and action.word in ("double", "beaver"):
                reason = self._why_no_double(seat, action.word)
                if reason is not None:
                    return reason
            if isinstance(action, Decision) and action.word == "resign" and action.level <= self.declined:
                return IllegalAction(
                    "This resignation was just declined; only a higher one may be offered before the next move."
                )
            return super()._why_illegal(seat, action)
        mine, theirs = self.boards[self.turn], self.boards[1 - self.turn]
        dice = self.dice_rolled
        work = list(mine)  # the typed movements one after another, dice aside
        for origin, target in action.steps:
            if origin != BAR and work[BAR]:
                return IllegalAction("A checker on the bar must enter before any other checker moves.")
            if work[origin] == 0:
                return IllegalAction("You have no checker on {point}.", point=_name(origin))
            if target != OFF and theirs[BAR - target] >= 2:
                return IllegalAction(
                    "Point {point} is blocked: two or more opposing checkers stand there.", point=target
                )
            if target == OFF and any(work[HOME_SIZE + 1 :]):
                return IllegalAction("Bearing off needs all 15 checkers in the home board.")
            work[origin] -= 1
            work[target] += 1
        reached = _expand(mine, theirs, action.steps, dice)
        if not reached:
            return IllegalAction(
                "{play} does not fit the dice {dice} or lands on a blocked point.", play=str(action), dice=str(dice)
            )
        legal = self.plays()
        used = max(len(play.steps) for play in legal)
        typed = max(count for count in reached.values())
        if typed < used:
            return IllegalAction("You must use as many dice as possible: {count} can be played.", count=used)
        if used == 1 and dice.high != dice.low:
            return IllegalAction("Only one die can be played, so it must be the larger one ({die}).", die=dice.high)
        return IllegalAction("{play} is not a legal play with {dice}.", play=str(action), dice=str(dice))

    # --- views and positions ---------------------------------------------------------------------

    def view(self, seat: Seat | None) -> BackgammonView:
        phase = self.phase
        boards = self.boards
        dice = self.dice_rolled
        game = self.game
        return {
            "game": "backgammon",
            "variant": "seed" if game.seed_rules else "standard",
            "seat": seat,
            "phase": PHASE_NAMES[phase],
            "turn": self.turn if phase not in (OPENING, CHOOSE_FIRST) else None,
            "to_act": list(self.to_act),
            "boards": [list(board) for board in boards],
            "pips": [pip_count(board) for board in boards],
            "dice": None if dice is None else [dice.high, dice.low],
            "cube": {
                "value": self.cube,
                "owner": self.owner,
                "in_play": game.cube_in_play and not self.crawford,
            },
            "match": {
                "length": game.match_length,
                "score": self.score[:],
                "crawford": self.crawford,
                "game": self.game_number,
            },
            "resign": None if phase != RESIGNED else {"by": self.resigner, "level": self.resign_level},
            "games": [{"winner": w, "points": p, "how": h} for w, p, h in self.games],
            "legal": self._legal_texts(seat) if seat is not None else [],
            "outcome": self.outcome_json(),
        }

    def _legal_texts(self, seat: Seat) -> list[str]:
        """The notation of every legal action of `seat`, as `legal_actions` orders them,
        without making the actions: a play's text is cached by its steps."""
        if self.phase == MOVE and seat in self.to_act:
            texts = [steps_text(steps) for steps in self.play_steps()]
            if not self.game.seed_rules:
                texts += _RESIGN_TEXTS[self.declined :]
            return texts
        return [str(action) for action in self.legal_actions(seat)]

    # --- the interface of the file formats (gnubg ids, XGID, .mat) -------------------------------

    @property
    def on_roll(self) -> int:
        """The seat whose turn it is (to roll, double or move)."""
        return self.turn

    @property
    def dice(self) -> tuple[int, int] | None:
        """The dice of the player on roll, high first; None before the roll."""
        return None if self.dice_rolled is None else (self.dice_rolled.high, self.dice_rolled.low)

    @property
    def cube_value(self) -> int:
        return self.cube

    @property
    def cube_owner(self) -> int | None:
        """The seat that owns the cube; None while it is centred."""
        return self.owner

    @property
    def match_game(self) -> int:
        return self.game_number

    @property
    def match_length(self) -> int:
        """Points to win; 0 for a money game."""
        return self.game.match_length

    @property
    def match_score(self) -> tuple[int, int]:
        return (self.score[0], self.score[1])

    @property
    def is_crawford(self) -> bool:
        """Is the game in progress the Crawford game (no doubling)?"""
        return self.crawford

    @property
    def resignation(self) -> int:
        """The resignation on offer (1 single, 2 gammon, 3 backgammon), 0 if none."""
        return self.resign_level if self.phase == RESIGNED else 0

    @property
    def double_offered(self) -> bool:
        """Is a double (or beaver) waiting for its answer, perhaps behind a resignation?"""
        return self.offers > 0

    def board_arrays(self) -> tuple[list[int], list[int]]:
        """gnubg's TanBoard: (checkers of the player NOT on roll, of the player on roll).

        Each is 25 counts from that player's own side: index i is point i + 1, index
        24 the bar. Borne-off checkers are not listed (15 minus the rest).
        """
        return (_tan(self.boards[1 - self.turn]), _tan(self.boards[self.turn]))

    @classmethod
    def from_position(
        cls,
        game: Backgammon,
        boards: Sequence[Sequence[int]],
        *,
        turn: int = 0,
        dice: tuple[int, int] | None = None,
        cube: int = 1,
        cube_owner: int | None = None,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
    ) -> BackgammonState:
        """A state at the start of `turn`'s turn (or with `dice` rolled) in this position.

        `boards` follows `board_arrays`: (the player not on roll, the player on roll),
        25 counts each. The state has no history: its record starts here. If `dice`
        cannot be played at all, the turn passes at once (a forced `no move` step).
        """
        if len(boards) != 2 or any(len(board) != POINTS + 1 for board in boards):
            raise IllegalAction("A position is two lists of 25 checker counts (points 1 to 24, then the bar).")
        if turn not in (0, 1):
            raise IllegalAction("Seat {seat} is not at a backgammon table.", seat=turn)
        state = cls(game)
        state._log = None
        state.game_number = 1
        for seat, tan in ((1 - turn, boards[0]), (turn, boards[1])):
            counts = [int(n) for n in tan]
            if any(n < 0 for n in counts) or sum(counts) > CHECKERS:
                raise IllegalAction("Each player has 15 checkers; the position gives {count}.", count=sum(counts))
            state.boards[seat] = [CHECKERS - sum(counts), *counts]
        for point in range(1, POINTS + 1):
            if state.boards[0][point] and state.boards[1][BAR - point]:
                raise IllegalAction("Both players have checkers on one point ({point} of seat 0).", point=point)
        if cube < 1 or cube > MAX_POSITION_CUBE or cube & (cube - 1):
            raise IllegalAction(
                "The cube shows a power of two up to {most}, not {cube}.", most=MAX_POSITION_CUBE, cube=cube
            )
        state.cube = cube
        state.owner = cube_owner
        state.score = [int(score[0]), int(score[1])]
        state.crawford = bool(crawford)
        length = game.match_length
        state.crawford_done = crawford or (length > 0 and max(state.score) == length - 1)
        state.turn = turn
        if any(state.boards[seat][OFF] == CHECKERS for seat in (0, 1)):
            raise IllegalAction("A position where a player has borne off every checker is a finished game.")
        if dice is None:
            state._begin_turn(turn)
        else:
            if not all(1 <= die <= 6 for die in dice) or len(dice) != 2:
                raise IllegalAction("Dice show 1 to 6: {dice}.", dice=str(dice))
            state._set_dice(Roll(max(dice), min(dice)))
        return state


def _tan(board: list[int]) -> list[int]:
    return board[1 : BAR + 1]


def _name(point: int) -> str:
    return "the bar" if point == BAR else str(point)


def _hit_points(before: Board | list[int], after: Board) -> set[int]:
    """The mover's points where a play hit: opposing blots that went to the bar."""
    return {BAR - p for p in range(1, POINTS + 1) if before[p] == 1 and after[p] == 0}


def _expand(
    mine: Sequence[int], theirs: Sequence[int], movements: Sequence[tuple[int, int]], dice: Roll
) -> dict[tuple[Board, Board], int]:
    """Every position a typed list of movements can reach with the dice, one die at a
    time (each intermediate point must be open), with how many dice it used.

    Movements may be done in any order and each may take several dice (`13/7` with 4-2).
    """
    pool = [dice.high] * 4 if dice.high == dice.low else [dice.high, dice.low]
    me, opp = list(mine), list(theirs)
    reached: dict[tuple[Board, Board], int] = {}
    todo = [list(movement) for movement in movements]

    def walk(used: int) -> None:
        open_moves = [m for m in todo if m[0] != m[1]]
        if not open_moves:
            reached[(tuple(me), tuple(opp))] = used
            return
        for movement in open_moves:
            origin, goal = movement
            for die in sorted(set(pool), reverse=True):
                if not can_step(me, opp, origin, die):
                    continue
                target = step_target(origin, die)
                if target < goal or (target == OFF and goal != OFF):
                    continue
                pool.remove(die)
                hit = apply_step(me, opp, origin, die)
                movement[0] = target
                walk(used + 1)
                movement[0] = origin
                me[origin] += 1
                me[target] -= 1
                if hit:
                    opp[BAR - target] = 1
                    opp[BAR] -= 1
                pool.append(die)

    walk(0)
    return reached
