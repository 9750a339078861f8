"""Messages between nodes over Redis pub/sub: operations to a table's owner and their
answers, a table's texts to the nodes that hold its members' sockets, and the cluster's
announcements (a table claimed or released) and lobby bus.

Each node listens on ``ce:<db>:node:<id>`` (what is for it alone), ``ce:<db>:all`` (what
every node hears) and ``ce:<db>:bus:*`` (the lobby bus), ``<db>`` being the number of
the Redis database the room keeps its keys in. Everything a node publishes leaves through
one queue on one connection kept for it (``lane.Lane``), so that what one node sends
another arrives in order.

A message is a JSON text sequence (RFC 7464's record separator, ``\x1e``, between
records): the message itself, then the texts for sockets it carries, each as it will be
sent. A text is JSON already; putting it inside the message as a string would escape it
on one node and unescape it on the other, for every text of every move (``pack``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from redis.asyncio import Redis

from .. import tasks
from ..errors import ApiError
from ..table.fanout import LocalFanout
from ..table.members import Member
from ..table.ops import Op
from . import wire
from .lane import Command, Lane
from .leases import PREFIX

log = logging.getLogger(__name__)

REQUEST_TIMEOUT = 5.0  # seconds an operation waits for its owner's answer
BATCH = 500  # commands in one write at most

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]


def channels(redis: Redis) -> str:
    """The start of this room's channel names. Channels, unlike keys, are shared by every
    database of a Redis server: rooms on databases 0 and 1 must not hear each other."""
    database = redis.connection_pool.connection_kwargs.get("db", 0)
    return f"{PREFIX}{database}:"


class Router:
    """Sends and receives the cluster's messages for one node."""

    def __init__(self, redis: Redis, node: str) -> None:
        self.redis = redis
        self.node = node
        space = channels(redis)
        self.all = space + "all"
        self.bus = space + "bus:"
        self._nodes = space + "node:"
        self.handlers: dict[str, Handler] = {}
        self.on_bus: Callable[[str, dict[str, Any]], None] = lambda topic, message: None
        self._outbox: asyncio.Queue[Command] = asyncio.Queue()
        self._lane = Lane(redis.connection_pool)
        self._sending = 0  # commands taken from the outbox and not yet sent
        self._waiting: dict[str, asyncio.Future[Any]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()

    async def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._send_loop(), name="cluster-send"),
            asyncio.create_task(self._listen_loop(), name="cluster-listen"),
        ]
        await asyncio.wait_for(self._subscribed.wait(), 10)

    async def stop(self) -> None:
        deadline = asyncio.get_running_loop().time() + 2
        while self.pending() and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        await tasks.stop(*self._tasks, patience=2)
        await self._lane.close()

    # -- sending ---------------------------------------------------------------------------

    def later(self, *command: str | bytes | int) -> None:
        """Queue a Redis command that nobody waits for; such commands run in order.

        >>> router = Router(Redis(), "n1")
        >>> router.later("HDEL", "ce:tables", "t1")
        >>> router.pending()
        1
        """
        self._outbox.put_nowait(command)

    def pending(self) -> int:
        """How many queued commands have not been sent yet."""
        return self._outbox.qsize() + self._sending

    def publish(self, channel: str, message: dict[str, Any], texts: Sequence[str] = ()) -> None:
        self.later("PUBLISH", channel, pack(message, texts))

    def to_node(self, node: str, message: dict[str, Any], texts: Sequence[str] = ()) -> None:
        self.publish(self._nodes + node, message, texts)

    def to_all(self, message: dict[str, Any]) -> None:
        self.publish(self.all, message)

    def submit(self, node: str, table_id: str, op: Op) -> None:
        """Send an operation to the table's owner without waiting for it."""
        self.to_node(node, {"k": "op", "t": table_id, "op": wire.op_out(op)})

    async def request(self, node: str, table_id: str, op: Op) -> Any:
        """Run an operation at the table's owner and return its answer."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        message = {"k": "op", "t": table_id, "op": wire.op_out(op), "rid": rid, "from": self.node}
        self.to_node(node, message)
        try:
            return await asyncio.wait_for(future, REQUEST_TIMEOUT)
        except TimeoutError:
            raise ApiError(
                503, "table_unreachable", "the table's server did not answer; retry"
            ) from None
        finally:
            self._waiting.pop(rid, None)

    def answer(
        self, message: dict[str, Any], answer: Any = None, error: ApiError | None = None
    ) -> None:
        """Answer a request ``message`` (which carries ``rid`` and ``from``)."""
        if message.get("rid") is None:
            return
        reply: dict[str, Any] = {"k": "re", "rid": message["rid"]}
        if error is None:
            reply |= {"ok": True, "a": wire.answer_out(answer)}
        else:
            reply |= {"ok": False, "e": wire.error_out(error)}
        self.to_node(message["from"], reply)

    async def _send_loop(self) -> None:
        """Send what is queued, a batch at a time: the first command waits for the rest
        of the event loop's turn, so that what the turn queues shares its write.

        (Waiting longer, 2 ms, made batches larger but saved no CPU in ``bench/load.py``
        and tripled the median move's latency on two nodes.)"""
        while True:
            batch = [await self._outbox.get()]
            self._sending = 1
            await asyncio.sleep(0)
            while not self._outbox.empty() and len(batch) < BATCH:
                batch.append(self._outbox.get_nowait())
            self._sending = len(batch)
            try:
                await self._lane.send(batch)
            except Exception:
                log.exception("cluster: %d writes to Redis were lost", len(batch))
            finally:
                self._sending = 0

    # -- receiving -------------------------------------------------------------------------

    async def _listen_loop(self) -> None:
        while True:
            try:
                await self._listen()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: the subscription broke; subscribing again")
                await asyncio.sleep(0.5)

    async def _listen(self) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self._nodes + self.node, self.all)
            await pubsub.psubscribe(self.bus + "*")
            self._subscribed.set()
            async for raw in pubsub.listen():
                self._dispatch(raw)
        finally:
            with contextlib.suppress(Exception):
                # typed from redis-py 8.2 on, untyped before: either way mypy is quiet
                await asyncio.wait_for(pubsub.aclose(), 1)  # type: ignore[no-untyped-call,unused-ignore]

    def _dispatch(self, raw: dict[str, Any]) -> None:
        channel = _text(raw.get("channel"))
        try:
            message = unpack(raw["data"])
        except (TypeError, ValueError):  # UnicodeDecodeError is a ValueError
            return
        if channel.startswith(self.bus):
            self.on_bus(channel[len(self.bus) :], message)
            return
        if message.get("k") == "re":
            self._settle(message)
            return
        handler = self.handlers.get(message.get("k", ""))
        if handler is None:
            return
        result = handler(message)
        if result is not None:
            task = asyncio.ensure_future(result)
            task.add_done_callback(_log_failure)

    def _settle(self, message: dict[str, Any]) -> None:
        future = self._waiting.get(message.get("rid", ""))
        if future is None or future.done():
            return
        if message.get("ok"):
            future.set_result(wire.answer_in(message.get("a") or {}))
        else:
            future.set_exception(wire.error_in(message["e"]))


Find = Callable[[str], Awaitable[Any]]  # a table's id -> its handle now (or None)


class RoutedTable:
    """A ``TableHandle`` for a table another node owns.

    When the owner answers that the table is moving (it is handing the table over, or
    lost its lease: the operation was not run), the table is looked up again with
    ``find`` and the operation sent once to wherever it now lives, so a person sitting
    down during a handover is not told to retry.
    """

    def __init__(self, router: Router, table_id: str, owner: str, find: Find | None = None) -> None:
        self.router = router
        self.table_id = table_id
        self.owner = owner
        self._find = find

    @property
    def node(self) -> str:
        return self.owner

    async def request(self, op: Op) -> Any:
        try:
            return await self.router.request(self.owner, self.table_id, op)
        except ApiError as exc:
            if exc.code != "table_moving" or self._find is None:
                raise
            moved = await self._find(self.table_id)
            if moved is None or getattr(moved, "owner", None) == self.owner:
                raise
            return await moved.request(op)

    def submit(self, op: Op) -> None:
        self.router.submit(self.owner, self.table_id, op)


class ClusterFanout:
    """Texts for members on this node go to their sockets; for each other node, one
    message carries every text meant for its members."""

    def __init__(self, local: LocalFanout, router: Router) -> None:
        self.local = local
        self.router = router

    def deliver(self, table_id: str, items: Iterable[tuple[Member, str]]) -> None:
        here: list[tuple[Member, str]] = []
        away: dict[str, tuple[list[str], dict[str, int], list[tuple[str, int]]]] = {}
        for member, text in items:
            if member.node == self.router.node:
                here.append((member, text))
                continue
            texts, index, to = away.setdefault(member.node, ([], {}, []))
            i = index.get(text)
            if i is None:
                i = index[text] = len(texts)
                texts.append(text)
            to.append((member.id, i))
        if here:
            self.local.deliver(table_id, here)
        for node, (texts, _, to) in away.items():
            self.router.to_node(node, {"k": "out", "to": to}, texts)

    def close(self, member: Member, code: int) -> None:
        if member.node == self.router.node:
            self.local.close(member, code)
        else:
            self.router.to_node(member.node, {"k": "close", "m": member.id, "code": code})


SEPARATOR = "\x1e"  # RFC 7464's record separator: never inside a JSON text unescaped


def pack(message: dict[str, Any], texts: Sequence[str] = ()) -> bytes:
    """A message and the texts it carries as one JSON text sequence.

    Each text must be a JSON text: JSON writes control characters inside strings
    escaped, so none holds the separator.

    >>> pack({"k": "out", "to": [["m1", 0]]}, ['{"type":"state"}'])
    b'{"k":"out","to":[["m1",0]]}\\x1e{"type":"state"}'
    """
    head = json.dumps(message, separators=(",", ":"))
    return SEPARATOR.join((head, *texts)).encode()


def unpack(data: bytes | str) -> dict[str, Any]:
    """The message ``pack`` wrote, its texts (if any) under ``"texts"``.

    >>> unpack(pack({"k": "out", "to": [["m1", 0]]}, ['{"a":1}', '{"b":2}']))
    {'k': 'out', 'to': [['m1', 0]], 'texts': ['{"a":1}', '{"b":2}']}
    >>> unpack(b'{"k":"close","m":"m1","code":1000}')
    {'k': 'close', 'm': 'm1', 'code': 1000}
    """
    text = data.decode() if isinstance(data, bytes) else data
    head, *texts = text.split(SEPARATOR)
    message = json.loads(head)
    if not isinstance(message, dict):
        raise ValueError("a cluster message is a JSON object")
    if texts:
        message["texts"] = texts
    return message


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value or "")


def _log_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("cluster: a message handler failed", exc_info=task.exception())
