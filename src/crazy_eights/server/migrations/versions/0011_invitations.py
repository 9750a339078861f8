"""Invitations to a table and challenges between friends (``invitations.py``).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03

One row per invitation or challenge: who asked whom, the table (an invitation's, or the
challenge's once accepted), a challenge's rules, its status (``pending``, ``accepted``,
``declined``, ``withdrawn``) and when it stops being open. Seat holds themselves are
kept by the live table, not here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("from_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("to_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("table_id", sa.String(24), nullable=True),
        sa.Column("rules", sa.JSON, nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_invitations_to_id", "invitations", ["to_id"])
    op.create_index("ix_invitations_from_id", "invitations", ["from_id"])
    op.create_index("ix_invitations_table_id", "invitations", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_invitations_table_id", "invitations")
    op.drop_index("ix_invitations_from_id", "invitations")
    op.drop_index("ix_invitations_to_id", "invitations")
    op.drop_table("invitations")
