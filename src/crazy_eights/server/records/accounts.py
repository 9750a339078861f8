"""An account looked up by the name or id a request names, for the services that act on
a person (friends, moderation): one query and one "no such player" answer."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from .. import db, names
from ..errors import ApiError


async def account_named(
    engine: AsyncEngine, *, name: str | None = None, account: int | None = None
) -> sa.Row[Any]:
    """The account row with this name (any case) or id; 404 ``no_account`` if none."""
    query = sa.select(db.accounts)
    if name is not None:
        query = query.where(db.accounts.c.name_key == names.name_key(name))
    else:
        query = query.where(db.accounts.c.id == account)
    async with engine.connect() as conn:
        row = (await conn.execute(query)).first()
    if row is None:
        who = f"named {name!r}" if name is not None else f"with account {account}"
        raise ApiError(404, "no_account", f"There is no player {who}.")
    return row
