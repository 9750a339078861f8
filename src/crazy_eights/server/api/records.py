"""Records over HTTP: an account's records and history, the leaderboards with their
Master Card Archon rule (the service is ``stats.RecordBook``), and replays of finished
games (``replays.Replays``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response

from crazy_eights.engine import RULESETS

from ..archon import RuleOut
from ..errors import ApiError
from ..throttle import client_key
from .deps import OptionalAccount, RoomDep

router = APIRouter(tags=["records"])

AccountId = Annotated[int, Path(ge=1, le=2**63 - 1, description="an account's id")]


def known_ruleset(ruleset: str) -> None:
    """404 ``no_ruleset`` for a ruleset the engine does not have."""
    if ruleset not in RULESETS:
        raise ApiError(404, "no_ruleset", f"rulesets are {', '.join(RULESETS)}")


@router.get("/api/accounts/{account_id}/records")
async def records(account_id: AccountId, room: RoomDep) -> dict[str, Any]:
    """Games, wins, win rate, points, streaks and rating per ruleset."""
    return await room.records.records(account_id)


@router.get("/api/accounts/{account_id}/history")
async def history(
    account_id: AccountId,
    room: RoomDep,
    viewer: OptionalAccount,
    limit: int = Query(20, ge=1, le=100),
) -> list[dict[str, Any]]:
    """Finished games of an account, newest first, with a link to each replay. Private
    tables are listed to the account itself only."""
    return await room.records.history(account_id, viewer=viewer.id if viewer else None, limit=limit)


@router.get("/api/leaderboard/{ruleset}")
async def leaderboard(
    ruleset: str, room: RoomDep, limit: int = Query(50, ge=1, le=500)
) -> list[dict[str, Any]]:
    """Accounts and bot levels by openskill rating (rated games only); ``archon`` lists
    the rulesets whose Master Card Archon title a row's account holds."""
    known_ruleset(ruleset)
    return await room.records.leaderboard(ruleset, limit)


@router.get("/api/leaderboard/{ruleset}/archon")
async def archon_rule(ruleset: str, room: RoomDep) -> RuleOut:
    """The rule of the ruleset's Master Card Archon title, its settings and its holder."""
    known_ruleset(ruleset)
    return await room.records.archon_rule(ruleset)


@router.get("/api/tables/{table_id}/replay", response_model=None)
async def table_replay(
    table_id: str,
    request: Request,
    room: RoomDep,
    account: OptionalAccount,
    code: str | None = None,
) -> Response:
    """A finished game move by move, every hand shown (private tables: their players and
    whoever has the invite ``code``). Built once per game and cached: it carries an
    ``ETag`` (``If-None-Match`` gets a 304) and ``Cache-Control``; more than a few a
    second from one address get a 429 ``rate_limited``."""
    answer = await room.replays.answer(
        table_id,
        viewer=account.id if account else None,
        code=code,
        address=client_key(request),
        if_none_match=request.headers.get("if-none-match"),
        gzip_ok="gzip" in request.headers.get("accept-encoding", ""),
    )
    return Response(
        answer.body,
        status_code=answer.status,
        headers=answer.headers,
        media_type="application/json" if answer.status == 200 else None,
    )
