"""Friends, their requests, blocks and the social settings (``friends.py``, ``blocks.py``,
``presence.py``).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03

``friends`` holds a friendship twice (one row from each side), so a list is one index
range; ``friend_requests`` one row per pending request (a request older than 30 days
counts as gone); ``blocks`` who keeps whom away; ``social`` each account's choices
(refuse all requests, appear offline) and when it was last seen.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _pair(first: str, second: str) -> list[sa.Column[int]]:
    return [
        sa.Column(first, sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column(second, sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    ]


def upgrade() -> None:
    op.create_table("friends", *_pair("account_id", "friend_id"), sa.Column("since", sa.Float))
    op.create_table(
        "friend_requests",
        *_pair("from_id", "to_id"),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_friend_requests_to_id", "friend_requests", ["to_id"])
    op.create_table(
        "blocks",
        *_pair("account_id", "blocked_id"),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "social",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("refuse_requests", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("appear_offline", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("last_seen", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("social")
    op.drop_index("ix_blocks_blocked_id", "blocks")
    op.drop_table("blocks")
    op.drop_index("ix_friend_requests_to_id", "friend_requests")
    op.drop_table("friend_requests")
    op.drop_table("friends")
