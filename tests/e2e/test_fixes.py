"""Issue 12, item 11: the fixes found trying the card room as a new user, each looked at
on the screen (screenshots under artifacts/screenshots/, checked by eye)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageChops

from .conftest import CHROMIUM, shot
from .helpers import (
    MOVED,
    create_table,
    finish,
    play_round,
    sign_in_as_guest,
    until_playable,
)

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")


def test_second_click_plays_with_one_click_off(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    page.goto("/#/settings")
    page.get_by_label("A click on a playable card plays it").uncheck()
    page.goto("/")
    page.wait_for_selector(".page.lobby")
    create_table(page, players=2, bots=1)
    until_playable(page)
    card = page.locator(".hand .card.legal").first
    name = card.get_attribute("data-card")
    version = page.locator(".felt").get_attribute("data-version")
    card.click()
    selected = page.locator(f".hand .card.selected[data-card='{name}']")
    assert selected.is_visible()
    assert page.locator(".felt").get_attribute("data-version") == version
    shot(page, "one-click-off-selected")
    selected.click()
    page.wait_for_function(MOVED, arg=version)
    if page.locator(".suit-picker").count():
        page.locator(".suit-picker button.suit-btn").first.click()
    page.wait_for_function(
        f"() => !document.querySelector(\".hand .card[data-card='{name}']\")", timeout=5000
    )
    assert console.errors == []


def test_invite_to_a_started_full_table_offers_watch(new_page: Any, console: Any) -> None:
    host = new_page()
    sign_in_as_guest(host)
    create_table(host, players=2, bots=1, public=False)  # full at once, so it starts
    host.wait_for_selector(".hand .card")
    table = host.url.split("#/table/")[1].split("?")[0]
    code = host.evaluate(f"sessionStorage.getItem('ce.invite.{table}')")
    assert code
    friend = new_page()
    sign_in_as_guest(friend)
    friend.goto(f"/#/invite/{code}")
    watch = friend.get_by_role("link", name="Watch")
    watch.wait_for()
    assert "already started" in friend.locator(".invite-closed .lead").inner_text()
    shot(friend, "invite-started-watch")
    watch.click()
    friend.wait_for_selector(".player.bottom-seat")
    assert friend.locator(".spectating").is_visible()
    assert console.errors == []


def test_help_dialog_opens_at_the_top(new_page: Any, console: Any) -> None:
    page = new_page(1280, 600)
    sign_in_as_guest(page)
    create_table(page, players=2, bots=1)
    page.wait_for_selector(".hand .card")
    page.get_by_role("button", name="How to play").click()
    dialog = page.locator(".modal.wide")
    dialog.wait_for()
    assert dialog.evaluate("d => d.scrollTop") == 0
    heading = dialog.locator("h2").first
    box, frame = heading.bounding_box(), dialog.bounding_box()
    assert frame["y"] <= box["y"] < frame["y"] + 80, "the dialog's title is not at its top"
    shot(page, "help-dialog-top")
    assert console.errors == []


def test_deal_is_seen_at_the_start(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    page.evaluate(
        """() => { window.__deal = []; new MutationObserver(() => {
             const f = document.querySelectorAll('.fly-card').length;
             const d = document.querySelectorAll('.hand .card.dealing').length;
             if (f || d) window.__deal.push([f, d]); }).observe(document.body,
             {subtree: true, childList: true, attributes: true}); }"""
    )
    create_table(page, players=3, bots=2)
    page.wait_for_selector(".fly-card", timeout=5000)
    shot_path = shot_now(page, "deal-in-flight")
    # the whole deal, as the observer saw it: cards fly while some of ours are still on
    # their way (not yet shown in the hand)
    page.wait_for_function("() => !document.querySelector('.hand .card.dealing')", timeout=5000)
    seen = page.evaluate("window.__deal")
    assert max(f for f, _ in seen) >= 6
    assert max(d for _, d in seen) >= 3
    assert page.locator(".hand .card").first.is_visible()
    assert shot_path.exists()
    assert console.errors == []


def shot_now(page: Any, name: str) -> Any:
    """A screenshot at this moment, cards in flight included."""
    from .conftest import ARTIFACTS

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def test_header_is_opaque_and_no_focus_line_after_navigation(new_page: Any, console: Any) -> None:
    page = new_page(1280, 700)
    sign_in_as_guest(page)
    # navigate from the keyboard: the page's main region takes the focus, without a line
    page.locator("#nav a", has_text="Settings").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".page.settings")
    page.locator("#nav a", has_text="Lobby").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".page.lobby")
    assert page.evaluate("document.activeElement.id") == "main"
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "none"
    # scroll the yellow quick-play buttons under the sticky bar, once the create form has
    # made the page long enough to scroll that far
    page.wait_for_selector("form.create-form")
    page.evaluate(
        "() => { const b = document.querySelector('.quick-length');"
        "window.scrollBy(0, b.getBoundingClientRect().top - 10); }"
    )
    page.wait_for_function(
        "() => { const b = document.querySelector('.quick-length').getBoundingClientRect();"
        "const bar = document.querySelector('.topbar').getBoundingClientRect();"
        "return bar.top === 0 && b.top < bar.bottom - 10 && b.bottom > bar.bottom; }"
    )
    shot_now(page, "header-over-content")
    # an opaque bar looks the same whatever lies under it: the bar with its own contents
    # hidden (the guest's avatar may be any colour), over the buttons and over nothing
    page.evaluate(
        "() => document.querySelectorAll('.topbar > *')"
        ".forEach((e) => { e.style.visibility = 'hidden'; })"
    )
    over_buttons = bar_strip(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function("() => window.scrollY === 0")
    over_nothing = bar_strip(page)
    diff = ImageChops.difference(over_buttons, over_nothing).convert("L")
    shown = sum(1 for value in diff.tobytes() if value > 8)
    assert shown == 0, f"{shown} pixels of the page show through the header"
    assert console.errors == []


def bar_strip(page: Any) -> Any:
    """The sticky top bar as drawn now, without its bottom border."""
    bar = page.locator(".topbar").bounding_box()
    png = page.screenshot(clip={"x": 0, "y": 0, "width": bar["width"], "height": bar["height"] - 2})
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_waiting_room_and_spectator_layout(new_page: Any, console: Any) -> None:
    host = new_page()
    sign_in_as_guest(host)
    create_table(host, players=4, bots=0)
    host.locator(".waiting").wait_for()
    # no empty suit pill, stock, or player bar before the game starts
    for sel in (".suit-indicator", ".me-row", ".center", ".pile.stock"):
        assert host.locator(sel).is_hidden(), sel
    shot(host, "waiting-room")
    host.get_by_role("button", name="Start now (bots fill empty seats)").click()
    host.wait_for_selector(".hand .card")
    table = host.url.split("#/table/")[1]
    watcher = new_page()
    watcher.goto(f"/#/table/{table}")
    watcher.wait_for_selector(".player.bottom-seat")
    for side in ("left", "top", "right"):
        assert watcher.locator(f".opp-{side} .player").count() == 1, side
    # both boxes read in one frame: the panels are drawn anew with every state the bots make
    top, bottom = watcher.evaluate(
        """() => [".opp-top .player", ".player.bottom-seat"].map((sel) => {
            const r = document.querySelector(sel).getBoundingClientRect();
            return {y: r.y, height: r.height};
        })"""
    )
    assert bottom["y"] > top["y"] + top["height"] * 3
    shot(watcher, "spectator-four")
    assert console.errors == []


def test_log_sentences(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    create_table(page, ruleset="cycles", players=2, bots=1, rules={"cycle_limit": 2})
    play_round(page)
    finish(page)
    page.keyboard.press("Escape")
    over = page.locator(".log li.ev-cycle_over").first
    assert over.inner_text().startswith("Cycle 1 is over")
    texts = page.evaluate(
        """async () => { const { describe } = await import('/js/table/view/log.js');
           const me = { name: (s) => s === 0 ? 'You' : 'Ann', mySeat: 0 };
           return [describe({type: 'played', seat: 1, cards: ['JK']}, me),
                   describe({type: 'cycle_over', cycle: 3, completed: true, cycles_left: 1},
                     me)]; }"""
    )
    assert texts == ["Ann plays the Joker.", "Cycle 3 is over; 1 cycle left."]
    shot(page, "cycles-log")
    assert console.errors == []


def test_play_again_keeps_a_single_round(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    create_table(page, players=2, bots=1)
    first = page.url
    play_round(page)
    finish(page).get_by_role("button", name="Play again").click()
    page.wait_for_function("u => location.href !== u", arg=first)
    page.wait_for_selector(".hand .card")
    assert page.locator(".scoreboard").inner_text().count("Single round") == 1
    shot(page, "play-again-single")
    assert console.errors == []


def test_status_while_the_move_is_in_flight(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    create_table(page, players=2, bots=1)
    until_playable(page)
    # the click and what the status line says right after it, before the server answers
    # (a suit picker is answered at once; its answer goes out a few microtasks later)
    said = page.evaluate(
        """async () => {
             const cards = [...document.querySelectorAll('.hand .card.legal')];
             (cards.find((c) => !c.dataset.card.startsWith('8')) || cards[0]).click();
             const suit = document.querySelector('.suit-picker button.suit-btn');
             if (suit) suit.click();
             for (let i = 0; i < 5; i++) await Promise.resolve();
             return document.querySelector('.turn-banner').textContent; }"""
    )
    assert said == "Your move is on its way\u2026"
    shot(page, "move-in-flight")
    assert console.errors == []


def test_how_to_play_has_a_title(new_page: Any, console: Any) -> None:
    page = new_page()
    page.goto("/#/howto/ultimate")
    title = page.locator("h1")
    title.wait_for()
    assert title.inner_text() == "How to play"
    assert page.locator("h1").count() == 1
    assert console.errors == []
