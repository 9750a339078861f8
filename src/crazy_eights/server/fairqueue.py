"""A bounded queue that is fair across owners and strict across priority classes.

The bot pool keeps its waiting jobs here rather than in its executor: a job of a higher
class always goes first (a table's bot move before anyone's hint, a hint before
background analysis), and within a class the owners (tables) take turns, so one table
with many jobs cannot make another wait behind all of them. Each class holds at most its
limit of jobs; beyond that ``push`` refuses with ``QueueFull``.

>>> queue: FairQueue[str] = FairQueue({"move": 10, "hint": 2, "background": 1})
>>> for job in ("a1", "a2", "a3"):
...     queue.push("hint", "table-a", job)
Traceback (most recent call last):
...
crazy_eights.server.fairqueue.QueueFull: at most 2 hint jobs may wait
>>> queue.push("move", "table-b", "b1")
>>> [queue.pop(), queue.pop(), queue.pop(), queue.pop()]
['b1', 'a1', 'a2', None]
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Mapping
from typing import Generic, Literal, TypeVar

Priority = Literal["move", "hint", "background"]
PRIORITIES: tuple[Priority, ...] = ("move", "hint", "background")
"""The classes, most urgent first."""

T = TypeVar("T")


class QueueFull(Exception):
    """A class of the queue is at its limit."""

    def __init__(self, priority: Priority, limit: int) -> None:
        super().__init__(f"at most {limit} {priority} jobs may wait")
        self.priority = priority
        self.limit = limit


class FairQueue(Generic[T]):
    """Waiting jobs by class, and within a class by owner, owners taking turns."""

    def __init__(self, limits: Mapping[Priority, int]) -> None:
        self._limits = {p: limits[p] for p in PRIORITIES}
        self._owners: dict[Priority, OrderedDict[str, deque[T]]] = {
            p: OrderedDict() for p in PRIORITIES
        }
        self._sizes = dict.fromkeys(PRIORITIES, 0)

    def __len__(self) -> int:
        return sum(self._sizes.values())

    def waiting(self, priority: Priority) -> int:
        """How many jobs of a class wait."""
        return self._sizes[priority]

    def push(self, priority: Priority, owner: str, job: T) -> None:
        """Queue ``job`` behind the owner's other jobs of its class, or raise ``QueueFull``."""
        if self._sizes[priority] >= self._limits[priority]:
            raise QueueFull(priority, self._limits[priority])
        self._owners[priority].setdefault(owner, deque()).append(job)
        self._sizes[priority] += 1

    def pop(self) -> T | None:
        """The next job: the most urgent class, its next owner in turn (None: empty)."""
        for priority in PRIORITIES:
            owners = self._owners[priority]
            if not owners:
                continue
            owner, jobs = next(iter(owners.items()))
            job = jobs.popleft()
            if jobs:
                owners.move_to_end(owner)
            else:
                del owners[owner]
            self._sizes[priority] -= 1
            return job
        return None

    def discard(self, priority: Priority, owner: str, job: T) -> bool:
        """Take a job out before it ran (its asker gave up); whether it was waiting."""
        jobs = self._owners[priority].get(owner)
        if jobs is None or job not in jobs:
            return False
        jobs.remove(job)
        if not jobs:
            del self._owners[priority][owner]
        self._sizes[priority] -= 1
        return True
