"""Quick play's tickets kept in the database: ``match_tickets``, one row per account
waiting in a queue, for a room on one process (a cluster keeps them in Redis).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02

A server that stops (even with kill -9) no longer forgets who was waiting: on start it
reads the tickets back, and the people's pages find theirs when they reconnect.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_tickets",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("id", sa.String(24), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("avatar", sa.String(16), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("length", sa.String(8), nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("match_tickets")
