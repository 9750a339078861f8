"""Finding 6 (proxy headers): ``X-Forwarded-For``/``-Proto`` are believed only from the
addresses ``--forwarded-allow-ips`` names (none by default). Uvicorn believed them from
loopback, so any local client could pick its address for the throttles."""

from __future__ import annotations

from collections.abc import Callable

import httpx

Server = Callable[..., str]


def _fail_logins(url: str, count: int, forwarded_for: str | None) -> list[int]:
    headers = {"x-forwarded-for": forwarded_for} if forwarded_for else {}
    with httpx.Client(base_url=url, timeout=30) as http:
        return [
            http.post(
                "/api/auth/login",
                json={"name": f"nobody{i}", "password": "wrong-password"},
                headers=headers,
            ).status_code
            for i in range(count)
        ]


def test_forwarded_for_is_ignored_by_default(server: Server) -> None:
    url = server(env={"CE_LOGIN_ADDRESS_ATTEMPTS": "5", "CE_LOGIN_ATTEMPTS": "5"})
    assert _fail_logins(url, 5, "203.0.113.1") == [401] * 5
    # The header was not believed: these failures were the loopback address's own.
    assert _fail_logins(url, 1, "203.0.113.2") == [429]
    assert _fail_logins(url, 1, None) == [429]


def test_forwarded_for_is_believed_from_a_trusted_proxy(server: Server) -> None:
    url = server(
        env={
            "CE_FORWARDED_ALLOW_IPS": "127.0.0.1",  # the --forwarded-allow-ips flag's variable
            "CE_LOGIN_ADDRESS_ATTEMPTS": "5",
            "CE_LOGIN_ATTEMPTS": "5",
        }
    )
    assert _fail_logins(url, 5, "203.0.113.1") == [401] * 5
    assert _fail_logins(url, 1, "203.0.113.1") == [429]
    assert _fail_logins(url, 1, "203.0.113.2") == [401]  # another client behind the proxy
    # The right-most untrusted address counts: a client cannot prepend a made-up one.
    assert _fail_logins(url, 1, "198.51.100.9, 203.0.113.1") == [429]


def test_forwarded_proto_decides_the_scheme_only_behind_a_trusted_proxy(server: Server) -> None:
    plain = server()
    proxied = server(env={"CE_FORWARDED_ALLOW_IPS": "127.0.0.1"})
    for url, allowed in ((plain, False), (proxied, True)):
        host = url.removeprefix("http://")
        response = httpx.post(
            f"{url}/api/auth/guest",
            headers={"origin": f"https://{host}", "x-forwarded-proto": "https"},
        )
        assert response.status_code == (201 if allowed else 403), (url, response.text)
