"""Finding 3, the migration: a database that already holds names differing only in case
(made by the old race) upgrades without failing. The oldest account keeps the name; each
later one is renamed ``<name>-<id>`` (its records, sessions and display name stay)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import command

from crazy_eights.server import ServerSettings, db

OLD_NAMES = ("caseXy2", "CASEXY2", "Casexy2", "alone", "casexy2-2")


def _on(url: str, work: Callable[[sa.Connection], Any]) -> Any:
    """Run ``work`` on a connection to ``url`` in one transaction."""

    async def run() -> Any:
        engine = db.make_engine(ServerSettings(database_url=url).sqlalchemy_url())
        try:
            async with engine.begin() as connection:
                return await connection.run_sync(work)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def _old_database(connection: sa.Connection) -> None:
    command.upgrade(db.alembic_config(connection), "0002")
    for name in OLD_NAMES:
        connection.execute(
            sa.text(
                "INSERT INTO accounts (name, display_name, guest, created_at) "
                "VALUES (:name, :name, false, 0)"
            ),
            {"name": name},
        )


def _rows(connection: sa.Connection) -> dict[int, tuple[str, str]]:
    rows = connection.execute(sa.text("SELECT id, name, name_key FROM accounts ORDER BY id"))
    return {row.id: (row.name, row.name_key) for row in rows}


def _second_spelling(connection: sa.Connection) -> str:
    try:
        with connection.begin_nested():
            connection.execute(
                sa.text(
                    "INSERT INTO accounts (name, name_key, display_name, guest, created_at) "
                    "VALUES ('ALONE', 'alone', 'x', false, 0)"
                )
            )
    except sa.exc.IntegrityError:
        return "refused"
    return "inserted"


def test_upgrading_a_database_with_case_duplicates(empty_database_url: str) -> None:
    _on(empty_database_url, _old_database)
    _on(empty_database_url, lambda c: command.upgrade(db.alembic_config(c), "head"))
    rows = _on(empty_database_url, _rows)
    assert rows[1] == ("caseXy2", "casexy2")  # the oldest keeps its name
    assert rows[2] == ("CASEXY2-2-2", "casexy2-2-2")  # "CASEXY2-2" reads as row 5's name
    assert rows[3] == ("Casexy2-3", "casexy2-3")
    assert rows[4] == ("alone", "alone")
    assert rows[5] == ("casexy2-2", "casexy2-2")  # an existing name is never taken over
    assert _on(empty_database_url, _second_spelling) == "refused"


def test_downgrade_drops_the_key(empty_database_url: str) -> None:
    def there_and_back(connection: sa.Connection) -> set[str]:
        command.upgrade(db.alembic_config(connection), "head")
        command.downgrade(db.alembic_config(connection), "0002")
        return {c["name"] for c in sa.inspect(connection).get_columns("accounts")}

    assert "name_key" not in _on(empty_database_url, there_and_back)
