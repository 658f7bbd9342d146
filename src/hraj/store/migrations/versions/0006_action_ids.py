"""The id a client gave each move, kept with its event: a move sent again is answered, not applied twice.

Events stored before this migration have none (NULL); NULLs never collide in the
unique index, so every older log stays as it is.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("action_id", sa.String(64), nullable=True))
    op.create_index("ux_events_action", "events", ["room_id", "seat", "action_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_events_action", table_name="events")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("action_id")
