"""Tables hosted in chat channels (issue 21): ``tables.place`` and ``tables.unrated``;
``chat_names`` (the account a nick on a network plays as) and ``chat_links`` (the
one-time links ``!link`` hands out).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03

A chat host (``crazy-eights chat-host --db``) writes its tables to the room's database
with the channel they are played in (``place``); the card room lists them, follows them
for browser spectators and never runs them itself. A table with a player whose nick is
not linked to an account is ``unrated``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("place", sa.String(200), nullable=True))
        batch.add_column(
            sa.Column("unrated", sa.Boolean, nullable=False, server_default=sa.false())
        )
    op.create_index("ix_tables_place", "tables", ["place"])
    op.create_table(
        "chat_names",
        sa.Column("network", sa.String(200), primary_key=True),
        sa.Column("nick_key", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("linked", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "chat_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("network", sa.String(200), nullable=False),
        sa.Column("nick", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("chat_links")
    op.drop_table("chat_names")
    op.drop_index("ix_tables_place", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("unrated")
        batch.drop_column("place")
