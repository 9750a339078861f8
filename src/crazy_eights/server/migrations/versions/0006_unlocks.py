"""Player evaluation totals and achievements: ``measures`` and ``unlocks``.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

``measures`` holds, per account and ruleset, the running totals the evaluation is made
of (``server/evaluation.py``): each finished game adds its counts, so a profile reads one
row instead of replaying every game. ``unlocks`` holds the achievements an account has
earned (``server/achievements.py``), with the game that earned each.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

COUNTS = (
    "games",
    "turns",
    "shed",
    "rounds",
    "hand_points",
    "pressure_turns",
    "disruptions",
    "disruption_cost",
    "wilds_played",
    "wilds_needed",
    "declarations",
    "declarations_long",
    "draws_forced",
)


def upgrade() -> None:
    op.create_table(
        "measures",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("ruleset", sa.String(16), primary_key=True),
        *(sa.Column(name, sa.BigInteger, nullable=False, server_default="0") for name in COUNTS),
    )
    op.create_table(
        "unlocks",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("achievement", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(24), nullable=True),
        sa.Column("earned_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("unlocks")
    op.drop_table("measures")
