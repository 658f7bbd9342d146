"""Public rooms for the lobby, the rematch a finished room led to, and each room's chat.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("rematch", sa.String(32), nullable=True))
    op.create_index("ix_rooms_public_status_created", "rooms", ["public", "status", "created_at"])
    op.create_table(
        "chat",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat")
    op.drop_index("ix_rooms_public_status_created", "rooms")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rematch")
        batch.drop_column("public")
