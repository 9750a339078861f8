"""Game analyses: ``analyses``, one row per finished game and analysed seat.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

The search bot's opinion of each decision a seat made (``bots/analysis.py``) is stored
as JSON in ``payload``, so a second look is instant. ``status`` is ``running`` while the
bot workers think, then ``done`` (or ``failed``); ``account_id`` is who sat there, for
the accuracy figures of a profile.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("payload", sa.JSON, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_analyses_account_id", "analyses", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_analyses_account_id", table_name="analyses")
    op.drop_table("analyses")
