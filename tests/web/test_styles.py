"""Each game's look lives in its own folder (`table.css`) and reaches every page."""

from __future__ import annotations

from pathlib import Path

import hraj
from hraj.core.registry import game_folder
from tests.web.api import site_client


def test_every_game_brings_its_own_table_css_and_the_pages_load_them(tmp_path: Path) -> None:
    with site_client(tmp_path) as client:
        page = client.get("/")
        assert '<link rel="stylesheet" href="/games.css">' in page.text
        sheet = client.get("/games.css")
        assert sheet.status_code == 200
        assert sheet.headers["content-type"].startswith("text/css")
        for game_id in hraj.GAMES:
            own = game_folder(game_id) / "table.css"
            if own.is_file():
                assert own.read_text(encoding="utf-8") in sheet.text
        # Unchanged since the last visit: the browser keeps its copy.
        again = client.get("/games.css", headers={"If-None-Match": sheet.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
