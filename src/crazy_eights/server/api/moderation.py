"""Reports and moderation over HTTP: any player files a report; moderators read the
reports, mute, ban, lift either, resolve reports and read the audit log. The services
are ``reports.Reports`` and ``moderation.Moderation``.

Every moderator route asks for the ``moderator`` role first (403 ``not_a_moderator``,
nothing read or changed)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Query
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..errors import ApiError
from ..moderation import (
    MAX_BAN_DAYS,
    MAX_MUTE_MINUTES,
    MAX_REASON,
    Actor,
    AuditEntry,
    Person,
    Sanction,
)
from ..reports import REPORT_RATE, ReportIn, ReportOut
from .deps import CurrentAccount, RoomDep

router = APIRouter(tags=["moderation"])

AccountId = Annotated[int, Path(ge=1, le=2**31 - 1, description="the player's account id")]


async def moderator(account: CurrentAccount, room: RoomDep) -> Actor:
    """The signed-in moderator (403 ``not_a_moderator`` for anyone else)."""
    if not await room.moderation.is_moderator(account.id):
        raise ApiError(403, "not_a_moderator", "Only moderators may do this.")
    return Actor(name=account.name, account_id=account.id)


Moderator = Annotated[Actor, Depends(moderator)]


class Roles(BaseModel):
    roles: list[str]


class Whom(BaseModel):
    """A person by account name (as typed) or account id, exactly one of them."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str | None = Field(default=None, min_length=1, max_length=32)
    account: int | None = Field(default=None, ge=1, le=2**31 - 1)
    reason: str = Field(min_length=1, max_length=MAX_REASON)

    @model_validator(mode="after")
    def _one(self) -> Whom:
        if (self.name is None) == (self.account is None):
            raise ValueError("give either a name or an account, not both")
        return self


class MuteIn(Whom):
    minutes: int = Field(ge=1, le=MAX_MUTE_MINUTES)


class BanIn(Whom):
    days: int = Field(ge=1, le=MAX_BAN_DAYS)


class Why(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    reason: str = Field(default="", max_length=MAX_REASON)


class Resolution(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    note: str = Field(min_length=1, max_length=MAX_REASON)


@router.post("/api/reports", status_code=201)
async def report(body: ReportIn, account: CurrentAccount, room: RoomDep) -> ReportOut:
    """Report a player: a reason from the list and a few words; the table (when given)
    and its last chat lines are attached. Guests may report. Refused: yourself, a bot,
    an unknown player or table, the same report still open, too fast (429)."""
    if not room.report_asks.take(str(account.id)):
        raise ApiError(
            429,
            "throttled",
            "you sent reports too fast: wait a little",
            headers={"Retry-After": str(round(1 / REPORT_RATE))},
        )
    return await room.reports.file(account, body)


@router.get("/api/me/roles")
async def my_roles(account: CurrentAccount, room: RoomDep) -> Roles:
    """Your roles (``moderator`` opens the moderation page)."""
    return Roles(roles=await room.moderation.roles_of(account.id))


@router.get("/api/moderation/reports")
async def reports(
    actor: Moderator,
    room: RoomDep,
    status: Literal["open", "resolved", "all"] = "open",
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[ReportOut]:
    """Reports, the newest first (moderators)."""
    return await room.reports.listing(status, limit=limit)


@router.post("/api/moderation/reports/{report_id}/resolve")
async def resolve(
    report_id: Annotated[int, Path(ge=1, le=2**31 - 1)],
    body: Resolution,
    actor: Moderator,
    room: RoomDep,
) -> ReportOut:
    """Close a report with a note (moderators; goes to the audit log)."""
    return await room.reports.resolve(actor, report_id, body.note)


@router.get("/api/moderation/sanctions")
async def sanctions(actor: Moderator, room: RoomDep) -> list[Sanction]:
    """Every mute and ban in force (moderators)."""
    return await room.moderation.in_force()


async def _whom(room: RoomDep, body: Whom) -> Person:
    return await room.moderation.find(name=body.name, account=body.account)


@router.post("/api/moderation/mutes", status_code=201)
async def mute(body: MuteIn, actor: Moderator, room: RoomDep) -> Sanction:
    """Mute a player's chat for some minutes, with a reason (moderators)."""
    target = await _whom(room, body)
    return await room.moderation.sanction(actor, target, "mute", body.minutes * 60, body.reason)


@router.post("/api/moderation/bans", status_code=201)
async def ban(body: BanIn, actor: Moderator, room: RoomDep) -> Sanction:
    """Ban a player for some days, with a reason: their sessions end, their open
    sockets close with the reason on every node, sign-in is refused until it ends
    (moderators)."""
    target = await _whom(room, body)
    return await room.moderation.sanction(actor, target, "ban", body.days * 86400, body.reason)


@router.post("/api/moderation/mutes/{person}/lift", status_code=204)
async def unmute(person: AccountId, body: Why, actor: Moderator, room: RoomDep) -> None:
    """Lift a player's mute (moderators)."""
    target = await room.moderation.find(account=person)
    await room.moderation.lift(actor, target, "mute", body.reason)


@router.post("/api/moderation/bans/{person}/lift", status_code=204)
async def unban(person: AccountId, body: Why, actor: Moderator, room: RoomDep) -> None:
    """Lift a player's ban (moderators)."""
    target = await room.moderation.find(account=person)
    await room.moderation.lift(actor, target, "ban", body.reason)


@router.get("/api/moderation/audit")
async def audit(
    actor: Moderator,
    room: RoomDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    before: Annotated[int | None, Query(ge=1)] = None,
) -> list[AuditEntry]:
    """The audit log, the newest first: who did what to whom, why and when (moderators)."""
    return await room.moderation.audit_log(limit=limit, before=before)
