"""The figures an operator watches and pages on, for Prometheus (``/metrics``).

Counters and histograms are the process's (one card room a process): the modules that
do the work record into them (a move played, a commit, a bot job waiting, an error).
What is read off the room when Prometheus scrapes (sockets, tables by status, bot
queue depth, quick-play tickets) comes from ``RoomGauges``, which ``Room`` registers
while it is open. All of it lives in ``REGISTRY`` (not prometheus-client's global
one), exposed on a port of its own (``metrics_port``) or on the room's port behind a
token (``metrics_token``); see docs/deploy.md for the alerts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from .fairqueue import PRIORITIES

REGISTRY = CollectorRegistry(auto_describe=True)

# Seconds: a move is a commit and a fan-out (milliseconds); a bot may wait for seconds.
FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

MOVES = Counter("ce_moves", "Moves played (people's, bots' and timeouts)", registry=REGISTRY)
MOVE_SECONDS = Histogram(
    "ce_move_seconds",
    "A move from the table's turn to its broadcast: play, durable commit, fan-out",
    buckets=FAST,
    registry=REGISTRY,
)
BROADCAST_SECONDS = Histogram(
    "ce_broadcast_seconds",
    "Handing one table message to its members' connections (this node's)",
    buckets=FAST,
    registry=REGISTRY,
)
COMMIT_SECONDS = Histogram(
    "ce_db_commit_seconds",
    "One group commit of the database writer (a batch of moves, chat, seats)",
    buckets=FAST,
    registry=REGISTRY,
)
BOT_WAIT_SECONDS = Histogram(
    "ce_bot_wait_seconds",
    "Time a bot job waited for a worker, by priority class",
    ["priority"],
    buckets=SLOW,
    registry=REGISTRY,
)
for _priority in PRIORITIES:  # every class is there from the first scrape, at zero
    BOT_WAIT_SECONDS.labels(_priority)
REDIS_ROUND_TRIPS = Counter(
    "ce_redis_round_trips",
    "Commands (or pipelines) this node sent to Redis, each one round trip (cluster)",
    registry=REGISTRY,
)
REDIS_SECONDS = Histogram(
    "ce_redis_seconds",
    "A Redis round trip: from sending a command (or pipeline) to its first reply (cluster)",
    buckets=FAST,
    registry=REGISTRY,
)
ERRORS = Counter(
    "ce_errors",
    "Errors answered to clients (HTTP and socket), by code",
    ["code"],
    registry=REGISTRY,
)
GC_PAUSE_SECONDS = Histogram(
    "ce_gc_pause_seconds",
    "A garbage collection, by generation (2: a full one), while serve's collection policy "
    "runs; every table waits for it",
    ["generation"],
    buckets=FAST,
    registry=REGISTRY,
)
for _generation in ("0", "1", "2"):
    GC_PAUSE_SECONDS.labels(_generation)
TABLE_SOCKETS = Counter(
    "ce_table_sockets",
    "Table sockets opened, by where their table runs: here, across (on another node, every "
    "move crossing between nodes: the proxy did not route ?node=), sent_on (closed with "
    "4307 naming the table's node)",
    ["where"],
    registry=REGISTRY,
)
for _where in ("here", "across", "sent_on"):
    TABLE_SOCKETS.labels(_where)
LEASE_TAKEOVERS = Counter(
    "ce_lease_takeovers",
    "Tables this node took over after their owner's lease lapsed (cluster)",
    registry=REGISTRY,
)


@contextmanager
def timed(histogram: Histogram) -> Iterator[None]:
    """Observe the block's duration (also when it raises)."""
    started = time.perf_counter()
    try:
        yield
    finally:
        histogram.observe(time.perf_counter() - started)


class RoomGauges(Collector):
    """What a scrape reads off a live room, each a function the room hands in."""

    def __init__(
        self,
        *,
        sockets: Callable[[], int],
        tables: Callable[[], Mapping[str, int]],
        bot_queue: Callable[[], Mapping[str, int]],
        bot_running: Callable[[], int],
        tickets: Callable[[], int],
    ) -> None:
        self.sockets = sockets
        self.tables = tables
        self.bot_queue = bot_queue
        self.bot_running = bot_running
        self.tickets = tickets

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield GaugeMetricFamily("ce_sockets", "Open table sockets on this node", self.sockets())
        tables = GaugeMetricFamily(
            "ce_tables", "Live tables on this node by status", labels=["status"]
        )
        for status, count in sorted(self.tables().items()):
            tables.add_metric([status], count)
        yield tables
        queue = GaugeMetricFamily(
            "ce_bot_queue_depth", "Bot jobs waiting for a worker by priority", labels=["priority"]
        )
        for priority, count in self.bot_queue().items():
            queue.add_metric([priority], count)
        yield queue
        yield GaugeMetricFamily(
            "ce_bot_jobs_running", "Bot jobs in the workers", self.bot_running()
        )
        yield GaugeMetricFamily(
            "ce_queue_tickets", "People waiting in quick play's queues", self.tickets()
        )
