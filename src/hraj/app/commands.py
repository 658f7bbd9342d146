"""The `hraj serve`, `verify`, `backup` and `restore` commands; `register(app)` adds them to the `hraj` CLI.

Their messages and help are in the language of `--lang` or HRAJ_LANG (Czech by
default), as for every `hraj` command; the line `hraj serving on URL ...` stays as
it is in every language, since scripts wait for it (docs/protocol.md).
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import json
import logging
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer
import uvicorn

from hraj.app import backups
from hraj.app.backups import known_secret
from hraj.app.site import create_app
from hraj.core.errors import HrajError, InvalidRecord, file_reason
from hraj.i18n import DEFAULT_LANG, LANGS, check_lang, error_text, t
from hraj.server.fairness import load_record, verify_record
from hraj.server.logs import configure as configure_logs
from hraj.server.settings import Settings, SettingsError, database_url_from, default_data_dir, load_settings
from hraj.store import Store, StoreError

ENV_LANG = os.environ.get("HRAJ_LANG", DEFAULT_LANG)
#: Seconds a starting server waits for the previous one on its database to finish stopping.
WRITER_WAIT_S = 10.0
HELP_LANG = ENV_LANG if ENV_LANG in LANGS else DEFAULT_LANG


def _(text: str) -> str:
    """Help texts in the language of the environment."""
    return t(text, HELP_LANG)


LangOption = Annotated[str, typer.Option("--lang", "-l", help=_("Language: cs, sk or en."))]


def _language(lang: str) -> str:
    try:
        return check_lang(lang)
    except HrajError as error:
        raise _fail(error_text(error, DEFAULT_LANG), DEFAULT_LANG) from None


def _fail(message: str, lang: str, code: int = 2) -> typer.Exit:
    """One line on stderr that starts as every error of `hraj` does ("Chyba: …")."""
    typer.echo(f"{t('Error', lang)}: {message}", err=True)
    return typer.Exit(code)


def serve(
    host: Annotated[
        str | None, typer.Option(help=_("Address to listen on (env HRAJ_HOST; default 127.0.0.1)."))
    ] = None,
    port: Annotated[int | None, typer.Option(help=_("Port, 0 for any free one (env HRAJ_PORT; default 8000)."))] = None,
    database: Annotated[
        str | None,
        typer.Option(help=_("sqlite:///PATH, postgresql://... or a path (env HRAJ_DATABASE_URL)."), show_default=False),
    ] = None,
    secret: Annotated[
        str | None, typer.Option(help=_("Key for stored token hashes (env HRAJ_SECRET)."), show_default=False)
    ] = None,
    lang: LangOption = ENV_LANG,
) -> None:
    lang = _language(lang)
    try:
        settings = load_settings(host=host, port=port, database=database, secret=secret)
    except SettingsError as error:
        raise _fail(error_text(error, lang), lang) from None
    run_server(settings, lang)


def run_server(settings: Settings, lang: str = "en") -> None:
    """Open the store, listen, print the URL, and serve until interrupted."""
    import uvicorn

    from hraj.server.early_refusal import early_refusing

    # The commit thread needs the GIL for a moment between its database calls; with the
    # default 5 ms switch interval the busy event loop makes every commit wait that long.
    sys.setswitchinterval(0.0005)
    configure_logs(settings.log_format, settings.access_log)
    try:
        store = Store(settings.database_url, synchronous=settings.sqlite_synchronous)
        store.migrate()
        if store.engine.dialect.name == "sqlite":
            # One process per SQLite file; on PostgreSQL any number share the rooms.
            store.claim_writer(WRITER_WAIT_S)
    except StoreError as error:
        raise _fail(error_text(error, lang), lang, 1) from None
    try:
        family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((settings.host, settings.port))
    except OSError as error:
        reason = t(
            "cannot listen on {host}:{port}: {why}", lang, host=settings.host, port=settings.port, why=error.strerror
        )
        raise _fail(reason, lang, 1) from None
    port = listener.getsockname()[1]
    actual = dataclasses.replace(settings, port=port)
    app = create_app(actual, store)
    config = uvicorn.Config(
        app,
        # Without a trusted proxy the connection's address is the client's: upgrades the
        # guard would refuse are refused as their headers arrive (hraj.server.early_refusal).
        http="auto" if settings.trusted_proxies else early_refusing(app.state.socket_limits),
        log_level="info" if settings.access_log else "warning",
        log_config=None,  # the logging set up above, text or JSON, for uvicorn too
        ws_max_size=max(1 << 16, settings.max_message_bytes * 4),
        # Uncompressed: one state compressed once per socket (35 µs each for a backgammon
        # view) cost spectators' rooms more than the few hundred bytes it saved.
        ws_per_message_deflate=False,
        lifespan="on",
        access_log=settings.access_log,
        # X-Forwarded-For is believed only from the proxies the operator names; uvicorn
        # would otherwise trust 127.0.0.1, and anyone could pick their own address.
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=settings.trusted_proxies or "",
        # Open requests and sockets get this long once SIGTERM comes; then they are closed.
        timeout_graceful_shutdown=max(1, round(settings.shutdown_grace)),
    )
    server = _Server(config, f"hraj serving on {actual.url} (database {store.safe_url})")
    try:
        server.run(sockets=[listener])
    except SystemExit as stop:  # uvicorn exits 3 when the application cannot start
        if stop.code not in (0, None):
            raise _fail(t("the server did not start (see the messages above)", lang), lang, 1) from None
    except Exception as error:  # a failure while serving is the operator's to see, and exits 1
        logging.getLogger("hraj.server").exception("the server failed")
        raise _fail(t("the server failed: {why}", lang, why=str(error)), lang, 1) from None
    finally:
        store.close()
    if not server.started:
        raise _fail(t("the server did not start (see the messages above)", lang), lang, 1)
    typer.echo("hraj: " + t("stopped", lang))


#: The collector's thresholds in a serving process (Python's defaults are 700, 10, 10).
GC_THRESHOLDS = (10_000, 10, 10)


def _settle_memory() -> None:
    """Once the server listens: what exists now (the modules, the rooms rebuilt from the
    log) lives as long as the process, so it is frozen out of the collector's sight.

    Measured with the load benchmark (1,000 rooms of 2 players thinking 1 s a move): full
    collections then walked every object of the process and stopped all rooms for up to
    240 ms each, which made the p99 of a move about 1 s instead of 20 ms. Frozen objects
    are still freed by reference counting; only cycles among them would stay. The larger
    young threshold makes the frequent small collections 14 times rarer.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


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
            _settle_memory()
            typer.echo(self.banner)
            sys.stdout.flush()


def verify(
    record: Annotated[
        Path,
        typer.Argument(
            metavar=_("FILE"), help=_("A finished room's record (JSON), as GET /api/rooms/ID/record gives.")
        ),
    ],
    head: Annotated[
        str | None,
        typer.Option(help=_("A chain head you kept from an acknowledgement: the record must end at it.")),
    ] = None,
    lang: LangOption = ENV_LANG,
) -> None:
    lang = _language(lang)
    try:
        raw = sys.stdin.buffer.read() if str(record) == "-" else record.read_bytes()
    except OSError as error:
        reason = t("Cannot read {path}: {why}", lang, path=str(record), why=t(file_reason(error), lang))
        raise _fail(reason, lang) from None
    try:
        result = verify_record(load_record(raw.decode("utf-8")), head=head)
    except UnicodeDecodeError:
        why = t("it is not UTF-8 text", lang)
        raise _fail(t("Cannot read {path}: {why}", lang, path=str(record), why=why), lang) from None
    except RecursionError:
        why = t("its JSON is nested too deeply for a record", lang)
        raise _fail(t("Cannot read {path}: {why}", lang, path=str(record), why=why), lang) from None
    except InvalidRecord as error:
        raise _fail(t("NOT verified: {why}", lang, why=error_text(error, lang)), lang, 1) from None
    typer.echo(
        json.dumps(
            {
                "verified": True,
                "game": result.game,
                "events": result.events,
                "chance_events": result.chance_events,
                "commitment": result.commitment,
                "over": result.over,
                "dice": result.dice,
                "head": result.head,
            }
        )
    )
    typer.echo(
        t(
            "verified: the seed matches its commitment, all {count} dice rolls and card draws of this "
            "{game} game come from it, every move is legal and the game is whole (chain head {head}).",
            lang,
            count=result.chance_events,
            game=result.game,
            head=result.head,
        )
    )


def backup(
    target: Annotated[Path, typer.Argument(metavar=_("FILE"), help=_("The new file to write the copy to."))],
    database: Annotated[
        str | None,
        typer.Option(help=_("sqlite:///PATH or a path (env HRAJ_DATABASE_URL)."), show_default=False),
    ] = None,
    secret: Annotated[
        str | None,
        typer.Option(
            help=_("The server's secret, if it is not kept beside the database (env HRAJ_SECRET)."), show_default=False
        ),
    ] = None,
    lang: LangOption = ENV_LANG,
) -> None:
    """Copy a SQLite database with its secret while the server runs (PostgreSQL: pg_dump)."""
    lang = _language(lang)
    try:
        url = _database_url(database)
        kept = known_secret(url, secret or os.environ.get("HRAJ_SECRET"))
        backups.backup(url, target, kept)
    except (SettingsError, backups.Missing) as error:
        raise _fail(error_text(error, lang), lang) from None
    except StoreError as error:
        raise _fail(error_text(error, lang), lang, 1) from None
    except OSError as error:
        reason = t("Cannot read {path}: {why}", lang, path=str(error.filename), why=t(file_reason(error), lang))
        raise _fail(reason, lang, 1) from None
    typer.echo(t("backed up {database} to {path}", lang, database=url, path=str(target)))
    if kept is None:
        typer.echo(
            "hraj: "
            + t(
                "WARNING: the backup holds no server secret (none was given and none is kept beside the "
                "database). Keep the secret the server runs with (HRAJ_SECRET) with the backup: without it "
                "no seat token works after a restore.",
                lang,
            ),
            err=True,
        )
    else:
        typer.echo(t("The backup holds the server secret: keep it as private as the database.", lang))


def restore(
    source: Annotated[Path, typer.Argument(metavar=_("FILE"), help=_("A backup made by hraj backup."))],
    database: Annotated[
        str | None,
        typer.Option(help=_("The new database: sqlite:///PATH or a path (env HRAJ_DATABASE_URL)."), show_default=False),
    ] = None,
    lang: LangOption = ENV_LANG,
) -> None:
    """Bring a backup back as a new database, with its secret, and check every room."""
    lang = _language(lang)
    try:
        url = _database_url(database)
        restored = backups.restore(source, url)
    except (SettingsError, backups.Missing) as error:
        raise _fail(error_text(error, lang), lang) from None
    except StoreError as error:
        raise _fail(error_text(error, lang), lang, 1) from None
    typer.echo(
        t(
            "restored {path}: rooms {rooms}, finished {finished}; every room replays from its seed",
            lang,
            path=url,
            rooms=restored.rooms,
            finished=restored.finished,
        )
    )
    if restored.secret is None:
        typer.echo(
            "hraj: "
            + t(
                "WARNING: the backup holds no server secret: start the server with the secret it had "
                "(HRAJ_SECRET), or no seat token works.",
                lang,
            ),
            err=True,
        )
    else:
        typer.echo(t("the server secret is in {path}", lang, path=str(restored.secret)))


def _database_url(given: str | None) -> str:
    """The database a command works on: given, else HRAJ_DATABASE_URL, else the default file."""
    chosen = given or os.environ.get("HRAJ_DATABASE_URL") or str(default_data_dir(os.environ) / "hraj.db")
    return database_url_from(chosen)


def register(app: typer.Typer) -> None:
    """Add `serve`, `verify`, `backup` and `restore` to the `hraj` command."""
    app.command("serve", help=_("Run the game server: rooms, invite links and live play over HTTP and WebSocket."))(
        serve
    )
    app.command(
        "verify", help=_("Check a finished online game: its seed matches the commitment and every roll and card.")
    )(verify)
    app.command("backup", help=_("Copy the server's SQLite database and its secret safely while it runs."))(backup)
    app.command("restore", help=_("Bring a backup back as a new database, with its secret, and check every room."))(
        restore
    )
