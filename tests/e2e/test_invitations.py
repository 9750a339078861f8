"""Issue 20 items 3 and 7, in two browsers: A invites B to a new table from the friends
list and B, on another page, joins from the notice (with a count on the menu); then A
challenges B, who is at that table, B accepts from the notice and both browsers are taken
to the new table, seated with a bot."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import CHROMIUM, shot
from .test_friends import friend_row, register

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")


def post(page: Any, path: str, body: dict[str, Any] | None = None) -> int:
    """POST from the page (its session); the status."""
    status: int = page.evaluate(
        """([path, body]) => fetch(path, {method: "POST", headers: {"content-type":
        "application/json"}, body: body ? JSON.stringify(body) : undefined}).then(r => r.status)""",
        [path, body],
    )
    return status


def befriend(ada: Any, bob: Any, bob_name: str) -> None:
    assert post(ada, "/api/friends/requests", {"name": bob_name}) == 201
    ada_id = ada.evaluate("() => fetch('/api/me').then(r => r.json()).then(a => a.id)")
    assert post(bob, f"/api/friends/requests/{ada_id}/accept") == 200


def table_id(page: Any) -> str:
    page.wait_for_url("**/#/table/*")
    return str(page.url.split("#/table/")[1].split("?")[0])


def test_invite_to_a_new_table_then_challenge(new_page: Any, console: Any) -> None:
    ada, bob = new_page(), new_page()
    ada_name, bob_name = register(ada, "ada"), register(bob, "bob")
    befriend(ada, bob, bob_name)
    bob.goto("/#/leaders/classic")  # not the lobby: the notice reaches any page
    bob.wait_for_selector(".page")

    ada.goto("/")
    row = friend_row(ada, bob_name)
    row.get_by_role("button", name=f"Invite or challenge {bob_name}").click()
    ada.locator(".modal.play-dialog").get_by_role("button", name="Invite to a new table").click()
    first = table_id(ada)
    ada.get_by_text("Held for an invited friend").wait_for()

    notice = bob.locator("#notices .notice").filter(has_text=f"{ada_name} invites you")
    notice.wait_for()
    assert bob.locator("#notice-count").inner_text() == "1"
    shot(bob, "invitation-notice")
    notice.get_by_role("button", name="Join").click()
    assert table_id(bob) == first
    for page in (ada, bob):
        page.wait_for_selector(".hand .card")
    assert bob.locator("#notice-count").is_hidden()
    ada.locator("#toast").filter(has_text=f"{bob_name} accepted your invitation").wait_for()

    # a challenge reaches bob at the table; accepting takes both to a new table
    ada.goto("/")
    row = friend_row(ada, bob_name)
    row.get_by_role("button", name=f"Invite or challenge {bob_name}").click()
    dialog = ada.locator(".modal.play-dialog")
    dialog.get_by_label("Players").fill("3")
    dialog.get_by_role("button", name="Challenge").click()
    ada.locator("#toast").filter(has_text=f"Challenge sent to {bob_name}").wait_for()
    challenge = bob.locator("#notices .notice").filter(has_text=f"{ada_name} challenges you")
    challenge.wait_for()
    shot(bob, "challenge-notice-at-a-table")
    challenge.get_by_role("button", name="Accept").click()
    bob.wait_for_url(lambda url: "#/table/" in url and first not in url)
    ada.wait_for_url(lambda url: "#/table/" in url)
    second = table_id(bob)
    assert second != first and table_id(ada) == second
    for page in (ada, bob):
        page.wait_for_selector(".hand .card")
    seats = ada.evaluate(f"() => fetch('/api/tables/{second}').then(r => r.json())")["seats"]
    assert [s["name"] for s in seats[:2]] == [ada_name, bob_name] and seats[2]["bot"]
    shot(ada, "challenge-accepted")
    assert console.errors == []


def test_a_friend_coming_online_is_told_when_chosen(new_page: Any, console: Any) -> None:
    ada, bob = new_page(), new_page()
    register(ada, "ada")
    bob_name = register(bob, "bob")
    befriend(ada, bob, bob_name)
    ada.goto("/#/settings")
    box = ada.get_by_label("Tell me when a friend comes online")
    assert not box.is_checked()  # off at first
    box.check()
    bob.goto("about:blank")  # every socket of bob's closes: offline
    ada.goto("/")
    ada.locator(".friends-panel .friend[data-status='offline']").filter(
        has_text=bob_name
    ).wait_for()
    ada.goto("/#/history")  # any page: the app's socket stays open
    ada.wait_for_selector(".page")
    told = ada.locator("#notices .notice").filter(has_text=f"{bob_name} is online")
    bob.goto("/")
    bob.wait_for_selector(".page.lobby")
    told.wait_for()
    shot(ada, "friend-online-notice")
    assert console.errors == []
