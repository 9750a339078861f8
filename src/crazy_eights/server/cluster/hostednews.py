"""Word that a hosted table changed, over the cluster's Redis.

A chat host started with ``--redis`` (``chat.roomgateway``) publishes a small message,
``{"table": id, "version": moves}``, after each move or end it committed to the
database, on ``ce:<db>:bus:hosted``: a topic of the lobby bus, whose pattern every node
of the card room already listens to (``routing``), so each node hears it on its own
bus (``hosted.NEWS_TOPIC``) and wakes that table's followers (``hosted.HostedTables``) at once
rather than at their next look. It is a hint and nothing more: the followers still read
the moves from the database, and still look every ``hosted_poll_seconds``, so a word
that is lost (Redis away, a node subscribing again) costs the poll's delay, never a
move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from redis.asyncio import Redis

from ..hosted import NEWS_TOPIC
from . import redisclient
from .routing import channels

log = logging.getLogger(__name__)

PUBLISH_SECONDS = 2.0
"""The longest a word is tried for (Redis away: given up, the poll covers it)."""


class HostedNews:
    """Publishes, without holding up the chat, that a hosted table changed."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.channel = channels(redis) + "bus:" + NEWS_TOPIC
        self._sending: set[asyncio.Task[None]] = set()

    @classmethod
    def connect(cls, url: str) -> HostedNews:
        """News on the Redis at ``url`` (``redis://``, ``rediss://``, ``unix://``; its
        database number, as the card room's nodes are given it)."""
        return cls(redisclient.connect(url))

    def changed(self, table_id: str, version: int) -> None:
        """Say that ``table_id`` has ``version`` moves stored (or ended): sent in the
        background, as the chat goes on."""
        text = json.dumps({"table": table_id, "version": version})
        task = asyncio.get_running_loop().create_task(self._publish(text))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _publish(self, text: str) -> None:
        try:
            await asyncio.wait_for(self.redis.publish(self.channel, text), PUBLISH_SECONDS)
        except Exception as exc:  # the followers' poll covers it
            log.warning("could not tell the card room of a hosted table's move: %s", exc)

    async def close(self) -> None:
        """Send what is under way, then let Redis go."""
        if self._sending:
            await asyncio.gather(*self._sending, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.redis.aclose()
