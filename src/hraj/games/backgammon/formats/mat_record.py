"""hraj records to and from `.mat` matches.

Export replays a record and writes each decision in its player's column: seat 0 on
the left, seat 1 on the right, as gnubg 1.07 writes and reads them. Rolls and plays
become `52: 13/8 13/11`, forced `no move` steps a bare `52:`, cube actions
`Doubles => 2` (a beaver or raccoon too: `Doubles => 4`, as gnubg), `Takes`, `Drops`,
and every finished game a `Wins N points` line counted as gnubg does: the cube times
1, 2 or 3, before the Jacoby rule. A resignation leaves only that line (and, when it
came after the roll, the bare roll before it, unless the roll had a single legal play:
gnubg would play that); a declined resignation leaves nothing. A match lost on time
(`forfeit`) is written as a resignation of the points that ended it. A record that stops in
the middle of a game keeps its last roll (as a bare roll) and a pending double, but
not a pending `roll` decision or resignation.

Import plays a match through the rules: the dice of each cell become chance outcomes,
its play an action parsed with the game's notation (so `13/7`, `bar/22`, `25/22*`,
`6/0`, `13/8(2)` all read), and a `Wins` line that no play or drop explains becomes
the loser's resignation, accepted, or, worth more than a backgammon and exactly what
ends the match, the loser's forfeit. Every step is checked, so a file that breaks the
rules is refused with the game and cell that break them.

A match (`N point match`, N > 0) is one record; a money session (`0 point match`)
gives one record per game, since a money game is a match of one game here.

Options that the `.mat` format has no words for travel in header comments:
`; [Jacoby "On"]`, `; [Beaver "On"]`, `; [CubeLimit "1"]` for play without the cube,
`; [hraj variant "seed"]` and `; [hraj first "1"]`. gnubg writes none of them and
ignores their values (it plays an imported file by its own `set jacoby`, `set beavers`
and `set cube use`), so a gnubg money session read here takes the Jacoby rule from the
running scores of its games when no header names it, and callers may pass options.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hraj.core.errors import HrajError, InvalidRecord
from hraj.core.game import FORFEIT, Seat
from hraj.core.jsondata import OptionSetting
from hraj.core.record import AUTO, CHANCE, Record, parse_record
from hraj.core.start import First
from hraj.games.backgammon.formats.mat import (
    BEAVER,
    DOUBLE,
    DROP,
    ROLL,
    TAKE,
    WIN,
    MatAction,
    MatGame,
    MatMatch,
    format_mat,
    format_play,
    parse_matches,
)
from hraj.games.backgammon.moves import BAR, OFF
from hraj.games.backgammon.notation import Play, Roll
from hraj.games.backgammon.rules import (
    BEAVERED,
    CHOOSE_FIRST,
    CUBE,
    DOUBLED,
    MAX_CUBE,
    MOVE,
    NO_MOVE,
    OPENING,
    WIN_KINDS,
    Backgammon,
    BackgammonState,
)

DEFAULT_NAMES = ("Player 1", "Player 2")
ON, OFF_WORD = "On", "Off"


# --- export -----------------------------------------------------------------------------


def _headers(options: Mapping[str, OptionSetting], names: Sequence[str]) -> list[tuple[str, str]]:
    headers = [
        ("Site", "hraj"),
        ("Player 1", names[0]),
        ("Player 2", names[1]),
        ("Variation", "Backgammon"),
    ]
    if options["match_length"]:
        headers.append(("Crawford", ON if options["variant"] != "seed" else OFF_WORD))
    else:
        headers.append(("Jacoby", ON if options["jacoby"] else OFF_WORD))
        headers.append(("Beaver", ON if options["beavers"] else OFF_WORD))
    headers.append(("CubeLimit", str(MAX_CUBE if options["cube"] else 1)))
    if options["variant"] != "standard":
        headers.append(("hraj variant", str(options["variant"])))
    if options["first"] is not None:
        headers.append(("hraj first", str(options["first"])))
    return headers


def _hits(state: BackgammonState, seat: int, play: Play) -> list[bool]:
    """gnubg's hit marks: a step hits when it lands first on a point the opponent held."""
    theirs = state.boards[1 - seat]
    seen: set[int] = set()
    marks = []
    for _, target in play.steps:
        marks.append(target != OFF and theirs[BAR - target] > 0 and target not in seen)
        seen.add(target)
    return marks


def record_names(record: Mapping[str, object]) -> tuple[str, str]:
    """The players' names a record keeps (`players`: two names), else `Player 1`, `Player 2`."""
    players = record.get("players")
    if isinstance(players, (list, tuple)) and len(players) == 2 and all(isinstance(n, str) and n for n in players):
        return (players[0], players[1])
    return DEFAULT_NAMES


def mat_of_record(record: Mapping[str, object], names: Sequence[str] | None = None) -> MatMatch:
    """The `.mat` match of a backgammon record, with the names it keeps unless `names`
    are given; raises InvalidRecord if it does not replay."""
    names = names or record_names(record)
    game_id, options, events = parse_record(record)
    if game_id != Backgammon.id:
        raise InvalidRecord("The record is of {found}, not {expected}.", found=game_id, expected=Backgammon.id)
    game = Backgammon(**options)
    state = game.new_state()
    match = MatMatch(game.match_length, _headers(game.options, names))
    current = MatGame(1, (names[0], names[1]), (0, 0))
    match.games.append(current)
    dice: tuple[int, int] = (0, 0)  # the roll waiting for its play
    resigned_after_roll = False
    for index, (kind, seat, text) in enumerate(events):
        try:
            if kind == AUTO:
                state.check_auto_event(index, seat, text)
                assert seat is not None
                if text == NO_MOVE:
                    current.actions.append(MatAction(seat, ROLL, dice=dice))
                elif text.startswith("wins "):
                    if resigned_after_roll:
                        current.actions.append(MatAction(1 - seat, ROLL, dice=dice))
                    current.actions.append(MatAction(seat, WIN, value=gnubg_points(state, int(text.split()[1]))))
                    resigned_after_roll = False
                    if not state.is_over:
                        score = state.match_score
                        current = MatGame(current.number + 1, (names[0], names[1]), score)
                        match.games.append(current)
                continue
            if kind == CHANCE:
                outcome = game.parse_chance(text)
                if isinstance(outcome, Roll):
                    dice = (outcome.high, outcome.low)
                state.apply_chance(text)
                continue
            assert seat is not None
            if text == FORFEIT:
                # Time ran out: `.mat` has no word for it; the `Wins` line that follows
                # gives the points that end the match, after a bare roll as a resignation.
                resigned_after_roll = state.phase == MOVE and len(state.play_steps()) > 1
                state.apply(seat, text)
                continue
            action = game.parse_action(text)
            if isinstance(action, Play):
                moves = format_play(action.steps, _hits(state, seat, action))
                current.actions.append(MatAction(seat, ROLL, dice=dice, moves=moves))
            elif action.word in ("double", "beaver"):
                # gnubg writes every redouble as a double, to the cube it makes
                current.actions.append(MatAction(seat, DOUBLE, value=state.cube_value << (state.offers + 1)))
            elif action.word == "take":
                current.actions.append(MatAction(seat, TAKE))
            elif action.word == "drop":
                current.actions.append(MatAction(seat, DROP))
            elif action.word == "resign":
                # gnubg plays a roll's only legal play by itself, so such a roll is left out
                resigned_after_roll = state.phase == MOVE and len(state.play_steps()) > 1
            elif action.word == "decline":
                resigned_after_roll = False
            state.apply(seat, text)
        except HrajError as error:
            raise InvalidRecord(
                "Event {number} ({text}) does not replay: {why}", number=index + 1, text=text, why=error
            ) from None
    if state.phase == MOVE:
        # The record stops after a roll: write the roll, its play still to come.
        current.actions.append(MatAction(state.on_roll, ROLL, dice=dice))
    if not current.actions and len(match.games) > 1:
        match.games.pop()
    return match


def gnubg_points(state: BackgammonState, points: int) -> int:
    """A finished game's `Wins` value as gnubg writes it: a game played out counts the
    cube times 1, 2 or 3 whatever the Jacoby rule made of it."""
    if not state.game.options["jacoby"]:
        return points  # the points scored are the cube times 1, 2 or 3 already
    # Jacoby is money play: the game was the last, so the state still shows its cube.
    how = state.games[-1][2]
    multiplier = next((number for number, name in WIN_KINDS.items() if name == how), 0)
    return state.cube_value * multiplier if multiplier else points


def export_mat(record: Mapping[str, object], names: Sequence[str] | None = None) -> str:
    """The `.mat` text of a backgammon record (a whole match, or one money game)."""
    return format_mat(mat_of_record(record, names))


def export_session(records: Sequence[Mapping[str, object]]) -> str:
    """The `.mat` text of several money games as one session, as gnubg writes a session:
    games numbered on, each score line the running total. Matches are written one
    after another (gnubg reads only the first)."""
    if not records:
        raise InvalidRecord("There is no record to write.")
    matches = [mat_of_record(record) for record in records]
    if len(matches) == 1 or any(match.length for match in matches):
        return "".join(format_mat(match) for match in matches)
    session = matches[0]
    totals = [0, 0]
    for number, (match, record) in enumerate(zip(matches, records, strict=True), start=1):
        game = match.games[0]
        game.number, game.scores = number, (totals[0], totals[1])
        if number > 1:
            session.games.append(game)
        # the points scored, the Jacoby rule applied (the record replayed above, so it parses)
        winner, points = _result(parse_record(record)[2])
        if winner is not None:
            totals[winner] += points
    return format_mat(session)


# --- import -----------------------------------------------------------------------------


def _options(match: MatMatch) -> dict[str, object]:
    """Game options from the match line and the header comments."""
    options: dict[str, object] = {"match_length": match.length}

    def on(key: str) -> bool:
        return (match.header(key) or "").strip().lower() == ON.lower()

    if match.length == 0:
        # gnubg writes a beaver as the doubled player's double, right after the double
        beaver_cells = any(
            action.kind == BEAVER or (action.kind == DOUBLE and following.kind == DOUBLE)
            for game in match.games
            for action, following in zip(game.actions, game.actions[1:], strict=False)
        ) or any(action.kind == BEAVER for game in match.games for action in game.actions)
        options["jacoby"] = on("Jacoby")
        options["beavers"] = on("Beaver") or beaver_cells
    if (match.header("CubeLimit") or "").strip() == "1":
        options["cube"] = False
    variant = match.header("hraj variant")
    if variant:
        options["variant"] = variant.strip()
    first = match.header("hraj first")
    if first:
        options["first"] = first.strip()
    return options


class _Importer:
    """Plays the cells of `.mat` games through a state, one record at a time."""

    def __init__(self, game: Backgammon) -> None:
        self.game = game
        self.state = game.new_state()

    def fail(self, game: MatGame, cell: int, why: object) -> InvalidRecord:
        return InvalidRecord("Game {game}, cell {cell} of the .mat file: {why}", game=game.number, cell=cell, why=why)

    def play_game(self, mat_game: MatGame, check_score: bool) -> None:
        state = self.state
        if check_score and state.match_score != mat_game.scores:
            raise InvalidRecord(
                "Game {game} of the .mat file starts at {found}, but the games before it give {expected}.",
                game=mat_game.number,
                found=f"{mat_game.scores[0]}-{mat_game.scores[1]}",
                expected=f"{state.match_score[0]}-{state.match_score[1]}",
            )
        games_before = len(state.games)
        for number, cell in enumerate(mat_game.actions, start=1):
            try:
                if cell.kind == WIN:
                    self._win(cell, games_before)
                elif len(state.games) > games_before:
                    raise InvalidRecord("The game is already over.")
                elif cell.kind == ROLL:
                    self._roll(cell)
                else:
                    self._cube(cell)
            except HrajError as error:
                raise self.fail(mat_game, number, error) from None

    def _expect(self, seat: Seat) -> None:
        if self.state.to_act != (seat,):
            acting = self.state.to_act or ("the dice",)
            raise InvalidRecord(
                "It is {acting}'s turn here, not {side}'s.",
                acting=", ".join(DEFAULT_NAMES[s] if isinstance(s, int) else s for s in acting),
                side=DEFAULT_NAMES[seat],
            )

    def _no_play_missing(self) -> None:
        if self.state.phase == MOVE:
            raise InvalidRecord("{side} rolled but no play is written, though one was legal.", side=self._name())

    def _name(self, seat: Seat | None = None) -> str:
        return DEFAULT_NAMES[self.state.turn if seat is None else seat]

    def _roll(self, cell: MatAction) -> None:
        state, seat = self.state, cell.side
        self._no_play_missing()
        high, low = max(cell.dice), min(cell.dice)
        if state.phase == OPENING:
            # The opening roll is seat 0's die then seat 1's; the starter has the higher.
            state.apply_chance(f"{high}{low}" if seat == 0 else f"{low}{high}")
        else:
            if state.phase == CHOOSE_FIRST:
                state.apply_chance(str(First(seat)))
            elif state.phase == BEAVERED and seat == state.turn:
                # `Beavers => 4` followed by the doubler's roll: the beaver was taken
                state.apply(seat, "take")
            elif state.phase == CUBE:
                self._expect(seat)
                state.apply(seat, "roll")
            if not state.is_chance or state.turn != seat:
                raise InvalidRecord("{side} cannot roll now.", side=DEFAULT_NAMES[seat])
            state.apply_chance(f"{high}{low}")
        if cell.moves:
            state.apply(seat, cell.moves)
        # No play written: either nothing could move (the rules passed the turn by
        # themselves) or the player resigned after rolling (a `Wins` line follows).

    def _cube(self, cell: MatAction) -> None:
        state, seat = self.state, cell.side
        self._no_play_missing()
        self._expect(seat)
        word = {DOUBLE: "double", BEAVER: "beaver", TAKE: "take", DROP: "drop"}[cell.kind]
        if word == "double" and state.phase in (DOUBLED, BEAVERED):
            word = "beaver"  # gnubg writes a beaver or raccoon as a double
        expected = state.cube_value << (state.offers + 1)
        if cell.kind in (DOUBLE, BEAVER) and cell.value != expected:
            raise InvalidRecord("The cube goes to {expected} here, not {value}.", expected=expected, value=cell.value)
        state.apply(seat, word)

    def _win(self, cell: MatAction, games_before: int) -> None:
        state, winner = self.state, cell.side
        if len(state.games) == games_before:
            # Nothing ended the game: the loser resigned, and the winner accepted.
            loser = 1 - winner
            self._expect(loser)
            level, rest = divmod(cell.value, state.stake)
            if not rest and 1 <= level <= 3:
                state.apply(loser, f"resign {level}")
                state.apply(winner, "accept")
            elif not self._forfeit(loser, cell.value):
                raise InvalidRecord(
                    "{points} points is no resignation with the cube at {cube}.",
                    points=cell.value,
                    cube=state.stake,
                )
        found_winner, points, _ = state.games[-1]
        if found_winner != winner or cell.value not in (points, gnubg_points(state, points)):
            raise InvalidRecord(
                "The file says {side} wins {points}; the rules give {found} to {other}.",
                side=DEFAULT_NAMES[winner],
                points=cell.value,
                found=points,
                other=DEFAULT_NAMES[found_winner],
            )

    def _forfeit(self, loser: Seat, points: int) -> bool:
        """More points than a resignation gives, exactly those that end the match: the
        loser's time ran out in a rated match (hraj writes it so); applied if so."""
        if not self.state.game.match_length:
            return False
        trial = self.state.copy()
        trial.forfeit(loser)
        if trial.games[-1][1] != points:
            return False
        self.state.apply(loser, FORFEIT)
        return True


def records_from_mat(text: str, **options: object) -> list[Record]:
    """The hraj records of a `.mat` text: one per match, one per game of a money session.

    `options` set game options over the file's (as gnubg's own settings do when it
    imports). Raises FormatError for text that is no `.mat` file and InvalidRecord for
    a match that breaks the rules.
    """
    records: list[Record] = []
    for match in parse_matches(text):
        chosen = {**_options(match), **options}
        if match.length:
            records.append(_match_record(match, _game(chosen)))
        elif "jacoby" in options or match.header("Jacoby") is not None:
            records += _session_records(match, _game(chosen))
        else:
            records += _session_with_jacoby_from_scores(match, chosen)
    return records


def _game(options: dict[str, object]) -> Backgammon:
    try:
        return Backgammon(**options)
    except HrajError as error:
        raise InvalidRecord("The .mat file's settings are not a backgammon game: {why}", why=error) from None


def _match_record(match: MatMatch, game: Backgammon) -> Record:
    importer = _Importer(game)
    for mat_game in match.games:
        if importer.state.is_over:
            break  # gnubg, too, ignores games after the match is won
        importer.play_game(mat_game, check_score=True)
    return _with_names(importer.state.record(), match.games[0].names if match.games else ("", ""))


def _session_records(match: MatMatch, game: Backgammon) -> list[Record]:
    records = []
    for mat_game in match.games:
        importer = _Importer(game)
        importer.play_game(mat_game, check_score=False)
        records.append(_with_names(importer.state.record(), mat_game.names))
    return records


def _with_names(record: Record, names: tuple[str, str]) -> Record:
    """The record with the file's player names (`players`), where the file has both and
    they are not the stand-ins `Player 1` and `Player 2`."""
    if all(names) and names != DEFAULT_NAMES:
        record["players"] = list(names)
    return record


def _session_with_jacoby_from_scores(match: MatMatch, options: dict[str, object]) -> list[Record]:
    """A money session whose file does not say whether the Jacoby rule was on (gnubg's):
    the rule that gives the running score on each next game's line; without it if both do."""
    readings: list[list[Record]] = []
    failure: HrajError | None = None
    for jacoby in (False, True):
        try:
            records = _session_records(match, _game({**options, "jacoby": jacoby}))
        except HrajError as error:
            failure = failure or error
            continue
        totals = [0, 0]
        fits = True
        for mat_game, record in zip(match.games, records, strict=True):
            fits = fits and tuple(totals) == mat_game.scores
            winner, points = _result(record["events"])
            if winner is not None:
                totals[winner] += points
        if fits:
            return records
        readings.append(records)
    if readings:
        return readings[0]
    assert failure is not None
    raise failure


def _result(events: Sequence[Sequence[str | int | None]]) -> tuple[int | None, int]:
    """The winner and points of a one-game record, from its last `wins N` step."""
    for event in reversed(events):
        kind, seat, text = event[0], event[1], event[2]
        if kind == AUTO and isinstance(seat, int) and isinstance(text, str) and text.startswith("wins "):
            return seat, int(text.split()[1])
    return None, 0
