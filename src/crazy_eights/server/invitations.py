"""Invitations and challenges between friends.

An *invitation* asks a friend to a table the sender sits at: the table holds an empty
seat for them (``table/holds.py``) for ``hold_seconds``, and they get a live notice with
Join and Decline. A *challenge* asks a friend to a new game of a ruleset, number of
players and length: on accept a table is made with both seated and bots in the other
seats, dealt at once, and both are told where it is.

Notices travel as messages to the people's lobby sockets through ``tell`` (presence's
bus, so on every node of a cluster); the rows are in the database, so an answer may come
to any node. Only friends may invite or challenge each other, and a block either way
refuses it. When a held seat ends without its invitee (another took it, time ran out, the
game started) the table says so (``released``) and those invitations are withdrawn.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Literal

import sqlalchemy as sa
from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import db
from .auth import Account
from .errors import ApiError
from .friends import Person, blocked_either_way
from .lengths import Length, length_settings
from .lobby import make_rules, player
from .protocol import TableInfo
from .table import ops
from .table.store import Spec
from .tables import Tables

HOLD_SECONDS = 60.0
MAX_PENDING = 20
"""Open invitations and challenges one person may have sent at once."""
INVITE_RATE = 0.5
"""Invitations and challenges a person may send a second ..."""
INVITE_BURST = 5.0
"""... in bursts of this many (beyond: 429 ``throttled``)."""
BOT_LEVEL = "heuristic"
"""The bots that fill a challenge's other seats."""

Tell = Callable[[Sequence[int], dict[str, Any]], None]
"""Sends one message to these accounts' lobby sockets, wherever they are."""


class Invitation(BaseModel):
    """An invitation or challenge as its two people see it."""

    id: int
    kind: Literal["invite", "challenge"]
    sender: Person = Field(serialization_alias="from")
    to: Person
    table: str | None = Field(description="the table (an invitation's; a challenge's once made)")
    table_name: str | None = None
    rules: dict[str, Any] | None = Field(
        default=None, description="a challenge's ruleset, players and length"
    )
    status: Literal["pending", "accepted", "declined", "withdrawn"]
    expires_at: float
    expires_in: float = Field(description="seconds it stays open (from when it was sent out)")


class Invitations:
    """Sending, answering and withdrawing invitations and challenges."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        tables: Callable[[], Tables],
        tell: Tell,
        hold_seconds: float = HOLD_SECONDS,
        now: Callable[[], float] = db.now,
    ) -> None:
        self.engine = engine
        self.tables = tables
        self.tell = tell
        self.hold_seconds = hold_seconds
        self.now = now
        self._pending: set[asyncio.Task[None]] = set()

    # ---- sending ---------------------------------------------------------------------

    async def invite(self, account: Account, target: int, table_id: str) -> Invitation:
        """Hold a seat at ``table_id`` (where ``account`` sits) for friend ``target`` and
        tell them; asked again while open, the same invitation is renewed."""
        async with self.engine.connect() as conn:
            other = await self._check_pair(conn, account, target)
        handle = await self.tables().handle(table_id)
        if handle is None:
            raise ApiError(404, "no_table", "no such open table")
        info: TableInfo = await handle.request(
            ops.Hold(account.id, _as_player(other), self.hold_seconds)
        )
        now = self.now()
        iv = db.invitations
        async with self.engine.begin() as conn:
            same = sa.select(iv.c.id).where(
                iv.c.from_id == account.id,
                iv.c.to_id == target,
                iv.c.table_id == table_id,
                iv.c.status == "pending",
            )
            row = (await conn.execute(same)).first()
            values = {"created_at": now, "expires_at": now + self.hold_seconds}
            if row is not None:
                await conn.execute(iv.update().where(iv.c.id == row.id).values(**values))
                number = int(row.id)
            else:
                made = await conn.execute(
                    iv.insert().values(
                        kind="invite",
                        from_id=account.id,
                        to_id=target,
                        table_id=table_id,
                        status="pending",
                        **values,
                    )
                )
                number = int(made.inserted_primary_key[0])  # type: ignore[index]
        out = (await self.get(number)).model_copy(update={"table_name": info.name})
        self.tell([target], {"type": "invitation", "invitation": _dump(out)})
        return out

    async def challenge(
        self, account: Account, target: int, ruleset: str, players: int, length: Length
    ) -> Invitation:
        """Challenge friend ``target`` to a new game of ``ruleset`` for ``players`` at
        ``length`` (the rules checked now) and tell them."""
        rules = make_rules(
            {"ruleset": ruleset, "players": players} | length_settings(ruleset, length)
        )
        now = self.now()
        iv = db.invitations
        async with self.engine.begin() as conn:
            await self._check_pair(conn, account, target)
            open_one = sa.select(iv.c.id).where(
                iv.c.kind == "challenge",
                iv.c.from_id == account.id,
                iv.c.to_id == target,
                iv.c.status == "pending",
                iv.c.expires_at > now,
            )
            if (await conn.execute(open_one)).first() is not None:
                raise ApiError(
                    409, "already_challenged", "you already challenged them: wait for an answer"
                )
            made = await conn.execute(
                iv.insert().values(
                    kind="challenge",
                    from_id=account.id,
                    to_id=target,
                    rules={"ruleset": rules.ruleset, "players": rules.players, "length": length},
                    status="pending",
                    created_at=now,
                    expires_at=now + self.hold_seconds,
                )
            )
            number = int(made.inserted_primary_key[0])  # type: ignore[index]
        out = await self.get(number)
        self.tell([target], {"type": "invitation", "invitation": _dump(out)})
        return out

    async def _check_pair(self, conn: AsyncConnection, account: Account, target: int) -> Person:
        """The friend to invite, or why not: a guest, yourself, nobody, a bot or a guest,
        a block either way, not a friend, too many open."""
        if account.guest:
            raise ApiError(403, "guest", "Guests can't invite friends: register to add friends.")
        if target == account.id:
            raise ApiError(422, "yourself", "You can't invite or challenge yourself.")
        row = (await conn.execute(sa.select(db.accounts).where(db.accounts.c.id == target))).first()
        if row is None:
            raise ApiError(404, "no_account", f"There is no player with account {target}.")
        if row.bot_level is not None or row.guest:
            raise ApiError(
                422, "not_a_person", f"{row.display_name} can't be invited: only friends can."
            )
        if await blocked_either_way(conn, account.id, target):
            raise ApiError(
                403, "blocked", f"{row.display_name} can't be invited or challenged by you."
            )
        fr = db.friends
        friends = sa.select(fr.c.since).where(
            fr.c.account_id == account.id, fr.c.friend_id == target
        )
        if (await conn.execute(friends)).first() is None:
            raise ApiError(
                403,
                "not_friends",
                f"You can invite only friends, and {row.display_name} isn't one.",
            )
        iv = db.invitations
        count = sa.select(sa.func.count()).where(
            iv.c.from_id == account.id, iv.c.status == "pending", iv.c.expires_at > self.now()
        )
        if int((await conn.execute(count)).scalar_one()) >= MAX_PENDING:
            raise ApiError(
                409, "too_many", f"You have {MAX_PENDING} invitations waiting: wait for answers."
            )
        return Person(
            account=row.id, name=row.name, display_name=row.display_name, avatar=row.avatar
        )

    # ---- answering -------------------------------------------------------------------

    async def accept(self, account: Account, number: int) -> TableInfo:
        """Take the held seat (an invitation), or sit at the challenge's new table with
        the challenger; answers that table's info and tells the sender."""
        out = await self._open_to(account, number)
        if out.kind == "invite":
            assert out.table is not None
            handle = await self.tables().handle(out.table)
            if handle is None:
                await self._set(number, "withdrawn")
                raise ApiError(409, "stale", "that table is gone: the invitation is over")
            info: TableInfo = await handle.request(ops.Sit(player(account)))
            await self._set(number, "accepted")
        else:
            if not await self._claim(number):
                raise ApiError(409, "stale", "that challenge is no longer open")
            info = await self._start_challenge(out, account)
        self.tell([out.sender.account], _answered(out, "accepted", info.id))
        return info

    async def _start_challenge(self, out: Invitation, account: Account) -> TableInfo:
        """The challenge's table: both seated, bots in the other seats, dealt at once."""
        assert out.rules is not None
        rules = make_rules(
            {"ruleset": out.rules["ruleset"], "players": out.rules["players"]}
            | length_settings(out.rules["ruleset"], out.rules["length"])
        )
        spec = Spec(
            name=f"{out.sender.display_name} vs {out.to.display_name}",
            rules=rules,
            public=False,
            hints=False,
            takeover_after=2,
            bots={seat: BOT_LEVEL for seat in range(2, rules.players)},
        )
        actor = await self.tables().create(spec, _as_player(out.sender), [player(account)])
        async with self.engine.begin() as conn:
            iv = db.invitations
            await conn.execute(iv.update().where(iv.c.id == out.id).values(table_id=actor.id))
        return actor.info(for_account=account.id)

    async def decline(self, account: Account, number: int) -> None:
        """Say no: a held seat is let go at once and the sender is told."""
        out = await self._open_to(account, number)
        if not await self._claim(number, "declined"):
            raise ApiError(409, "stale", "that invitation is no longer open")
        await self._unhold(out)
        self.tell([out.sender.account], _answered(out, "declined", None))

    async def cancel(self, account: Account, number: int) -> None:
        """The sender takes an open invitation or challenge back; the notice goes."""
        out = await self.get(number)
        if out.sender.account != account.id:
            raise ApiError(404, "no_invitation", "you sent no such invitation")
        if not await self._claim(number, "withdrawn"):
            raise ApiError(409, "stale", "that invitation is no longer open")
        await self._unhold(out)
        self.tell([out.to.account], {"type": "invitation_withdrawn", "id": number})

    async def _unhold(self, out: Invitation) -> None:
        if out.kind == "invite" and out.table is not None:
            handle = await self.tables().handle(out.table)
            if handle is not None:
                with contextlib.suppress(ApiError):
                    await handle.request(ops.Unhold(out.to.account))

    async def _open_to(self, account: Account, number: int) -> Invitation:
        """An open invitation to ``account`` (404 none such, 409 answered or expired)."""
        try:
            out = await self.get(number)
        except ApiError:
            out = None
        if out is None or out.to.account != account.id:
            raise ApiError(404, "no_invitation", "there is no such invitation to you")
        if out.status != "pending" or out.expires_at <= self.now():
            raise ApiError(409, "stale", "that invitation is no longer open")
        async with self.engine.connect() as conn:
            if await blocked_either_way(conn, account.id, out.sender.account):
                raise ApiError(403, "blocked", "that invitation is no longer open to you")
        return out

    async def _claim(self, number: int, status: str = "accepted") -> bool:
        """Move a pending invitation to ``status`` (False: it was no longer pending)."""
        iv = db.invitations
        async with self.engine.begin() as conn:
            done = await conn.execute(
                iv.update()
                .where(iv.c.id == number, iv.c.status == "pending", iv.c.expires_at > self.now())
                .values(status=status)
            )
        return bool(done.rowcount == 1)

    async def _set(self, number: int, status: str) -> None:
        iv = db.invitations
        async with self.engine.begin() as conn:
            await conn.execute(iv.update().where(iv.c.id == number).values(status=status))

    # ---- reading ---------------------------------------------------------------------

    async def get(self, number: int) -> Invitation:
        """One invitation (404 ``no_invitation``)."""
        found = await self._read(db.invitations.c.id == number)
        if not found:
            raise ApiError(404, "no_invitation", "there is no such invitation")
        return found[0]

    async def listing(self, account: Account) -> dict[str, list[Invitation]]:
        """The open invitations and challenges to and from ``account``."""
        iv = db.invitations
        now = self.now()
        live = sa.and_(iv.c.status == "pending", iv.c.expires_at > now)
        return {
            "incoming": await self._read(sa.and_(live, iv.c.to_id == account.id)),
            "outgoing": await self._read(sa.and_(live, iv.c.from_id == account.id)),
        }

    async def _read(self, where: sa.ColumnElement[bool]) -> list[Invitation]:
        iv, acc = db.invitations, db.accounts
        sender, to = acc.alias("sender"), acc.alias("target")
        query = (
            sa.select(
                iv,
                *(sender.c[c].label(f"s_{c}") for c in ("name", "display_name", "avatar")),
                *(to.c[c].label(f"t_{c}") for c in ("name", "display_name", "avatar")),
                db.tables.c.name.label("table_name"),
            )
            .join(sender, sender.c.id == iv.c.from_id)
            .join(to, to.c.id == iv.c.to_id)
            .outerjoin(db.tables, db.tables.c.id == iv.c.table_id)
            .where(where)
            .order_by(iv.c.id.desc())
            .limit(100)
        )
        now = self.now()
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            Invitation(
                id=r.id,
                kind=r.kind,
                sender=Person(
                    account=r.from_id,
                    name=r.s_name,
                    display_name=r.s_display_name,
                    avatar=r.s_avatar,
                ),
                to=Person(
                    account=r.to_id, name=r.t_name, display_name=r.t_display_name, avatar=r.t_avatar
                ),
                table=r.table_id,
                table_name=r.table_name,
                rules=r.rules,
                status=r.status,
                expires_at=r.expires_at,
                expires_in=round(max(0.0, r.expires_at - now), 1),
            )
            for r in rows
        ]

    # ---- seats the tables let go -----------------------------------------------------

    def released(self, table_id: str, accounts: list[int]) -> None:
        """A table no longer holds a seat for these people: withdraw their invitations
        to it (soon, off the table's task)."""
        self._soon(self._withdraw(table_id, accounts))

    async def _withdraw(self, table_id: str, accounts: list[int]) -> None:
        iv = db.invitations
        where = sa.and_(
            iv.c.table_id == table_id, iv.c.to_id.in_(accounts), iv.c.status == "pending"
        )
        async with self.engine.begin() as conn:
            rows = (await conn.execute(sa.select(iv.c.id, iv.c.to_id).where(where))).all()
            if rows:
                ids = [r.id for r in rows]
                await conn.execute(
                    iv.update()
                    .where(iv.c.id.in_(ids), iv.c.status == "pending")
                    .values(status="withdrawn")
                )
        for r in rows:
            self.tell([int(r.to_id)], {"type": "invitation_withdrawn", "id": int(r.id)})

    def _soon(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def settle(self) -> None:
        """Wait for the withdrawals under way (tests wait here, not on a clock)."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    async def stop(self) -> None:
        """Finish the withdrawals under way (bounded), before the database closes."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.settle(), 5.0)
        for task in list(self._pending):
            task.cancel()


def _answered(out: Invitation, answer: str, table: str | None) -> dict[str, Any]:
    """What the sender is told of the answer (a challenge's table to go to)."""
    return {
        "type": "invitation_answered",
        "id": out.id,
        "kind": out.kind,
        "answer": answer,
        "by": out.to.display_name,
        "table": table,
    }


def _as_player(person: Person) -> ops.Player:
    return ops.Player(id=person.account, name=person.display_name, avatar=person.avatar)


def _dump(out: Invitation) -> dict[str, Any]:
    return out.model_dump(mode="json", by_alias=True)
