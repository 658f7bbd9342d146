"""`hraj backup` and `hraj restore`: a copy an operator can bring back and play on."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import httpx
from typer.testing import CliRunner, Result

from hraj.server.fairness import commitment, verify_record
from hraj.store import NewRoom, NewSeat, Store
from tests.app.test_commands import cli
from tests.server.live import Client, LiveServer, claim, create_room, play

runner = CliRunner()
#: The environment of the commands: the secret is the one kept beside the database.
NO_SECRET = {"HRAJ_SECRET": None, "HRAJ_DATABASE_URL": None}


def command(*args: str) -> Result:
    return runner.invoke(cli(), [*args, "--lang", "en"], env=NO_SECRET)


def made_database(folder: Path, secret: str | None = "kept-beside-the-database") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "hraj.db"
    store = Store(f"sqlite:///{path}")
    store.migrate()
    seed = "00" * 32
    store.create_room(NewRoom("r1", "qwixx", {"players": 2}, seed, commitment(seed), "i", "h", [NewSeat("person")] * 2))
    store.close()
    if secret is not None:
        (folder / "hraj-secret").write_text(secret + "\n")
    return path


def test_a_backup_of_no_database_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    """Before, `hraj backup x.db --database typo/h.db` made an empty database, said
    "backed up" and exited 0."""
    result = command("backup", str(tmp_path / "x.db"), "--database", str(tmp_path / "typo" / "h.db"))
    assert result.exit_code == 2, result.output
    assert f"There is no database at {tmp_path / 'typo' / 'h.db'}; nothing was backed up." in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_backup_of_a_file_that_is_no_hraj_database_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    sqlite3.connect(other).close()
    result = command("backup", str(tmp_path / "x.db"), "--database", str(other))
    assert result.exit_code == 1 and "is not a hraj database" in result.output
    assert not (tmp_path / "x.db").exists()


def test_the_backup_holds_the_secret_and_the_restore_puts_it_beside_the_new_database(tmp_path: Path) -> None:
    database = made_database(tmp_path / "live")
    copy = tmp_path / "copy.db"
    backed = command("backup", str(copy), "--database", str(database))
    assert backed.exit_code == 0, backed.output
    assert "holds the server secret" in backed.output
    restored = command("restore", str(copy), "--database", str(tmp_path / "new" / "hraj.db"))
    assert restored.exit_code == 0, restored.output
    assert "rooms 1, finished 0" in restored.output
    secret = tmp_path / "new" / "hraj-secret"
    assert secret.read_text() == "kept-beside-the-database\n"
    assert secret.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "new" / "hraj.db").stat().st_mode & 0o777 == 0o600
    # The restored database is the server's schema, without the backup's own table.
    tables = {row[0] for row in sqlite3.connect(tmp_path / "new" / "hraj.db").execute("SELECT name FROM sqlite_master")}
    assert "hraj_backup" not in tables and "rooms" in tables


def test_a_backup_without_a_secret_says_so_loudly(tmp_path: Path) -> None:
    database = made_database(tmp_path / "live", secret=None)
    result = command("backup", str(tmp_path / "copy.db"), "--database", str(database))
    assert result.exit_code == 0, result.output
    assert "WARNING: the backup holds no server secret" in result.output
    restored = command("restore", str(tmp_path / "copy.db"), "--database", str(tmp_path / "new" / "hraj.db"))
    assert restored.exit_code == 0 and "WARNING: the backup holds no server secret" in restored.output
    assert not (tmp_path / "new" / "hraj-secret").exists()


def test_a_restore_never_overwrites_a_database_or_another_secret(tmp_path: Path) -> None:
    database = made_database(tmp_path / "live")
    copy = tmp_path / "copy.db"
    assert command("backup", str(copy), "--database", str(database)).exit_code == 0
    onto_live = command("restore", str(copy), "--database", str(database))
    assert onto_live.exit_code == 1 and "exists already" in onto_live.output
    (tmp_path / "new").mkdir()
    (tmp_path / "new" / "hraj-secret").write_text("another-secret-of-the-folder\n")
    beside_other = command("restore", str(copy), "--database", str(tmp_path / "new" / "hraj.db"))
    assert beside_other.exit_code == 1 and "holds another secret" in beside_other.output
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == ["hraj-secret"], "nothing is left half restored"
    missing = command("restore", str(tmp_path / "nothing.db"), "--database", str(tmp_path / "n2" / "hraj.db"))
    assert missing.exit_code == 2 and "There is no backup at" in missing.output


def test_a_backup_whose_rooms_do_not_replay_is_not_restored(tmp_path: Path) -> None:
    database = made_database(tmp_path / "live")
    copy = tmp_path / "copy.db"
    assert command("backup", str(copy), "--database", str(database)).exit_code == 0
    with sqlite3.connect(copy) as connection:  # a room whose commitment is not its seed's
        connection.execute("UPDATE rooms SET commitment = 'ab' WHERE id = 'r1'")
    result = command("restore", str(copy), "--database", str(tmp_path / "new" / "hraj.db"))
    assert result.exit_code == 1
    assert "Room r1 of the backup does not verify" in result.output
    assert not (tmp_path / "new" / "hraj.db").exists() and not (tmp_path / "new" / "hraj-secret").exists()


def test_a_backup_made_while_playing_is_restored_and_the_game_plays_on_with_the_same_tokens(tmp_path: Path) -> None:
    """The server keeps its secret beside its database (none given): the restored server
    must find it there, or every seat token would be refused (401)."""
    live = LiveServer(f"sqlite:///{tmp_path / 'live' / 'hraj.db'}", env={"HRAJ_SECRET": ""})
    url = live.start()
    body = create_room(url, "qwixx", [{"kind": "person"}] * 2, claim=0)
    room, tokens = body["room"], [body["token"], claim(url, body["room"], body["invite"])]

    async def play_until(ws_url: str, version: int | None) -> int:
        clients = [Client(ws_url, room, token) for token in tokens]
        for client in clients:
            await client.connect()
        await asyncio.gather(*(play(c, random.Random(f"{ws_url}{n}"), version) for n, c in enumerate(clients)))
        for client in clients:
            await client.close()
        return max(client.version or 0 for client in clients)

    reached = asyncio.run(play_until(live.ws_url, 12))
    copy = tmp_path / "copy.db"
    backed = command("backup", str(copy), "--database", str(tmp_path / "live" / "hraj.db"))
    assert backed.exit_code == 0, backed.output
    assert live.stop() == 0
    restored = command("restore", str(copy), "--database", str(tmp_path / "restored" / "hraj.db"))
    assert restored.exit_code == 0, restored.output
    again = LiveServer(f"sqlite:///{tmp_path / 'restored' / 'hraj.db'}", env={"HRAJ_SECRET": ""})
    url = again.start()
    try:
        view = httpx.get(f"{url}/api/rooms/{room}/view", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert view.status_code == 200 and view.json()["version"] >= reached
        asyncio.run(play_until(again.ws_url, None))
        record = httpx.get(f"{url}/api/rooms/{room}/record", timeout=30).json()
        assert verify_record(record).over
    finally:
        assert again.stop() == 0
