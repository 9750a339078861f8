"""Finding 6 (Origin): a page served over another scheme is another site. The Origin of a
state-changing request or a socket must match the server's scheme, host and port."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("http://testserver", True),
        ("HTTP://TestServer", True),
        ("https://testserver", False),  # same host, other scheme
        ("ws://testserver", False),
        ("http://testserver:8080", False),
        ("http://testserver.evil.example", False),
        ("null", False),
        ("http://user@testserver", False),
    ],
)
def test_posts_need_the_same_scheme_host_and_port(
    client: TestClient, origin: str, allowed: bool
) -> None:
    response = client.post("/api/auth/guest", headers={"origin": origin})
    assert response.status_code == (201 if allowed else 403), response.text
    if not allowed:
        assert response.json() == {
            "error": "bad_origin",
            "detail": "Requests from other sites are refused.",
        }


def test_the_lobby_socket_checks_the_scheme(client: TestClient) -> None:
    other_scheme = {"origin": "https://testserver"}
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect("/ws/lobby", headers=other_scheme) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 4003
    with client.websocket_connect("/ws/lobby", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "tables"
