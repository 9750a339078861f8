"""Chat names: the account a nick on a chat network plays as, and the one-time links
(``!link``) that tie a nick to a person's account.

A nick the room has not seen plays as a *chat guest*, a guest account of its own shown
by the nick (its games are in the history and replays, unrated). ``!link`` hands the
nick a one-time link (kept here as a hash, with an expiry); whoever opens it while
signed in claims the nick on that network: from then on the nick's games are that
account's (records, ratings, achievements). A network is named as the chat host names
it (``irc:irc.example.net``), a nick by ``nick_key`` (case folded), so ``Alice`` and
``alice`` are one name, as IRC has it.

Nicks are only as safe as the network keeps them: on a network without nick
registration, whoever takes a linked nick plays as its account (``docs/chat.md``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import db, names
from .auth import token_hash
from .errors import ApiError

LINK_SECONDS = 900.0
"""How long a link is good for."""
GUEST_TRIES = 4
"""Names tried for a new chat guest before giving up (a clash is one in 2**32)."""


def nick_key(nick: str) -> str:
    """The key a nick is kept under: case folded, at most 64 characters."""
    return nick.casefold()[:64]


@dataclass(frozen=True)
class ChatName:
    """Who a nick plays as: the account, and whether a person linked it (else a chat
    guest's)."""

    account_id: int
    linked: bool


@dataclass(frozen=True)
class LinkOffer:
    """What a link would do, as the page shows it before it is used."""

    network: str
    nick: str
    expires_at: float


class ChatNames:
    """The accounts chat nicks play as, and their links."""

    def __init__(self, engine: AsyncEngine, *, link_seconds: float = LINK_SECONDS) -> None:
        self.engine = engine
        self.link_seconds = link_seconds

    async def account_of(self, network: str, nick: str) -> ChatName:
        """The account ``nick`` plays as on ``network``, made (a chat guest) on first
        sight; two hosts seeing a nick at once agree on one account."""
        key = nick_key(nick)
        found = await self._find(network, key)
        if found is not None:
            return found
        async with self.engine.begin() as conn:
            account_id = await _new_guest(conn, nick)
            insert = db.dialect_insert(conn, db.chat_names).on_conflict_do_nothing()
            await conn.execute(
                insert.values(
                    network=network,
                    nick_key=key,
                    account_id=account_id,
                    linked=False,
                    created_at=db.now(),
                )
            )
        found = await self._find(network, key)
        assert found is not None
        return found

    async def _find(self, network: str, key: str) -> ChatName | None:
        query = sa.select(db.chat_names).where(
            db.chat_names.c.network == network, db.chat_names.c.nick_key == key
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else ChatName(int(row.account_id), bool(row.linked))

    async def offer_link(self, network: str, nick: str) -> str:
        """A new one-time link token for ``nick`` on ``network`` (only its hash is kept)."""
        token = secrets.token_urlsafe(24)
        now = db.now()
        async with self.engine.begin() as conn:
            # links past their time are of no use to anyone: they go as new ones come
            await conn.execute(db.chat_links.delete().where(db.chat_links.c.expires_at < now))
            await conn.execute(
                db.chat_links.insert().values(
                    token_hash=token_hash(token),
                    network=network,
                    nick=nick[:64],
                    created_at=now,
                    expires_at=now + self.link_seconds,
                )
            )
        return token

    async def offer(self, token: str) -> LinkOffer:
        """What the link ``token`` would link (404 ``no_link`` when it is unknown, used
        or expired)."""
        async with self.engine.connect() as conn:
            row = await _usable(conn, token)
        return LinkOffer(network=row.network, nick=row.nick, expires_at=row.expires_at)

    async def redeem(self, token: str, account_id: int, *, guest: bool) -> LinkOffer:
        """Use the link: the nick plays as ``account_id`` from now on. A guest account
        may not claim a nick (403 ``guest_account``); a link works once (404 ``no_link``
        after)."""
        if guest:
            raise ApiError(403, "guest_account", "Make your guest account a full one first.")
        async with self.engine.begin() as conn:
            row = await _usable(conn, token)
            used = await conn.execute(
                db.chat_links.update()
                .where(
                    db.chat_links.c.token_hash == row.token_hash, db.chat_links.c.used_at.is_(None)
                )
                .values(used_at=db.now())
            )
            if not used.rowcount:
                raise _no_link()
            await _claim(conn, row.network, nick_key(row.nick), account_id)
        return LinkOffer(network=row.network, nick=row.nick, expires_at=row.expires_at)


async def _usable(conn: AsyncConnection, token: str) -> Any:
    """The link row of ``token`` if it may still be used."""
    query = sa.select(db.chat_links).where(
        db.chat_links.c.token_hash == token_hash(token),
        db.chat_links.c.used_at.is_(None),
        db.chat_links.c.expires_at > db.now(),
    )
    row = (await conn.execute(query)).first()
    if row is None:
        raise _no_link()
    return row


def _no_link() -> ApiError:
    return ApiError(404, "no_link", "This link is unknown, used or expired: say !link again.")


async def _claim(conn: AsyncConnection, network: str, key: str, account_id: int) -> None:
    """The nick plays as ``account_id`` (linked) from now on."""
    insert = db.dialect_insert(conn, db.chat_names)
    await conn.execute(
        insert.values(
            network=network, nick_key=key, account_id=account_id, linked=True, created_at=db.now()
        ).on_conflict_do_update(
            index_elements=["network", "nick_key"],
            set_={"account_id": account_id, "linked": True},
        )
    )


async def _new_guest(conn: AsyncConnection, nick: str) -> int:
    """A chat guest's account, shown by the nick (a guest name of its own)."""
    for _ in range(GUEST_TRIES):
        name = f"guest-{secrets.token_hex(4)}"
        exists = sa.select(db.accounts.c.id).where(db.accounts.c.name == name)
        if (await conn.execute(exists)).first() is not None:
            continue
        result = await conn.execute(
            db.accounts.insert().values(
                name=name,
                name_key=names.name_key(name),
                display_name=nick[:40],
                avatar="default",
                password_hash=None,
                guest=True,
                created_at=db.now(),
            )
        )
        return int(result.inserted_primary_key[0])  # type: ignore[index]
    raise ApiError(503, "busy", "No free guest name was found; try again.")
