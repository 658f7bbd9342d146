"""Clocks and their deadlines, the pool of people seeking a game, rematch votes, the
host's presence for the lobby, Web Push.

Rooms made before this migration have no clock (NULL) and no rematch votes.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("clock", sa.JSON, nullable=True))
        batch.add_column(sa.Column("rematch_votes", sa.JSON, nullable=True))
        batch.add_column(sa.Column("host_seat", sa.Integer, nullable=True))
        batch.add_column(sa.Column("host_away_since", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "deadlines",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("due", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_deadlines_due", "deadlines", ["due"])
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("key", sa.String(512), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("clock", sa.JSON, nullable=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("gender", sa.String(8), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("room_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("ix_seeks_key_room", "seeks", ["key", "room_id"])
    op.create_index("ix_seeks_seen", "seeks", ["seen_at"])
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("endpoint", sa.Text, nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False, server_default="cs"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "push_targets",
        sa.Column(
            "subscription_id",
            sa.String(64),
            sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
    )
    op.create_index("ix_push_targets_room", "push_targets", ["room_id", "seat"])


def downgrade() -> None:
    op.drop_table("push_targets")
    op.drop_table("push_subscriptions")
    op.drop_index("ix_seeks_seen", "seeks")
    op.drop_index("ix_seeks_key_room", "seeks")
    op.drop_table("seeks")
    op.drop_index("ix_deadlines_due", "deadlines")
    op.drop_table("deadlines")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("host_away_since")
        batch.drop_column("host_seat")
        batch.drop_column("rematch_votes")
        batch.drop_column("clock")
