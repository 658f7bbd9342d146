"""Chat between the people of a room: what a message may hold, how fast and how many
a seat may send, and its JSON form for clients and other processes."""

from __future__ import annotations

import datetime as dt
import unicodedata

from hraj.server.messages import ChatJson
from hraj.server.protocol import ServerError
from hraj.store import ChatLine

#: Characters of one chat message.
CHAT_MAX_CHARS = 300
#: Chat messages one seat may send within `CHAT_WINDOW_S` seconds.
CHAT_BURST = 5
CHAT_WINDOW_S = 10.0
#: Chat messages a room holds in all; beyond it the chat is closed (bounded storage).
CHAT_LIMIT = 1000
#: Chat messages kept in memory and sent to a newcomer.
CHAT_SHOWN = 100


def chat_json(line: ChatLine) -> ChatJson:
    return {"number": line.number, "seat": line.seat, "name": line.name, "text": line.text, "at": line.at.isoformat()}


def chat_from_json(data: ChatJson) -> ChatLine:
    """The chat message `chat_json` wrote (as another process sends it)."""
    return ChatLine(data["number"], data["seat"], data["name"], data["text"], dt.datetime.fromisoformat(data["at"]))


def clean_chat(text: str) -> str:
    """A chat message as others will see it: one line without control or format characters,
    at most `CHAT_MAX_CHARS` characters; nothing visible left is refused."""
    spaced = "".join(" " if c.isspace() else c for c in text)
    visible = "".join(c for c in spaced if unicodedata.category(c) not in ("Cc", "Cf", "Zl", "Zp"))
    cleaned = " ".join(visible.split())
    if not cleaned:
        raise ServerError("bad_message", "A chat message needs at least one visible character.")
    if len(cleaned) > CHAT_MAX_CHARS:
        raise ServerError("bad_message", "A chat message may have at most {limit} characters.", limit=CHAT_MAX_CHARS)
    return cleaned
