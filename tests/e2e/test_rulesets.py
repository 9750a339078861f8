"""Ultimate, countdown and cycles in the browser, the tutorial, keyboard-only play and
the replay viewer. Deals are chosen with the test server's seed queue so each test sits
down to the situation it checks (a draw-two to stack, a wild in hand, the host's lead)."""

from __future__ import annotations

import re
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
    queue_seed,
    sign_in_as_guest,
    take_turn,
    wait_turn,
)

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

# Found with the engine and the random bot's seeding (tables.py): the first time seat 0
# plays, ...
ULTIMATE_STACK = 588  # ... a draw-six is pending, 2C stacks on it, 8H and 8C in hand
COUNTDOWN_WILD = 2  # ... 3C is a wild (number 3) and playable as any suit
CYCLES_HOST = 11  # ... the host has led the AS and seat 2 followed
# The tutorial (classic, two players, the bot leads): whatever the bot's first move, the
# player then has nothing to play, so the coach's "draw" tip comes a moment after its
# welcome.
TUTORIAL_NOTHING_TO_PLAY = 221


def test_cycles_whole_game_then_replay(new_page: Any, server: str, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    queue_seed(server, CYCLES_HOST)
    create_table(page, ruleset="cycles", players=3, bots=2, rules={"cycle_limit": 3})
    assert wait_turn(page) == "me"
    area = page.locator(".cycle-area")
    assert area.is_visible()
    assert page.locator(".discard").is_hidden()
    host = area.locator(".cycle-card.host")
    assert host.count() == 1
    assert "ace of spades" in host.get_attribute("aria-label").lower()
    assert "The host" in host.locator("figcaption").inner_text()
    played = area.locator(".cycle-card:not(.host)")
    assert played.count() == 1
    assert "easy bot" in played.get_attribute("aria-label").lower()
    assert "Leader: The host" in area.locator(".cycle-head").inner_text()
    assert "3 cycles left" in page.locator(".direction").inner_text()
    assert "Spades" in page.locator(".suit-indicator").inner_text()
    shot(page, "cycles-desktop")
    seen_left = set()

    def watch(_: int) -> None:
        text = page.locator(".direction").inner_text()
        seen_left.add(re.search(r"(\d+) cycles? left", text).group(1))

    play_round(page, on_turn=watch)
    assert len(seen_left) >= 2, "the cycles-left count never moved"
    dialog = finish(page)
    assert "hand value" in dialog.inner_text()
    # the replay viewer steps through the finished game
    dialog.get_by_role("button", name="Replay").click()
    page.wait_for_url("**/#/replay/*")
    label = page.locator(".page.replay .controls .muted")
    label.wait_for()
    assert label.inner_text() == "Start of the game"
    assert page.locator(".replay-hand").count() == 3
    page.get_by_role("button", name="Next move").click()
    assert label.inner_text().startswith("Move 1:")
    page.get_by_role("button", name="Next move").click()
    assert label.inner_text().startswith("Move 2:")
    page.get_by_role("button", name="Previous move").click()
    assert label.inner_text().startswith("Move 1:")
    page.get_by_role("button", name="Last move").click()
    last = int(page.locator(".controls input[type=range]").get_attribute("max"))
    assert label.inner_text().startswith(f"Move {last}:")
    shot(page, "replay-desktop")
    page.get_by_role("button", name="First move").click()
    assert label.inner_text() == "Start of the game"
    assert console.errors == []


def key_turn(page: Any) -> None:
    """One move from the keyboard alone: arrows to a glowing card and Enter, else D or P."""
    version = page.locator(".felt").get_attribute("data-version")
    if page.locator("button.last-card.suggest").count():
        page.keyboard.press("l")
    if page.locator(".hand .card.legal").count():
        if not page.evaluate("!!document.activeElement.closest('.hand')"):
            page.keyboard.press("h")
        page.keyboard.press("Home")
        for _ in range(30):
            if "legal" in (page.evaluate("document.activeElement.className") or ""):
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        page.wait_for_function(MOVED, arg=version)
        picker = page.locator(".suit-picker")
        if picker.count():
            first = picker.locator("button.suit-btn").first.get_attribute("class")
            page.keyboard.press(re.search(r"suit-([SHDC])", first).group(1).lower())
            page.wait_for_function(MOVED, arg=version)
    elif page.locator(".stock.can-draw").count():
        page.keyboard.press("d")
    else:
        page.keyboard.press("p")
    page.wait_for_function(MOVED, arg=version)


def test_countdown_numbers_wild_and_keyboard_only(new_page: Any, server: str, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    queue_seed(server, COUNTDOWN_WILD)
    create_table(page, ruleset="countdown", players=3, bots=2, rules={"start": 3})
    assert wait_turn(page) == "me"
    for panel in page.locator(".opponents .player").all():
        facts = panel.locator(".pfacts").inner_text()
        assert "No. 3" in facts and "wild 3" in facts
        assert "wild 3" in panel.get_attribute("aria-label")
    assert "No. 3" in page.locator(".me-panel").inner_text()
    assert page.locator(".scoreboard").get_by_text("No. 3").count() == 3
    # keyboard only from here: Tab into the hand, arrows to the wild three, Enter
    for _ in range(80):  # a second lap if a render took the focus back to the page
        if page.evaluate("!!document.activeElement.closest('.hand')"):
            break
        page.keyboard.press("Tab")
    assert page.evaluate("!!document.activeElement.closest('.hand')"), "Tab never reaches the hand"
    page.keyboard.press("Home")
    for _ in range(5):
        if page.evaluate("document.activeElement.dataset.card") == "3C":
            break
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "three of clubs, playable"
    )
    page.keyboard.press("Enter")
    picker = page.locator(".suit-picker")
    picker.wait_for()
    assert picker.locator("button.suit-btn").count() == 4
    assert picker.get_by_role("button", name="Hearts").is_visible()
    shot(page, "countdown-suit-picker")
    version = page.locator(".felt").get_attribute("data-version")
    page.keyboard.press("h")
    page.wait_for_function(
        "v => document.querySelector('.felt').dataset.version !== v", arg=version
    )
    assert page.locator(".suit-picker").count() == 0
    # (a bot may already have played on it: read the log, not the top of the pile)
    page.wait_for_function(
        "() => document.querySelector('.log').textContent"
        ".includes('You play the three of clubs and name hearts')"
    )
    # the rest of the round from the keyboard
    deadline = time.monotonic() + ROUND_SECONDS
    moves = 1
    while wait_turn(page) == "me":
        assert time.monotonic() < deadline
        key_turn(page)
        moves += 1
    finish(page)
    assert moves >= 2
    assert console.errors == []


def test_ultimate_stacking_eights_and_direction(new_page: Any, server: str, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    queue_seed(server, ULTIMATE_STACK)
    create_table(page, ruleset="ultimate", players=3, bots=2)
    assert wait_turn(page) == "me"
    assert page.locator(".pending-draw").inner_text() == "Draw 6 pending"
    assert "clockwise" in page.locator(".direction").inner_text()
    legal = page.locator(".hand .card.legal").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert legal == ["2C"], "only the two stacks on a pending draw"
    shot(page, "ultimate-stack")
    version = page.locator(".felt").get_attribute("data-version")
    page.locator(".hand .card[data-card='2C']").click()
    page.wait_for_function(MOVED, arg=version)
    page.wait_for_function(
        "() => /You play the two of clubs/.test(document.querySelector('.log').textContent)"
    )
    eights = 0
    deadline = time.monotonic() + ROUND_SECONDS
    while wait_turn(page) == "me":
        assert time.monotonic() < deadline
        eight = page.locator(".hand .card.legal[data-card^='8']")
        if eights == 0 and eight.count():
            version = page.locator(".felt").get_attribute("data-version")
            if page.locator("button.last-card.suggest").count():
                page.locator("button.last-card").click()
            eight.first.click()
            picker = page.locator(".suit-picker")
            picker.wait_for()
            buttons = picker.locator("button.suit-btn")
            assert buttons.count() == 4
            assert picker.get_attribute("role") == "dialog"
            shot(page, "ultimate-suit-picker")
            picker.get_by_role("button", name="Spades").click()
            page.wait_for_function(MOVED, arg=version)
            # the suit sign shows until the next card covers the eight; the log keeps it
            page.wait_for_function(
                "() => /You play the eight of \\w+ and name spades/i"
                ".test(document.querySelector('.log').textContent)"
            )
            eights += 1
            continue
        take_turn(page)
    assert eights == 1, "no eight was ever playable"
    finish(page)
    assert console.errors == []


def test_tutorial_round_to_the_end(new_page: Any, server: str, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    queue_seed(server, TUTORIAL_NOTHING_TO_PLAY)
    page.get_by_role("link", name="Start the tutorial").click()
    coach = page.locator(".coach")
    coach.wait_for()
    assert coach.get_attribute("data-tip") == "welcome"
    assert "Welcome" in coach.inner_text()
    assert page.locator(".opponents .player").count() == 1
    shot(page, "tutorial-desktop")
    # the bot has led and nothing fits: the "draw" tip waits behind the welcome rather
    # than taking its place before it could be read
    assert wait_turn(page) == "me"
    assert coach.get_attribute("data-tip") == "welcome"
    assert coach.get_by_role("button").inner_text() == "Next tip"
    tips: list[str] = []

    def read_tips() -> None:
        """Read and close every tip on show. Called on our turn only: nothing changes the
        table, and so the coach, until we move."""
        while coach.is_visible():
            tips.append(coach.locator("strong").inner_text())
            coach.get_by_role("button").click()

    deadline = time.monotonic() + ROUND_SECONDS
    while wait_turn(page) == "me":
        assert time.monotonic() < deadline
        read_tips()
        take_turn(page)
    won = finish(page).locator(".big").inner_text() == "You win!"
    coach.wait_for()
    # the coach speaks to the result: a win as a win, a loss as a loss
    assert coach.get_attribute("data-tip") == ("won" if won else "lost")
    assert tips[:2] == ["Welcome to Crazy Eights!", "Nothing to play? Draw"]
    page.keyboard.press("Escape")
    page.goto("/#/")
    page.wait_for_selector(".page.lobby")
    assert page.get_by_role("link", name="Start the tutorial").count() == 0
    assert console.errors == []
