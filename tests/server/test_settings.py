"""Settings from flags, `HRAJ_*` variables and defaults, with clear errors."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from hraj.server.settings import SettingsError, load_settings

SECRET = "s" * 16


def test_defaults_put_the_database_in_the_user_data_dir(tmp_path: Path) -> None:
    settings = load_settings({"XDG_DATA_HOME": str(tmp_path)})
    assert (settings.host, settings.port) == ("127.0.0.1", 8000)
    assert settings.database_url == f"sqlite:///{tmp_path / 'hraj' / 'hraj.db'}"
    secret_file = tmp_path / "hraj" / "hraj-secret"
    assert settings.secret == secret_file.read_text().strip()
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    assert load_settings({"XDG_DATA_HOME": str(tmp_path)}).secret == settings.secret, "the secret is kept"
    assert settings.url == "http://127.0.0.1:8000"


def test_the_web_push_key_is_kept_beside_the_database_for_its_owner_only(tmp_path: Path) -> None:
    settings = load_settings({"XDG_DATA_HOME": str(tmp_path)})
    key_file = tmp_path / "hraj" / "hraj-vapid.pem"
    assert settings.vapid_key == key_file.read_text() and "PRIVATE KEY" in settings.vapid_key
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert load_settings({"XDG_DATA_HOME": str(tmp_path)}).vapid_key == settings.vapid_key, "the key is kept"


def test_a_database_folder_that_cannot_be_made_is_told_before_any_file_beside_it(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(SettingsError) as caught:
        load_settings({"HRAJ_DATABASE_URL": str(blocker / "hraj.db"), "HRAJ_SECRET": SECRET})
    assert caught.value.key == "Cannot create the folder {folder} for the database: {why}."


def test_environment_variables_are_read(tmp_path: Path) -> None:
    env = {
        "HRAJ_HOST": "0.0.0.0",
        "HRAJ_PORT": "9001",
        "HRAJ_DATABASE_URL": "postgresql://u:p@db/hraj",
        "HRAJ_SECRET": SECRET,
        "HRAJ_WS_RATE": "5",
        "HRAJ_MAX_MESSAGE_BYTES": "1024",
        "HRAJ_SQLITE_SYNCHRONOUS": "normal",
    }
    settings = load_settings(env)
    assert (settings.host, settings.port, settings.database_url) == ("0.0.0.0", 9001, "postgresql://u:p@db/hraj")
    assert (settings.secret, settings.ws_rate, settings.max_message_bytes) == (SECRET, 5.0, 1024)
    assert settings.sqlite_synchronous == "NORMAL"


def test_flags_win_over_the_environment(tmp_path: Path) -> None:
    env = {"HRAJ_HOST": "0.0.0.0", "HRAJ_PORT": "9001", "HRAJ_SECRET": SECRET}
    settings = load_settings(env, host="::1", port=0, database=str(tmp_path / "x.db"), secret="t" * 20)
    assert (settings.host, settings.port, settings.secret) == ("::1", 0, "t" * 20)
    assert settings.database_url == f"sqlite:///{tmp_path / 'x.db'}"
    assert settings.url == "http://[::1]:0"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"HRAJ_PORT": "http"}, "port: expected a whole number"),
        ({"HRAJ_PORT": "70000"}, "port: expected a number from 0 to 65535"),
        ({"HRAJ_HOST": "two words"}, "host: 'two words' is not a host name"),
        ({"HRAJ_DATABASE_URL": "mysql://db/hraj"}, "use sqlite:///PATH or postgresql://"),
        ({"HRAJ_DATABASE_URL": "postgresql://db/hraj", "HRAJ_SECRET": ""}, "secret: set --secret or HRAJ_SECRET"),
        ({"HRAJ_SECRET": "short"}, "secret: must be at least 16 characters"),
        ({"HRAJ_WS_RATE": "0"}, "HRAJ_WS_RATE: must be more than 0"),
        ({"HRAJ_HTTP_BURST": "many"}, "HRAJ_HTTP_BURST: expected a whole number"),
        ({"HRAJ_SQLITE_SYNCHRONOUS": "OFF"}, "HRAJ_SQLITE_SYNCHRONOUS: expected FULL or NORMAL"),
    ],
)
def test_bad_settings_say_which_and_why(env: dict[str, str], message: str, tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match=message.replace("(", r"\(")):
        load_settings({"XDG_DATA_HOME": str(tmp_path), "HRAJ_SECRET": SECRET} | env)
