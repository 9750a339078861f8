"""Validation errors of every form the browser posts are readable sentences, in the API's
error shape ``{"error": "invalid", "detail": text}`` (no pydantic wording)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from ..server.conftest import as_, guest

NAME_RULE = "The name must be 3 to 32 letters, digits, '_', '.' or '-'."
PASSWORD_RULE = "The password must be 8 to 200 characters."

CASES: dict[str, tuple[str, str, Any, str]] = {
    "register: bad name": (
        "POST",
        "/api/auth/register",
        {"name": "a b", "password": "password-1"},
        NAME_RULE,
    ),
    "register: short name": ("POST", "/api/auth/register", {"name": "ab", "password": "pw"}, ""),
    "register: short password": (
        "POST",
        "/api/auth/register",
        {"name": "abcd", "password": "short"},
        PASSWORD_RULE,
    ),
    "register: missing password": (
        "POST",
        "/api/auth/register",
        {"name": "abcd"},
        "The password is required.",
    ),
    "register: name not text": (
        "POST",
        "/api/auth/register",
        {"name": 12345, "password": "password-1"},
        NAME_RULE,
    ),
    "register: not an object": (
        "POST",
        "/api/auth/register",
        ["abcd", "password-1"],
        "The request must be a JSON object.",
    ),
    "login: missing name": (
        "POST",
        "/api/auth/login",
        {"password": "password-1"},
        "The name is required.",
    ),
    "login: long password": (
        "POST",
        "/api/auth/login",
        {"name": "abcd", "password": "p" * 300},
        PASSWORD_RULE,
    ),
    "profile: long display name": (
        "PATCH",
        "/api/me",
        {"display_name": "x" * 41},
        "The display name must be 1 to 40 characters, not all invisible.",
    ),
    "profile: bad avatar": (
        "PATCH",
        "/api/me",
        {"avatar": "<x>"},
        "The avatar must be an avatar id: 1 to 16 of a-z, 0-9 and '-'.",
    ),
    "upgrade: bad name": (
        "POST",
        "/api/me/upgrade",
        {"name": "no spaces please", "password": "password-1"},
        NAME_RULE,
    ),
    "create table: no rules": ("POST", "/api/tables", {}, "The rules are required."),
    "create table: rules not an object": (
        "POST",
        "/api/tables",
        {"rules": "classic"},
        "The rules must be a JSON object.",
    ),
    "create table: takeover too big": (
        "POST",
        "/api/tables",
        {"rules": {"ruleset": "classic"}, "takeover_after": 99},
        "The number of timeouts before a stand-in bot takes over must be at most 20.",
    ),
    "create table: bad bot level": (
        "POST",
        "/api/tables",
        {"rules": {"ruleset": "classic"}, "bots": [{"seat": 1, "level": "genius"}]},
        "",
    ),
    "create table: bot seat not a number": (
        "POST",
        "/api/tables",
        {"rules": {"ruleset": "classic"}, "bots": [{"seat": "one", "level": "random"}]},
        "Bot 1's seat must be a whole number.",
    ),
    "create table: public not a boolean": (
        "POST",
        "/api/tables",
        {"rules": {"ruleset": "classic"}, "public": "perhaps"},
        "Public must be true or false.",
    ),
}


@pytest.mark.parametrize(("method", "url", "body", "sentence"), CASES.values(), ids=CASES.keys())
def test_validation_errors_are_sentences(
    client: TestClient, method: str, url: str, body: Any, sentence: str
) -> None:
    _, token = guest(client)
    response = client.request(method, url, json=body, headers=as_(token))
    assert response.status_code == 422, response.text
    answer = response.json()
    assert set(answer) == {"error", "detail"} and answer["error"] == "invalid"
    detail: str = answer["detail"]
    if sentence:
        assert detail == sentence
    for jargon in ("Input should", "Value error", "Field required", "body.", "loc", "[type="):
        assert jargon not in detail
    assert detail[0].isupper() and detail.endswith("."), detail


def test_several_mistakes_are_listed_together(client: TestClient) -> None:
    response = client.post("/api/auth/register", json={"name": "a b", "password": "x"})
    assert response.json()["detail"] == f"{NAME_RULE} {PASSWORD_RULE}"
