"""Moderation: roles, mutes and bans, reports and the audit log (``moderation.py``,
``reports.py``).

Revision ID: 0012
Revises: 0010
Create Date: 2026-12-03

``account_roles`` holds who is a moderator (granted on the command line); ``sanctions``
every mute and ban with its end and, once lifted, who lifted it; ``reports`` what
players reported, with the table and its chat lines as they were when filed;
``moderation_audit`` every moderator's and operator's action: who, what, whom, why, when.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _account(name: str, *, nullable: bool = False, primary_key: bool = False) -> sa.Column[int]:
    return sa.Column(
        name,
        sa.Integer,
        sa.ForeignKey("accounts.id"),
        nullable=nullable,
        primary_key=primary_key,
    )


def upgrade() -> None:
    op.create_table(
        "account_roles",
        _account("account_id", primary_key=True),
        sa.Column("role", sa.String(16), primary_key=True),
        sa.Column("granted_at", sa.Float, nullable=False),
        sa.Column("granted_by", sa.String(64), nullable=False),
    )
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _account("account_id"),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=False),
        sa.Column("by_name", sa.String(64), nullable=False),
        sa.Column("lifted_at", sa.Float, nullable=True),
        sa.Column("lifted_by", sa.String(64), nullable=True),
    )
    op.create_index("ix_sanctions_account_id", "sanctions", ["account_id"])
    op.create_index("ix_sanctions_until", "sanctions", ["until"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.Float, nullable=False),
        _account("reporter_id"),
        _account("target_id"),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(1000), nullable=False),
        sa.Column("table_id", sa.String(24), nullable=True),
        sa.Column("context", sa.JSON, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("resolved_at", sa.Float, nullable=True),
        sa.Column("resolved_by", sa.String(64), nullable=True),
        sa.Column("resolution", sa.String(500), nullable=True),
    )
    for column in ("reporter_id", "target_id", "status"):
        op.create_index(f"ix_reports_{column}", "reports", [column])
    op.create_table(
        "moderation_audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        _account("actor_id", nullable=True),
        sa.Column("actor_name", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        _account("target_id", nullable=True),
        sa.Column("target_name", sa.String(64), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("detail", sa.String(200), nullable=False),
    )
    op.create_index("ix_moderation_audit_at", "moderation_audit", ["at"])


def downgrade() -> None:
    op.drop_index("ix_moderation_audit_at", "moderation_audit")
    op.drop_table("moderation_audit")
    for column in ("reporter_id", "target_id", "status"):
        op.drop_index(f"ix_reports_{column}", "reports")
    op.drop_table("reports")
    op.drop_index("ix_sanctions_until", "sanctions")
    op.drop_index("ix_sanctions_account_id", "sanctions")
    op.drop_table("sanctions")
    op.drop_table("account_roles")
