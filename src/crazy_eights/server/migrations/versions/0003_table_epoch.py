"""Fencing tokens: the epoch of a table's owner, on the table and on each move.

In cluster mode a node that takes a table over gives it a new epoch, and on PostgreSQL a
trigger refuses any move written under another epoch than the table's: a node that has
lost its lease can never commit a move. The trigger locks the table's row (FOR SHARE),
so a takeover waits for a move being written under the old epoch, and a move written
after a takeover is refused.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

FENCE = """
CREATE OR REPLACE FUNCTION ce_fence_move() RETURNS trigger AS $$
BEGIN
    IF NEW.epoch IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM tables WHERE id = NEW.table_id AND epoch = NEW.epoch FOR SHARE
    ) THEN
        RAISE EXCEPTION 'table % is not owned under epoch %', NEW.table_id, NEW.epoch
            USING ERRCODE = 'P0001', HINT = 'fenced';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
"""


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("epoch", sa.BigInteger, nullable=True))
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("epoch", sa.BigInteger, nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        op.execute(FENCE)
        op.execute(
            "CREATE TRIGGER ce_fence_move BEFORE INSERT ON moves "
            "FOR EACH ROW EXECUTE FUNCTION ce_fence_move()"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS ce_fence_move ON moves")
        op.execute("DROP FUNCTION IF EXISTS ce_fence_move()")
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("epoch")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("epoch")
