"""The shapes of what the server sends: socket messages and HTTP answers (docs/protocol.md).

Each is a `TypedDict`, so mypy checks every place that builds or reads one; the JSON on
the wire is exactly the dict. What clients send is validated by the pydantic models of
`hraj.server.protocol`; what the processes of one database tell each other, by the
shapes in `hraj.server.cluster`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired

# typing_extensions' TypedDict, which pydantic validates on Python 3.11 too (the processes
# of one database validate chat messages they are told, see hraj.server.cluster).
from typing_extensions import TypedDict

from hraj.core.game import OutcomeJson
from hraj.core.jsondata import GameOptions, OptionSetting

#: The value of an error's parameter as it is sent: a number, a yes/no, text or null.
ErrorParam = str | int | float | bool | None


class SeatJson(TypedDict):
    """One seat as everyone may see it: who sits there, whether a bot plays it, whether
    its player is connected (no token, only whether it is claimed)."""

    seat: int
    kind: str
    name: str | None
    gender: str | None
    bot: str | None
    claimed: bool
    connected: bool
    stand_in: bool
    deleted: bool
    """Its player deleted their account (shown as a deleted player, without a name)."""


class ChatJson(TypedDict):
    """One chat message: its number in the room, the seat and name that wrote it, when (ISO 8601)."""

    number: int
    seat: int
    name: str | None
    text: str
    at: str


# --- socket messages -----------------------------------------------------------------------


class Welcome(TypedDict):
    type: Literal["welcome"]
    protocol: int
    room: str
    game: str
    options: GameOptions
    seat: int | None
    version: int
    head: str
    commitment: str
    dice: int
    absent_after: int
    seats: list[SeatJson]


class StateMessage(TypedDict):
    """What one seat (None: a spectator) may see now; `seed` once the game is over."""

    type: Literal["state"]
    room: str
    version: int
    head: str
    status: str
    view: Mapping[str, object]
    """Exactly the game's `state.view(seat)`."""
    seed: NotRequired[str]


class SeatsMessage(TypedDict):
    type: Literal["seats"]
    room: str
    seats: list[SeatJson]


class ChatMessage(ChatJson):
    type: Literal["chat"]
    room: str


class RematchMessage(TypedDict):
    type: Literal["rematch"]
    room: str
    rematch: str


class Ack(TypedDict):
    """A request with this `id` is committed; `chat` is the number a chat message got."""

    type: Literal["ack"]
    id: str | None
    version: int
    head: str
    chat: NotRequired[int]


class Pong(TypedDict):
    type: Literal["pong"]
    id: str | None
    version: int


class ErrorBody(TypedDict):
    """Every error, over HTTP or a socket: the code, the English message, its template
    (the translation key) and parameters, the translation, the request's id."""

    type: Literal["error"]
    code: str
    message: str
    key: str
    params: dict[str, ErrorParam]
    text: NotRequired[str]
    id: NotRequired[str]


#: Every message a connection sends its client.
ServerMessage = Welcome | StateMessage | SeatsMessage | ChatMessage | RematchMessage | Ack | Pong | ErrorBody


# --- HTTP answers --------------------------------------------------------------------------


class Summary(TypedDict):
    """A room's public facts (`GET /api/rooms/{room}`): the seed and outcome once over."""

    room: str
    game: str
    options: GameOptions
    status: str
    version: int
    head: str
    commitment: str
    dice: int
    absent_after: int
    clock: Mapping[str, object] | None
    """The room's time control (`hraj.clocks.ControlJson`), or None: untimed."""
    hints: bool
    seed: str | None
    seats: list[SeatJson]
    outcome: OutcomeJson | None
    public: bool
    chat: bool
    rematch: str | None
    rematch_votes: Mapping[str, object]
    """Who accepted the rematch offered (`yes`: seats), and who declined it (`declined`)."""
    rematch_passes_first: bool | None
    rated: bool
    """The end moves the players' ratings (every person seat is a signed-in person's)."""
    invited: NotRequired[bool]
    """Asked with `?invite=`: whether that is the room's invite."""


class SeatToken(TypedDict, total=False):
    """The seat its creator took at once, and its token (nothing when none was taken)."""

    seat: int
    token: str


class CreatedRoom(Summary, SeatToken):
    """The answer to `POST /api/rooms`: the summary and the room's secrets, shown once."""

    invite: str
    invite_url: str
    host_token: str
    socket: str


class RematchRoom(Summary):
    """The answer to `POST /api/rooms/{room}/rematch`: the new room's summary."""

    first_passed: bool


class Claimed(TypedDict):
    room: str
    seat: int
    token: str


class RoomSeats(TypedDict):
    room: str
    seats: list[SeatJson]


class Committed(TypedDict):
    """A move is stored: the room's version and chain head after it."""

    room: str
    version: int
    head: str


class ChatLines(TypedDict):
    room: str
    chat: bool
    messages: list[ChatJson]


class ChatPosted(TypedDict):
    room: str
    number: int


class LobbySeat(TypedDict):
    seat: int
    kind: str
    name: str | None
    bot: str | None
    claimed: bool


class LobbyRoom(TypedDict):
    room: str
    game: str
    options: GameOptions
    created_at: str
    host_away_since: str | None
    """Since when the room's host has been away (None: here, or the room names no host)."""
    seats: list[LobbySeat]


class Lobby(TypedDict):
    rooms: list[LobbyRoom]


class OptionInfo(TypedDict):
    default: OptionSetting
    help: str


class GameInfo(TypedDict):
    id: str
    name: str
    options: dict[str, OptionInfo]
    bots: list[str]


class Games(TypedDict):
    games: list[GameInfo]


class Health(TypedDict):
    ok: bool
    protocol: int
    version: str
    store: NotRequired[str]
    """Why the store is not healthy."""


class CommitStats(TypedDict):
    """The committer's counters and the latest moves' timings (`Committer.stats`)."""

    commits: int
    batches: int
    events: int
    commit_seconds: float
    moves_timed: int
    move_p50_ms: float
    move_p99_ms: float


class Stats(CommitStats):
    """Operators' counters (`GET /api/stats`): rooms, sockets, and the committer's."""

    rooms_live: int
    rooms_loaded: int
    connections: int
