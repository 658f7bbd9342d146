from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hraj.store import Store
from tests.store.databases import BACKENDS, database_url


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database_url(request.param, tmp_path)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    store = Store(db_url)
    store.migrate()
    yield store
    store.close()
