"""Blocking over HTTP: the list, block (by name or account) and unblock. The service is
``blocks.Blocks``."""

from __future__ import annotations

from fastapi import APIRouter

from ..blocks import Blocked
from ..errors import ApiError
from .deps import CurrentAccount, RoomDep
from .friends import Ask, PersonId

router = APIRouter(tags=["friends"])


@router.get("/api/blocks")
async def blocks_list(account: CurrentAccount, room: RoomDep) -> list[Blocked]:
    """The people you blocked."""
    return await room.blocks.listing(account)


@router.post("/api/blocks", status_code=201)
async def block(body: Ask, account: CurrentAccount, room: RoomDep) -> Blocked:
    """Block a person (``{name}`` or ``{account}``): no requests from them, their chat
    and reactions hidden from you, never seated together by quick play; a friendship or
    request between you ends."""
    target = body.account
    if body.name is not None:
        row = await room.accounts.find(body.name)
        if row is None:
            raise ApiError(404, "no_account", f"There is no player named {body.name!r}.")
        target = int(row.id)
    assert target is not None
    return await room.blocks.block(account, target)


@router.delete("/api/blocks/{person}", status_code=204)
async def unblock(person: PersonId, account: CurrentAccount, room: RoomDep) -> None:
    """Unblock a person."""
    await room.blocks.unblock(account, person)
