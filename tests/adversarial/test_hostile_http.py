"""Finding 6 (bad input): every HTTP route, read from the OpenAPI description, answers
hostile input with a clear 4xx in the API's error shape, never a 500.

Deep JSON, lone surrogates (``"\\ud800"``), invalid UTF-8, 20-digit numbers where ids and
counts go, oversized bodies and path segments.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from crazy_eights.server import create_app

from ..server.conftest import as_, guest, make_table
from .conftest import sqlite_settings

BIG = 10**20  # a 20-digit id: past every integer column
SURROGATE = "\ud800"


def operations(client: TestClient) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, ops in client.app.openapi()["paths"].items():  # type: ignore[attr-defined]
        for method, op in ops.items():
            yield method.upper(), path, op


def body_fields(client: TestClient, op: dict[str, Any]) -> dict[str, Any] | None:
    """The body's properties (name -> JSON schema), {} for a free object, None: no body."""
    content = op.get("requestBody", {}).get("content", {}).get("application/json")
    if content is None:
        return None
    schema = content["schema"]
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        components = client.app.openapi()["components"]["schemas"]  # type: ignore[attr-defined]
        schema = components[name]
    return dict(schema.get("properties", {}))


def path_values(client: TestClient, token: str) -> dict[str, list[str]]:
    table = make_table(client, token, rules={"ruleset": "classic", "players": 3})
    return {
        "integer": [str(BIG), str(-BIG), "0", "1" * 400],
        "string": [table["id"], str(BIG), "%ED%A0%80", "%FF", "x" * 4000],
    }


def hostile_bodies(fields: dict[str, Any]) -> Iterator[tuple[str, bytes]]:
    yield "deep array", b"[" * 5000 + b"]" * 5000
    yield "deep array the parser can read", b"[" * 900 + b"]" * 900
    yield "deep rules the parser can read", b'{"rules": ' + b'{"a": ' * 900 + b"1" + b"}" * 901
    yield "deep object", b'{"a":' * 5000 + b"1" + b"}" * 5000
    yield (
        "deep inside a field",
        json.dumps({k: 0 for k in fields}).encode()[:-1]
        + (b', "rules": ' + b"[" * 3000 + b"]" * 3000 + b"}"),
    )
    yield "invalid UTF-8", b'{"name": "\xff\xfe", "password": "\xc3("}'
    yield "a lone surrogate", json.dumps({"x" + SURROGATE: SURROGATE}).encode()
    yield "two megabytes", b'{"name": "' + b"a" * 2_000_000 + b'"}'
    yield "not an object", b"[1, 2, 3]"
    yield "a huge number", b'{"n": 1' + b"0" * 5000 + b"}"
    for name in fields:
        for label, value in (
            ("a lone surrogate", SURROGATE),
            ("a 20-digit number", BIG),
            ("a surrogate in a list", [SURROGATE]),
            ("a surrogate in an object", {"ruleset": SURROGATE, SURROGATE: 1}),
        ):
            body = {other: "padding-ok" for other in fields} | {name: value}
            yield f"{name}: {label}", json.dumps(body).encode()
        if name == "rules":
            rules = {"ruleset": "classic", "players": BIG, "mode": SURROGATE}
            yield "rules of huge values", json.dumps({"rules": rules}).encode()
        if name == "bots":
            yield (
                "a bot on a 20-digit seat",
                json.dumps(
                    {"rules": {"ruleset": "classic"}, "bots": [{"seat": BIG, "level": "random"}]}
                ).encode(),
            )


@pytest.fixture
def lenient(tmp_path: Path) -> Iterator[TestClient]:
    """A client that answers a server error as a 500 instead of raising it here."""
    app = create_app(sqlite_settings(tmp_path))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


@pytest.fixture
def signed_in(lenient: TestClient) -> tuple[TestClient, str]:
    return lenient, guest(lenient)[1]


def check(failures: list[str], what: str, response: Any) -> None:
    if response.status_code >= 500:
        failures.append(f"{what}: {response.status_code} {response.text[:120]}")
        return
    if response.status_code >= 400:
        try:
            body = response.json()
        except ValueError:
            failures.append(f"{what}: {response.status_code} not JSON: {response.text[:80]}")
            return
        if set(body) != {"error", "detail"} or not body["detail"]:
            failures.append(f"{what}: {response.status_code} shape {body}")


def test_hostile_paths_and_queries_get_4xx(signed_in: tuple[TestClient, str]) -> None:
    client, token = signed_in
    values = path_values(client, token)
    failures: list[str] = []
    for method, path, op in operations(client):
        params = op.get("parameters", [])
        in_path = [p for p in params if p["in"] == "path"]
        kinds = {p["name"]: p["schema"].get("type", "string") for p in in_path}
        for name, kind in kinds.items():
            for value in values[kind]:
                url = path
                for other, other_kind in kinds.items():
                    url = url.replace(
                        "{" + other + "}", value if other == name else values[other_kind][0]
                    )
                response = client.request(method, url, headers=as_(token), json={})
                check(failures, f"{method} {path} {name}={value[:20]}", response)
        for query in (p for p in params if p["in"] == "query"):
            url = path
            for name, kind in kinds.items():
                url = url.replace("{" + name + "}", values[kind][0])
            for value in (str(BIG), "%ED%A0%80", "-1"):
                response = client.request(
                    method, f"{url}?{query['name']}={value}", headers=as_(token)
                )
                check(failures, f"{method} {path} ?{query['name']}={value}", response)
    assert not failures, "\n".join(failures)


def test_hostile_bodies_get_4xx(signed_in: tuple[TestClient, str]) -> None:
    client, token = signed_in
    values = path_values(client, token)
    failures: list[str] = []
    headers = as_(token) | {"content-type": "application/json"}
    for method, path, op in operations(client):
        fields = body_fields(client, op)
        if fields is None:
            continue
        url = path
        for param in op.get("parameters", []):
            url = url.replace("{" + param["name"] + "}", values["string"][0])
        for label, body in hostile_bodies(fields):
            response = client.request(method, url, content=body, headers=headers)
            check(failures, f"{method} {path} {label}", response)
    assert not failures, "\n".join(failures)


def test_a_large_body_without_a_length_is_cut_off(signed_in: tuple[TestClient, str]) -> None:
    client, token = signed_in

    def chunks() -> Iterator[bytes]:
        yield b'{"theme": "'
        for _ in range(200):
            yield b"x" * 1024
        yield b'"}'

    headers = as_(token) | {"content-type": "application/json"}
    for method, url in (("PUT", "/api/me/settings"), ("POST", "/api/auth/register")):
        response = client.request(method, url, content=chunks(), headers=headers)
        assert response.status_code == 413, response.text
        assert response.json()["error"] == "too_large"


def test_a_surrogate_in_a_cookie_or_header_is_harmless(lenient: TestClient) -> None:
    client = lenient
    response = client.get("/api/me", headers={"cookie": "ce_session=%ED%A0%80"})
    assert response.status_code == 401
    response = client.get("/api/session", headers={"cookie": "ce_session=" + "x" * 5000})
    assert response.status_code == 200
