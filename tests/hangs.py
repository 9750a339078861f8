"""What a test that ran out of time was waiting for, in the run's last lines.

pytest-timeout prints every thread's stack into the failing test's captured output, far
up a long log; a run that is read from its end (a CI summary) showed only "Timeout".
``digest`` keeps the innermost frames of each thread, which ``pytest_terminal_summary``
in ``tests/conftest.py`` prints at the end. Most of the code under test is asynchronous,
and a thread's stack shows an event loop waiting in ``select``, not which coroutine waits
for what: ``tasks_dump``, printed a little before the timeout, adds every running loop's
tasks and the place each is suspended at, in the same format.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Iterable
from types import CodeType
from typing import Any

import pytest

STACK = re.compile(r"^~+ Stack of (?P<name>.+?) \(\d+\) ~+$")
FRAME = re.compile(r'^\s*File "(?P<path>[^"]+)", line (?P<line>\d+), in (?P<func>.+)$')
# threads that are the test run's own machinery, not the code under test
MACHINERY = ("execnet/", "pytest_timeout.py", "_pytest/")


def digest(dump: str, frames: int = 4) -> list[str]:
    """One line per thread of a pytest-timeout dump: its name and innermost frames, the
    innermost first (``a < b``: ``a`` called from ``b``).

    >>> dump = '''~~~~ Stack of db-writer (1234) ~~~~
    ...   File "/usr/lib/python3.11/threading.py", line 982, in run
    ...     self._target(*self._args, **self._kwargs)
    ...   File "/x/site-packages/crazy_eights/server/db.py", line 437, in _checkpoint
    ...     conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
    ... ~~~~ Stack of <unknown> (99) ~~~~
    ...   File "/x/site-packages/execnet/gateway_base.py", line 534, in read
    ...     data = self._read(numbytes - len(buf))
    ... '''
    >>> digest(dump, frames=2)
    ['db-writer: crazy_eights/server/db.py:437 _checkpoint < threading.py:982 run']
    """
    lines: list[str] = []
    for name, stack in _threads(dump.splitlines()):
        if not stack or any(part in stack[-1][0] for part in MACHINERY):
            continue
        innermost = reversed(stack[-frames:])
        shown = [f"{short(path)}:{line} {func}" for path, line, func in innermost]
        lines.append(f"{name}: " + " < ".join(shown))
    return lines


def summary(report: pytest.TestReport) -> list[str]:
    """What a test that ran out of time waited on: the test, the phase and the main
    thread's innermost frames (from the failure's traceback), then ``digest``'s lines
    of the dump in its output."""
    entries = getattr(getattr(report.longrepr, "reprtraceback", None), "reprentries", [])
    places = [entry.reprfileloc for entry in entries if getattr(entry, "reprfileloc", None)]
    main = " < ".join(f"{short(p.path)}:{p.lineno}" for p in reversed(places[-4:])) or "?"
    dump = "\n".join(text for _, text in report.sections)
    return [f"{report.nodeid} ({report.when}); main thread: {main}"] + [
        f"  {line}" for line in digest(dump)
    ]


def _threads(lines: Iterable[str]) -> Iterable[tuple[str, list[tuple[str, str, str]]]]:
    name: str | None = None
    stack: list[tuple[str, str, str]] = []
    for text in lines:
        if heading := STACK.match(text):
            if name is not None:
                yield name, stack
            name, stack = heading["name"], []
        elif (frame := FRAME.match(text)) and name is not None:
            stack.append((frame["path"], frame["line"], frame["func"]))
    if name is not None:
        yield name, stack


def short(path: str) -> str:
    """A frame's file from its package on (``crazy_eights/server/db.py``)."""
    for marker in ("site-packages/", "/src/", "/lib/python3."):
        if marker in path:
            tail = path.rsplit(marker, 1)[1]
            return tail.split("/", 1)[1] if marker == "/lib/python3." else tail
    return "/".join(path.split("/")[-2:])


def tasks_dump() -> str:
    """The tasks of every event loop running in this process, each as a stack from its
    outermost coroutine to the innermost place it waits at, as pytest-timeout prints a
    thread's. Read from another thread while the loops run, so a loop that changes its
    tasks meanwhile is read again (a few times), not trusted."""
    out: list[str] = []
    for loop in _running_loops():
        for _ in range(5):
            try:
                tasks = list(asyncio.all_tasks(loop))
                break
            except RuntimeError:  # the set changed size while it was read
                continue
        else:
            continue
        for task in tasks:
            out.append(f"~~~~ Stack of task {task.get_name()} ({id(task)}) ~~~~")
            for code, line in _awaiting(task.get_coro()):
                out.append(f'  File "{code.co_filename}", line {line}, in {code.co_name}')
    return "\n".join(out)


def _running_loops() -> list[asyncio.AbstractEventLoop]:
    """The event loops some thread is running now (found on the threads' stacks)."""
    loops: dict[int, asyncio.AbstractEventLoop] = {}
    for frame in sys._current_frames().values():
        at: Any = frame
        while at is not None:
            owner = at.f_locals.get("self")
            if isinstance(owner, asyncio.AbstractEventLoop) and owner.is_running():
                loops[id(owner)] = owner
            at = at.f_back
    return list(loops.values())


def _awaiting(coro: Any) -> list[tuple[CodeType, int]]:
    """The chain of coroutines (and async generators) ``coro`` is suspended in."""
    chain: list[tuple[CodeType, int]] = []
    while coro is not None and len(chain) < 50:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "ag_frame", None)
        if frame is None:
            break
        chain.append((frame.f_code, frame.f_lineno))
        awaited = getattr(coro, "cr_await", None) or getattr(coro, "ag_await", None)
        if awaited is not None and not hasattr(awaited, "cr_frame"):
            # an async generator's step (``async for``, an async ``with``) does not name
            # its generator: the running one among the frame's values is it
            awaited = _running_generator(frame) or awaited
        coro = awaited
    return chain


def _running_generator(frame: Any) -> Any:
    owner = frame.f_locals.get("self")
    values = [*frame.f_locals.values(), *getattr(owner, "__dict__", {}).values()]
    running = [value for value in values if getattr(value, "ag_running", False)]
    return running[0] if running else None
