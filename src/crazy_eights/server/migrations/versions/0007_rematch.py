"""Rematches: ``tables.rematch``, the follow-up table "Play again" made for a finished one.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01

Set once, by the first player of the finished table who asks to play again (a
conditional update, so two askers racing on two nodes get one follow-up); every later
asker is seated at the table it names, also after the finished table has been unloaded.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rematch", sa.String(24), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rematch")
