"""Issue 12, item 2 (client part) and the account fixes of item 11: game lengths in
words with their time, quick play sending the chosen length, form errors as sentences, a
busy sign-in, a guest's upgrade with a name of their own, the guest's sign-out warning,
the profile's layout, and the phone navigation."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from .conftest import CHROMIUM, shot
from .helpers import sign_in_as_guest

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")


def test_quick_play_lengths_and_times(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    classic = page.locator(".quick-card", has=page.get_by_role("heading", name="Classic"))
    buttons = classic.locator("button.quick-length")
    assert buttons.count() == 2
    texts = buttons.all_inner_texts()
    assert texts[0].startswith("One round") and re.search(r"about \d+ minutes?", texts[0])
    assert texts[1].startswith("Short match") and "to 100 points" in texts[1]
    assert re.search(r"about \d+ minutes", texts[1])
    for card in page.locator(".quick-card").all():
        assert "about" in card.inner_text()
        assert card.locator("button.quick-length").first.is_visible()
    shot(page, "quick-play-lengths")
    with page.expect_request("**/api/match") as request:
        buttons.nth(1).click()
    body = json.loads(request.value.post_data)
    assert body == {"ruleset": "classic", "length": "match"}
    page.wait_for_url("**/#/table/*")
    page.goto("/")
    page.wait_for_selector(".page.lobby")
    with page.expect_request("**/api/match") as request:
        page.locator("button[data-quick='ultimate'][data-length='round']").click()
    assert json.loads(request.value.post_data) == {"ruleset": "ultimate", "length": "round"}
    page.wait_for_url("**/#/table/*")
    assert console.errors == []


def test_create_form_names_lengths_and_hides_the_target(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    form = page.locator("form.create-form")
    length = form.locator("select[name=length]")
    length.wait_for()  # the form is built from the server's list of settings
    assert length.locator("option").all_inner_texts() == [
        "Single round",
        "Match to 100 points",
        "Match to 200 points",
        "Match to 300 points",
        "Match to 500 points",
        "Match to another score\u2026",
    ]
    target = form.locator("input[name=target]")
    length.select_option("single")
    assert target.is_hidden()
    length.select_option("match:200")
    assert target.is_hidden()
    length.select_option("match:other")
    assert target.is_visible()
    target.fill("20")
    form.locator("select[name=seat1]").select_option("random")
    form.get_by_role("button", name="Create table").click()
    error = form.locator(".error")
    expected = "The match target must be a whole number of points from 50 to 5000."
    assert error.inner_text() == expected
    shot(page, "create-form-length")
    target.fill("150")
    for seat in (2, 3):
        form.locator(f"select[name=seat{seat}]").select_option("random")
    form.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/#/table/*")
    page.wait_for_selector(".hand .card")
    assert "first to 150 wins" in page.locator(".scoreboard").inner_text()
    # countdown and cycles have lengths of their own
    page.goto("/")
    form.locator("select[name=ruleset]").select_option("countdown")
    assert length.locator("option").all_inner_texts() == [
        "Single round",
        "Whole game (win a round on number 1)",
    ]
    form.locator("select[name=ruleset]").select_option("cycles")
    assert length.count() == 0
    assert console.errors == []


def test_sign_in_errors_are_sentences_and_sign_in_is_busy(new_page: Any, console: Any) -> None:
    page = new_page()
    page.goto("/#/signin")
    heading = page.get_by_role("heading", name="Create an account")
    register = page.locator("form").filter(has=heading)
    register.get_by_label("Name").fill("ab")
    register.get_by_label("Password").fill("short")
    register.get_by_role("button", name="Create account").click()
    error = register.locator(".error")
    assert error.inner_text().startswith("A name has 3 to 32 letters")
    assert error.inner_text().endswith(".")
    name = f"ada{int(time.time() * 1000) % 10**9}"
    register.get_by_label("Name").fill(name)
    register.get_by_label("Password").fill("short")
    register.get_by_role("button", name="Create account").click()
    assert error.inner_text() == "Choose a password of at least 8 characters."
    shot(page, "register-error")
    login = page.locator("form").filter(has=page.get_by_role("heading", name="Sign in"))
    login.get_by_label("Name").fill("nobody-here")
    login.get_by_label("Password").fill("not the password")

    # hold the request back to see the busy button, then let it go
    held: list[Any] = []
    page.route("**/api/auth/login", lambda route: held.append(route))
    login.get_by_role("button", name="Sign in").click()
    busy = login.locator("button[aria-busy='true']")
    busy.wait_for()
    assert busy.inner_text() == "Signing in\u2026" and busy.is_disabled()
    shot(page, "sign-in-busy")
    deadline = time.monotonic() + 10
    while not held:  # the route handler runs while Playwright waits: poll for it
        assert time.monotonic() < deadline, "the sign-in request never came"
        page.wait_for_timeout(50)
    held[0].continue_()
    login.locator(".error", has_text="do not match").wait_for()
    said = login.locator(".error").inner_text()
    assert said == "That name and password do not match an account."
    assert login.get_by_role("button", name="Sign in").is_enabled()
    # the server's own validation text comes back as a sentence too
    taken = page.evaluate(
        """async () => { const { api } = await import('/js/api.js');
           try { await api('/api/auth/register', {method: 'POST',
                 body: {name: 'x', password: 'y'}}); }
           catch (e) { return e.message; } }"""
    )
    assert taken == (
        "The name must be 3 to 32 letters, digits, '_', '.' or '-'. "
        "The password must be 8 to 200 characters."
    )
    assert console.errors == [] or all("401" in e or "422" in e for e in console.errors)


def test_guest_upgrade_names_and_sign_out(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    page.goto("/#/profile")
    stats = page.locator(".panel.stats")
    stats.locator("table, p.muted:not(:has-text('Loading'))").first.wait_for()
    sign_out = page.get_by_role("button", name="Sign out")
    gap = sign_out.bounding_box()["y"] - (
        stats.bounding_box()["y"] + stats.bounding_box()["height"]
    )
    assert gap >= 12, f"Sign out sits {gap}px under the statistics"
    shot(page, "profile-guest")
    # a guest signing out is warned first, and can go to set a password instead
    sign_out.click()
    dialog = page.locator(".modal")
    dialog.wait_for()
    assert "cannot be reached again" in dialog.inner_text()
    shot(page, "guest-sign-out-warning")
    dialog.get_by_role("button", name="Set a password").click()
    form = page.locator("form#keep-record")
    assert page.evaluate("document.activeElement.closest('form')?.id") == "keep-record"
    name = f"bea{int(time.time() * 1000) % 10**9}"
    form.get_by_label("Name (to sign in)").fill(name)
    form.get_by_label("Password (8 characters or more)").fill("a long enough password")
    form.get_by_label("Name shown at the table").fill("Beatrix")
    form.get_by_role("button", name="Create account").click()
    page.locator(".me-name", has_text="Beatrix").wait_for()
    me = page.evaluate("async () => (await (await fetch('/api/me')).json())")
    assert me["display_name"] == "Beatrix" and me["guest"] is False
    # a full account signs out without the warning
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_selector(".page.signin")
    assert console.errors == []


def test_phone_navigation_fits(new_page: Any, console: Any) -> None:
    page = new_page(360, 740, is_mobile=True, has_touch=True, device_scale_factor=2)
    sign_in_as_guest(page)
    links = page.locator("#nav a")
    assert links.count() == 5
    for link in links.all():
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, link.inner_text()
        assert link.is_visible()
    nav = page.locator("#nav")
    assert nav.get_by_role("link", name="Settings").is_visible()
    assert nav.get_by_role("link", name="How to play").is_visible()
    shot(page, "phone-nav")
    # narrower still, the row scrolls and its edge fades to show it
    page.set_viewport_size({"width": 300, "height": 700})
    page.wait_for_function("() => document.getElementById('nav').classList.contains('more-right')")
    shot(page, "phone-nav-narrow")
    assert console.errors == []
