"""``!link`` over HTTP: what a one-time chat link would link, and using it while signed
in (the service is ``chatnames.ChatNames``; the page is the client's ``#/link/...``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from .deps import CurrentAccount, RoomDep

router = APIRouter(tags=["chat"])


@router.get("/api/chat-links/{token}")
async def show_link(token: str, room: RoomDep) -> dict[str, Any]:
    """The nick and network a link ties to an account, and until when it may be used
    (404 ``no_link`` when unknown, used or expired); nothing changes."""
    offer = await room.chat_names.offer(token)
    return {"network": offer.network, "nick": offer.nick, "expires_at": offer.expires_at}


@router.post("/api/chat-links/{token}")
async def use_link(token: str, room: RoomDep, account: CurrentAccount) -> dict[str, Any]:
    """Tie the link's nick to the signed-in account: the nick's games from now on are
    this account's. Once only (404 ``no_link`` after); a guest may not (403)."""
    offer = await room.chat_names.redeem(token, account.id, guest=account.guest)
    return {"network": offer.network, "nick": offer.nick, "account": account.id}
