"""The writes a node makes without waiting for them (its messages to other nodes, the
shared table directory), sent in order on one Redis connection the node keeps for them.

Taking a connection from the pool for every batch costs about a third of a message's
CPU on the sending node (the pool's lock, condition, timeout and health check: 66-71 µs a
``PUBLISH`` against 45-53 µs on a kept connection, redis-py 8.2), and reading a reply
nobody needs wakes the node once more for every batch. So the lane takes one connection
once, gives it back only when it fails, and asks Redis not to answer a ``PUBLISH``
(``CLIENT REPLY SKIP`` before it): a batch of messages is one write and nothing to read.
A ``PUBLISH`` fails only when every command would (authentication, a read-only replica),
which the node's other commands report.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from redis.asyncio.connection import AbstractConnection, ConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError

Command = tuple[str | bytes | int, ...]  # a Redis command and its arguments

QUIET = frozenset({"PUBLISH"})  # commands whose replies the lane asks Redis to skip
_SKIP: Command = ("CLIENT", "REPLY", "SKIP")


class Lane:
    """One connection from ``pool``, kept, that sends batches of commands in order.

    A batch is one write; the replies of its commands other than ``QUIET`` ones are
    read before the next batch is sent, so such a failed command shows as an error here
    and the connection never holds stale replies. When anything fails (Redis gone, an
    error reply) the connection is dropped and the next batch takes a new one. Before
    each batch the connection is checked as the pool checks one it hands out (closed by
    the server, or holding data nobody asked for: connect again), which costs no system
    call, so a Redis restart between two batches loses nothing.
    """

    def __init__(self, pool: ConnectionPool) -> None:
        self.pool = pool
        self._conn: AbstractConnection | None = None

    async def send(self, commands: Sequence[Command]) -> None:
        """Send ``commands`` as one write and read the replies asked for; raise the first
        failure."""
        conn = self._conn
        if conn is None:
            conn = self._conn = await self.pool.get_connection()  # type: ignore[no-untyped-call,unused-ignore]
        try:
            await _ready(conn)
            wire, replies = _quieted(commands)
            await conn.send_packed_command(conn.pack_commands(wire), check_health=False)
            for _ in range(replies):
                await conn.read_response()
        except BaseException:
            await self._drop()
            raise

    async def close(self) -> None:
        """Give the connection back to the pool."""
        conn, self._conn = self._conn, None
        if conn is not None:
            await self.pool.release(conn)

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        with contextlib.suppress(Exception):
            await conn.disconnect(nowait=True)
        await self.pool.release(conn)


async def _ready(conn: AbstractConnection) -> None:
    """Connect ``conn`` again if the server closed it or it holds unread data."""
    try:
        stale = await conn.can_read()
    except (RedisConnectionError, OSError):
        stale = True
    if stale:
        await conn.disconnect()
        await conn.connect()  # type: ignore[no-untyped-call,unused-ignore]


def _quieted(commands: Sequence[Command]) -> tuple[list[Command], int]:
    """The commands as sent, a ``QUIET`` one after a request to skip its reply, and how
    many replies will come.

    >>> _quieted([("PUBLISH", "c", "m"), ("HSET", "h", "f", "v")])
    ([('CLIENT', 'REPLY', 'SKIP'), ('PUBLISH', 'c', 'm'), ('HSET', 'h', 'f', 'v')], 1)
    """
    wire: list[Command] = []
    replies = 0
    for command in commands:
        if command[0] in QUIET:
            wire.append(_SKIP)
        else:
            replies += 1
        wire.append(command)
    return wire, replies
