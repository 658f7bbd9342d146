"""The `hraj serve` and `hraj verify` commands; `register(app)` adds them to the `hraj` CLI."""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
import uvicorn

from hraj.core.errors import InvalidRecord
from hraj.server.app import create_app
from hraj.server.fairness import load_record, verify_record
from hraj.server.settings import Settings, SettingsError, load_settings
from hraj.store import Store, StoreError


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"hraj: {message}", err=True)
    return typer.Exit(code)


def serve(
    host: Annotated[str | None, typer.Option(help="Address to listen on (env HRAJ_HOST; default 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port, 0 for any free one (env HRAJ_PORT; default 8000).")] = None,
    database: Annotated[
        str | None,
        typer.Option(help="sqlite:///PATH, postgresql://... or a path (env HRAJ_DATABASE_URL).", show_default=False),
    ] = None,
    secret: Annotated[
        str | None, typer.Option(help="Key for stored token hashes (env HRAJ_SECRET).", show_default=False)
    ] = None,
) -> None:
    """Run the game server: rooms, invite links and live play over HTTP and WebSocket."""
    try:
        settings = load_settings(host=host, port=port, database=database, secret=secret)
    except SettingsError as error:
        raise _fail(str(error)) from None
    run_server(settings)


def run_server(settings: Settings) -> None:
    """Open the store, listen, print the URL, and serve until interrupted."""
    import uvicorn

    # The commit thread needs the GIL for a moment between its database calls; with the
    # default 5 ms switch interval the busy event loop makes every commit wait that long.
    sys.setswitchinterval(0.0005)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        store = Store(settings.database_url, synchronous=settings.sqlite_synchronous)
        store.migrate()
    except StoreError as error:
        raise _fail(str(error), 1) from None
    try:
        family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((settings.host, settings.port))
    except OSError as error:
        raise _fail(f"cannot listen on {settings.host}:{settings.port}: {error.strerror}", 1) from None
    port = listener.getsockname()[1]
    actual = Settings(**{**_fields(settings), "port": port})
    config = uvicorn.Config(
        create_app(actual, store),
        log_level="warning",
        ws_max_size=max(1 << 16, settings.max_message_bytes * 4),
        lifespan="on",
        access_log=False,
    )
    server = _Server(config, f"hraj serving on {actual.url} (database {store.safe_url})")
    try:
        server.run(sockets=[listener])
    finally:
        store.close()
    if not server.started:
        raise _fail("the server did not start (see the messages above)", 1)
    typer.echo("hraj: stopped")


def _fields(settings: Settings) -> dict[str, Any]:
    return {name: getattr(settings, name) for name in Settings.__slots__}


class _Server(uvicorn.Server):
    """uvicorn's server, printing a banner once it really listens."""

    def __init__(self, config: uvicorn.Config, banner: str) -> None:
        super().__init__(config)
        self.banner = banner

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Stop gracefully on SIGINT/SIGTERM and then exit normally (status 0), without
        uvicorn's re-raising of the signal once it has shut down."""
        with super().capture_signals():
            try:
                yield
            finally:
                self._captured_signals.clear()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            typer.echo(self.banner)
            sys.stdout.flush()


def verify(
    record: Annotated[Path, typer.Argument(help="A finished room's record (JSON), as GET /api/rooms/ID/record gives.")],
) -> None:
    """Check a finished online game: its seed matches the commitment and every roll and card."""
    try:
        text = sys.stdin.read() if str(record) == "-" else record.read_text(encoding="utf-8")
    except OSError as error:
        raise _fail(f"cannot read {record}: {error.strerror}") from None
    try:
        result = verify_record(load_record(text))
    except InvalidRecord as error:
        typer.echo(f"hraj: NOT verified: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(
        json.dumps(
            {
                "verified": True,
                "game": result.game,
                "events": result.events,
                "chance_events": result.chance_events,
                "commitment": result.commitment,
                "over": result.over,
            }
        )
    )
    typer.echo(
        f"verified: the seed matches its commitment and all {result.chance_events} dice rolls and card draws of this "
        f"{result.game} game come from it."
    )


def register(app: typer.Typer) -> None:
    """Add `serve` and `verify` to the `hraj` command."""
    app.command("serve")(serve)
    app.command("verify")(verify)
