"""The cluster's Redis client, its round trips counted and timed for ``/metrics``.

Every command or pipeline a node sends is one round trip
(``ce_redis_round_trips_total``; a batch of messages from ``lane.Lane`` asks no reply
but counts one too); the time from sending it to its first reply is
``ce_redis_seconds``. A subscription's later messages are not replies and are not
timed. The counting sits in the connection class, so every user of the client (leases,
the bus, the queue, the routing) is measured without knowing it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.connection import Connection, SSLConnection, UnixDomainSocketConnection

from ..metrics import REDIS_ROUND_TRIPS, REDIS_SECONDS


class _Timed(Connection):
    """Notes when a command leaves and observes the wait for the reply that follows."""

    _sent_at: float | None = None

    async def send_packed_command(
        self, command: bytes | str | Iterable[bytes], check_health: bool = True
    ) -> None:
        self._sent_at = time.perf_counter()
        await super().send_packed_command(command, check_health)
        REDIS_ROUND_TRIPS.inc()

    async def read_response(self, *args: Any, **kwargs: Any) -> Any:
        response = await super().read_response(*args, **kwargs)
        if self._sent_at is not None:
            REDIS_SECONDS.observe(time.perf_counter() - self._sent_at)
            self._sent_at = None
        return response


class TimedConnection(_Timed):
    """A TCP connection, measured."""


class TimedSSLConnection(_Timed, SSLConnection):
    """A TLS connection (``rediss://``), measured."""


class TimedUnixConnection(_Timed, UnixDomainSocketConnection):
    """A Unix socket connection (``unix://``), measured."""


_BY_SCHEME: dict[str, type[Connection]] = {
    "redis": TimedConnection,
    "rediss": TimedSSLConnection,
    "unix": TimedUnixConnection,
}


POOL_SIZE = 200  # connections a node opens to Redis at most
POOL_WAIT = 10.0  # seconds a command waits for one of them before it fails


def connect(url: str) -> Redis:
    """A client for ``url`` (``redis://``, ``rediss://`` or ``unix://``) whose round
    trips show in the metrics.

    A burst of commands (hundreds of sockets arriving at once, each telling Redis that
    its account is here) waits for a free connection rather than failing: redis-py's
    plain pool raises "Too many connections" past its size (100 in recent redis-py), and
    a node whose lease renewal fails that way loses its tables."""
    scheme = urlsplit(url).scheme
    if scheme not in _BY_SCHEME:
        raise ValueError(f"not a Redis URL: {url!r} (redis://, rediss:// or unix://)")
    pool = BlockingConnectionPool.from_url(
        url,
        connection_class=_BY_SCHEME[scheme],
        max_connections=POOL_SIZE,
        timeout=POOL_WAIT,
    )
    return Redis(connection_pool=pool)
