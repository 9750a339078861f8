"""Password hashing (argon2id) off the event loop, a bounded number at a time.

Each hash holds ``memory_kib`` (64 MiB by default) for its duration, so a burst of
registrations or sign-ins run side by side would take the server's memory with it. Here
at most ``slots`` run at once, in threads of their own (default: one per core, and no more
than an eighth of the machine's memory holds); up to ``queue`` more wait their turn, and
past that the request is refused at once with a 503 and ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .errors import ApiError

T = TypeVar("T")

MEMORY_SHARE = 8  # hashing may use at most 1/8 of the machine's memory by default


def machine_slots(memory_kib: int) -> int:
    """Hashes to run at once on this machine: one per usable core, within the memory share."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    by_memory = _machine_memory_kib() // MEMORY_SHARE // max(memory_kib, 1)
    return max(1, min(cores or 1, by_memory))


def _machine_memory_kib() -> int:
    """Physical memory, or the container's limit (cgroup v2) when that is lower."""
    limits = [os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 1024]
    try:
        text = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        if text != "max":
            limits.append(int(text) // 1024)
    except (OSError, ValueError):
        pass
    return min(limits)


class Passwords:
    """Hashes and checks passwords; ``slots`` at once, ``queue`` waiting, the rest refused."""

    def __init__(self, *, time_cost: int, memory_kib: int, slots: int, queue: int) -> None:
        self.hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib)
        self.slots = slots if slots > 0 else machine_slots(memory_kib)
        self.queue = queue
        self._pool = ThreadPoolExecutor(self.slots, thread_name_prefix="argon2")
        self._free: asyncio.Semaphore | None = None
        self._waiting = 0
        self._dummy = ""

    async def start(self) -> None:
        """Make the hash that unknown names are checked against (same cost as a real one)."""
        self._free = asyncio.Semaphore(self.slots)
        self._dummy = await self._run(lambda: self.hasher.hash(secrets.token_hex(16)))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def hash(self, password: str) -> str:
        return await self._run(lambda: self.hasher.hash(password))

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with no hash (an unknown name, a guest,
        a bot) it spends the same time and answers False, so names cannot be probed."""

        def check() -> bool:
            try:
                return self.hasher.verify(stored or self._dummy, password) and bool(stored)
            except (VerificationError, InvalidHashError):
                return False

        return await self._run(check)

    async def _run(self, work: Callable[[], T]) -> T:
        assert self._free is not None, "Passwords.start() first"
        if self._free.locked() and self._waiting >= self.queue:
            raise ApiError(
                503,
                "busy",
                "The server is busy checking passwords; try again in a few seconds.",
                headers={"Retry-After": "2"},
            )
        self._waiting += 1
        try:
            await self._free.acquire()
        finally:
            self._waiting -= 1
        # The slot is given back when the thread is done, even if the request was dropped.
        loop = asyncio.get_running_loop()
        free = self._free
        job = self._pool.submit(work)
        job.add_done_callback(lambda _: loop.call_soon_threadsafe(free.release))
        return await asyncio.wrap_future(job)
