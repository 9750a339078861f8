"""``tasks.stop``: a task that swallows its cancellation (as redis-py sometimes makes a
loop do) is stopped all the same; one that is cleaning up after its cancellation is not
interrupted; one that never stops is left after the patience."""

from __future__ import annotations

import asyncio
import logging

import pytest

from crazy_eights.server import tasks

from ..conftest import run_async


async def swallows(times: list[int], ended: list[str]) -> None:
    """A loop whose first ``times[0]`` cancellations are lost beneath it."""
    while True:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            if times[0] == 0:
                ended.append("stopped")
                raise
            times[0] -= 1


def test_a_task_that_swallows_its_cancellation_is_stopped() -> None:
    async def main() -> tuple[list[str], bool]:
        ended: list[str] = []
        task = asyncio.create_task(swallows([3], ended))
        await asyncio.sleep(0)
        await asyncio.wait_for(tasks.stop(task, None, again=0.05), 5)
        return ended, task.cancelled()

    assert run_async(main()) == (["stopped"], True)


def test_a_task_cleaning_up_after_its_cancellation_is_not_asked_again() -> None:
    """As a task returning a database connection to its pool: asked again meanwhile,
    SQLAlchemy gives up the connection's graceful close (see ``tasks``)."""

    async def cleans_up(steps: list[str]) -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            steps.append("cleaning")
            await asyncio.sleep(0.3)  # the pool's reset of the connection
            steps.append("clean")

    async def main() -> list[str]:
        steps: list[str] = []
        task = asyncio.create_task(cleans_up(steps))
        await asyncio.sleep(0)
        await tasks.stop(task)
        return steps

    assert run_async(main()) == ["cleaning", "clean"]


def test_a_task_that_never_stops_is_left_after_the_patience(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> bool:
        times = [10**9]
        task = asyncio.create_task(swallows(times, []), name="stubborn")
        await asyncio.sleep(0)
        await tasks.stop(task, patience=0.2)
        left = not task.done()
        times[0] = 0  # now it may stop, so that the loop can close
        await tasks.stop(task)
        return left

    with caplog.at_level(logging.WARNING, logger="crazy_eights.server.tasks"):
        assert run_async(main())
    assert "stubborn" in caplog.text


def test_what_a_stopped_task_raised_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def fails() -> None:
        raise ValueError("broken")

    async def main() -> None:
        task = asyncio.create_task(fails(), name="failing")
        await asyncio.sleep(0)
        await tasks.stop(task)

    with caplog.at_level(logging.ERROR, logger="crazy_eights.server.tasks"):
        run_async(main())
    assert "task failing failed" in caplog.text and "broken" in caplog.text
