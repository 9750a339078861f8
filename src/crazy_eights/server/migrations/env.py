"""Alembic environment: runs on the app's connection, or on ``DATABASE_URL`` from the CLI."""

from __future__ import annotations

import os

import sqlalchemy as sa
from alembic import context

from crazy_eights.server.db import metadata


def _sync_url() -> str:
    url = context.config.get_main_option("sqlalchemy.url") or os.environ.get(
        "DATABASE_URL", "sqlite:///crazy-eights.db"
    )
    return url.replace("+aiosqlite", "").replace("+asyncpg", "+psycopg")


def _run(connection: sa.Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    with sa.create_engine(_sync_url()).connect() as conn:
        _run(conn)
        conn.commit()
