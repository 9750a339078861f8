"""Issue 12, item 6: the last-card call without surprises, as a player sees it.

The button shows only when a play would leave one card; pressing L when it cannot matter
says so; a call armed by the button or by chat stays visible until the play; ordinary
chat sentences arm nothing."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import CHROMIUM, shot
from .helpers import create_table, play_without_calling, sign_in_as_guest, wait_turn

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

ARMED = ".me-panel .badge-called"


def hand_size(page: Any) -> int:
    return int(page.locator(".hand .card").count())


def chat(page: Any, text: str) -> None:
    page.locator(".chat-form input").fill(text)
    page.locator(".chat-form button").click()
    page.locator(".chat-list li", has_text=text).last.wait_for()


def reach_two_cards_with_a_play(page: Any) -> bool:
    """Play until it is our turn with two cards and a playable one; False if the round
    ended first. On the way the button must stay hidden whenever a call cannot matter."""
    while wait_turn(page) == "me":
        button = page.locator("button.last-card")
        if hand_size(page) == 2 and page.locator(".hand .card.legal").count():
            return True
        assert button.is_hidden(), f"Last card shown with {hand_size(page)} cards"
        play_without_calling(page)
    return False


def test_last_card_button_only_when_it_matters(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    for _ in range(4):  # a random bot may go out first: deal again
        create_table(page, players=2, bots=1)
        assert wait_turn(page) == "me"
        # at the start a call cannot matter: no button, and L says why
        assert hand_size(page) > 2
        assert page.locator("button.last-card").is_hidden()
        page.keyboard.press("l")
        toast = page.locator("#toast.show")
        toast.wait_for()
        assert "only with a play that leaves you one card" in toast.inner_text()
        assert page.locator(ARMED).count() == 0
        shot(page, "last-card-not-now")
        if reach_two_cards_with_a_play(page):
            break
        page.keyboard.press("Escape")
        page.goto("/")
        page.wait_for_selector(".page.lobby")
    else:
        pytest.fail("four rounds without reaching two cards and a playable one")
    button = page.locator("button.last-card")
    assert button.is_visible() and "suggest" in (button.get_attribute("class") or "")
    shot(page, "last-card-offered")
    button.click()
    page.locator(ARMED).wait_for()
    assert page.locator(ARMED).is_visible()
    assert button.inner_text().startswith("Last card armed")
    shot(page, "last-card-armed")
    play_without_calling(page)
    # the call went with the play: the log says so and the armed mark is gone
    page.locator(".log li", has_text="You call \u201clast card!\u201d").wait_for()
    assert page.locator(ARMED).count() == 0
    assert console.errors == []


def test_chat_arms_only_a_real_call(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    create_table(page, players=2, bots=1)
    assert wait_turn(page) == "me"
    for text in ("I played one card too fast", "is that the last one?", "one left to go"):
        chat(page, text)
    # each line comes back saying whether the server took it for a call, and it arms a
    # call only for such a line: with none of the three marked, none can arm anything
    assert page.locator(".chat-list li.call").count() == 0
    assert page.locator(ARMED).count() == 0
    chat(page, "I have 1 card left!")
    page.locator(ARMED).wait_for()
    # the call cannot count with this many cards: the player is told, and it stays in sight
    toast = page.locator("#toast.show")
    toast.wait_for()
    assert "will not leave you one card" in toast.inner_text()
    assert page.locator(".chat-list li.call").count() == 1
    assert page.locator("button.last-card").is_visible()
    shot(page, "last-card-chat-armed")
    play_without_calling(page)
    page.wait_for_function(f"() => !document.querySelector('{ARMED}')")
    assert console.errors == []
