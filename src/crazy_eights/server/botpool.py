"""Bots at tables think here, off the event loop: a process pool (or one thread for tests).

The pool hands its executor at most as many jobs as it has workers; the others wait in a
``FairQueue``, so a table's bot move never waits behind other tables' hints (it waits at
most for the searches already running), tables take turns within a class, and a full
class refuses at once with ``PoolBusy`` instead of growing without end.

Worker processes watch their parent and exit when it is gone, however it ended (kill -9
included), so a server never leaves thinking processes behind.

The bots package contract is ``make_bot(level, seed=...).choose(view, legal)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from crazy_eights.bots import BOT_LEVELS, make_bot
from crazy_eights.engine import Move

from .fairqueue import PRIORITIES, FairQueue, Priority, QueueFull
from .metrics import BOT_WAIT_SECONDS

__all__ = ["BOT_LEVELS", "HINT_LEVEL", "PRIORITIES", "BotPool", "PoolBusy", "Priority", "think"]

log = logging.getLogger(__name__)

T = TypeVar("T")

HINT_LEVEL = "ismcts"
HINT_MS = 250.0
"""A hint search's budget (wall clock): a bot move waits at most this long behind one."""
WATCH_EVERY = 0.25  # seconds between a worker's looks at its parent
STOP_SECONDS = 5.0
"""How long a stopping server waits for its bot workers' running jobs."""


def think(
    level: str, seed: int, view: Mapping[str, Any], legal: list[str], time_ms: float | None = None
) -> str:
    """Choose a move; runs in a worker process. Returns move text. ``time_ms`` bounds a
    search bot's thinking by the clock instead of its iterations."""
    bot = make_bot(level, seed=seed, **({} if time_ms is None else {"time_ms": time_ms}))
    return str(bot.choose(dict(view), [Move.parse(m) for m in legal]))


def _watch_parent(parent: int) -> None:
    """Worker initializer: exit as soon as the process that started us is gone, and leave
    Ctrl-C to that process (a terminal sends it to the whole group: the server shuts its
    workers down itself, so a worker interrupted in its wait would only print a
    traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_EVERY)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


class PoolBusy(Exception):
    """The pool's queue for this kind of job is full; the asker should try later."""


@dataclass(eq=False)
class _Job:
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    fn: Callable[..., Any] | None = None
    """What the worker runs (None: the pool's ``work``)."""
    priority: Priority = "move"
    queued: float = 0.0
    """When it was queued (``time.monotonic``), for the wait it is measured by."""


class BotPool:
    """Where bot decisions run: ``workers`` processes, or a thread when ``workers`` is 0.

    ``limits``: how many jobs of each class (``move``, ``hint``, ``background``) may wait.
    ``work`` is the function the workers run (``think``; a module-level function, since
    it travels to the worker processes).
    """

    def __init__(
        self,
        workers: int,
        limits: Mapping[Priority, int] | None = None,
        work: Callable[[str, int, Mapping[str, Any], list[str], float | None], str] = think,
    ) -> None:
        self.work = work
        self._workers = workers
        self._slots = max(1, workers)
        self._executor: Executor | None = None
        self._queue: FairQueue[_Job] = FairQueue(
            limits or {"move": 10_000, "hint": 32, "background": 64}
        )
        self._running = 0
        self._closed = False

    @property
    def running(self) -> int:
        """Jobs handed to the workers now (never more than the workers)."""
        return self._running

    def waiting(self, priority: Priority) -> int:
        return self._queue.waiting(priority)

    def _pool(self) -> Executor:
        if self._executor is None:
            if self._workers > 0:
                self._executor = ProcessPoolExecutor(
                    self._workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_watch_parent,
                    initargs=(os.getpid(),),
                )
            else:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="bots")
        return self._executor

    async def choose(
        self,
        *,
        level: str,
        seed: int,
        view: Mapping[str, Any],
        legal: list[str],
        table: str = "",
        priority: Priority = "move",
    ) -> str:
        """The bot's move, once a worker is free for it; ``PoolBusy`` when the class's
        queue is full. Searches for hints and background work think for ``HINT_MS`` by
        the clock, so that a turn never waits long behind one."""
        budget = HINT_MS if priority != "move" and level == HINT_LEVEL else None
        job = _Job((level, seed, view, legal, budget), asyncio.get_running_loop().create_future())
        move: str = await self._wait(priority, table, job)
        return move

    async def run(
        self, fn: Callable[..., T], *args: Any, table: str = "", priority: Priority = "background"
    ) -> T:
        """Run ``fn(*args)`` (a module-level function, picklable arguments) in a worker
        once one is free for it, queued like bot decisions (``PoolBusy`` when the class's
        queue is full). For work other than a move, such as one decision of a game
        analysis: keep each job short, since a table's bot move may wait for it."""
        job = _Job(args, asyncio.get_running_loop().create_future(), fn)
        result: T = await self._wait(priority, table, job)
        return result

    async def _wait(self, priority: Priority, table: str, job: _Job) -> Any:
        """Queue ``job`` in its class, start what can start, and wait for its answer; a
        caller that gives up takes its job out of the queue."""
        job.priority, job.queued = priority, time.monotonic()
        try:
            self._queue.push(priority, table, job)
        except QueueFull as exc:
            raise PoolBusy(str(exc)) from None
        self._pump()
        try:
            return await job.future
        except asyncio.CancelledError:
            self._queue.discard(priority, table, job)
            raise

    def _pump(self) -> None:
        """Hand waiting jobs to the workers while some are free."""
        while self._running < self._slots:
            job = self._queue.pop()
            if job is None:
                return
            if job.future.done():  # its asker gave up
                continue
            try:
                running = self._pool().submit(job.fn or self.work, *job.args)
            except (BrokenExecutor, RuntimeError) as exc:
                self._reset(exc)
                job.future.set_exception(exc)
                continue
            self._running += 1
            BOT_WAIT_SECONDS.labels(job.priority).observe(time.monotonic() - job.queued)
            running.add_done_callback(partial(_back_on, asyncio.get_running_loop(), self, job))

    def _finished(self, job: _Job, done: Future[Any]) -> None:
        self._running -= 1
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif (exc := done.exception()) is not None:
                job.future.set_exception(exc)
                if isinstance(exc, BrokenExecutor):
                    self._reset(exc)
            else:
                job.future.set_result(done.result())
        if not self._closed:
            self._pump()

    def _reset(self, exc: BaseException) -> None:
        """A worker died (killed, out of memory): start a fresh pool for the next jobs."""
        log.warning("bot pool broken (%s); starting new workers", exc)
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Refuse new jobs, cancel the waiting ones and tell the workers to stop, without
        waiting for them (``stop`` waits)."""
        executor = self._refuse()
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    async def stop(self, timeout: float = STOP_SECONDS) -> None:
        """Like ``close``, then wait (at most ``timeout``) for the workers to finish their
        jobs and exit, and let go of the executor. A process pool's queues hold named
        semaphores that are unlinked only when those queues are freed, and its manager
        thread holds the queues until it has joined the workers; a server stopped by
        SIGTERM is ended by that signal once uvicorn has shut down (no exit handlers
        run), so anything still held then is reported by multiprocessing's resource
        tracker as "leaked semaphore objects"."""
        executor = self._refuse()
        if executor is None:
            return
        # One shutdown call that waits: after a first call the executor forgets its
        # manager thread, and a second call could not wait for it.
        waiting = asyncio.get_running_loop().run_in_executor(
            None, partial(executor.shutdown, wait=True, cancel_futures=True)
        )
        try:
            await asyncio.wait_for(waiting, timeout)
        except TimeoutError:
            log.warning("bot workers still busy after %.0f s; leaving them", timeout)
        del executor, waiting
        gc.collect()  # the queues' semaphores are unlinked when they are freed

    def _refuse(self) -> Executor | None:
        """Take no more jobs, cancel the waiting ones; the executor, let go of."""
        self._closed = True
        executor, self._executor = self._executor, None
        while (job := self._queue.pop()) is not None:
            job.future.cancel()
        return executor


def _back_on(loop: asyncio.AbstractEventLoop, pool: BotPool, job: _Job, done: Future[Any]) -> None:
    """A worker's answer, carried from the executor's thread to the pool's loop."""
    with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
        loop.call_soon_threadsafe(pool._finished, job, done)
