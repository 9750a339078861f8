"""A cluster per test: nodes as real processes over a fresh PostgreSQL database and a
Redis database of their own (fixtures of ``tests/conftest.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .nodes import Node, start_all

Cluster = Callable[[int], list[Node]]


@pytest.fixture
def cluster(tmp_path: Path, postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    """``cluster(n)`` starts n nodes together and waits until every one is ready."""
    nodes: list[Node] = []

    def start(count: int) -> list[Node]:
        fresh = [
            Node(tmp_path, database=postgres_url, redis=redis_url, name=f"n{len(nodes) + i}")
            for i in range(count)
        ]
        nodes.extend(fresh)  # killed at the end even if one never gets ready
        return start_all(fresh)

    yield start
    for node in nodes:
        node.kill()
