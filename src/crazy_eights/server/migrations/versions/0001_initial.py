"""Initial schema: accounts, sessions, tables, seats, moves, chat, records.

Revision ID: 0001
Revises:
Create Date: 2024-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False, unique=True),
        sa.Column("display_name", sa.String(40), nullable=False),
        sa.Column("avatar", sa.String(16), nullable=False, server_default="default"),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("guest", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("bot_level", sa.String(16), nullable=True, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "tables",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("creator_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("invite", sa.String(16), nullable=True, unique=True),
        sa.Column("hints", sa.Boolean, nullable=False),
        sa.Column("takeover_after", sa.Integer, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("bot_level", sa.String(16), nullable=True),
        sa.Column("left", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    op.create_table(
        "moves",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("move", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("text", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])
    op.create_table(
        "records",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("ruleset", sa.String(16), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("points", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("streak", sa.Integer, nullable=False, server_default="0"),
        sa.Column("best_streak", sa.Integer, nullable=False, server_default="0"),
        sa.Column("rated_games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("records", "chat", "moves", "seats", "tables", "sessions", "accounts"):
        op.drop_table(name)
