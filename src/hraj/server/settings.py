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
| rooms per address  |                | HRAJ_ROOM_RATE / _BURST  | 10 rooms a minute, bursts of 20      |
| socket upgrades    |                | HRAJ_WS_CONNECT_RATE / _BURST | 5 a second per address, bursts of 30 |
| open sockets       |                | HRAJ_WS_PER_ADDRESS      | 100 per address                      |
| rooms of bots only |                | HRAJ_BOT_ROOMS           | allow (refuse: none; endless: any match length) |
| bot rooms at once  |                | HRAJ_BOT_ROOM_BUDGET     | 20 rooms where no person plays run at once |
| spectators         |                | HRAJ_SPECTATORS          | 500 per room and process                 |
| pace of bot rooms  |                | HRAJ_BOT_PACE            | 1 s a move where no person plays     |
| moves shown in turn |               | HRAJ_STEP_PAUSE          | 0.55 s per move the browser steps through (0: none) |
| absent players     |                | HRAJ_ABSENT_AFTER        | 120 s (a room may choose; 0: never)  |
| stand-in bot       |                | HRAJ_STAND_IN_BOT        | the game's default level            |
| archive idle rooms |                | HRAJ_ARCHIVE_AFTER       | 14 days without a move               |
| trusted proxies    |                | HRAJ_TRUSTED_PROXIES     | none (X-Forwarded-For is ignored)    |
| operator endpoints |                | HRAJ_OPERATOR_ENDPOINTS  | off (on: /api/stats, /metrics, /openapi.json) |
| shutdown grace     |                | HRAJ_SHUTDOWN_GRACE      | 3 s for open requests and sockets    |
| log format         |                | HRAJ_LOG_FORMAT          | text (json: one object per line)     |
| lease of rooms     |                | HRAJ_LEASE               | 5 s (PostgreSQL: rooms of a dead process move on) |
| access log         |                | HRAJ_ACCESS_LOG          | off (on: one line per request)       |
| Web Push key       |                | HRAJ_VAPID_KEY           | kept beside the SQLite file (PostgreSQL: none) |
| Web Push contact   |                | HRAJ_PUSH_CONTACT        | mailto:hraj@localhost                |
| local push services |               | HRAJ_PUSH_LOCAL          | refuse (allow: http, private hosts) |
| clock scale        |                | HRAJ_CLOCK_SCALE         | 1 (tests: 0.05 makes presets 20x shorter) |
| new accounts       |                | HRAJ_SIGN_UP_RATE / _BURST | 10 an hour per address, bursts of 10 |
| password hashing   |                | HRAJ_HASH_WORKERS / _WAITING | 1 process at low priority, 8 waiting |
| provisional rating |                | HRAJ_PROVISIONAL_DEVIATION | 170 points of deviation (OpenSkill games) |
| provisional FIBS   |                | HRAJ_PROVISIONAL_EXPERIENCE | 20 match points played (FIBS formula) |
"""

from __future__ import annotations

import base64
import binascii
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
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
    room_rate: float = 10.0
    """Rooms a client address may create per minute (on average)."""
    room_burst: int = 20
    ws_connect_rate: float = 5.0
    """WebSocket upgrades a client address may make per second (on average)."""
    ws_connect_burst: int = 30
    ws_per_address: int = 100
    """Sockets one client address may hold open at once."""
    bot_rooms: bool = True
    """Whether rooms whose every seat is a bot may be created."""
    bot_rooms_endless: bool = False
    """Whether a room of bots only may choose an option beyond its game's `bots_alone_max`."""
    bot_room_budget: int = 20
    """Rooms where no person plays that run their bots at once in this process."""
    spectators: int = 500
    """Spectator sockets one room holds at once in this process."""
    bot_pace: float = 1.0
    """Seconds between bot moves in a room where no person plays."""
    step_pause: float = 0.55
    """Seconds a browser shows each of several moves made in a row (bots') before the next."""
    absent_after: int = 120
    """Seconds a seat that must act may be away before a bot stands in (a room may choose)."""
    stand_in_bot: str = ""
    archive_after: int = 14 * 24 * 3600
    """Seconds without a move after which a room in play is archived."""
    trusted_proxies: str = ""
    """Addresses whose X-Forwarded-For/-Proto are believed (uvicorn's forwarded_allow_ips)."""
    operator_endpoints: bool = False
    """Whether /api/stats, /metrics and /openapi.json are served."""
    shutdown_grace: float = 3.0
    log_format: str = "text"
    access_log: bool = False
    sign_up_rate: float = 10.0
    """New accounts an address may make per hour (on average)."""
    sign_up_burst: int = 10
    sign_in_rate: float = 80.0
    """Failed sign-ins an address may make per hour (on average) once its burst is spent."""
    sign_in_burst: int = 20
    hash_workers: int = 1
    """Processes that hash passwords (each one hash at a time, at a lower priority than the server)."""
    hash_waiting: int = 8
    """Password checks that may wait for a hashing process; more are answered "busy"."""
    provisional_deviation: float = 170.0
    """An OpenSkill rating is provisional ("?") while its deviation (display points) is above this."""
    provisional_experience: int = 20
    """A FIBS rating is provisional while its player has played fewer match points than this."""
    lease: float = 5.0
    """Seconds a process's rooms stay its own after it last renewed its lease (PostgreSQL,
    several processes): a process that dies has its rooms taken over this long after."""
    vapid_key: str = ""
    """The server's Web Push (VAPID) private key, PEM; empty: no push."""
    push_contact: str = "mailto:hraj@localhost"
    """Whom push services may contact about this server (the VAPID `sub` claim)."""
    push_local: bool = False
    """Whether push messages may go to http and private addresses (a test's receiver)."""
    clock_scale: float = 1.0
    """Every clock preset's times are multiplied by this (short clocks for tests)."""

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


def _int(name: str, value: str | int, low: int, high: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise SettingsError("{name}: expected a whole number, got {value}", name=name, value=repr(value)) from None
    if not low <= number <= high:
        raise SettingsError(
            "{name}: expected a number from {low} to {high}, got {number}", name=name, low=low, high=high, number=number
        )
    return number


def _rate(name: str, value: str | float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise SettingsError("{name}: expected a number, got {value}", name=name, value=repr(value)) from None
    if not number > 0:
        raise SettingsError("{name}: must be more than 0, got {value}", name=name, value=repr(value))
    return number


#: The file beside a SQLite database that keeps the server secret when none is given.
SECRET_FILE = "hraj-secret"


def secret_file(database_url: str) -> Path | None:
    """Where the secret of a SQLite database is kept (None: a database in memory)."""
    database = sa.make_url(database_url).database
    if not database or database == ":memory:":
        return None
    return Path(database).expanduser().resolve().parent / SECRET_FILE


def _secret_beside(database_url: str) -> str:
    """The secret kept in a file next to a SQLite database, made on first start."""
    path = secret_file(database_url)
    if path is None:
        return secrets.token_urlsafe(32)
    return _kept(path, lambda: secrets.token_urlsafe(32) + "\n", "secret: cannot read or create {path}: {why}").strip()


VAPID_FILE = "hraj-vapid.pem"


def _vapid_beside(database_url: str) -> str:
    """The Web Push key kept in a file next to a SQLite database, made on first start
    (PEM, readable by its owner only, like the secret); none for PostgreSQL."""
    url = sa.make_url(database_url)
    if url.get_backend_name() != "sqlite":
        return ""
    if not url.database or url.database == ":memory:":
        return new_vapid_key()
    path = Path(url.database).expanduser().resolve().parent / VAPID_FILE
    return _kept(path, new_vapid_key, "Web Push key: cannot read or create {path}: {why}")


def _kept(path: Path, make: Callable[[], str], failure: str) -> str:
    """The text of the file at `path` beside the database, written by `make` on the first
    start and readable by its owner only. A folder that cannot be made is told as the
    database would tell it (it is the database's folder); `failure` tells any other error."""
    try:
        if path.exists():
            return path.read_text(encoding="ascii")
    except OSError as error:
        raise SettingsError(failure, path=str(path), why=error.strerror) from None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SettingsError(
            "Cannot create the folder {folder} for the database: {why}.", folder=str(path.parent), why=error.strerror
        ) from None
    text = make()
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as file:
            file.write(text)
    except FileExistsError:  # another process starting beside this one made it first
        return _kept(path, make, failure)
    except OSError as error:
        raise SettingsError(failure, path=str(path), why=error.strerror) from None
    return text


def new_vapid_key() -> str:
    """A new P-256 private key for Web Push (VAPID, RFC 8292), as PEM."""
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    return pem.decode("ascii")


def _vapid_key(value: str) -> str:
    """A VAPID key given as a setting: PEM, or the base64url raw key that web-push tools print."""
    text = value.strip()
    try:
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_private_key(text.encode(), password=None)
        else:
            raw = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
            if len(raw) != 32:
                raise ValueError("a raw P-256 key has 32 bytes")
            key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    except (ValueError, TypeError, binascii.Error):
        raise SettingsError("HRAJ_VAPID_KEY: not a P-256 private key (PEM or base64url)") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
        raise SettingsError("HRAJ_VAPID_KEY: not a P-256 private key (PEM or base64url)")
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    return pem.decode("ascii")


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
        room_rate=_rate("HRAJ_ROOM_RATE", env.get("HRAJ_ROOM_RATE", 10)),
        room_burst=_int("HRAJ_ROOM_BURST", env.get("HRAJ_ROOM_BURST", 20), 1, 1_000_000),
        ws_connect_rate=_rate("HRAJ_WS_CONNECT_RATE", env.get("HRAJ_WS_CONNECT_RATE", 5)),
        ws_connect_burst=_int("HRAJ_WS_CONNECT_BURST", env.get("HRAJ_WS_CONNECT_BURST", 30), 1, 1_000_000),
        ws_per_address=_int("HRAJ_WS_PER_ADDRESS", env.get("HRAJ_WS_PER_ADDRESS", 100), 1, 1_000_000),
        bot_rooms=_choice(
            "HRAJ_BOT_ROOMS", env.get("HRAJ_BOT_ROOMS", "allow"), {"allow": True, "endless": True, "refuse": False}
        ),
        bot_rooms_endless=env.get("HRAJ_BOT_ROOMS", "allow").strip().lower() == "endless",
        bot_room_budget=_int("HRAJ_BOT_ROOM_BUDGET", env.get("HRAJ_BOT_ROOM_BUDGET", 20), 0, 1_000_000),
        spectators=_int("HRAJ_SPECTATORS", env.get("HRAJ_SPECTATORS", 500), 0, 1_000_000),
        bot_pace=_seconds("HRAJ_BOT_PACE", env.get("HRAJ_BOT_PACE", 1), 0.0, 3600.0),
        step_pause=_seconds("HRAJ_STEP_PAUSE", env.get("HRAJ_STEP_PAUSE", 0.55), 0.0, 5.0),
        absent_after=_int("HRAJ_ABSENT_AFTER", env.get("HRAJ_ABSENT_AFTER", 120), 0, 7 * 24 * 3600),
        stand_in_bot=(env.get("HRAJ_STAND_IN_BOT") or "").strip().lower(),
        archive_after=_int("HRAJ_ARCHIVE_AFTER", env.get("HRAJ_ARCHIVE_AFTER", 14 * 24 * 3600), 60, 10 * 365 * 86400),
        trusted_proxies=(env.get("HRAJ_TRUSTED_PROXIES") or "").strip(),
        operator_endpoints=_choice(
            "HRAJ_OPERATOR_ENDPOINTS", env.get("HRAJ_OPERATOR_ENDPOINTS", "off"), {"on": True, "off": False}
        ),
        shutdown_grace=_seconds("HRAJ_SHUTDOWN_GRACE", env.get("HRAJ_SHUTDOWN_GRACE", 3), 0.0, 600.0),
        log_format="json"
        if _choice("HRAJ_LOG_FORMAT", env.get("HRAJ_LOG_FORMAT", "text"), {"text": False, "json": True})
        else "text",
        access_log=_choice("HRAJ_ACCESS_LOG", env.get("HRAJ_ACCESS_LOG", "off"), {"on": True, "off": False}),
        lease=_seconds("HRAJ_LEASE", env.get("HRAJ_LEASE", 5), 1.0, 300.0),
        vapid_key=_vapid_key(env["HRAJ_VAPID_KEY"]) if env.get("HRAJ_VAPID_KEY") else _vapid_beside(database_url),
        push_contact=_contact(env.get("HRAJ_PUSH_CONTACT", "mailto:hraj@localhost")),
        clock_scale=_seconds("HRAJ_CLOCK_SCALE", env.get("HRAJ_CLOCK_SCALE", 1), 0.001, 1000.0),
        push_local=_choice("HRAJ_PUSH_LOCAL", env.get("HRAJ_PUSH_LOCAL", "refuse"), {"allow": True, "refuse": False}),
        sign_up_rate=_rate("HRAJ_SIGN_UP_RATE", env.get("HRAJ_SIGN_UP_RATE", 10)),
        sign_up_burst=_int("HRAJ_SIGN_UP_BURST", env.get("HRAJ_SIGN_UP_BURST", 10), 1, 1_000_000),
        sign_in_rate=_rate("HRAJ_SIGN_IN_RATE", env.get("HRAJ_SIGN_IN_RATE", 80)),
        sign_in_burst=_int("HRAJ_SIGN_IN_BURST", env.get("HRAJ_SIGN_IN_BURST", 20), 1, 1_000_000),
        hash_workers=_int("HRAJ_HASH_WORKERS", env.get("HRAJ_HASH_WORKERS", 1), 1, 64),
        hash_waiting=_int("HRAJ_HASH_WAITING", env.get("HRAJ_HASH_WAITING", 8), 0, 10_000),
        provisional_deviation=_seconds(
            "HRAJ_PROVISIONAL_DEVIATION", env.get("HRAJ_PROVISIONAL_DEVIATION", 170), 0.0, 10_000.0
        ),
        provisional_experience=_int(
            "HRAJ_PROVISIONAL_EXPERIENCE", env.get("HRAJ_PROVISIONAL_EXPERIENCE", 20), 0, 1_000_000
        ),
    )


def _contact(value: str) -> str:
    text = value.strip()
    if not text.startswith(("mailto:", "https://")) or any(c.isspace() for c in text):
        raise SettingsError("HRAJ_PUSH_CONTACT: expected mailto:ADDRESS or https://URL, got {value}", value=repr(value))
    return text


def _choice(name: str, value: str, choices: dict[str, bool]) -> bool:
    key = value.strip().lower()
    if key not in choices:
        raise SettingsError(
            "{name}: expected one of {known}, got {value}", name=name, known=", ".join(choices), value=repr(value)
        )
    return choices[key]


def _seconds(name: str, value: str | float, low: float, high: float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise SettingsError("{name}: expected a number, got {value}", name=name, value=repr(value)) from None
    if not low <= number <= high:
        raise SettingsError(
            "{name}: expected a number from {low} to {high}, got {number}", name=name, low=low, high=high, number=number
        )
    return number


def _synchronous(value: str) -> str:
    mode = value.strip().upper()
    if mode not in ("FULL", "NORMAL"):
        raise SettingsError("HRAJ_SQLITE_SYNCHRONOUS: expected FULL or NORMAL, got {value}", value=repr(value))
    return mode
