"""Game states to and from position strings: gnubg's Position ID + Match ID, and XGID.

Seats map one to one: hraj's seat 0 is gnubg's player 0 and XG's top player
(lower-case letters), seat 1 is gnubg's player 1 and XG's bottom player (upper-case),
as gnubg reads an XGID.

A position has no history, so a state made from one has a record that starts there:
it can be played on and looked at, not replayed from the opening.
"""

from __future__ import annotations

from collections.abc import Iterable

from hraj.core.errors import HrajError
from hraj.games.backgammon.formats.errors import FormatError
from hraj.games.backgammon.formats.match_id import GameState, MatchKey, Resignation, decode_match_id, encode_match_id
from hraj.games.backgammon.formats.position_id import TanBoard, decode_position_id, encode_position_id
from hraj.games.backgammon.formats.xgid import BOTTOM, TOP, Xgid, decode_xgid, encode_xgid
from hraj.games.backgammon.rules import Backgammon, BackgammonState

#: XG's default largest cube (2^10); written unless the cube is already higher.
XG_MAX_LOG_CUBE = 10


def _row(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(int(value) for value in values)


# --- gnubg ------------------------------------------------------------------------------


def gnubg_ids(state: BackgammonState) -> tuple[str, str]:
    """(Position ID, Match ID) of a state, as gnubg would show them."""
    on_roll_seat = state.on_roll
    deciding = state.to_act[0] if state.to_act else on_roll_seat
    resignation = Resignation(state.resignation)
    crawford = state.is_crawford
    if state.is_over:
        # As gnubg keeps a finished game: the player who made the last decision (who
        # dropped, or accepted the resignation, whose level stays) is still to decide;
        # after the last checker is off, the turn has passed to the loser; the Crawford
        # flag tells whether a next game would be the Crawford game.
        winner, _, how = state.games[-1]
        game_state = {"drop": GameState.DROPPED, "resign": GameState.RESIGNED}.get(how, GameState.OVER)
        if how == "drop":
            deciding = 1 - winner
        elif how == "resign":
            deciding, resignation = winner, Resignation(state.resign_level)
        else:
            on_roll_seat = deciding = 1 - winner
        length = state.match_length
        at_point = [score == length - 1 for score in state.match_score]
        crawford = bool(length) and not state.crawford_done and at_point[0] != at_point[1]
    else:
        game_state = GameState.PLAYING
    board = TanBoard(_row(state.boards[1 - on_roll_seat][1:]), _row(state.boards[on_roll_seat][1:]))
    cube_value, cube_owner = state.cube_value, state.cube_owner
    if state.offers > 1 and not state.is_over:
        # gnubg's beaver is a take and a redouble: the cube shows the taken value, owned
        # by the beaverer (the player not on roll), and the next offer is pending.
        cube_value, cube_owner = state.stake, 1 - state.on_roll
    options = state.game.options
    key = MatchKey(
        cube_value=cube_value,
        cube_owner=cube_owner,
        on_roll=on_roll_seat,
        crawford=crawford,
        game_state=game_state,
        turn=deciding,
        double_offered=state.double_offered,
        resignation=resignation,
        dice=state.dice or (0, 0),
        match_length=state.match_length,
        scores=state.match_score,
        jacoby=bool(options["jacoby"]) and not state.match_length,
    )
    return encode_position_id(board), encode_match_id(key)


def state_from_gnubg(position_id: str, match_id: str, **options: object) -> BackgammonState:
    """The state of a Position ID and Match ID; `options` add game options (e.g. jacoby).

    Raises FormatError for IDs that do not parse or describe no game in progress.
    """
    board = decode_position_id(position_id)
    key = decode_match_id(match_id)
    if key.game_state not in (GameState.NONE, GameState.PLAYING):
        raise FormatError("The Match ID {text} describes a finished game.", text=match_id.strip())
    if key.double_offered and key.dice != (0, 0):
        raise FormatError("A double is offered before the roll.")
    resigned = key.resignation is not Resignation.NONE
    if not (key.double_offered or resigned) and key.turn != key.on_roll:
        raise FormatError("In the Match ID {text}, the player to decide does not fit the offer.", text=match_id.strip())
    offers = _offers(key) if key.double_offered else 0
    cube, owner = key.cube_value, key.cube_owner
    if offers > 1:
        # gnubg shows a beavered cube taken and owned by the beaverer (see gnubg_ids)
        if cube < 1 << (offers - 1) or owner != 1 - key.on_roll:
            raise FormatError("In the Match ID {text}, the cube does not fit a beaver.", text=match_id.strip())
        cube >>= offers - 1
        owner = None if cube == 1 else key.on_roll
        if not key.match_length:
            options = {"beavers": True, **options}
    if not key.match_length:
        options = {"jacoby": key.jacoby, **options}
    game = _game(key.match_length, options)
    try:
        state = BackgammonState.from_position(
            game,
            (board.not_on_roll, board.on_roll),
            turn=key.on_roll,
            dice=key.dice if key.dice != (0, 0) else None,
            cube=cube,
            cube_owner=owner,
            score=key.scores,
            crawford=key.crawford,
        )
        for number in range(offers):
            state.apply(key.on_roll if number % 2 == 0 else 1 - key.on_roll, "double" if number == 0 else "beaver")
        if resigned:
            resigner = 1 - key.turn
            state.apply(resigner, f"resign {int(key.resignation)}")
    except HrajError as error:
        raise FormatError("This position cannot be played: {why}", why=error) from None
    return state


def _offers(key: MatchKey) -> int:
    """How many doubles are pending in a Match ID with a double offered: 1 a double,
    2 a beaver (the doubler answers), 3 a raccoon (the beaverer answers again)."""
    answering = key.turn if key.resignation is Resignation.NONE else 1 - key.turn
    if answering == key.on_roll:
        return 2
    return 3 if key.cube_owner == 1 - key.on_roll and key.cube_value >= 4 else 1


# --- XGID --------------------------------------------------------------------------------


def _xg_player(seat: int) -> int:
    """XG's bottom player is gnubg's player 1 (hraj's seat 1), as gnubg reads an XGID."""
    return BOTTOM if seat == 1 else TOP


def xgid(state: BackgammonState) -> str:
    """The XGID of a state (a pending resignation is not part of an XGID)."""
    not_on_roll, on_roll = state.board_arrays()
    rows = {state.on_roll: _row(on_roll), 1 - state.on_roll: _row(not_on_roll)}
    options = state.game.options
    if state.match_length:
        rules = int(state.is_crawford)
    else:
        rules = int(bool(options["jacoby"])) + 2 * int(bool(options["beavers"]))
    # XG's dice field while a cube answer is due: D doubled, B beavered, R raccoon.
    action = {0: "", 1: "D", 2: "B", 3: "R"}.get(state.offers)
    if action is None:
        raise FormatError("An XGID holds at most a double, a beaver and a raccoon pending.")
    # Field 4 is the player on roll, who doubled when a cube answer is due (XG and
    # gnubg agree); a pending resignation has no place in an XGID.
    owner = state.cube_owner
    log_cube = state.cube_value.bit_length() - 1
    value = Xgid(
        bottom=rows[1],
        top=rows[0],
        cube_value=state.cube_value,
        cube_owner=0 if owner is None else _xg_player(owner),
        turn=_xg_player(state.on_roll),
        dice=state.dice or (0, 0),
        cube_action=action,
        scores=(state.match_score[1], state.match_score[0]),
        rules=rules,
        match_length=state.match_length,
        max_cube=1 << max(XG_MAX_LOG_CUBE, log_cube),
    )
    return encode_xgid(value)


def state_from_xgid(text: str, **options: object) -> BackgammonState:
    """The state of an XGID; raises FormatError for one that does not parse or cannot be played."""
    value = decode_xgid(text)
    seat_of = {BOTTOM: 1, TOP: 0}
    on_roll = seat_of[value.turn]  # the player on roll, who doubled if a cube answer is due
    offers = "DBR".find(value.cube_action) + 1 if value.cube_action else 0
    if value.money:
        options = {"jacoby": value.jacoby, "beavers": value.beavers or offers > 1, **options}
    game = _game(value.match_length, options)
    rows = (value.top, value.bottom)
    owner = {0: None, BOTTOM: 1, TOP: 0}[value.cube_owner]
    try:
        state = BackgammonState.from_position(
            game,
            (rows[1 - on_roll], rows[on_roll]),
            turn=on_roll,
            dice=value.dice if value.dice != (0, 0) else None,
            cube=value.cube_value,
            cube_owner=owner,
            score=(value.scores[1], value.scores[0]),
            crawford=value.crawford,
        )
        for number in range(offers):
            state.apply(on_roll if number % 2 == 0 else 1 - on_roll, "double" if number == 0 else "beaver")
    except HrajError as error:
        raise FormatError("This position cannot be played: {why}", why=error) from None
    return state


def _game(match_length: int, options: dict[str, object]) -> Backgammon:
    try:
        return Backgammon(match_length=match_length, **options)
    except HrajError as error:
        raise FormatError("These game options do not fit the position: {why}", why=error) from None
