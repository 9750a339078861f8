"""A routed operation that meets a table in the middle of a move (the owner answers
``table_moving``: it did not run the operation) is sent once more to the table's new
place, found again; the person is not told to retry."""

from __future__ import annotations

from typing import Any

import pytest

from crazy_eights.server.cluster.routing import RoutedTable
from crazy_eights.server.errors import ApiError
from crazy_eights.server.table.ops import Op

from ..conftest import run_async


class Owners:
    """Stands in for the Redis router: the old owner refuses, as a node mid-handover does."""

    def __init__(self, refusing: str) -> None:
        self.refusing = refusing
        self.asked: list[str] = []

    async def request(self, node: str, table_id: str, op: Op) -> Any:
        self.asked.append(node)
        if node == self.refusing:
            raise ApiError(503, "table_moving", "the table has moved; retry")
        return {"ran": op, "at": node}


def routed(router: Owners, now_at: str | None) -> RoutedTable:
    async def find(table_id: str) -> RoutedTable | None:
        return None if now_at is None else RoutedTable(router, table_id, now_at)  # type: ignore[arg-type]

    return RoutedTable(router, "t1", "old", find)  # type: ignore[arg-type]


OP: Any = object()


def test_a_moving_table_is_found_again_and_the_operation_sent_once_more() -> None:
    router = Owners(refusing="old")
    answer = run_async(routed(router, now_at="new").request(OP))
    assert answer == {"ran": OP, "at": "new"}
    assert router.asked == ["old", "new"]


@pytest.mark.parametrize("now_at", [None, "old"])
def test_a_table_found_nowhere_else_still_says_retry(now_at: str | None) -> None:
    router = Owners(refusing="old")
    with pytest.raises(ApiError) as refused:
        run_async(routed(router, now_at=now_at).request(OP))
    assert refused.value.code == "table_moving"
    assert router.asked == ["old"]


def test_other_refusals_are_not_retried() -> None:
    class Refuses(Owners):
        async def request(self, node: str, table_id: str, op: Op) -> Any:
            self.asked.append(node)
            raise ApiError(409, "not_your_turn", "it is not your turn")

    router = Refuses(refusing="old")
    with pytest.raises(ApiError) as refused:
        run_async(routed(router, now_at="new").request(OP))
    assert refused.value.code == "not_your_turn" and router.asked == ["old"]
