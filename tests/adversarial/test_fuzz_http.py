"""The HTTP API fuzzed from its own OpenAPI description (schemathesis): whatever a
client sends, signed in or not, the answer is never a server error, and the room still
serves a game afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from .loopback import Guest, Server, start_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def room_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("fuzz-http")
    server = start_server(folder / "room.db", bot_workers=0, bot_delay=0.0, log=folder / "log")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def api_schema(room_server: Server) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_url(f"{room_server.url}/openapi.json")


@pytest.fixture(scope="module")
def signed_in(room_server: Server) -> Iterator[Guest]:
    """A guest at a table of its own, so that table ids and seats have something to hit."""
    guest = Guest(room_server)
    guest.table(bots=[{"seat": 1, "level": "random"}])
    yield guest
    guest.close()


schema = schemathesis.pytest.from_fixture("api_schema")


FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


def _call(case: schemathesis.Case, guest: Guest) -> None:
    headers = {} if case.path == "/api/auth/logout" else {"cookie": guest.cookie}
    response = case.call(headers=headers, timeout=30)
    case.validate_response(response, checks=(not_a_server_error,))


@schema.parametrize()
@FUZZ
def test_no_request_gets_a_server_error(case: schemathesis.Case, signed_in: Guest) -> None:
    _call(case, signed_in)


@pytest.mark.parametrize("page", ["records", "history"])
def test_account_pages_answer_huge_ids_without_a_server_error(
    room_server: Server, page: str
) -> None:
    response = httpx.get(f"{room_server.url}/api/accounts/{10**25}/{page}")
    assert response.status_code < 500


def test_the_room_still_serves_a_game_after_the_fuzzing(room_server: Server) -> None:
    guest = Guest(room_server)
    table = guest.table(bots=[{"seat": 1, "level": "random"}])
    assert table["status"] == "playing"
    assert httpx.get(f"{room_server.url}/api/health").json()["ok"] is True
    guest.close()
