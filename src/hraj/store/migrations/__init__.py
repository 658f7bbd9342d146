"""Alembic migrations of the store; `hraj.store.db.Store.migrate` runs them."""
