"""People: accounts, their sessions, the person of each seat, rated rooms, ratings and
the results of finished games.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("person", sa.String(32), nullable=True))
        batch.create_index("ix_seats_person", ["person"])
    op.create_table(
        "people",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(32), nullable=True),
        sa.Column("name_key", sa.String(32), nullable=True),
        sa.Column("password_hash", sa.String(256), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_people_name_key", "people", ["name_key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("person", sa.String(32), sa.ForeignKey("people.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sessions_person", "sessions", ["person"])
    op.create_table(
        "ratings",
        sa.Column("person", sa.String(32), sa.ForeignKey("people.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=True),
        sa.Column("experience", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("games", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_game_rating", "ratings", ["game", "rating"])
    op.create_table(
        "results",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("person", sa.String(32), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("before", sa.Float(), nullable=True),
        sa.Column("after", sa.Float(), nullable=True),
        sa.Column("deviation", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_results_person_game", "results", ["person", "game", "finished_at"])


def downgrade() -> None:
    op.drop_table("results")
    op.drop_table("ratings")
    op.drop_table("sessions")
    op.drop_table("people")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_person")
        batch.drop_column("person")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rated")
