"""The browser client against the real card room: whole rounds by click and by drag, two
players at one table, a reload mid-game, themes and faces, screenshots, no console errors."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import CHROMIUM, shot

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

ROUND_SECONDS = 90


def sign_in_as_guest(page: Any) -> None:
    page.goto("/")
    page.get_by_role("button", name="Play as guest").click()
    page.wait_for_selector(".page.lobby")


def create_table(page: Any, *, players: int = 4, bots: int = 3, public: bool = True) -> str:
    """Fill the create-table form: classic, one round, bots at random level."""
    form = page.locator("form.create-form")
    form.locator("select[name=ruleset]").select_option("classic")
    form.locator("input[name=players]").fill(str(players))
    form.locator("select[name=mode]").select_option('"single"')
    for seat in range(1, players):
        form.locator(f"select[name=seat{seat}]").select_option("random" if seat <= bots else "")
    if not public:
        form.locator("input[name=public]").uncheck()
    form.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/#/table/*")
    return page.url.split("#/table/")[1].split("?")[0]


def wait_turn(page: Any, timeout: float = 20) -> str:
    """Wait until it is this player's turn or the game is over; return which."""
    page.wait_for_function(
        "() => { const f = document.querySelector('.felt'); return f && "
        "(f.dataset.turn === 'me' || f.dataset.turn === 'over'); }",
        timeout=timeout * 1000,
    )
    return page.locator(".felt").get_attribute("data-turn")


def take_turn(page: Any, *, drag: bool = False) -> None:
    """Make one move the way a player would: a glowing card, else the stock, else pass."""
    version = page.locator(".felt").get_attribute("data-version")
    last = page.locator("button.last-card.suggest")
    if last.count() and last.is_visible():
        last.click()
    legal = page.locator(".hand .card.legal")
    if legal.count():
        card = legal.first
        if drag:
            drag_to(page, card, page.locator(".discard"))
        else:
            card.click()
    elif page.locator(".stock.can-draw").count():
        if drag:
            drag_to(page, page.locator(".stock"), page.locator(".hand"))
        else:
            page.locator(".stock").click()
    else:
        page.get_by_role("button", name="Pass").click()
    moved = (
        "v => { const f = document.querySelector('.felt'); return f.dataset.version !== v "
        "|| f.dataset.turn === 'over' || !!document.querySelector('.suit-picker'); }"
    )
    page.wait_for_function(moved, arg=version)
    picker = page.locator(".suit-picker")
    if picker.count():
        picker.locator("button.suit-btn").first.click()
        page.wait_for_function(moved, arg=version)


def drag_to(page: Any, source: Any, target: Any) -> None:
    a = b = None
    for _ in range(20):
        a, b = source.bounding_box(), target.bounding_box()
        if a and b:
            break
        time.sleep(0.05)
    assert a and b, "nothing to drag, or nowhere to drop"
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 3)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 10, a["y"] + a["height"] / 3 - 10, steps=3)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def play_round(page: Any, *, drag: bool = False, on_turn: Any = None) -> int:
    deadline = time.monotonic() + ROUND_SECONDS
    turns = 0
    while wait_turn(page) == "me":
        assert time.monotonic() < deadline, "the round took too long"
        if on_turn:
            on_turn(turns)
        take_turn(page, drag=drag)
        turns += 1
    return turns


def finish(page: Any) -> None:
    dialog = page.locator(".modal.victory")
    dialog.wait_for(state="visible")
    assert dialog.locator(".standings li").count() >= 2


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
    sign_in_as_guest(ada)
    create_table(ada, players=2, bots=0)
    table = ada.url.split("#/table/")[1]
    sign_in_as_guest(bob)
    row = bob.locator(f".table-item[data-id='{table}']")
    row.get_by_role("button", name="Join").click()
    bob.wait_for_url(f"**/#/table/{table}")
    start = ada.get_by_role("button", name="Start now (bots fill empty seats)")
    if start.count():
        start.click()
    for page in (ada, bob):
        page.wait_for_selector(".hand .card")
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
            page.wait_for_timeout(300)
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
