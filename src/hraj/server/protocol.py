"""The JSON protocol: every message a client may send, and the errors the server answers.

Client messages are pydantic models that forbid unknown fields and bound every
string, so a message is either exactly valid or answered with a structured error.
Server messages are plain dicts of the shapes in `hraj.server.messages`;
docs/protocol.md shows each with an example.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from hraj.core.errors import HrajError
from hraj.server.messages import ErrorBody, ErrorParam

PROTOCOL_VERSION = 1

Token = Annotated[str, Field(min_length=8, max_length=128)]
#: An invite as a link carries it: any text (one that is not the room's invite gets the
#: room's own refusal, however short).
InviteText = Annotated[str, Field(max_length=128)]


def clean_name(text: str) -> str:
    """A name as others will see it: without control characters (NUL, escapes, new lines)
    or format characters (bidi overrides, zero-width marks) that could disguise it."""
    cleaned = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf", "Zl", "Zp")).strip()
    if not cleaned:
        raise ValueError(HrajError("a name needs at least one visible character"))
    return cleaned


Name = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(clean_name)]
BotName = Annotated[str, Field(min_length=1, max_length=32)]
ActionText = Annotated[str, Field(min_length=1, max_length=200)]
ClientId = Annotated[str, Field(max_length=64)]
Lang = Literal["cs", "sk", "en"]


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- WebSocket: client to server ---------------------------------------------------------


class Hello(Message):
    """The first message on a socket: who I am (a seat token, or none to watch) and
    the last version I saw (none on a first connection)."""

    type: Literal["hello"]
    token: Token | None = None
    since: Annotated[int, Field(ge=0)] | None = None
    lang: Lang = "en"


class Act(Message):
    """A move of my seat, in the game's notation; its `id` is the move's own (unique for
    the seat in the room): a move sent again with it is answered, never applied twice."""

    type: Literal["act"]
    action: ActionText
    id: ClientId | None = None


class Leave(Message):
    """Let a bot play my seat until I come back."""

    type: Literal["leave"]
    bot: BotName = "random"
    id: ClientId | None = None


class Back(Message):
    """Take my seat back from the bot that played it."""

    type: Literal["back"]
    id: ClientId | None = None


class Ping(Message):
    type: Literal["ping"]
    id: ClientId | None = None


ChatText = Annotated[str, Field(min_length=1, max_length=1200)]
"""A chat message as sent; the server keeps at most 300 visible characters of one line."""


class Chat(Message):
    """A message to everyone in the room (players and spectators); only seats may write."""

    type: Literal["chat"]
    text: ChatText
    id: ClientId | None = None


ClientMessage = Annotated[Hello | Act | Leave | Back | Ping | Chat, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[Hello | Act | Leave | Back | Ping | Chat] = TypeAdapter(ClientMessage)


# --- HTTP request bodies -------------------------------------------------------------------


#: The grammatical gender a person may give with their name, for the log's Czech and
#: Slovak sentences ("Eva zapsala", "Petr zapsal"): masculine or feminine.
Gender = Literal["m", "f"]


class SeatSpec(Message):
    kind: Literal["person", "bot"] = "person"
    bot: BotName | None = None
    name: Name | None = None
    gender: Gender | None = None


class CustomClock(Message):
    """A live clock chosen by hand: seconds a move (1 to a day) and of reserve (at most a day)."""

    per_move: Annotated[float, Field(ge=1, le=86_400)]
    reserve: Annotated[float, Field(ge=0, le=86_400)] = 0


ClockPreset = Annotated[str, Field(min_length=1, max_length=16, pattern=r"^[a-z0-9-]+$")]


class CreateRoom(Message):
    game: Annotated[str, Field(min_length=1, max_length=32)]
    options: dict[str, str | int | bool | None] = Field(default_factory=dict, max_length=16)
    seats: list[SeatSpec] = Field(min_length=1, max_length=8)
    claim: Annotated[int, Field(ge=0, le=7)] | None = None
    """A person seat that the creator takes at once (its token comes back)."""
    absent_after: Annotated[int, Field(ge=0, le=7 * 24 * 3600)] | None = None
    """Seconds a seat that must act may be away before a bot stands in (0: never; the server's default if left out)."""
    hints: bool = False
    """Every seat may ask for hints (the creator's choice, shown to everyone who joins);
    a room with at most one person's seat allows them anyway."""
    public: bool = False
    """Listed in the lobby of open games while a person seat is free; anyone may take it."""
    clock: ClockPreset | CustomClock | None = None
    """A time control: a preset of the game's clock family (`usbgf`, `normal`, `days-3`...)
    or a custom live clock; none: untimed."""
    rated: bool = False
    """The end moves the players' ratings: every person seat goes to a signed-in person."""


class Claim(Message):
    invite: InviteText | None = None
    """The invite; a public room's free seats need none."""
    seat: Annotated[int, Field(ge=0, le=7)] | None = None
    name: Name | None = None
    gender: Gender | None = None


class HandToBot(Message):
    bot: BotName = "random"


class PostAction(Message):
    action: ActionText
    id: ClientId | None = None
    """The move's own id (as `Act.id`): a move sent again with it is applied once."""


class PostChat(Message):
    text: ChatText


# --- errors -------------------------------------------------------------------------------

#: Every error code, with the HTTP status it carries over HTTP.
ERROR_STATUS: dict[str, int] = {
    "bad_message": 400,
    "too_large": 413,
    "rate_limited": 429,
    "hello_required": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "not_over": 409,
    "seat_taken": 409,
    "name_taken": 409,
    "invalid_action": 422,
    "illegal_action": 409,
    "invalid_option": 422,
    "unavailable": 503,
    "internal": 500,
}


class ServerError(Exception):
    """An error answered to a client: a code, an English template (its i18n key) and params."""

    def __init__(self, code: str, template: str, /, **params: object) -> None:
        assert code in ERROR_STATUS, code
        self.code = code
        self.key = template
        self.params = params
        #: Seconds the client should wait before trying again (sent as Retry-After), if known.
        self.retry_after: int | None = None
        super().__init__(template.format(**params) if params else template)

    @property
    def status(self) -> int:
        return ERROR_STATUS[self.code]

    @classmethod
    def from_hraj(cls, error: HrajError) -> ServerError:
        code = {
            "InvalidAction": "invalid_action",
            "IllegalAction": "illegal_action",
            "InvalidOption": "invalid_option",
        }.get(type(error).__name__, "bad_message")
        return cls(code, error.key, **error.params)

    @classmethod
    def from_validation(cls, error: ValidationError) -> ServerError:
        return cls.from_problems(error.errors(include_url=False, include_input=False), skip=())

    @classmethod
    def from_problems(cls, problems: Sequence[Mapping[str, Any]], skip: Sequence[str] = ("body",)) -> ServerError:
        """A message that Pydantic refused, its first problem said in the catalogs' words
        (Pydantic's own English never reaches a Czech page)."""
        first = problems[0] if problems else {}
        where = ".".join(str(part) for part in first.get("loc", ()) if part not in skip) or "message"
        return cls("bad_message", "The message is not valid at {where}: {why}.", where=where, why=problem_reason(first))


def _(text: str) -> str:
    """Marks a reason for the catalogs; it is translated where it is shown."""
    return text


#: Pydantic's kinds of problem, as reasons of the catalogs (with the limits they name).
PROBLEMS: dict[str, str] = {
    "missing": _("it is missing"),
    "extra_forbidden": _("there is no such field"),
    "string_type": _("it must be text"),
    "string_too_short": _("it needs at least {min_length} characters"),
    "string_too_long": _("it takes at most {max_length} characters"),
    "int_type": _("it must be a whole number"),
    "int_parsing": _("it must be a whole number"),
    "int_from_float": _("it must be a whole number"),
    "bool_type": _("it must be true or false"),
    "bool_parsing": _("it must be true or false"),
    "greater_than_equal": _("it must be at least {ge}"),
    "less_than_equal": _("it must be at most {le}"),
    "literal_error": _("it must be one of {expected}"),
    "model_type": _("it must be an object"),
    "dict_type": _("it must be an object"),
    "json_invalid": _("it is not valid JSON"),
}


def problem_reason(problem: Mapping[str, Any]) -> HrajError:
    """Why Pydantic refused a value, as an error the catalogs translate: a check of hraj's
    own that gave its reason (a HrajError) keeps it."""
    context = problem.get("ctx") or {}
    cause = context.get("error")
    if isinstance(cause, ValueError) and cause.args and isinstance(cause.args[0], HrajError):
        return cause.args[0]
    template = PROBLEMS.get(str(problem.get("type")), _("it is not in the expected form"))
    fields = {name: value for name, value in context.items() if "{" + name + "}" in template}
    return HrajError(template, **fields)


def translate(error: ServerError, lang: str) -> str:
    """The error's reason in `lang` when a translation exists, else in English (a reason
    inside it, such as why a message was refused, is translated too)."""
    try:
        from hraj.i18n import error_text, t
    except ImportError:
        return str(error)
    try:
        params = {
            name: error_text(value, lang) if isinstance(value, HrajError) else value
            for name, value in error.params.items()
        }
        return str(t(error.key, lang, **params))
    except Exception:  # a missing or broken translation never hides the error itself
        return str(error)


def error_params(error: ServerError) -> dict[str, ErrorParam]:
    """The error's parameters as JSON carries them: numbers, yes/no and null as they are,
    anything else as its text."""
    return {
        name: value if isinstance(value, (int, float, bool, str)) or value is None else str(value)
        for name, value in error.params.items()
    }


def error_body(error: ServerError, lang: str = "en", message_id: str | None = None) -> ErrorBody:
    body: ErrorBody = {
        "type": "error",
        "code": error.code,
        "message": str(error),
        "key": error.key,
        "params": error_params(error),
    }
    if lang != "en":
        body["text"] = translate(error, lang)
    if message_id is not None:
        body["id"] = message_id
    return body
