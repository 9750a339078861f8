"""Friends over HTTP: the list, requests (by name or account), accept, decline, cancel,
remove, and the social settings. The service is ``friends.Friends``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..errors import ApiError
from ..friends import ASK_RATE, AskOut, FriendsOut, Person, SocialSettings, refuse_guest
from .deps import CurrentAccount, RoomDep

router = APIRouter(tags=["friends"])

PersonId = Annotated[int, Path(ge=1, le=2**31 - 1, description="the other player's account id")]


class Ask(BaseModel):
    """Whom to ask: an account name (as typed) or an account id (from a name shown in
    the room), exactly one of them."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str | None = Field(default=None, min_length=1, max_length=32)
    account: int | None = Field(default=None, ge=1, le=2**31 - 1)

    @model_validator(mode="after")
    def _one(self) -> Ask:
        if (self.name is None) == (self.account is None):
            raise ValueError("give either a name or an account, not both")
        return self


@router.get("/api/friends")
async def friends_list(account: CurrentAccount, room: RoomDep) -> FriendsOut:
    """Your friends, the requests sent to you and by you, and your settings (guests:
    403 ``guest``)."""
    return await room.friends.listing(account)


@router.post("/api/friends/requests", status_code=201)
async def ask(body: Ask, account: CurrentAccount, room: RoomDep) -> AskOut:
    """Send a friend request. If they had already asked you, you are friends at once
    (``status: friends``). Refused with a reason: unknown name, yourself, a bot or a
    guest, already friends or asked, their setting, a full list, 20 requests waiting,
    too fast (429)."""
    refuse_guest(account)
    if not room.friend_asks.take(str(account.id)):
        raise ApiError(
            429,
            "throttled",
            "you sent friend requests too fast: wait a little",
            headers={"Retry-After": str(round(1 / ASK_RATE))},
        )
    target = await room.friends.find(name=body.name, account=body.account)
    return await room.friends.ask(account, target)


@router.post("/api/friends/requests/{person}/accept")
async def accept(person: PersonId, account: CurrentAccount, room: RoomDep) -> Person:
    """Accept the request this person sent you."""
    return await room.friends.accept(account, person)


@router.post("/api/friends/requests/{person}/decline", status_code=204)
async def decline(person: PersonId, account: CurrentAccount, room: RoomDep) -> None:
    """Turn down the request this person sent you."""
    await room.friends.decline(account, person)


@router.delete("/api/friends/requests/{person}", status_code=204)
async def cancel(person: PersonId, account: CurrentAccount, room: RoomDep) -> None:
    """Take back the request you sent this person."""
    await room.friends.cancel(account, person)


@router.delete("/api/friends/{person}", status_code=204)
async def remove(person: PersonId, account: CurrentAccount, room: RoomDep) -> None:
    """Remove a friend (from both lists)."""
    await room.friends.remove(account, person)


@router.get("/api/friends/settings")
async def get_settings(account: CurrentAccount, room: RoomDep) -> SocialSettings:
    """Your social settings: refuse every friend request; appear offline."""
    refuse_guest(account)
    return await room.friends.settings(account.id)


@router.put("/api/friends/settings")
async def put_settings(
    body: SocialSettings, account: CurrentAccount, room: RoomDep
) -> SocialSettings:
    """Replace your social settings (unknown fields and non-booleans: 422)."""
    return await room.friends.save_settings(account, body)
