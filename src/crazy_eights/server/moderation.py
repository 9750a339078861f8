"""Moderation: moderator roles, mutes and bans, and the audit log of every action.

Moderators are accounts with the ``moderator`` role, granted on the command line
(``crazy-eights admin grant NAME moderator``). A mute refuses a person's chat lines at
tables until it ends; a ban ends every session of the person, refuses their sign-in
until it ends, and closes their open sockets with the reason. A new mute (or ban)
replaces the one in force. Every action (grant, revoke, mute, unmute, ban, unban, and
resolving a report in ``reports.py``) is written to the audit log in the transaction
that makes it: who, what, whom, why and when.

Each process keeps the sanctions in force in memory (``muted``, ``banned``), so a table's
chat check reads no database. A change made here is applied at once and told to every
other node on the bus (topic ``moderation``); every ``REFRESH_SECONDS`` the list is read
again, which also brings what an operator did on the command line (which has no bus).
A ban heard either way closes the person's sockets on this node (``on_ban``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Literal

import sqlalchemy as sa
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import db, tasks
from .bus import Bus
from .errors import ApiError
from .records.accounts import account_named

log = logging.getLogger(__name__)

ROLES = ("moderator",)
TOPIC = "moderation"
REFRESH_SECONDS = 15.0
"""How often the sanctions in force are read again (a command-line ban's sockets close
within this)."""
MAX_REASON = 500
MAX_MUTE_MINUTES = 30 * 24 * 60
MAX_BAN_DAYS = 3650
CLOSE_REASON_BYTES = 123
"""The most a WebSocket close reason may hold."""

Kind = Literal["mute", "ban"]
DONE: dict[str, str] = {"mute": "muted", "ban": "banned"}
OnBan = Callable[[int, str], None]
"""Told (account, words for the person) when a ban is heard: close their sockets."""


@dataclass(frozen=True)
class Actor:
    """Who acts: a moderator (their account), or an operator on the command line."""

    name: str
    account_id: int | None = None


class Person(BaseModel):
    """A person a moderator acts on."""

    account: int
    name: str
    display_name: str
    guest: bool = False
    bot: bool = False


class Sanction(BaseModel):
    """A mute or a ban in force (or, once ``lifted_at`` is set, lifted)."""

    id: int
    account: int
    name: str
    display_name: str
    kind: Kind
    reason: str
    created_at: float
    until: float
    by: str
    lifted_at: float | None = None
    lifted_by: str | None = None


class AuditEntry(BaseModel):
    """One line of the audit log."""

    id: int
    at: float
    actor: str
    actor_account: int | None
    action: str
    target: int | None
    target_name: str | None
    reason: str
    detail: str


def until_text(at: float) -> str:
    """A moment as people read it anywhere: ``2026-12-10 20:00 UTC``."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))


def ban_words(until: float, reason: str, *, whole: bool = False) -> str:
    """What a banned person is told (sign-in refused, sockets closed), cut to fit a
    WebSocket close reason unless ``whole``."""
    words = f"You are banned until {until_text(until)}: {reason}"
    raw = words.encode()
    if whole or len(raw) <= CLOSE_REASON_BYTES:
        return words
    return raw[: CLOSE_REASON_BYTES - 3].decode(errors="ignore") + "..."


def mute_words(until: float) -> str:
    return f"you are muted until {until_text(until)}: your chat lines are not sent"


def clean_reason(reason: str, *, required: bool = True) -> str:
    """A reason on one line, at most ``MAX_REASON`` characters (422 when missing)."""
    text = " ".join(reason.split())
    if required and not text:
        raise ApiError(422, "no_reason", "Give a reason: it goes to the audit log.")
    if len(text) > MAX_REASON:
        raise ApiError(422, "reason_too_long", f"A reason is at most {MAX_REASON} characters.")
    return text


def _person(row: Any) -> Person:
    return Person(
        account=row.id,
        name=row.name,
        display_name=row.display_name,
        guest=bool(row.guest),
        bot=row.bot_level is not None,
    )


def _sanction(row: Any) -> Sanction:
    return Sanction(
        id=row.id,
        account=row.account_id,
        name=row.name,
        display_name=row.display_name,
        kind=row.kind,
        reason=row.reason,
        created_at=row.created_at,
        until=row.until,
        by=row.by_name,
        lifted_at=row.lifted_at,
        lifted_by=row.lifted_by,
    )


async def write_audit(
    conn: AsyncConnection,
    actor: Actor,
    action: str,
    target: Person | None,
    *,
    reason: str,
    detail: str = "",
    at: float,
) -> None:
    """One line of the audit log, in the caller's transaction."""
    await conn.execute(
        db.moderation_audit.insert().values(
            at=at,
            actor_id=actor.account_id,
            actor_name=actor.name[:64],
            action=action,
            target_id=None if target is None else target.account,
            target_name=None if target is None else target.name,
            reason=reason,
            detail=detail[:200],
        )
    )


def _sanctions_query() -> sa.Select[Any]:
    s, acc = db.sanctions, db.accounts
    return sa.select(s, acc.c.name, acc.c.display_name).join(acc, acc.c.id == s.c.account_id)


class Moderation:
    """Roles, sanctions and the audit log on the database; the sanctions in force on
    this process."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        bus: Bus | None = None,
        now: Callable[[], float] = db.now,
    ) -> None:
        self.engine = engine
        self.bus = bus
        self.now = now
        self.on_ban: list[OnBan] = []
        self._in_force: dict[tuple[int, str], Sanction] = {}
        self._me = secrets.token_hex(6)  # this process's own messages on the bus
        self._tasks: list[asyncio.Task[None]] = []

    # ---- people and roles ---------------------------------------------------------

    async def find(self, *, name: str | None = None, account: int | None = None) -> Person:
        """The person with this account name (any case) or id (404 ``no_account``)."""
        row = await account_named(self.engine, name=name, account=account)
        return _person(row)

    async def roles_of(self, account_id: int) -> list[str]:
        r = db.account_roles
        query = sa.select(r.c.role).where(r.c.account_id == account_id).order_by(r.c.role)
        async with self.engine.connect() as conn:
            return [str(row.role) for row in await conn.execute(query)]

    async def is_moderator(self, account_id: int) -> bool:
        return "moderator" in await self.roles_of(account_id)

    async def grant(self, actor: Actor, target: Person, role: str) -> bool:
        """Give ``target`` a role (False: they had it already). Bots and guests can't
        moderate."""
        _check_role(role)
        if target.bot or target.guest:
            kind = "a bot" if target.bot else "a guest"
            raise ApiError(
                422, "not_a_member", f"{target.name} is {kind}: only members can be {role}s."
            )
        r = db.account_roles
        now = self.now()
        async with self.engine.begin() as conn:
            held = sa.select(r.c.role).where(r.c.account_id == target.account, r.c.role == role)
            if (await conn.execute(held)).first() is not None:
                return False
            await conn.execute(
                r.insert().values(
                    account_id=target.account, role=role, granted_at=now, granted_by=actor.name
                )
            )
            await write_audit(conn, actor, "grant", target, reason="", detail=role, at=now)
        return True

    async def revoke(self, actor: Actor, target: Person, role: str) -> None:
        """Take a role back (404 ``no_role`` when they do not have it)."""
        _check_role(role)
        r = db.account_roles
        now = self.now()
        async with self.engine.begin() as conn:
            done = await conn.execute(
                r.delete().where(r.c.account_id == target.account, r.c.role == role)
            )
            if done.rowcount != 1:
                raise ApiError(404, "no_role", f"{target.name} is not a {role}.")
            await write_audit(conn, actor, "revoke", target, reason="", detail=role, at=now)

    # ---- sanctions ----------------------------------------------------------------

    async def sanction(
        self, actor: Actor, target: Person, kind: Kind, seconds: float, reason: str
    ) -> Sanction:
        """Mute or ban ``target`` for ``seconds`` (replacing one in force). A ban also
        ends every session of theirs. Refused: yourself, a bot, another moderator (from
        the moderators' page: an operator may), no reason."""
        reason = clean_reason(reason)
        if seconds <= 0:
            raise ApiError(422, "bad_duration", "The duration must be more than zero.")
        if actor.account_id == target.account:
            raise ApiError(422, "yourself", f"You can't {kind} yourself.")
        if target.bot:
            raise ApiError(
                422, "not_a_person", f"{target.name} is a bot: bots can't be {DONE[kind]}."
            )
        if actor.account_id is not None and await self.is_moderator(target.account):
            raise ApiError(
                403,
                "moderator_target",
                f"{target.name} is a moderator: only an operator can {kind} them "
                "(crazy-eights admin).",
            )
        now = self.now()
        until = now + seconds
        s = db.sanctions
        async with self.engine.begin() as conn:
            await self._end(conn, target.account, kind, actor, now)
            result = await conn.execute(
                s.insert().values(
                    account_id=target.account,
                    kind=kind,
                    reason=reason,
                    created_at=now,
                    until=until,
                    by_name=actor.name[:64],
                )
            )
            if kind == "ban":
                await conn.execute(
                    db.sessions.delete().where(db.sessions.c.account_id == target.account)
                )
            detail = f"until {until_text(until)}"
            await write_audit(conn, actor, kind, target, reason=reason, detail=detail, at=now)
        made = Sanction(
            id=int(result.inserted_primary_key[0]),  # type: ignore[index]
            account=target.account,
            name=target.name,
            display_name=target.display_name,
            kind=kind,
            reason=reason,
            created_at=now,
            until=until,
            by=actor.name[:64],
        )
        self._tell({"what": "sanction", "sanction": made.model_dump()})
        return made

    async def lift(self, actor: Actor, target: Person, kind: Kind, reason: str = "") -> None:
        """End the mute (or ban) in force (404 ``not_muted`` / ``not_banned``)."""
        reason = clean_reason(reason, required=False)
        now = self.now()
        async with self.engine.begin() as conn:
            if not await self._end(conn, target.account, kind, actor, now):
                raise ApiError(404, f"not_{DONE[kind]}", f"{target.name} is not {DONE[kind]} now.")
            await write_audit(conn, actor, f"un{kind}", target, reason=reason, at=now)
        self._tell({"what": "lift", "account": target.account, "kind": kind})

    async def _end(
        self, conn: AsyncConnection, account: int, kind: Kind, actor: Actor, now: float
    ) -> bool:
        """Lift the sanctions of this kind in force; whether there was any."""
        s = db.sanctions
        done = await conn.execute(
            s.update()
            .where(
                s.c.account_id == account,
                s.c.kind == kind,
                s.c.lifted_at.is_(None),
                s.c.until > now,
            )
            .values(lifted_at=now, lifted_by=actor.name[:64])
        )
        return bool(done.rowcount)

    async def in_force(self) -> list[Sanction]:
        """Every mute and ban in force now, the newest first."""
        s = db.sanctions
        query = (
            _sanctions_query()
            .where(s.c.lifted_at.is_(None), s.c.until > self.now())
            .order_by(s.c.created_at.desc())
        )
        async with self.engine.connect() as conn:
            return [_sanction(row) for row in await conn.execute(query)]

    async def ban_of(self, account_id: int) -> Sanction | None:
        """The ban in force on this account, read from the database (sign-in asks)."""
        s = db.sanctions
        query = _sanctions_query().where(
            s.c.account_id == account_id,
            s.c.kind == "ban",
            s.c.lifted_at.is_(None),
            s.c.until > self.now(),
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else _sanction(row)

    def muted(self, account_id: int) -> str | None:
        """Why this account may not chat now (None: it may), from memory."""
        mute = self._current(account_id, "mute")
        return None if mute is None else mute_words(mute.until)

    def banned(self, account_id: int) -> str | None:
        """What a banned account is told (None: not banned), from memory."""
        ban = self._current(account_id, "ban")
        return None if ban is None else ban_words(ban.until, ban.reason)

    def _current(self, account_id: int, kind: str) -> Sanction | None:
        found = self._in_force.get((account_id, kind))
        if found is None or found.until <= self.now():
            return None
        return found

    # ---- the audit log -------------------------------------------------------------

    async def audit_log(self, *, limit: int = 100, before: int | None = None) -> list[AuditEntry]:
        """The newest lines of the audit log (those before id ``before``, to page back)."""
        a = db.moderation_audit
        query = sa.select(a).order_by(a.c.id.desc()).limit(limit)
        if before is not None:
            query = query.where(a.c.id < before)
        async with self.engine.connect() as conn:
            return [
                AuditEntry(
                    id=row.id,
                    at=row.at,
                    actor=row.actor_name,
                    actor_account=row.actor_id,
                    action=row.action,
                    target=row.target_id,
                    target_name=row.target_name,
                    reason=row.reason,
                    detail=row.detail,
                )
                for row in await conn.execute(query)
            ]

    # ---- this process's picture ----------------------------------------------------

    def _tell(self, message: dict[str, Any]) -> None:
        """Apply a change here now, and tell the other nodes."""
        self._apply(message)
        if self.bus is not None:
            self.bus.publish(TOPIC, {**message, "from": self._me})

    def _apply(self, message: dict[str, Any]) -> None:
        if message.get("what") == "sanction":
            made = Sanction.model_validate(message["sanction"])
            key = (made.account, made.kind)
            before = self._in_force.get(key)
            self._in_force[key] = made
            if made.kind == "ban" and (before is None or before.id != made.id):
                self._banned(made)
        elif message.get("what") == "lift":
            self._in_force.pop((int(message["account"]), str(message["kind"])), None)

    def _banned(self, ban: Sanction) -> None:
        words = ban_words(ban.until, ban.reason)
        for listener in self.on_ban:
            try:
                listener(ban.account, words)
            except Exception:
                log.warning("closing a banned person's sockets failed", exc_info=True)

    async def refresh(self) -> None:
        """Read the sanctions in force again; bans not known before close sockets."""
        fresh: dict[tuple[int, str], Sanction] = {
            (s.account, s.kind): s for s in await self.in_force()
        }
        known = {s.id for s in self._in_force.values()}
        self._in_force = fresh
        for found in fresh.values():
            if found.kind == "ban" and found.id not in known:
                self._banned(found)

    async def start(self) -> None:
        """Read what is in force, then follow the bus and read again now and then."""
        if self.bus is not None:
            updates = self.bus.subscribe(TOPIC)  # registered now: nothing after is missed
            self._tasks.append(asyncio.create_task(self._relay(updates)))
        await self.refresh()
        self._tasks.append(asyncio.create_task(self._refresh_forever()))

    async def stop(self) -> None:
        await tasks.stop(*self._tasks)
        self._tasks = []

    async def _relay(self, updates: AsyncIterator[dict[str, Any]]) -> None:
        async for message in updates:
            if message.get("from") == self._me:
                continue
            try:
                self._apply(message)
            except (KeyError, ValueError):
                log.warning("a moderation message that makes no sense: %r", message)

    async def _refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            try:
                await self.refresh()
            except Exception:
                log.warning("reading the sanctions in force failed", exc_info=True)


def _check_role(role: str) -> None:
    if role not in ROLES:
        known = ", ".join(ROLES)
        raise ApiError(422, "no_such_role", f"There is no role {role!r}: roles are {known}.")
