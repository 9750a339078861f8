"""The app factory: ``create_app(settings)`` wires the database, tables, lobby and routes."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.engine import make_url
from starlette.exceptions import HTTPException
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from .cluster.node import ClusterNode

from ..extras import require
from . import achievements, analysis, auth, db, evaluation, lobby, match_api, sockets, stats
from .archon import ArchonRule, Titles
from .botpool import BotPool
from .bus import MemoryBus
from .directory import MemoryDirectory
from .errors import ApiError
from .matchmaking import Matchmaker, MemoryQueueStore, QueueStore
from .messages import http_error, readable
from .passwords import Passwords
from .ratelimit import KeyedBuckets
from .rematch import FollowUps
from .security import BodyLimitMiddleware, NulMiddleware, OriginMiddleware
from .settings import ServerSettings
from .table.actor import TableActor, TableDeps
from .table.fanout import Audit, Fanout, LocalFanout, LocalSockets
from .table.store import SqlTableStore
from .tables import Tables
from .throttle import Throttles

log = logging.getLogger(__name__)

WEB = Path(__file__).resolve().parent.parent / "web"
PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>Crazy Eights</title>
<h1>Crazy Eights card room</h1><p>The browser client is not installed here.
The API is described at <a href="/docs">/docs</a>.</p>"""

MAX_BODY = 64 * 1024  # bytes of any request body


class Room:
    """Everything one card-room process shares: settings, database, tables, lobby, bots."""

    def __init__(self, settings: ServerSettings) -> None:
        problem = settings.cluster_problem()
        if problem is not None:
            raise ValueError(problem)
        self.settings = settings
        self.engine = db.make_engine(settings.sqlalchemy_url())
        self.writer = db.Writer(self.engine)
        self.accounts = auth.Accounts(self)
        self.passwords = Passwords(
            time_cost=settings.hash_time_cost,
            memory_kib=settings.hash_memory_kib,
            slots=settings.hash_concurrency,
            queue=settings.hash_queue,
        )
        self.throttles = Throttles(settings)
        self.store = SqlTableStore(self.engine, self.writer)
        self.sockets = LocalSockets()
        self.bots = BotPool(
            settings.bot_workers,
            {
                "move": settings.bot_queue_move,
                "hint": settings.bot_queue_hint,
                "background": settings.bot_queue_background,
            },
        )
        self.analyses = analysis.Analyses(
            self.engine, self.bots, analysis.config_from(settings), settings.bot_workers
        )
        self.socket_opens = KeyedBuckets(settings.socket_opens, burst=4 * settings.socket_opens)
        self.match_joins = KeyedBuckets(match_api.JOIN_RATE, burst=match_api.JOIN_BURST)
        self.draining = False
        self.cluster: ClusterNode | None = None
        if settings.redis_url:
            self._join_cluster(settings.redis_url)
        else:
            self.node = ""
            self.local = LocalFanout(self.sockets)
            self.fanout: Fanout = self.local
            self.lobby = lobby.Lobby(MemoryBus(), MemoryDirectory())
            self.tables = Tables(self._deps)
        self.matchmaker = Matchmaker(
            store=self._queue_store(),
            bus=self.lobby.bus,
            make_table=match_api.table_maker(self),
            window=settings.match_window_seconds,
        )
        self.titles = Titles(
            self.engine,
            ArchonRule(min_games=settings.archon_min_games, days=settings.archon_days),
        )
        self.accuracy: evaluation.AccuracySource | None = analysis.accuracy_share
        """Where the evaluation's accuracy line comes from: the stored game analyses."""
        self.follow_ups = FollowUps(self.store, lambda: self.tables)
        self.table_deps = TableDeps(
            store=self.store,
            fanout=self.fanout,
            thinker=self.bots,
            bot_account=self.accounts.bot_account,
            changed=self._table_changed,
            titles=self.titles.of,
            idle=lambda actor: self.tables.unload(actor),
            lost=lambda actor: self.tables.lost(actor),
            bot_delay=settings.bot_delay,
            grace_seconds=settings.grace_seconds,
            away_seconds=settings.away_seconds,
            node=self.node,
            max_spectators=settings.max_spectators,
            finished=self._table_finished,
            round_pause=settings.round_pause_seconds,
            follow_ups=self.follow_ups,
        )

    def _join_cluster(self, redis_url: str) -> None:
        from .cluster.node import ClusterNode, node_name
        from .cluster.tables import ClusterTables

        redis = _redis(redis_url)
        self.node = self.settings.node or node_name()
        cluster = self.cluster = ClusterNode(
            redis, self.sockets, node=self.node, lease_ttl=self.settings.lease_ttl
        )
        self.local = cluster.local
        self.fanout = cluster.fanout
        self.lobby = lobby.Lobby(cluster.bus, cluster.directory)
        self.tables = ClusterTables(
            self._deps, store=self.store, leases=cluster.leases, router=cluster.router
        )

    def _table_finished(self, actor: TableActor) -> None:
        """A game ended here: rated games get their human seats analysed."""
        self.analyses.table_finished(
            actor.id,
            rated=actor.spec.rated,
            ruleset=actor.rules.ruleset,
            humans=[(s.seat, s.account_id) for s in actor.seats if s.human and s.account_id],
        )

    def _queue_store(self) -> QueueStore:
        """Quick play's queue: this process's own, or the cluster's in Redis."""
        if self.cluster is None:
            return MemoryQueueStore()
        from .cluster.matchqueue import RedisQueueStore

        return RedisQueueStore(self.cluster.redis)

    def _table_changed(self, actor: TableActor) -> None:
        """Tell the lobby; a game that just finished may have moved a title."""
        self.lobby.table_changed(actor)
        if actor.status == "finished":
            self.titles.refresh_soon()

    def _deps(self) -> TableDeps:
        return self.table_deps

    @property
    def audit(self) -> Audit | None:
        """A test hook that sees every message a table sends (table id, seat, text)."""
        return self.local.audit

    @audit.setter
    def audit(self, audit: Audit | None) -> None:
        self.local.audit = audit

    async def open(self) -> None:
        url = make_url(self.settings.sqlalchemy_url())
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        await db.migrate(self.engine)
        await self.passwords.start()
        self.writer.start()
        await self.titles.refresh()
        self.titles.start()
        restored = await self.tables.restore()
        self.matchmaker.start()
        if self.cluster is not None:
            from .cluster.tables import ClusterTables

            assert isinstance(self.tables, ClusterTables)
            await self.cluster.start(self.tables)
            log.info("cluster node %s ready; %d unfinished tables known", self.node, restored)
        else:
            log.info("card room ready; %d unfinished tables restored", restored)

    async def problem(self) -> str | None:
        """What keeps this node from serving players now (None: nothing)."""
        if self.draining:
            return "draining"
        try:
            async with self.engine.connect() as conn:
                await conn.execute(sa.text("SELECT 1"))
        except Exception:
            return "database unreachable"
        if self.cluster is not None:
            try:
                await self.cluster.redis.ping()
            except Exception:
                return "redis unreachable"
        return None

    async def close(self) -> None:
        """Stop taking tables, hand over (or stop) the ones running here, then shut down."""
        self.draining = True
        await self.matchmaker.stop()
        log.info("closing: handing over or stopping %d tables", len(self.tables.live))
        await self.tables.close()
        log.info("closing: writing what is queued for the database")
        await self.writer.stop()
        await self.titles.stop()
        if self.cluster is not None:
            log.info("closing: leaving the cluster")
            await self.cluster.stop()
        await self.analyses.close()
        self.bots.close()
        self.passwords.close()
        await self.engine.dispose()
        log.info("closed")


def _redis(url: str) -> Redis:
    client = require("redis.asyncio", extra="cluster", feature="cluster mode (--redis)")
    redis: Redis = client.Redis.from_url(url)
    return redis


class ErrorResponse(JSONResponse):
    """``{"error": code, "detail": text}``, ASCII-escaped so no text can break the JSON."""

    def render(self, content: object) -> bytes:
        return json.dumps(content, separators=(",", ":")).encode()


def _form_rules(request: Request) -> dict[str, str] | None:
    """The ``RULES`` of the route's body model (``auth.Form``), if it has any."""
    field = getattr(request.scope.get("route"), "body_field", None)
    model = getattr(getattr(field, "field_info", None), "annotation", None)
    rules = getattr(model, "RULES", None)
    return rules if isinstance(rules, dict) else None


def add_error_handlers(app: FastAPI) -> None:
    """Every error the API answers has the shape ``{"error": code, "detail": sentence}``."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        body = {"error": exc.code, "detail": exc.detail}
        return ErrorResponse(body, status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        detail = readable(exc.errors(), _form_rules(request))
        return ErrorResponse({"error": "invalid", "detail": detail}, status_code=422)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> Response:
        code, detail = http_error(exc.status_code, str(exc.detail))
        body = {"error": code, "detail": detail}
        return ErrorResponse(body, status_code=exc.status_code, headers=exc.headers)


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """The card room as an ASGI app."""
    settings = settings or ServerSettings()
    room = Room(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await room.open()
        try:
            yield
        finally:
            await room.close()

    app = FastAPI(
        title="Crazy Eights card room",
        version="0.1.0",
        description="Accounts, lobby, tables and records. Table play is over WebSockets: "
        "see docs/protocol.md.",
        lifespan=lifespan,
    )
    app.state.room = room
    app.add_middleware(BodyLimitMiddleware, limit=MAX_BODY)
    app.add_middleware(OriginMiddleware, settings=settings)
    app.add_middleware(NulMiddleware)
    if settings.forwarded_allow_ips:  # outermost: the Origin check sees the real scheme
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.forwarded_allow_ips)
    add_error_handlers(app)

    for router in (
        auth.router,
        lobby.router,
        match_api.router,
        stats.router,
        analysis.router,
        evaluation.router,
        achievements.router,
        sockets.router,
    ):
        app.include_router(router)

    @app.get("/api/health", tags=["meta"])
    async def health() -> dict[str, object]:
        """Liveness: the process answers (the tables it runs, its node name)."""
        return {"ok": True, "tables": len(room.tables.live), "node": room.node}

    @app.get("/api/ready", tags=["meta"])
    async def ready() -> Response:
        """Readiness, for a load balancer: 503 while the node drains or cannot reach its
        database (or Redis, in a cluster)."""
        problem = await room.problem()
        status = 200 if problem is None else 503
        return JSONResponse({"ready": problem is None, "problem": problem}, status_code=status)

    web = settings.web_dir or WEB

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        page = web / "index.html"
        if page.is_file():
            return FileResponse(page)
        return HTMLResponse(PLACEHOLDER)

    app.mount("/static", StaticFiles(directory=web, check_dir=False), name="static")
    app.mount("/", StaticFiles(directory=web, check_dir=False), name="web")
    return app
