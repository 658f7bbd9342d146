"""The store fixtures (SQLite and PostgreSQL) for the players' tests."""

from tests.store.conftest import db_url, store

__all__ = ["db_url", "store"]
