"""The browser client against the real card room: whole rounds by click and by drag, two
players at one table, a reload mid-game, themes and faces, screenshots, no console errors."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import CHROMIUM, shot
from .helpers import (
    MOVED,
    ROUND_SECONDS,
    create_table,
    finish,
    play_round,
    sign_in_as_guest,
    take_turn,
    two_at_one_table,
    wait_turn,
)

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")


def test_guest_plays_a_whole_round_by_clicking(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    create_table(page)
    page.wait_for_selector(".hand .card")
    assert page.locator(".opponents .player").count() == 3

    def screenshots(turn: int) -> None:
        if turn == 1:
            shot(page, "table-desktop")

    turns = play_round(page, on_turn=screenshots)
    assert turns > 0
    finish(page)
    shot(page, "victory-desktop")
    assert page.locator(".log li").count() > 5
    assert console.errors == []


def test_a_round_played_by_dragging(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    create_table(page, players=3, bots=2)
    page.wait_for_selector(".hand .card")
    play_round(page, drag=True)
    finish(page)
    assert console.errors == []


def test_two_players_at_one_table(new_page: Any, console: Any) -> None:
    ada = new_page()
    bob = new_page()
    two_at_one_table(ada, bob)
    for page in (ada, bob):
        assert page.locator(".opponents .player").count() == 1
    deadline = time.monotonic() + ROUND_SECONDS * 2
    over = False
    while not over:
        assert time.monotonic() < deadline
        for page in (ada, bob):
            turn = page.locator(".felt").get_attribute("data-turn")
            if turn == "over":
                over = True
                break
            if turn == "me":
                take_turn(page)
        else:
            time.sleep(0.05)
    finish(ada)
    finish(bob)
    ada.keyboard.press("Escape")
    ada.locator(".chat-form input").fill("good game!")
    ada.locator(".chat-form button").click()
    bob.locator(".chat-list li", has_text="good game!").wait_for()
    assert console.errors == []


def test_reload_returns_to_the_same_position(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    create_table(page)
    page.wait_for_selector(".hand .card")
    for _ in range(2):  # two moves from the keyboard
        assert wait_turn(page) == "me"
        version = page.locator(".felt").get_attribute("data-version")
        if page.locator(".hand .card.legal").count():
            page.locator(".hand .card[tabindex='0']").focus()
            page.keyboard.press("End")
            page.keyboard.press("Home")
            while "legal" not in (page.evaluate("document.activeElement.className") or ""):
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            # the card is gone to the server, or an eight asks for a suit first
            page.wait_for_function(MOVED, arg=version)
            if page.locator(".suit-picker").count():
                page.keyboard.press("h")
        elif page.locator(".stock.can-draw").count():
            page.keyboard.press("d")
        else:
            page.keyboard.press("p")
        page.wait_for_function(
            "v => document.querySelector('.felt').dataset.version !== v", arg=version
        )
    assert wait_turn(page) == "me"
    version = page.locator(".felt").get_attribute("data-version")
    hand = page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    top = page.locator(".discard").get_attribute("aria-label")
    page.reload()
    page.wait_for_selector(".hand .card")
    page.wait_for_function("() => document.querySelector('.felt').dataset.turn === 'me'")
    assert page.locator(".felt").get_attribute("data-version") == version
    again = page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert again == hand
    assert page.locator(".discard").get_attribute("aria-label") == top
    assert console.errors == []


def test_theme_and_card_face_switch(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    create_table(page)
    page.wait_for_selector(".hand .card")
    table_url = page.url
    page.goto("/#/settings")
    page.get_by_label("Royal Crimson").check()
    page.get_by_label("Vintage Victorian").check()
    page.get_by_label("Four-colour deck (blue diamonds, green clubs)").check()
    assert page.evaluate("document.documentElement.dataset.theme") == "crimson"
    assert page.evaluate("document.documentElement.dataset.face") == "victorian"
    page.goto(table_url)
    page.wait_for_selector(".hand .card")
    # the Victorian face is drawn on parchment
    assert page.locator(".hand .card svg rect[fill='#f4ead2']").count() > 0
    felt = page.locator(".felt").evaluate("f => getComputedStyle(f).backgroundImage")
    assert "125, 20, 36" in felt or "158, 35, 54" in felt
    shot(page, "table-crimson-victorian")
    page.reload()
    page.wait_for_selector(".hand .card")
    assert page.evaluate("document.documentElement.dataset.theme") == "crimson"
    assert console.errors == []


def test_phone_layout(new_page: Any, console: Any) -> None:
    page = new_page(360, 740, is_mobile=True, has_touch=True, device_scale_factor=2)
    sign_in_as_guest(page)
    shot(page, "lobby-phone")
    create_table(page)
    page.wait_for_selector(".hand .card")
    wait_turn(page)
    # nothing sticks out sideways on a 360 px screen
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        "() => [...document.querySelectorAll('*')]"
        ".filter(e => e.getBoundingClientRect().right > 361)"
        ".map(e => e.tagName + '.' + e.className).slice(0, 8)"
    )
    assert width <= 360, wide
    hand = page.locator(".hand").bounding_box()
    assert hand["x"] >= 0 and hand["x"] + hand["width"] <= 360
    shot(page, "table-phone")
    page.locator(".hand .card.legal, .stock.can-draw").first.tap()
    assert console.errors == []


def test_settings_follow_the_account_to_another_browser(new_page: Any, console: Any) -> None:
    first = new_page()
    sign_in_as_guest(first)
    name = f"settings{int(time.time() * 1000) % 10**9}"
    upgraded = first.evaluate(
        """async name => (await fetch('/api/me/upgrade', {method: 'POST',
            headers: {'content-type': 'application/json'},
            body: JSON.stringify({name, password: 'a long enough password'})})).status""",
        name,
    )
    assert upgraded == 200
    first.reload()
    first.goto("/#/settings")
    first.get_by_label("Midnight Navy").check()
    first.get_by_label("Modern Minimalist").check()
    first.wait_for_function(
        """async () => { const r = await fetch('/api/me/settings');
            const s = await r.json(); return s.theme === 'navy' && s.face === 'minimal'; }""",
        polling=200,
    )
    second = new_page()
    second.goto("/")
    login = second.locator("form").filter(has=second.get_by_role("heading", name="Sign in"))
    login.get_by_label("Name").fill(name)
    login.get_by_label("Password").fill("a long enough password")
    login.get_by_role("button", name="Sign in").click()
    second.wait_for_selector(".page.lobby")
    second.wait_for_function("document.documentElement.dataset.theme === 'navy'")
    assert second.evaluate("document.documentElement.dataset.face") == "minimal"
    assert console.errors == []
