"""Dice version and absence time per room; an index to find idle rooms.

Rooms made before this migration keep dice version 1 (CPython's `random`); new rooms
are written with version 2 by the server.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("dice", sa.Integer, nullable=False, server_default="1"))
        batch.add_column(sa.Column("absent_after", sa.Integer, nullable=False, server_default="120"))
    op.create_index("ix_rooms_status_updated", "rooms", ["status", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_rooms_status_updated", "rooms")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("absent_after")
        batch.drop_column("dice")
