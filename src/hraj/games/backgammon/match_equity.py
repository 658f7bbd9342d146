"""Match equities: the chance of winning a match from a score, by a published table.

The table is Neil Kazaross's Kazaross-XG2 match equity table for matches up to 25
points (© 2011 Neil Kazaross; XG rollouts to 9 points, gnubg rollouts to 15, extended
to 25 by projected take points), shipped as `match_equity.json` with its notice, as
transcribed in GNU Backgammon's data files; `match_equity_build` writes the JSON from
that XML. Scores are written as points *away* (still needed to win).

- `pre_crawford[a - 1][b - 1]`: the chance that the player `a` away wins against one
  `b` away before the Crawford game; a row or column of 1 away is the Crawford game
  itself.
- `post_crawford[b - 1]`: the trailer's chance, `b` away against a leader 1 away, once
  the Crawford game has been played.

Longer matches than the table's are read from a normal approximation fitted to the
table's far corner (`_beyond_table`): at such lengths a few points of score matter
little and the approximation is within a few tenths of a percent there.

Match equity is reported as gnubg does: MWC (match winning chance, 0..1) and EMG,
the equivalent in money-game units of the cube in play (`emg`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

DATA_FILE = "match_equity.json"
#: The spread of the normal approximation beyond the table: z = (b - a) / (k sqrt(a + b)).
BEYOND_SPREAD = 1.8


@dataclass(frozen=True)
class MatchEquityTable:
    """A match equity table and where it comes from."""

    name: str
    source: str
    notice: str
    pre_crawford: tuple[tuple[float, ...], ...]
    post_crawford: tuple[float, ...]

    @property
    def length(self) -> int:
        return len(self.pre_crawford)

    def equity(self, away: int, opponent_away: int, *, post_crawford: bool) -> float:
        """The chance that the player `away` points from winning wins the match.

        `post_crawford`: the Crawford game has been played (or is being played), so a
        score of 1 away is post-Crawford; otherwise a player reaching 1 away plays the
        Crawford game next. Zero or fewer points away has won."""
        if away <= 0:
            return 1.0
        if opponent_away <= 0:
            return 0.0
        if away == 1 and opponent_away == 1:
            return 0.5
        if post_crawford and away == 1:
            return 1.0 - self._post(opponent_away)
        if post_crawford and opponent_away == 1:
            return self._post(away)
        if away > self.length or opponent_away > self.length:
            return _beyond_table(away, opponent_away)
        return self.pre_crawford[away - 1][opponent_away - 1]

    def _post(self, trailer_away: int) -> float:
        if trailer_away > self.length:
            # each two points further the trailer's chance falls by about the last ratio
            last, before = self.post_crawford[-1], self.post_crawford[-3]
            return float(last * (last / before) ** ((trailer_away - self.length) / 2))
        return self.post_crawford[trailer_away - 1]


def _beyond_table(away: int, opponent_away: int) -> float:
    z = (opponent_away - away) / (BEYOND_SPREAD * math.sqrt(away + opponent_away))
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


@cache
def table() -> MatchEquityTable:
    """The shipped table (Kazaross-XG2), loaded once."""
    text = resources.files("hraj.games.backgammon").joinpath(DATA_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    return MatchEquityTable(
        name=data["name"],
        source=data["source"],
        notice=data["notice"],
        pre_crawford=tuple(tuple(row) for row in data["pre_crawford"]),
        post_crawford=tuple(data["post_crawford"]),
    )


@dataclass(frozen=True)
class MatchScore:
    """A match seen from one player: points each side still needs, and Crawford."""

    away: int
    opponent_away: int
    #: This game is the Crawford game (no doubling).
    crawford: bool = False
    #: The Crawford game has been played or is being played: later 1-away scores are post-Crawford.
    crawford_done: bool = False

    def flipped(self) -> MatchScore:
        """The same score from the opponent's side."""
        return MatchScore(self.opponent_away, self.away, self.crawford, self.crawford_done)

    def after(self, points: int) -> float:
        """My match winning chance once this game ends: `points` > 0 won by me, < 0 lost."""
        post = self.crawford_done or self.crawford
        if points >= 0:
            return table().equity(self.away - points, self.opponent_away, post_crawford=post)
        return table().equity(self.away, self.opponent_away + points, post_crawford=post)

    def now(self) -> float:
        """My match winning chance before this game, by the table."""
        return table().equity(self.away, self.opponent_away, post_crawford=self.crawford_done)

    def cube_is_dead_for(self, doubler_away: int, cube: int) -> bool:
        """A player who wins the match by winning `cube` points may not double (hraj, as gnubg)."""
        return doubler_away <= cube


def emg(mwc: float, score: MatchScore, cube: int) -> float:
    """Match winning chance as gnubg's EMG: -1 is losing a single game at `cube`, +1 winning one."""
    win, lose = score.after(cube), score.after(-cube)
    if win == lose:
        return 0.0
    return (2.0 * mwc - (win + lose)) / (win - lose)
