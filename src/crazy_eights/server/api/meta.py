"""The room's health over HTTP: liveness (``/api/health``) and readiness for a load
balancer (``/api/ready``)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from .deps import RoomDep

router = APIRouter(tags=["meta"])


@router.get("/api/health")
async def health(room: RoomDep) -> dict[str, object]:
    """Liveness: the process answers (the tables it runs, its node name)."""
    return {"ok": True, "tables": len(room.tables.live), "node": room.node}


@router.get("/api/ready")
async def ready(room: RoomDep) -> Response:
    """Readiness, for a load balancer: 503 while the node drains or cannot reach its
    database (or Redis, in a cluster)."""
    problem = await room.problem()
    status = 200 if problem is None else 503
    return JSONResponse({"ready": problem is None, "problem": problem}, status_code=status)
