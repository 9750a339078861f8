"""Game analyses over HTTP: ask for the analysis of your seat in a finished game, and
read it (the service is ``analysis.Analyses``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from crazy_eights.engine.rules import PLAYERS

from .deps import CurrentAccount, OptionalAccount, RoomDep

router = APIRouter(tags=["records"])

MAX_SEAT = max(high for _, high in PLAYERS.values()) - 1
"""The highest seat of any ruleset (OpenSpiel's game seats up to 15 players)."""
SeatNo = Annotated[int, Query(ge=0, le=MAX_SEAT, description="the analysed seat")]


@router.post("/api/tables/{table_id}/analysis")
async def request_analysis(
    table_id: str, seat: SeatNo, room: RoomDep, account: CurrentAccount
) -> dict[str, Any]:
    """Analyse the decisions of ``seat`` (the asker must have sat there): the search bot's
    move and the round-win chance before and after each move played. Runs in the bot
    workers at low priority; the answer says how far it has got (``GET`` again)."""
    return dict(await room.analyses.request(table_id, seat, account.id))


@router.get("/api/tables/{table_id}/analysis")
async def get_analysis(
    table_id: str,
    seat: SeatNo,
    room: RoomDep,
    account: OptionalAccount,
    code: str | None = None,
) -> dict[str, Any]:
    """The stored analysis of ``seat`` (``status`` ``done``), or ``running`` with how many
    decisions are judged, or ``none``. Shown to whoever may see the game's replay."""
    return dict(await room.analyses.shown(table_id, seat, account.id if account else None, code))
