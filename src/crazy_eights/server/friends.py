"""Friends: requests by name or account, accept, decline, cancel, remove, and the social
settings (refuse every request, appear offline).

A friendship is two rows of ``friends`` (one from each side), so a list is one index
range. A request is one row of ``friend_requests``; one older than ``REQUEST_DAYS`` counts
as gone (and is deleted by the next change of either side). Guests and bots have no
friends. Every refusal is an ``ApiError`` with a code and a sentence, and changes nothing.

Changes are made one at a time in this process (a lock), and on PostgreSQL under a row
lock on both accounts, so two nodes racing cannot pass a limit. ``changed`` hears each
pair whose friendship or request changed, so presence and the live lists can follow.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Literal

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import db
from .auth import Account
from .errors import ApiError
from .records.accounts import account_named

MAX_FRIENDS = 200
MAX_OUTGOING = 20
REQUEST_DAYS = 30
REQUEST_SECONDS = REQUEST_DAYS * 86400
ASK_RATE = 0.2
"""Friend requests an account may send a second ..."""
ASK_BURST = 10.0
"""... in bursts of this many (beyond: 429 ``throttled``)."""
GUEST_REFUSAL = "register to add friends"

Changed = Callable[[int, int, str], None]
"""Told (account, other, what) after a change: ``asked``, ``friends``, ``declined``,
``cancelled``, ``removed``, or ``settings`` (the account's own, ``other`` itself)."""


class Person(BaseModel):
    """Someone on a friends list or a request: how the room shows them."""

    account: int
    name: str
    display_name: str
    avatar: str


class FriendOut(Person):
    since: float


class RequestOut(Person):
    at: float
    expires_at: float


class SocialSettings(BaseModel):
    """What an account chose: refuse every friend request; appear offline to friends."""

    model_config = ConfigDict(extra="forbid", strict=True)

    refuse_requests: bool = False
    appear_offline: bool = False


class Limits(BaseModel):
    friends: int = MAX_FRIENDS
    outgoing: int = MAX_OUTGOING
    request_days: int = REQUEST_DAYS


class FriendsOut(BaseModel):
    friends: list[FriendOut]
    incoming: list[RequestOut] = Field(description="requests sent to you, newest first")
    outgoing: list[RequestOut] = Field(description="your requests still pending")
    settings: SocialSettings
    limits: Limits = Limits()


class AskOut(BaseModel):
    status: Literal["asked", "friends"] = Field(
        description="friends: they had asked you, so you are friends now"
    )
    person: Person


def refuse_guest(account: Account) -> None:
    if account.guest:
        raise ApiError(403, "guest", f"Guests can't have friends: {GUEST_REFUSAL}.")


def _person(row: Any) -> Person:
    return Person(account=row.id, name=row.name, display_name=row.display_name, avatar=row.avatar)


class Friends:
    """Friend lists, requests and the social settings, on the database."""

    def __init__(self, engine: AsyncEngine, *, now: Callable[[], float] = db.now) -> None:
        self.engine = engine
        self.now = now
        self.changed: list[Changed] = []
        self.lock = asyncio.Lock()
        """Changes to friends and blocks are made one at a time in this process."""

    def _tell(self, account: int, other: int, what: str) -> None:
        for listener in self.changed:
            listener(account, other, what)

    async def find(self, *, name: str | None = None, account: int | None = None) -> Person:
        """The person with this account name (any case) or id (404 ``no_account``)."""
        row = await account_named(self.engine, name=name, account=account)
        if row.bot_level is not None:
            raise ApiError(
                422, "not_a_person", f"Bots have no friends, and {row.display_name} is a bot."
            )
        if row.guest:
            raise ApiError(
                422,
                "guest_target",
                f"Guests can have friends once they register, and {row.display_name} is a guest.",
            )
        return _person(row)

    # ---- reading ------------------------------------------------------------------

    async def listing(self, account: Account) -> FriendsOut:
        """Your friends (by name), requests to you and from you, and your settings."""
        refuse_guest(account)
        me, fresh = account.id, self.now() - REQUEST_SECONDS
        acc, fr, rq = db.accounts, db.friends, db.friend_requests
        async with self.engine.connect() as conn:
            friends = await conn.execute(
                sa.select(acc, fr.c.since)
                .join(fr, fr.c.friend_id == acc.c.id)
                .where(fr.c.account_id == me)
                .order_by(acc.c.name_key)
            )
            incoming = await conn.execute(
                sa.select(acc, rq.c.created_at)
                .join(rq, rq.c.from_id == acc.c.id)
                .where(rq.c.to_id == me, rq.c.created_at > fresh)
                .order_by(rq.c.created_at.desc())
            )
            outgoing = await conn.execute(
                sa.select(acc, rq.c.created_at)
                .join(rq, rq.c.to_id == acc.c.id)
                .where(rq.c.from_id == me, rq.c.created_at > fresh)
                .order_by(rq.c.created_at.desc())
            )
            settings = await _settings(conn, me)
        return FriendsOut(
            friends=[FriendOut(**_person(r).model_dump(), since=r.since or 0.0) for r in friends],
            incoming=[_request(r) for r in incoming],
            outgoing=[_request(r) for r in outgoing],
            settings=settings,
        )

    async def friend_ids(self, account_id: int) -> list[int]:
        """The accounts on this account's friends list."""
        query = sa.select(db.friends.c.friend_id).where(db.friends.c.account_id == account_id)
        async with self.engine.connect() as conn:
            return [int(r.friend_id) for r in await conn.execute(query)]

    async def sightings(self, accounts: Sequence[int]) -> dict[int, tuple[bool, float | None]]:
        """For each of the accounts with a ``social`` row: (appears offline, last seen)."""
        s = db.social
        query = sa.select(s.c.account_id, s.c.appear_offline, s.c.last_seen).where(
            s.c.account_id.in_(list(accounts))
        )
        async with self.engine.connect() as conn:
            return {
                int(r.account_id): (bool(r.appear_offline), r.last_seen)
                for r in await conn.execute(query)
            }

    async def mark_seen(self, account_id: int, at: float) -> None:
        """Note when the account was last online (its last socket closed)."""
        async with self.engine.begin() as conn:
            statement = db.dialect_insert(conn, db.social).values(
                account_id=account_id, last_seen=at
            )
            await conn.execute(
                statement.on_conflict_do_update(
                    index_elements=[db.social.c.account_id], set_={"last_seen": at}
                )
            )

    async def settings(self, account_id: int) -> SocialSettings:
        async with self.engine.connect() as conn:
            return await _settings(conn, account_id)

    async def save_settings(self, account: Account, settings: SocialSettings) -> SocialSettings:
        refuse_guest(account)
        values = settings.model_dump()
        async with self.engine.begin() as conn:
            statement = db.dialect_insert(conn, db.social).values(account_id=account.id, **values)
            await conn.execute(
                statement.on_conflict_do_update(
                    index_elements=[db.social.c.account_id], set_=values
                )
            )
        self._tell(account.id, account.id, "settings")
        return settings

    # ---- changing -----------------------------------------------------------------

    async def ask(self, account: Account, target: Person) -> AskOut:
        """Send a friend request; when they had asked you, you are friends at once."""
        refuse_guest(account)
        me, them = account.id, target.account
        if me == them:
            raise ApiError(422, "yourself", "You can't add yourself as a friend.")
        async with self.lock, self.engine.begin() as conn:
            await lock_accounts(conn, (me, them))
            await self._purge(conn, (me, them))
            if await _are_friends(conn, me, them):
                raise ApiError(
                    409, "already_friends", f"You are already friends with {target.display_name}."
                )
            if await blocked_either_way(conn, me, them):
                raise _refuses(target)
            if await _pending(conn, them, me):
                await self._befriend(conn, them, me, target)
                status: Literal["asked", "friends"] = "friends"
            else:
                await self._check_ask(conn, me, target)
                await conn.execute(
                    db.friend_requests.insert().values(
                        from_id=me, to_id=them, created_at=self.now()
                    )
                )
                status = "asked"
        self._tell(me, them, status)
        return AskOut(status=status, person=target)

    async def _check_ask(self, conn: AsyncConnection, me: int, target: Person) -> None:
        them = target.account
        if await _pending(conn, me, them):
            raise ApiError(409, "already_asked", f"You already asked {target.display_name}.")
        if (await _settings(conn, them)).refuse_requests:
            raise _refuses(target)
        outgoing = await _count(conn, db.friend_requests.c.from_id, me)
        if outgoing >= MAX_OUTGOING:
            raise ApiError(
                409,
                "too_many_requests",
                f"You have {outgoing} requests waiting (at most {MAX_OUTGOING}): "
                "cancel one or wait for an answer.",
            )
        if await _count(conn, db.friends.c.account_id, me) >= MAX_FRIENDS:
            raise _full_list(None)

    async def accept(self, account: Account, from_id: int) -> Person:
        """Accept a request sent to you (404 ``no_request`` without one)."""
        refuse_guest(account)
        other = await self.find(account=from_id)
        async with self.lock, self.engine.begin() as conn:
            await lock_accounts(conn, (account.id, from_id))
            await self._purge(conn, (account.id, from_id))
            if not await _pending(conn, from_id, account.id):
                raise _no_request(other)
            await self._befriend(conn, from_id, account.id, other)
        self._tell(account.id, from_id, "friends")
        return other

    async def _befriend(self, conn: AsyncConnection, asker: int, taker: int, other: Person) -> None:
        """Make ``asker`` and ``taker`` friends (both lists under the limit), their
        requests to each other answered."""
        for side in (taker, asker):
            if await _count(conn, db.friends.c.account_id, side) >= MAX_FRIENDS:
                raise _full_list(None if side == taker else other)
        rq = db.friend_requests
        await conn.execute(
            rq.delete().where(
                sa.or_(
                    sa.and_(rq.c.from_id == asker, rq.c.to_id == taker),
                    sa.and_(rq.c.from_id == taker, rq.c.to_id == asker),
                )
            )
        )
        since = self.now()
        await conn.execute(
            db.friends.insert(),
            [
                {"account_id": asker, "friend_id": taker, "since": since},
                {"account_id": taker, "friend_id": asker, "since": since},
            ],
        )

    async def decline(self, account: Account, from_id: int) -> None:
        """Turn down a request sent to you."""
        await self._drop_request(account, from_id, account.id, "declined")

    async def cancel(self, account: Account, to_id: int) -> None:
        """Take back a request you sent."""
        await self._drop_request(account, account.id, to_id, "cancelled")

    async def _drop_request(self, account: Account, from_id: int, to_id: int, what: str) -> None:
        refuse_guest(account)
        other = from_id if to_id == account.id else to_id
        rq = db.friend_requests
        async with self.lock, self.engine.begin() as conn:
            done = await conn.execute(
                rq.delete().where(
                    rq.c.from_id == from_id,
                    rq.c.to_id == to_id,
                    rq.c.created_at > self.now() - REQUEST_SECONDS,
                )
            )
        if done.rowcount != 1:
            raise _no_request(None)
        self._tell(account.id, other, what)

    async def remove(self, account: Account, friend_id: int) -> None:
        """End a friendship (on both lists)."""
        refuse_guest(account)
        fr = db.friends
        async with self.lock, self.engine.begin() as conn:
            done = await conn.execute(
                fr.delete().where(
                    sa.or_(
                        sa.and_(fr.c.account_id == account.id, fr.c.friend_id == friend_id),
                        sa.and_(fr.c.account_id == friend_id, fr.c.friend_id == account.id),
                    )
                )
            )
        if done.rowcount == 0:
            raise ApiError(404, "not_friends", "That player is not on your friends list.")
        self._tell(account.id, friend_id, "removed")

    async def _purge(self, conn: AsyncConnection, accounts: Sequence[int]) -> None:
        """Delete the expired requests from or to these accounts."""
        rq = db.friend_requests
        await conn.execute(
            rq.delete().where(
                rq.c.created_at <= self.now() - REQUEST_SECONDS,
                sa.or_(rq.c.from_id.in_(accounts), rq.c.to_id.in_(accounts)),
            )
        )


def _request(row: Any) -> RequestOut:
    return RequestOut(
        **_person(row).model_dump(), at=row.created_at, expires_at=row.created_at + REQUEST_SECONDS
    )


def _refuses(target: Person) -> ApiError:
    return ApiError(
        403,
        "refuses_requests",
        f"You can't send {target.display_name} a friend request: they don't take requests.",
    )


def _no_request(other: Person | None) -> ApiError:
    whose = f" from {other.display_name}" if other else ""
    return ApiError(404, "no_request", f"There is no pending friend request{whose}.")


def _full_list(other: Person | None) -> ApiError:
    if other is None:
        return ApiError(
            409,
            "friends_full",
            f"Your friends list is full ({MAX_FRIENDS}): remove a friend first.",
        )
    return ApiError(
        409, "friends_full", f"The friends list of {other.display_name} is full ({MAX_FRIENDS})."
    )


async def _settings(conn: AsyncConnection, account_id: int) -> SocialSettings:
    s = db.social
    row = (
        await conn.execute(
            sa.select(s.c.refuse_requests, s.c.appear_offline).where(s.c.account_id == account_id)
        )
    ).first()
    if row is None:
        return SocialSettings()
    return SocialSettings(refuse_requests=row.refuse_requests, appear_offline=row.appear_offline)


async def lock_accounts(conn: AsyncConnection, accounts: Sequence[int]) -> None:
    """On PostgreSQL, lock both accounts' rows (in id order), so that changes to the
    same people made on two nodes take turns; SQLite writes one at a time anyway."""
    if conn.dialect.name == "postgresql":
        await conn.execute(
            sa.select(db.accounts.c.id)
            .where(db.accounts.c.id.in_(sorted(accounts)))
            .order_by(db.accounts.c.id)
            .with_for_update()
        )


async def _count(conn: AsyncConnection, column: sa.Column[int], value: int) -> int:
    """How many rows of ``column``'s table have ``value`` in it."""
    query = sa.select(sa.func.count()).select_from(column.table).where(column == value)
    return int((await conn.execute(query)).scalar_one())


async def _are_friends(conn: AsyncConnection, a: int, b: int) -> bool:
    fr = db.friends
    query = sa.select(fr.c.since).where(fr.c.account_id == a, fr.c.friend_id == b)
    return (await conn.execute(query)).first() is not None


async def _pending(conn: AsyncConnection, from_id: int, to_id: int) -> bool:
    rq = db.friend_requests
    query = sa.select(rq.c.created_at).where(rq.c.from_id == from_id, rq.c.to_id == to_id)
    return (await conn.execute(query)).first() is not None


async def blocked_either_way(conn: AsyncConnection, a: int, b: int) -> bool:
    """Whether either of two accounts blocked the other (nothing may pass between them)."""
    bl = db.blocks
    query = sa.select(bl.c.created_at).where(
        sa.or_(
            sa.and_(bl.c.account_id == a, bl.c.blocked_id == b),
            sa.and_(bl.c.account_id == b, bl.c.blocked_id == a),
        )
    )
    return (await conn.execute(query)).first() is not None
