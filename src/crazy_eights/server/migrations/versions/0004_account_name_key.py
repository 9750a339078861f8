"""Account names unique whatever their case or Unicode form: ``accounts.name_key``.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07

``name_key`` is the name NFKC-normalised and case-folded, under a unique index, so two
spellings of one name can no longer both be created, not even at the same moment.

Existing rows get their key here. Where names already collide (made by the race this
closes), the oldest account (lowest id) keeps the name and each later one is renamed
``<name>-<id>`` (with ``-2``, ``-3``... added if that is taken too): nothing is lost (records,
sessions and display names stay), and each rename is logged as a warning so the operator
can tell its owner. Before, such owners could not sign in at all: the sign-in found the
oldest account.

The column is nullable in the schema because SQLite cannot add a NOT NULL column to a
table that others reference without rebuilding it; the application always sets it.
"""

from __future__ import annotations

import logging
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")

NAME_MAX = 32


def _key(name: str) -> str:
    # Fixed here rather than imported, so this migration keeps meaning what it meant.
    return unicodedata.normalize("NFKC", name).casefold()


def _free_name(name: str, account_id: int, taken: set[str]) -> str:
    """``name-ID`` (or ``name-ID-2``, ...) cut to fit, whose key nobody holds."""
    for n in range(1, 1000):
        suffix = f"-{account_id}" + (f"-{n}" if n > 1 else "")
        candidate = name[: NAME_MAX - len(suffix)] + suffix
        if _key(candidate) not in taken:
            return candidate
    raise RuntimeError(f"no free name for account {account_id}")  # pragma: no cover


def upgrade() -> None:
    op.add_column("accounts", sa.Column("name_key", sa.String(64), nullable=True))
    accounts = sa.table(
        "accounts",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
    )
    bind = op.get_bind()
    rows = bind.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id)).all()
    taken = {_key(row.name) for row in rows}
    kept: set[str] = set()
    for row in rows:
        name, key = row.name, _key(row.name)
        if key in kept:
            name = _free_name(row.name, row.id, taken)
            key = _key(name)
            taken.add(key)
            log.warning(
                "account %d: name %r renamed %r (it differed only in case)", row.id, row.name, name
            )
        kept.add(key)
        bind.execute(
            accounts.update().where(accounts.c.id == row.id).values(name=name, name_key=key)
        )
    op.create_index("ux_accounts_name_key", "accounts", ["name_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_accounts_name_key", table_name="accounts")
    op.drop_column("accounts", "name_key")
