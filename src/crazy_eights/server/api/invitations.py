"""Invitations and challenges over HTTP: invite a friend to your table (a seat held for
them), challenge a friend to a new game, the open ones to and from you, accept, decline
and take back. The service is ``invitations.Invitations``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field

from ..errors import ApiError
from ..invitations import INVITE_RATE, Invitation
from ..lengths import Length
from ..protocol import TableInfo
from .deps import CurrentAccount, RoomDep
from .lobby import table_limit

router = APIRouter(tags=["friends"])

InvitationId = Annotated[int, Path(ge=1, le=2**31 - 1, description="the invitation's id")]


class InviteIn(BaseModel):
    """Whom to invite (a friend's account id) to which table (one you sit at)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    account: int = Field(ge=1, le=2**31 - 1)
    table: str = Field(min_length=1, max_length=24, pattern=r"^[A-Za-z0-9_-]+$")


class ChallengeIn(BaseModel):
    """Whom to challenge (a friend's account id) to what: ruleset, players, length."""

    model_config = ConfigDict(extra="forbid", strict=True)

    account: int = Field(ge=1, le=2**31 - 1)
    ruleset: str = Field(default="classic", max_length=16)
    players: int = Field(default=2, ge=2, le=11)
    length: Length = "round"


class InvitationsOut(BaseModel):
    incoming: list[Invitation]
    outgoing: list[Invitation]


def _throttle(room: RoomDep, account_id: int) -> None:
    if not room.invite_asks.take(str(account_id)):
        raise ApiError(
            429,
            "throttled",
            "you sent invitations too fast: wait a little",
            headers={"Retry-After": str(round(1 / INVITE_RATE))},
        )


@router.get("/api/invitations")
async def open_invitations(account: CurrentAccount, room: RoomDep) -> InvitationsOut:
    """The open invitations and challenges sent to you and by you."""
    return InvitationsOut(**await room.invitations.listing(account))


@router.post("/api/invitations", status_code=201)
async def invite(body: InviteIn, account: CurrentAccount, room: RoomDep) -> Invitation:
    """Invite a friend to your open table: a seat is held for them (60 s) and they get a
    notice. Refused with a reason: a guest, yourself, nobody, not a friend, a block, no
    such table, not seated there, no empty seat, the game started, too fast (429)."""
    _throttle(room, account.id)
    return await room.invitations.invite(account, body.account, body.table)


@router.post("/api/challenges", status_code=201)
async def challenge(body: ChallengeIn, account: CurrentAccount, room: RoomDep) -> Invitation:
    """Challenge a friend to a new game; on accept both sit at a new table with bots in
    the other seats. Refused as an invitation is, and for rules that don't exist."""
    _throttle(room, account.id)
    return await room.invitations.challenge(
        account, body.account, body.ruleset, body.players, body.length
    )


@router.post("/api/invitations/{number}/accept")
async def accept(number: InvitationId, account: CurrentAccount, room: RoomDep) -> TableInfo:
    """Join: take the held seat, or sit at the challenge's new table (dealt at once).
    A stale (answered, taken back, expired) invitation: 409 ``stale``."""
    await table_limit(room, account)
    return await room.invitations.accept(account, number)


@router.post("/api/invitations/{number}/decline", status_code=204)
async def decline(number: InvitationId, account: CurrentAccount, room: RoomDep) -> None:
    """Decline: the held seat is let go at once and the sender is told."""
    await room.invitations.decline(account, number)


@router.delete("/api/invitations/{number}", status_code=204)
async def cancel(number: InvitationId, account: CurrentAccount, room: RoomDep) -> None:
    """Take back an invitation or challenge you sent."""
    await room.invitations.cancel(account, number)
