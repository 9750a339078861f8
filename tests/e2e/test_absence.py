"""Issue 12 items 4 and 8 in the browser: a player who closes the tab mid-game is shown
away with a countdown on the seat, then a stand-in bot plays it, and reopening the table
gives the seat back; the Hint button at a table with hints highlights what to play.

The test server waits ``CE_AWAY_SECONDS`` (8 s, conftest) before a stand-in comes."""

from __future__ import annotations

import re
import time
from typing import Any

from .conftest import shot
from .helpers import create_table, sign_in_as_guest, take_turn, two_at_one_table, wait_turn

AWAY = 8  # CE_AWAY_SECONDS of the test server (conftest)


def _seat_panel(page: Any) -> Any:
    """The one opponent's panel (two-player tables)."""
    return page.locator(".opponents .player").first


def _countdown_seconds(page: Any) -> int:
    text = _seat_panel(page).locator(".away-countdown").inner_text()
    found = re.fullmatch(r"bot in (\d+) s", text.strip())
    assert found, text
    return int(found.group(1))


def test_a_closed_tab_shows_a_countdown_then_a_stand_in_and_the_seat_comes_back(
    new_page: Any, console: Any
) -> None:
    ada = new_page()
    bob = new_page()
    table = two_at_one_table(ada, bob, rules={"mode": "match", "target": 500})
    assert ada.get_by_role("button", name="Hint").is_hidden()  # a rated table: no hints
    bob_context = bob.context
    bob.close()  # the tab is closed mid-game
    closed = time.monotonic()

    # Ada sees Bob away at once, with the seconds until a stand-in counting down.
    countdown = _seat_panel(ada).locator(".away-countdown")
    countdown.wait_for(state="visible", timeout=5000)
    first = _countdown_seconds(ada)
    # what is left of the wait, given the time since the tab closed (a second's rounding)
    assert AWAY - (time.monotonic() - closed) - 1 <= first <= AWAY
    assert first >= 2, "Bob was shown away only just before his stand-in came"
    assert _seat_panel(ada).locator(".tag", has_text="away").count() == 1
    assert "a bot takes the seat in" in (_seat_panel(ada).get_attribute("aria-label") or "")
    # the countdown counts down (the page's own timer: a second or so)
    ada.wait_for_function(
        "n => { const p = document.querySelector('.opponents .player .away-countdown');"
        " const m = p && /bot in (\\d+) s/.exec(p.textContent); return m && +m[1] < n; }",
        arg=first,
        timeout=5000,
    )
    path = shot(ada, "absence-countdown")
    assert path.stat().st_size > 0

    # Then the stand-in plays Bob's seat: his turns come and go while Ada plays hers.
    standin = _seat_panel(ada).locator(".tag", has_text="bot playing")
    standin.wait_for(state="visible", timeout=12_000)
    assert countdown.count() == 0
    assert AWAY - 2 < time.monotonic() - closed < AWAY + 6
    played_for_bob = False
    deadline = time.monotonic() + 60
    while not played_for_bob:
        assert time.monotonic() < deadline, "the stand-in never played"
        if wait_turn(ada) == "over":
            break
        before = int(ada.locator(".felt").get_attribute("data-version"))
        take_turn(ada)  # one move of Ada's; it may hand the turn to Bob's seat
        if wait_turn(ada, timeout=15) == "over":
            break
        # back to Ada with more moves than her own: the stand-in moved in between (the
        # turn it had may be over before this test could see it)
        played_for_bob = int(ada.locator(".felt").get_attribute("data-version")) > before + 1
    assert played_for_bob
    shot(ada, "absence-standin")

    # Bob opens the table again: the seat is his at once, and Ada sees him back.
    bob = bob_context.new_page()
    console.watch(bob)
    bob.goto(f"/#/table/{table}")
    bob.wait_for_selector(".hand .card")
    assert bob.locator(".me-panel").count() == 1
    ada.wait_for_function(
        "() => { const p = document.querySelector('.opponents .player');"
        " return p && ![...p.querySelectorAll('.tag')].some("
        "t => ['bot playing', 'away'].includes(t.textContent)); }",
        timeout=5000,
    )
    assert _seat_panel(ada).locator(".away-countdown").count() == 0
    shot(ada, "absence-back")
    assert console.errors == []


def test_the_hint_button_highlights_the_search_bots_move(new_page: Any, console: Any) -> None:
    ada = new_page()
    sign_in_as_guest(ada)
    table = create_table(ada, players=2, bots=1, hints=True)
    # The lobby says the table is unrated.
    watcher = new_page()
    sign_in_as_guest(watcher)
    row = watcher.locator(f".table-item[data-id='{table}']")
    row.wait_for()
    assert "hints, unrated" in row.inner_text()
    assert "hints, unrated" in ada.locator(".table-title").inner_text()  # and the table
    assert wait_turn(ada) == "me"
    hint = ada.get_by_role("button", name="Hint")
    assert hint.is_visible()
    hint.click()
    marked = ada.locator(".hand .card.hinted, .stock.hinted, .btn.hinted")
    marked.wait_for(timeout=10_000)
    assert marked.count() == 1
    # What is highlighted is something the player may do now.
    cls = marked.get_attribute("class") or ""
    assert "legal" in cls or "can-draw" in cls or marked.inner_text() == "Pass"
    shot(ada, "hint")
    # Playing it moves on; the highlight belongs to that position only.
    version = ada.locator(".felt").get_attribute("data-version")
    marked.click()
    ada.wait_for_function(
        "v => document.querySelector('.felt').dataset.version !== v"
        " || !!document.querySelector('.suit-picker')",
        arg=version,
    )
    picker = ada.locator(".suit-picker")
    if picker.count():
        picker.locator("button.suit-btn").first.click()
    ada.wait_for_function("v => document.querySelector('.felt').dataset.version !== v", arg=version)
    assert ada.locator(".hand .card.hinted, .stock.hinted, .btn.hinted").count() == 0
    assert console.errors == []
