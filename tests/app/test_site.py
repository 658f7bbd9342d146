"""The site composes the server's API and the web's pages; the API alone has no page."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from hraj.app.site import create_app
from hraj.server.app import create_api
from hraj.server.settings import Settings


def settings(tmp_path: Path) -> Settings:
    return Settings(database_url=f"sqlite:///{tmp_path / 'hraj.db'}", secret="site-test-secret-0123456789")


def test_the_api_alone_serves_no_page_and_answers_json(tmp_path: Path) -> None:
    with TestClient(create_api(settings(tmp_path))) as client:
        assert client.get("/api/games").status_code == 200
        for path in ("/", "/static/style.css", "/r/nosuchroom"):
            answer = client.get(path)
            assert answer.status_code == 404, path
            assert answer.json()["code"] == "not_found"


def test_the_site_adds_the_pages_their_files_and_page_errors(tmp_path: Path) -> None:
    with TestClient(create_app(settings(tmp_path))) as client:
        assert client.get("/api/games").status_code == 200
        start = client.get("/?lang=en")
        assert start.status_code == 200 and start.headers["content-type"].startswith("text/html")
        assert client.get("/static/style.css").status_code == 200
        missing = client.get("/no/such/page?lang=en")
        assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
        assert client.get("/api/no/such/thing").json()["code"] == "not_found"
