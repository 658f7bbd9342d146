"""Server settings: from command-line flags, then `HRAJ_*` environment variables, then defaults.

| setting            | flag           | environment              | default                              |
|--------------------|----------------|--------------------------|--------------------------------------|
| host               | --host         | HRAJ_HOST                | 127.0.0.1                            |
| port               | --port         | HRAJ_PORT                | 8000 (0 picks a free port)           |
| database URL       | --database     | HRAJ_DATABASE_URL        | sqlite file in the user's data dir   |
| secret             | --secret       | HRAJ_SECRET              | made once and kept beside the SQLite file |
| message size limit |                | HRAJ_MAX_MESSAGE_BYTES   | 8192                                 |
| WebSocket rate     |                | HRAJ_WS_RATE / _BURST    | 20 messages/s, bursts of 40          |
| HTTP rate per IP   |                | HRAJ_HTTP_RATE / _BURST  | 50 requests/s, bursts of 200         |
| SQLite sync        |                | HRAJ_SQLITE_SYNCHRONOUS  | FULL (NORMAL: safe from a process crash only) |
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import ArgumentError

from hraj.core.errors import HrajError

MIN_SECRET_LENGTH = 16


class SettingsError(HrajError):
    """A setting that cannot be used; the message says which and why (a translatable template)."""


@dataclass(frozen=True, slots=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str = ""
    secret: str = ""
    max_message_bytes: int = 8192
    ws_rate: float = 20.0
    ws_burst: int = 40
    http_rate: float = 50.0
    http_burst: int = 200
    sqlite_synchronous: str = "FULL"

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"


def default_data_dir(env: Mapping[str, str]) -> Path:
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "hraj"


def database_url_from(value: str) -> str:
    """A database URL from a URL or a plain file path (taken as SQLite)."""
    if "://" in value:
        try:
            url = sa.make_url(value)
        except ArgumentError:
            raise SettingsError("database: {value} is not a valid URL", value=repr(value)) from None
        if url.get_backend_name() not in ("sqlite", "postgresql"):
            raise SettingsError(
                "database: use sqlite:///PATH or postgresql://..., not {driver}://", driver=url.drivername
            )
        return value
    return f"sqlite:///{Path(value).expanduser().resolve()}"


def _int(name: str, value: Any, low: int, high: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise SettingsError("{name}: expected a whole number, got {value}", name=name, value=repr(value)) from None
    if not low <= number <= high:
        raise SettingsError(
            "{name}: expected a number from {low} to {high}, got {number}", name=name, low=low, high=high, number=number
        )
    return number


def _rate(name: str, value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise SettingsError("{name}: expected a number, got {value}", name=name, value=repr(value)) from None
    if not number > 0:
        raise SettingsError("{name}: must be more than 0, got {value}", name=name, value=repr(value))
    return number


def _secret_beside(database_url: str) -> str:
    """The secret kept in a file next to a SQLite database, made on first start."""
    database = sa.make_url(database_url).database
    if not database or database == ":memory:":
        return secrets.token_urlsafe(32)
    path = Path(database).expanduser().resolve().parent / "hraj-secret"
    try:
        if path.exists():
            return path.read_text(encoding="ascii").strip()
        path.parent.mkdir(parents=True, exist_ok=True)
        secret = secrets.token_urlsafe(32)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as file:
            file.write(secret + "\n")
        return secret
    except OSError as error:
        raise SettingsError("secret: cannot read or create {path}: {why}", path=str(path), why=error.strerror) from None


def load_settings(
    env: Mapping[str, str] | None = None,
    *,
    host: str | None = None,
    port: int | None = None,
    database: str | None = None,
    secret: str | None = None,
) -> Settings:
    """Settings from flags (the keyword arguments), the environment and defaults."""
    env = os.environ if env is None else env
    host = (host or env.get("HRAJ_HOST") or "127.0.0.1").strip()
    if not host or any(c.isspace() for c in host):
        raise SettingsError("host: {host} is not a host name or address", host=repr(host))
    port_number = _int("port", port if port is not None else env.get("HRAJ_PORT", 8000), 0, 65535)
    database = database or env.get("HRAJ_DATABASE_URL")
    if not database:
        database = str(default_data_dir(env) / "hraj.db")
    database_url = database_url_from(database)
    secret = secret or env.get("HRAJ_SECRET") or ""
    if not secret:
        if sa.make_url(database_url).get_backend_name() != "sqlite":
            raise SettingsError("secret: set --secret or HRAJ_SECRET when the database is PostgreSQL")
        secret = _secret_beside(database_url)
    if len(secret) < MIN_SECRET_LENGTH:
        raise SettingsError("secret: must be at least {length} characters long", length=MIN_SECRET_LENGTH)
    return Settings(
        host=host,
        port=port_number,
        database_url=database_url,
        secret=secret,
        max_message_bytes=_int("HRAJ_MAX_MESSAGE_BYTES", env.get("HRAJ_MAX_MESSAGE_BYTES", 8192), 256, 1 << 20),
        ws_rate=_rate("HRAJ_WS_RATE", env.get("HRAJ_WS_RATE", 20)),
        ws_burst=_int("HRAJ_WS_BURST", env.get("HRAJ_WS_BURST", 40), 1, 1_000_000),
        http_rate=_rate("HRAJ_HTTP_RATE", env.get("HRAJ_HTTP_RATE", 50)),
        http_burst=_int("HRAJ_HTTP_BURST", env.get("HRAJ_HTTP_BURST", 200), 1, 1_000_000),
        sqlite_synchronous=_synchronous(env.get("HRAJ_SQLITE_SYNCHRONOUS", "FULL")),
    )


def _synchronous(value: str) -> str:
    mode = value.strip().upper()
    if mode not in ("FULL", "NORMAL"):
        raise SettingsError("HRAJ_SQLITE_SYNCHRONOUS: expected FULL or NORMAL, got {value}", value=repr(value))
    return mode
