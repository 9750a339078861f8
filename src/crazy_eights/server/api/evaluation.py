"""The player evaluation over HTTP (the service is ``evaluation.Evaluations``)."""

from __future__ import annotations

from fastapi import APIRouter, Query

from ..evaluation import EvaluationOut
from .deps import RoomDep
from .records import AccountId, known_ruleset

router = APIRouter(tags=["records"])


@router.get("/api/accounts/{account_id}/evaluation")
async def evaluation_route(
    account_id: AccountId,
    room: RoomDep,
    ruleset: str = Query("classic", max_length=16, description="the ruleset"),
) -> EvaluationOut:
    """Shedding efficiency, opponent disruption, suit management and accuracy of one
    account in one ruleset, beside the room's median and each bot level."""
    known_ruleset(ruleset)
    return await room.evaluations.of(account_id, ruleset)
