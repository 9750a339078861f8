"""Blocking: keep someone away. A blocked person can't send you friend requests (the
check is in ``friends.py``), their chat (and reactions) at a table are not sent to you
(``Member.hides``, read when your table socket opens), and quick play never seats you
together (``pairs_among``, asked by the matchmaker before it groups a queue).

Blocking also ends a friendship and any request between the two. Anyone signed in may
block (guests too: strangers meet in quick play), anyone but themselves and the bots.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import sqlalchemy as sa
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import db
from .auth import Account
from .errors import ApiError
from .friends import lock_accounts

MAX_BLOCKS = 1000

Changed = Callable[[int, int, str], None]
"""Told (account, other, ``blocked`` or ``unblocked``) after a change."""


class Blocked(BaseModel):
    account: int
    name: str
    display_name: str
    since: float


class Blocks:
    """Who keeps whom away, on the database."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        lock: asyncio.Lock | None = None,
        now: Callable[[], float] = db.now,
    ) -> None:
        self.engine = engine
        self.now = now
        self.changed: list[Changed] = []
        self._lock = lock or asyncio.Lock()
        """Shared with ``friends.Friends``: a block and a request never interleave."""

    async def listing(self, account: Account) -> list[Blocked]:
        """The people this account blocked, by name."""
        acc, bl = db.accounts, db.blocks
        query = (
            sa.select(acc.c.id, acc.c.name, acc.c.display_name, bl.c.created_at)
            .join(bl, bl.c.blocked_id == acc.c.id)
            .where(bl.c.account_id == account.id)
            .order_by(acc.c.name_key)
        )
        async with self.engine.connect() as conn:
            return [
                Blocked(account=r.id, name=r.name, display_name=r.display_name, since=r.created_at)
                for r in await conn.execute(query)
            ]

    async def block(self, account: Account, target: int) -> Blocked:
        """Block ``target`` (404 unknown, 422 yourself or a bot, 409 already or full);
        their friendship and requests with ``account`` end."""
        me = account.id
        if me == target:
            raise ApiError(422, "yourself", "You can't block yourself.")
        async with self._lock, self.engine.begin() as conn:
            await lock_accounts(conn, (me, target))
            row = (
                await conn.execute(sa.select(db.accounts).where(db.accounts.c.id == target))
            ).first()
            if row is None:
                raise ApiError(404, "no_account", f"There is no player with account {target}.")
            if row.bot_level is not None:
                raise ApiError(
                    422, "not_a_person", f"Bots can't be blocked, and {row.display_name} is a bot."
                )
            bl = db.blocks
            held = sa.select(bl.c.created_at).where(
                bl.c.account_id == me, bl.c.blocked_id == target
            )
            if (await conn.execute(held)).first() is not None:
                raise ApiError(409, "already_blocked", f"You already blocked {row.display_name}.")
            count = sa.select(sa.func.count()).select_from(bl).where(bl.c.account_id == me)
            if int((await conn.execute(count)).scalar_one()) >= MAX_BLOCKS:
                raise ApiError(
                    409, "blocks_full", f"You blocked {MAX_BLOCKS} people: unblock someone first."
                )
            since = self.now()
            await conn.execute(
                bl.insert().values(account_id=me, blocked_id=target, created_at=since)
            )
            await _part(conn, me, target)
        for listener in self.changed:
            listener(me, target, "blocked")
        return Blocked(account=target, name=row.name, display_name=row.display_name, since=since)

    async def unblock(self, account: Account, target: int) -> None:
        bl = db.blocks
        async with self._lock, self.engine.begin() as conn:
            done = await conn.execute(
                bl.delete().where(bl.c.account_id == account.id, bl.c.blocked_id == target)
            )
        if done.rowcount != 1:
            raise ApiError(404, "not_blocked", "You have not blocked that player.")
        for listener in self.changed:
            listener(account.id, target, "unblocked")

    async def blocked_by(self, account_id: int) -> list[int]:
        """The accounts ``account_id`` blocked (whose chat it does not want)."""
        bl = db.blocks
        query = sa.select(bl.c.blocked_id).where(bl.c.account_id == account_id)
        async with self.engine.connect() as conn:
            return [int(r.blocked_id) for r in await conn.execute(query)]

    async def pairs_among(self, accounts: Sequence[int]) -> set[frozenset[int]]:
        """The pairs of these accounts where one blocked the other (kept apart)."""
        if len(accounts) < 2:
            return set()
        bl = db.blocks
        ids = list(accounts)
        query = sa.select(bl.c.account_id, bl.c.blocked_id).where(
            bl.c.account_id.in_(ids), bl.c.blocked_id.in_(ids)
        )
        async with self.engine.connect() as conn:
            return {frozenset((r.account_id, r.blocked_id)) for r in await conn.execute(query)}


async def _part(conn: AsyncConnection, a: int, b: int) -> None:
    """End the friendship and the requests between ``a`` and ``b`` (either way)."""
    fr, rq = db.friends, db.friend_requests
    await conn.execute(
        fr.delete().where(
            sa.or_(
                sa.and_(fr.c.account_id == a, fr.c.friend_id == b),
                sa.and_(fr.c.account_id == b, fr.c.friend_id == a),
            )
        )
    )
    await conn.execute(
        rq.delete().where(
            sa.or_(
                sa.and_(rq.c.from_id == a, rq.c.to_id == b),
                sa.and_(rq.c.from_id == b, rq.c.to_id == a),
            )
        )
    )
