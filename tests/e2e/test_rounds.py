"""Issue 12, items 3 and 5: between rounds, the match end, and a table that tells you
what happened, played for real in the browser.

A match to 100 points against a bot: each round ends on a summary (every hand face up,
the points, the totals against the target, how it ended) that stays until "Next round";
the bot's panel shows the card it last played and how many cards it drew; forgetting
the last-card call shows a penalty notice on the felt and a log line that says why; the
match ends on the standings with the rating change. On a phone the log is a drawer."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .conftest import CHROMIUM, shot
from .helpers import create_table, finish, last_round, play_without_calling, sign_in_as_guest

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

SUMMARY = ".round-summary"
MATCH_SECONDS = 600  # a guard against a match that never ends (pytest-timeout is 900 s)


def wait_for_something(page: Any) -> str:
    """Wait until it is our turn, a round summary is up, or the match is over."""
    page.wait_for_function(
        "() => { const f = document.querySelector('.felt'); return f && "
        "(['me', 'over'].includes(f.dataset.turn) "
        "|| !!document.querySelector('.round-summary')); }",
        timeout=30_000,
    )
    if page.locator(".round-summary.final").count():
        return "over"
    if page.locator(SUMMARY).count():
        return "summary"
    return str(page.locator(".felt").get_attribute("data-turn"))


def play_noting_a_forgotten_call(page: Any) -> bool:
    """``play_without_calling``; True when the play left one card in hand without the
    call (a penalty is due)."""
    cards = page.locator(".hand .card").count()
    forgot = bool(page.locator(".hand .card.legal").count()) and cards == 2
    forgot = forgot and not page.locator(".me-panel .badge-called").count()
    play_without_calling(page)
    return forgot


def check_summary(page: Any, round_no: int) -> None:
    """The summary of a round: every hand face up, points, totals against 100, how it
    ended, a Next round button and the countdown."""
    box = page.locator(SUMMARY)
    assert box.locator("h2").inner_text() == f"Round {round_no} is over"
    how = box.locator(".how").inner_text()
    assert "went out" in how or "Blockade" in how, how
    rows = box.locator("tbody tr")
    assert rows.count() == 2
    # the loser's hand is laid out face up (card faces, not backs)
    assert box.locator(".summary-hand .mini-card svg").count() >= 1
    assert box.locator("thead").inner_text().count("Total / 100") == 1
    totals = [int(t) for t in box.locator("td.total").all_inner_texts()]
    assert 0 < max(totals) < 100  # someone scored, and nobody reached the target yet
    assert "Next round in" in box.locator(".round-countdown").inner_text()
    assert box.get_by_role("button", name="Next round").is_enabled()


def test_a_match_with_round_summaries_tells_penalties_and_the_match_end(
    new_page: Any, console: Any
) -> None:
    page = new_page()
    sign_in_as_guest(page)
    create_table(page, players=2, bots=1, rules={"mode": "match", "target": 100})
    deadline = time.monotonic() + MATCH_SECONDS
    summaries = penalties = tells = 0
    while True:
        assert time.monotonic() < deadline, "the match took too long"
        what = wait_for_something(page)
        if what == "over":
            break
        if what == "summary":
            summaries += 1
            check_summary(page, summaries)
            if summaries == 1:
                shot(page, "round-summary")
            # the table is held: no move can be made under the summary
            assert page.locator(".felt").get_attribute("data-turn") == "pause"
            page.locator(SUMMARY).get_by_role("button", name="Next round").click()
            page.locator(SUMMARY).wait_for(state="detached")
            continue
        tell = page.locator(".player .tell")
        if tell.count() and not tells:
            # the bot's panel: the card it last played (and a named suit), or "drew N"
            label = tell.first.get_attribute("aria-label") or ""
            assert "last played the" in label or "drew" in label, label
            if tell.locator(".tell-card").count():
                tells += 1
                shot(page, "last-played")
        if play_noting_a_forgotten_call(page):
            mine = re.compile(r"^You (draw|owe) .*not calling last card")
            notice = page.locator(".penalty-notice", has_text=mine).last
            notice.wait_for(timeout=5000)
            assert notice.inner_text().startswith(("You draw", "You owe"))
            if not penalties:
                shot(page, "penalty-notice")
            penalties += 1
            line = page.locator(".log li.ev-penalty").last
            assert "for not calling last card" in line.inner_text()
    assert summaries >= 1, "the match ended in its first round"
    assert tells >= 1
    assert penalties >= 1, "never reached two cards with a play"
    # the last round too is explained before the end dialog: its hands, points and totals
    last = last_round(page)
    assert (
        "went out" in last.locator(".how").inner_text()
        or "Blockade" in last.locator(".how").inner_text()
    )
    assert max(int(t) for t in last.locator("td.total").all_inner_texts()) >= 100
    shot(page, "last-round-summary")
    dialog = finish(page)
    assert dialog.locator(".standings li").count() == 2
    # the rating change arrives once the game is recorded: a newcomer starts at 1000
    change = dialog.locator(".rating-list li.mine")
    change.wait_for()
    assert change.locator(".rating").inner_text().startswith("1000 \u2192 ")
    assert dialog.get_by_role("button", name="Play again").is_visible()
    assert dialog.get_by_role("button", name="Back to the lobby").is_visible()
    shot(page, "match-end")
    dialog.get_by_role("button", name="Back to the lobby").click()
    page.wait_for_selector(".page.lobby")
    assert console.errors == []


def test_the_phone_log_is_a_drawer_above_the_fold(new_page: Any, console: Any) -> None:
    page = new_page(360, 740, is_mobile=True, has_touch=True)
    sign_in_as_guest(page)
    create_table(page, players=3, bots=2)
    page.wait_for_selector(".hand .card")
    side = page.locator(".side")
    assert not side.is_visible()  # the log does not sit below the table any more
    button = page.get_by_role("button", name="Log & chat")
    box = button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 740  # reached without scrolling
    assert button.get_attribute("aria-expanded") == "false"
    shot(page, "phone-drawer-closed")
    button.click()
    page.wait_for_function(
        "() => { const r = document.querySelector('.side').getBoundingClientRect(); "
        "return r.bottom <= innerHeight + 1 && r.top < innerHeight; }"
    )
    assert button.get_attribute("aria-expanded") == "true"
    assert page.locator(".log li").first.is_visible()
    assert page.locator(".chat-form input").is_visible()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360
    shot(page, "phone-drawer")
    page.locator(".side").get_by_role("button", name="Close").click()
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('.side')).visibility === 'hidden'"
    )
    assert console.errors == []
