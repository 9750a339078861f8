"""The composition root: ``Room`` builds every service of one card-room process and
wires them together, and opens and closes them in order.

Nothing else builds services or knows them all: the app factory (``app.py``) makes one
room per app, and routes reach it through one dependency (``api.deps.RoomDep``). The end
of a game is wired here too: the table store announces it, and the records, the
evaluation's counts, the achievements and the game analyses subscribe.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from prometheus_client import start_http_server
from sqlalchemy.engine import make_url

from ..extras import require
from . import achievements, db, evaluation, metrics, quickplay, stats
from .analysis import Analyses, accuracy_share
from .analysis import config_from as analysis_config
from .archon import ArchonRule, Titles
from .auth import Accounts
from .blocks import Blocks
from .botpool import BotPool
from .bus import MemoryBus
from .chatnames import ChatNames
from .connection import spawn
from .directory import MemoryDirectory
from .ejection import Ejector
from .errors import ApiError
from .fairqueue import PRIORITIES
from .friends import ASK_BURST, ASK_RATE, Friends
from .hosted import HOSTED_LISTER, LISTER_TTL, HostedTables
from .invitations import INVITE_BURST, INVITE_RATE, Invitations
from .lobby import Lobby
from .matchmaking import Matchmaker, QueueStore
from .moderation import Moderation
from .passwords import Passwords
from .presence import MemoryPresenceStore, Presence, PresenceStore
from .ratelimit import KeyedBuckets
from .records.finish import FinishSubscribers
from .records.tables import SqlTableStore
from .rematch import REMATCH_BURST, REMATCH_RATE, FollowUps
from .replays import Replays
from .reports import REPORT_BURST, REPORT_RATE, Reports
from .settings import ServerSettings
from .table.actor import TableActor, TableDeps
from .table.fanout import Audit, Fanout, LocalFanout, LocalSockets
from .table.follow import FollowDeps
from .tables import Tables
from .throttle import Throttles
from .ticketstore import KeptQueueStore

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from .cluster.node import ClusterNode

log = logging.getLogger(__name__)


class Room:
    """Everything one card-room process shares: settings, database, tables, lobby, bots,
    and the services the routes ask (``api.deps.RoomDep``)."""

    def __init__(self, settings: ServerSettings) -> None:
        problem = settings.cluster_problem()
        if problem is not None:
            raise ValueError(problem)
        self.settings = settings
        self.engine = db.make_engine(settings.sqlalchemy_url())
        self.writer = db.Writer(self.engine)
        self.accounts = Accounts(self.engine, settings, check_settings=achievements.check_settings)
        self.passwords = Passwords(
            time_cost=settings.hash_time_cost,
            memory_kib=settings.hash_memory_kib,
            slots=settings.hash_concurrency,
            queue=settings.hash_queue,
        )
        self.throttles = Throttles(settings)
        self.sockets = LocalSockets()
        self.bots = BotPool(
            settings.bot_workers,
            {
                "move": settings.bot_queue_move,
                "hint": settings.bot_queue_hint,
                "background": settings.bot_queue_background,
            },
        )
        self.analyses = Analyses(
            self.engine,
            self.bots,
            analysis_config(settings),
            sole=not settings.redis_url,
        )
        self.store = SqlTableStore(self.engine, self.writer, self._finish_subscribers())
        self.socket_opens = KeyedBuckets(settings.socket_opens, burst=4 * settings.socket_opens)
        self.match_joins = KeyedBuckets(quickplay.JOIN_RATE, burst=quickplay.JOIN_BURST)
        self.rematch_asks = KeyedBuckets(REMATCH_RATE, burst=REMATCH_BURST)
        self.draining = False
        self.cluster: ClusterNode | None = None
        if settings.redis_url:
            self._join_cluster(settings.redis_url)
        else:
            self.node = ""
            self.local = LocalFanout(self.sockets)
            self.fanout: Fanout = self.local
            self.lobby = Lobby(MemoryBus(), MemoryDirectory())
            self.tables = Tables(self._deps)
        self.friends = Friends(self.engine)
        self.blocks = Blocks(self.engine, lock=self.friends.lock)
        self.matchmaker = Matchmaker(
            store=self._queue_store(),
            bus=self.lobby.bus,
            make_table=quickplay.table_maker(self.tables),
            window=settings.match_window_seconds,
            alone_at_once=settings.match_alone == "at_once",
            apart=self.blocks.pairs_among,
        )
        self.titles = Titles(
            self.engine,
            ArchonRule(min_games=settings.archon_min_games, days=settings.archon_days),
        )
        self.records = stats.RecordBook(self.engine, self.titles, settings.provisional_games)
        self.replays = Replays(self.engine, self.titles)
        self.evaluations = evaluation.Evaluations(
            self.engine,
            min_games=settings.evaluation_min_games,
            accuracy=accuracy_share,  # the stored game analyses
        )
        self.achievements = achievements.Achievements(self.engine)
        self.follow_ups = FollowUps(
            self.store, lambda: self.tables, hold_seconds=settings.hold_seconds
        )
        self.friend_asks = KeyedBuckets(ASK_RATE, burst=ASK_BURST)
        self.presence = Presence(
            bus=self.lobby.bus, store=self._presence_store(), social=self.friends, node=self.node
        )
        self.friends.changed.append(self.presence.friends_news)
        self.blocks.changed.append(self.presence.friends_news)
        self.invitations = Invitations(
            self.engine,
            tables=lambda: self.tables,
            tell=self.presence.tell,
            hold_seconds=settings.hold_seconds,
        )
        self.invite_asks = KeyedBuckets(INVITE_RATE, burst=INVITE_BURST)
        self.moderation = Moderation(self.engine, bus=self.lobby.bus)
        self.ejector = Ejector(self.sockets)
        self.moderation.on_ban.append(self.ejector.eject)  # on every node, through the bus
        self.moderation.on_ban.append(self._out_of_the_queue)
        self.reports = Reports(self.engine)
        self.report_asks = KeyedBuckets(REPORT_RATE, burst=REPORT_BURST)
        self.table_deps = self._table_deps()
        self.chat_names = ChatNames(self.engine)
        self.hosted = self._hosted()

    def _out_of_the_queue(self, account: int, _words: str) -> None:
        """A banned person's quick play ticket is taken out of the queue (every node
        tries; the queue's take is atomic, the others find it gone)."""

        async def cancel() -> None:
            with contextlib.suppress(ApiError):
                await self.matchmaker.cancel(account)

        spawn(cancel())

    def _hosted(self) -> HostedTables:
        """The tables chat hosts play on this database: listed, followed for sockets,
        and analysed when a rated one ends."""
        deps = FollowDeps(
            engine=self.engine,
            fanout=self.fanout,
            thinker=self.bots,
            node=self.node,
            titles=self.titles.of,
            max_spectators=self.settings.max_spectators,
            every=self.settings.hosted_poll_seconds,
        )
        return HostedTables(
            deps,
            show=self.lobby.show,
            hide=self.lobby.hide,
            listed=self.lobby.listed,
            finished=self.analyses.game_finished,  # the host has no bot pool for them
            bus=self.lobby.bus,  # in a cluster, the hosts' word over Redis
            lister=None  # in a cluster, one node lists them: each change told once
            if self.cluster is None
            else self.cluster.leases.role(HOSTED_LISTER, ttl=LISTER_TTL),
        )

    def _finish_subscribers(self) -> FinishSubscribers:
        """Who hears that a game ended: its records and ratings, the evaluation's counts
        and the achievements in the finishing transaction; the analyses once stored."""
        return FinishSubscribers(
            rate=partial(stats.rate_game, rate_guests=self.settings.rate_guests),
            in_transaction=(evaluation.count_game, achievements.award_game),
            after_commit=(self.analyses.game_finished,),
        )

    def _table_deps(self) -> TableDeps:
        """What every table of this process is given: its store, its members' transport,
        the bots, and whom to tell when it changes."""
        settings = self.settings
        return TableDeps(
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
            round_pause=settings.round_pause_seconds,
            follow_ups=self.follow_ups,
            released=lambda actor, accounts: self.invitations.released(actor.id, accounts),
            muted=self.moderation.muted,
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
        self.lobby = Lobby(cluster.bus, cluster.directory)
        self.tables = ClusterTables(
            self._deps, store=self.store, leases=cluster.leases, router=cluster.router
        )

    def _queue_store(self) -> QueueStore:
        """Quick play's queue: this process's own (kept in the database), or the
        cluster's in Redis."""
        if self.cluster is None:
            return KeptQueueStore(self.engine)
        from .cluster.matchqueue import RedisQueueStore

        return RedisQueueStore(self.cluster.redis)

    def _presence_store(self) -> PresenceStore:
        """Where each node's sightings of a person are kept: here, or in Redis."""
        if self.cluster is None:
            return MemoryPresenceStore()
        from .cluster.presence import RedisPresenceStore

        return RedisPresenceStore(self.cluster.redis)

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
        await self.moderation.start()
        restored = await self.tables.restore()
        await self.analyses.resume()
        if isinstance(self.matchmaker.store, KeptQueueStore):
            self.matchmaker.restored(await self.matchmaker.store.load())
        self.matchmaker.start()
        self.hosted.start()
        self.presence.start()
        self._watch()
        if self.cluster is not None:
            from .cluster.tables import ClusterTables

            assert isinstance(self.tables, ClusterTables)
            await self.cluster.start(self.tables)
            log.info("cluster node %s ready; %d unfinished tables known", self.node, restored)
        else:
            log.info("card room ready; %d unfinished tables restored", restored)

    def _watch(self) -> None:
        """Let Prometheus read this room (``metrics``), on a port of its own if set."""
        self._gauges = metrics.RoomGauges(
            sockets=lambda: len(self.sockets),
            tables=lambda: Counter(t.status for t in self.tables.live.values()),
            bot_queue=lambda: {p: self.bots.waiting(p) for p in PRIORITIES},
            bot_running=lambda: self.bots.running,
            tickets=lambda: self.matchmaker.waiting_now,
        )
        metrics.REGISTRY.register(self._gauges)
        self._metrics_server = None
        if self.settings.metrics_port:
            self._metrics_server, _ = start_http_server(
                self.settings.metrics_port, self.settings.metrics_host, metrics.REGISTRY
            )
            log.info(
                "metrics on http://%s:%d/metrics",
                self.settings.metrics_host,
                self.settings.metrics_port,
            )

    def _unwatch(self) -> None:
        with contextlib.suppress(KeyError, AttributeError):
            metrics.REGISTRY.unregister(self._gauges)
        server = getattr(self, "_metrics_server", None)
        if server is not None:
            server.shutdown()
            server.server_close()

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
        await self.hosted.stop()
        await self.moderation.stop()
        log.info("closing: handing over or stopping %d tables", len(self.tables.live))
        # presence finishes telling of the sockets that closed meanwhile, not first: the
        # tables' new owners are waiting for the handover
        await asyncio.gather(self.presence.stop(), self.tables.close())
        await self.invitations.stop()
        log.info("closing: writing what is queued for the database")
        await self.writer.stop()
        await self.titles.stop()
        if self.cluster is not None:
            log.info("closing: leaving the cluster")
            await self.cluster.stop()
        await self.analyses.close()
        self._unwatch()
        await self.bots.stop()
        self.passwords.close()
        await self.engine.dispose()
        log.info("closed")


def _redis(url: str) -> Redis:
    require("redis.asyncio", extra="cluster", feature="cluster mode (--redis)")
    from .cluster.redisclient import connect

    return connect(url)
