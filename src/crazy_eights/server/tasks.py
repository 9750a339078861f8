"""Stopping background tasks for sure.

``task.cancel()`` asks once, and a library beneath the task can swallow the request:
redis-py does now and then when the cancellation lands inside a command (5 to 18 times in
400 on 8.1 and 8.2, measured), and a task's loop then goes on as if it had never been
asked. ``cancel()`` followed by ``await task`` then waits forever: that was a node that
never finished its SIGTERM under load. ``stop`` asks again until each task has ended.

It asks again only after ``AGAIN`` seconds, not at once: a task that was asked is often
still cleaning up, and a second request interrupts that. One such cleanup is a database
connection going back to SQLAlchemy's pool: interrupted, SQLAlchemy gives up its graceful
close of an aiosqlite connection, stops the connection's thread and leaves the close
running as a task of its own; that task, cancelled by the event loop's shutdown while
the thread is still busy, then waits forever, and so does the loop's shutdown (a room's
test client that never finished its teardown). Asking again every 50 ms, a script of
such stops hung within 1,300 rounds in three runs of three; after a second's grace, a
cleanup has long ended: no hang in 15,000.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)

PATIENCE = 10.0  # seconds ``stop`` waits for tasks before it leaves them running
AGAIN = 1.0  # seconds between two requests to a task that goes on


async def stop(
    *tasks: asyncio.Task[Any] | None, patience: float = PATIENCE, again: float = AGAIN
) -> None:
    """Cancel ``tasks`` (None: skipped) and wait until each has ended, asking again every
    ``again`` seconds while one goes on. After ``patience`` seconds, those still running
    are left with a warning. What a task raised, other than its cancellation, is logged:
    a stopping service has nobody else to tell."""
    given = [task for task in tasks if task is not None]
    pending = set(given)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience
    while pending:
        for task in pending:
            task.cancel()
        left = deadline - loop.time()
        if left <= 0:
            names = ", ".join(sorted(task.get_name() for task in pending))
            log.warning("tasks that would not stop in %.0f s: %s", patience, names)
            break
        _, pending = await asyncio.wait(pending, timeout=min(again, left))
    for task in given:
        if task.done() and not task.cancelled() and task.exception() is not None:
            log.error("task %s failed", task.get_name(), exc_info=task.exception())
