"""Achievements and the decks they unlock over HTTP (the service is
``achievements.Achievements``)."""

from __future__ import annotations

from fastapi import APIRouter

from ..achievements import DeckOut, ProgressOut, decks
from .deps import RoomDep
from .records import AccountId

router = APIRouter(tags=["records"])


@router.get("/api/decks")
async def decks_route() -> list[DeckOut]:
    """The card backs and faces that are unlocked by achievements, and what unlocks each."""
    return decks()


@router.get("/api/accounts/{account_id}/achievements")
async def achievements_route(account_id: AccountId, room: RoomDep) -> ProgressOut:
    """Every achievement (earned or not, with progress and what it unlocks) and every
    lockable card back and face, with whether the account has it and what unlocks it."""
    return await room.achievements.progress(account_id)
