"""A cluster per test: nodes as real processes over a fresh PostgreSQL database and a
Redis database of their own (fixtures of ``tests/conftest.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import pytest

from .nodes import Node, start_all


class Cluster(Protocol):
    def __call__(self, count: int, **env: str) -> list[Node]: ...


@pytest.fixture
def cluster(tmp_path: Path, postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    """``cluster(n, **env)`` starts n nodes together (with settings ``env``, as
    ``CE_...`` variables) and waits until every one is ready."""
    nodes: list[Node] = []

    def start(count: int, **env: str) -> list[Node]:
        fresh = [
            Node(tmp_path, database=postgres_url, redis=redis_url, name=f"n{len(nodes) + i}", **env)
            for i in range(count)
        ]
        nodes.extend(fresh)  # killed at the end even if one never gets ready
        return start_all(fresh)

    yield start
    for node in nodes:
        node.kill()
