"""A bound on the decisions of a Trefa game, for the tests that let bots play one out.

Every turn fills or crosses out at least one of a seat's 30 fields and takes at most two
decisions (the first throw, then the reroll), so a game of `players` seats takes at most
2 x 30 x `players` decisions. Passed to `play_game`, it makes a rule change that lets a
turn go on (a second reroll) fail at once instead of hanging.
"""

from hraj.games.trefa.sheets import FIELDS, ROWS


def most_moves(players: int) -> int:
    """The most decisions a Trefa game of `players` seats can take."""
    return 2 * ROWS * FIELDS * players
