"""Room ownership for several server processes on one PostgreSQL database.

`rooms.owner` names the process that applies a room's moves; `servers` holds each
process's lease. SQLite (one process) leaves both empty.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("owner", sa.String(32), nullable=True))
    op.create_index("ix_rooms_owner", "rooms", ["owner"])
    op.create_table(
        "servers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("servers")
    op.drop_index("ix_rooms_owner", "rooms")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("owner")
