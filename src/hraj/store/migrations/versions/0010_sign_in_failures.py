"""Failed sign-ins counted per account name in the store, so that every server process
sees the same count.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sign_in_failures",
        sa.Column("name_key", sa.String(64), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("first_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("blocked_until", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sign_in_failures_first", "sign_in_failures", ["first_at"])


def downgrade() -> None:
    op.drop_index("ix_sign_in_failures_first", "sign_in_failures")
    op.drop_table("sign_in_failures")
