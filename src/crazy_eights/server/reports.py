"""Reports: a player reports another from their name, moderators read and resolve them.

A report is a reason from a short list (``REASONS``) and a few words. When it names a
table, the table and its last ``CHAT_LINES`` chat lines are attached as they are when
the report is filed (kept in the report, so a moderator reads what the reporter saw),
with the link to the table's replay. Anyone signed in may report (guests too: strangers
meet in quick play), anyone but themselves and the bots; how often is limited per
reporter by the route (``REPORT_RATE``) and here by ``MAX_OPEN`` reports still open.
Resolving one goes to the audit log (``moderation.write_audit``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import db
from .auth import Account
from .errors import ApiError
from .friends import lock_accounts
from .moderation import Actor, Person, clean_reason, write_audit

REASONS: dict[str, str] = {
    "abuse": "abusive chat",
    "cheating": "cheating or colluding",
    "stalling": "stalling",
    "name": "offensive name",
    "other": "other",
}
MAX_TEXT = 1000
CHAT_LINES = 30
"""Chat lines of the table attached to a report (the last ones when it is filed)."""
MAX_OPEN = 20
"""Reports one person may have waiting for a moderator."""
REPORT_RATE = 1 / 60
"""Reports a person may file a second ..."""
REPORT_BURST = 5.0
"""... in bursts of this many (beyond: 429 ``throttled``)."""

Reason = Literal["abuse", "cheating", "stalling", "name", "other"]
Status = Literal["open", "resolved", "all"]


class ReportIn(BaseModel):
    """What a player sends: whom, why, a few words, and the table it happened at."""

    model_config = ConfigDict(extra="forbid", strict=True)

    account: int = Field(ge=1, le=2**31 - 1, description="the reported player's account")
    reason: Reason
    text: str = Field(default="", max_length=MAX_TEXT)
    table: str | None = Field(default=None, min_length=1, max_length=24, pattern=r"^[\w-]+$")


class ChatNote(BaseModel):
    """One chat line as it was attached."""

    account: int | None
    name: str
    seat: int | None
    text: str
    at: float


class TableNote(BaseModel):
    """The table a report names, as it was when filed."""

    id: str
    name: str
    ruleset: str
    status: str
    replay: str = Field(description="the client's address of the table's replay")


class ReportOut(BaseModel):
    id: int
    at: float
    reporter: Person
    target: Person
    reason: Reason
    reason_words: str
    text: str
    table: TableNote | None
    chat: list[ChatNote]
    status: Literal["open", "resolved"]
    resolved_at: float | None = None
    resolved_by: str | None = None
    resolution: str | None = None


async def _people(conn: AsyncConnection, ids: set[int]) -> dict[int, Person]:
    acc = db.accounts
    rows = await conn.execute(sa.select(acc).where(acc.c.id.in_(sorted(ids))))
    return {
        r.id: Person(
            account=r.id,
            name=r.name,
            display_name=r.display_name,
            guest=bool(r.guest),
            bot=r.bot_level is not None,
        )
        for r in rows
    }


async def _attachments(conn: AsyncConnection, table_id: str) -> dict[str, Any]:
    """The table and its last chat lines (404 ``no_table`` for a table never made)."""
    t = db.tables
    row = (
        await conn.execute(
            sa.select(t.c.id, t.c.name, t.c.ruleset, t.c.status).where(t.c.id == table_id)
        )
    ).first()
    if row is None:
        raise ApiError(404, "no_table", f"There is no table {table_id!r}.")
    c, acc = db.chat, db.accounts
    lines = await conn.execute(
        sa.select(c.c.account_id, c.c.seat, c.c.text, c.c.at, acc.c.display_name)
        .outerjoin(acc, acc.c.id == c.c.account_id)
        .where(c.c.table_id == table_id)
        .order_by(c.c.id.desc())
        .limit(CHAT_LINES)
    )
    chat = [
        ChatNote(
            account=r.account_id, name=r.display_name or "?", seat=r.seat, text=r.text, at=r.at
        ).model_dump()
        for r in lines
    ]
    table = TableNote(
        id=row.id,
        name=row.name,
        ruleset=row.ruleset,
        status=row.status,
        replay=f"#/replay/{row.id}",
    )
    return {"table": table.model_dump(), "chat": chat[::-1]}


class Reports:
    """Reports on the database: filed by players, listed and resolved by moderators."""

    def __init__(self, engine: AsyncEngine, *, now: Callable[[], float] = db.now) -> None:
        self.engine = engine
        self.now = now
        self._lock = asyncio.Lock()
        """Reports are filed one at a time here (and under the reporter's row lock on
        PostgreSQL), so reports sent at once cannot pass ``MAX_OPEN``."""

    async def file(self, reporter: Account, body: ReportIn) -> ReportOut:
        """File a report (404 unknown person or table, 422 yourself or a bot, 409 the
        same report still open, 429 too many open)."""
        if body.account == reporter.id:
            raise ApiError(422, "yourself", "You can't report yourself.")
        text = " ".join(body.text.split())
        r = db.reports
        async with self._lock, self.engine.begin() as conn:
            await lock_accounts(conn, (reporter.id,))
            people = await _people(conn, {reporter.id, body.account})
            target = people.get(body.account)
            if target is None:
                raise ApiError(
                    404, "no_account", f"There is no player with account {body.account}."
                )
            if target.bot:
                raise ApiError(
                    422, "not_a_person", f"{target.display_name} is a bot: bots can't be reported."
                )
            await self._check_open(conn, reporter.id, body)
            context = (
                await _attachments(conn, body.table)
                if body.table is not None
                else {"table": None, "chat": []}
            )
            now = self.now()
            result = await conn.execute(
                r.insert().values(
                    created_at=now,
                    reporter_id=reporter.id,
                    target_id=body.account,
                    reason=body.reason,
                    text=text,
                    table_id=body.table,
                    context=context,
                    status="open",
                )
            )
        return ReportOut(
            id=int(result.inserted_primary_key[0]),  # type: ignore[index]
            at=now,
            reporter=people[reporter.id],
            target=target,
            reason=body.reason,
            reason_words=REASONS[body.reason],
            text=text,
            table=context["table"],
            chat=context["chat"],
            status="open",
        )

    async def _check_open(self, conn: AsyncConnection, reporter: int, body: ReportIn) -> None:
        r = db.reports
        mine = r.c.reporter_id == reporter
        is_open = r.c.status == "open"
        same = sa.select(r.c.id).where(
            mine,
            is_open,
            r.c.target_id == body.account,
            r.c.table_id.is_(None) if body.table is None else r.c.table_id == body.table,
        )
        if (await conn.execute(same)).first() is not None:
            raise ApiError(
                409,
                "already_reported",
                "You already reported this player for this; a moderator will look at it.",
            )
        count = sa.select(sa.func.count()).select_from(r).where(mine, is_open)
        if int((await conn.execute(count)).scalar_one()) >= MAX_OPEN:
            raise ApiError(
                429,
                "too_many_reports",
                f"You have {MAX_OPEN} reports waiting for a moderator: wait for them first.",
            )

    async def listing(self, status: Status = "open", *, limit: int = 100) -> list[ReportOut]:
        """Reports, the newest first (open ones, resolved ones, or all)."""
        r = db.reports
        query = sa.select(r).order_by(r.c.id.desc()).limit(limit)
        if status != "all":
            query = query.where(r.c.status == status)
        async with self.engine.connect() as conn:
            rows = list(await conn.execute(query))
            people = await _people(
                conn, {row.reporter_id for row in rows} | {row.target_id for row in rows}
            )
        return [_report(row, people) for row in rows]

    async def resolve(self, actor: Actor, report_id: int, note: str) -> ReportOut:
        """Close a report with a note (404 ``no_report``, 409 ``already_resolved``);
        the audit log keeps it."""
        note = clean_reason(note)
        r = db.reports
        now = self.now()
        async with self.engine.begin() as conn:
            done = await conn.execute(
                r.update()
                .where(r.c.id == report_id, r.c.status == "open")
                .values(
                    status="resolved",
                    resolved_at=now,
                    resolved_by=actor.name[:64],
                    resolution=note,
                )
            )
            row = (await conn.execute(sa.select(r).where(r.c.id == report_id))).first()
            if row is None:
                raise ApiError(404, "no_report", f"There is no report {report_id}.")
            if done.rowcount != 1:
                raise ApiError(409, "already_resolved", f"Report {report_id} is resolved already.")
            people = await _people(conn, {row.reporter_id, row.target_id})
            await write_audit(
                conn,
                actor,
                "resolve",
                people[row.target_id],
                reason=note,
                detail=f"report #{report_id} ({REASONS.get(row.reason, row.reason)})",
                at=now,
            )
        return _report(row, people)


def _report(row: Any, people: dict[int, Person]) -> ReportOut:
    context = row.context or {}
    return ReportOut(
        id=row.id,
        at=row.created_at,
        reporter=people[row.reporter_id],
        target=people[row.target_id],
        reason=row.reason,
        reason_words=REASONS.get(row.reason, row.reason),
        text=row.text,
        table=context.get("table"),
        chat=context.get("chat", []),
        status=row.status,
        resolved_at=row.resolved_at,
        resolved_by=row.resolved_by,
        resolution=row.resolution,
    )
