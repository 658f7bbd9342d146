"""The person behind a seek (an account's id, or a guest's), so that the seat a seek
takes is theirs as a claimed seat is: in "Moje hry", and in a rated game's result.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("person", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("person")
