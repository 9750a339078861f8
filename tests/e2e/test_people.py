"""Issue 12, item 7 and the leaderboard of item 11: bots shown as Easy / Medium / Hard
with a bot badge in the lobby, the create form, the table, the replay and the
leaderboard; ratings people can read; guests marked."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import CHROMIUM, shot
from .helpers import create_table, finish, play_round, sign_in_as_guest

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

WORDS = {"random": "Easy", "heuristic": "Medium", "ismcts": "Hard"}


def badges(scope: Any) -> list[str]:
    return [t.strip() for t in scope.locator(".bot-badge").all_inner_texts()]


def test_bot_levels_in_words_everywhere(new_page: Any, console: Any) -> None:
    host = new_page()
    sign_in_as_guest(host)
    form = host.locator("form.create-form")
    form.locator("input[name=players]").fill("4")
    form.locator("select[name=length]").select_option("single")
    # the create form names the levels and shows each seat's badge
    options = form.locator("select[name=seat1] option").all_inner_texts()
    assert [o.split(" (")[0] for o in options] == [
        "Open for a person",
        "Easy bot",
        "Medium bot",
        "Hard bot",
    ]
    form.locator("select[name=seat1]").select_option("random")
    form.locator("select[name=seat2]").select_option("ismcts")
    form.locator("select[name=seat3]").select_option("")
    assert badges(form) == ["Easy", "Hard"]
    assert form.locator(".seat-badge .bot-badge").first.is_visible()
    shot(host, "create-form-bots")
    form.get_by_role("button", name="Create table").click()
    host.wait_for_url("**/#/table/*")
    table = host.url.split("#/table/")[1]
    # the waiting room lists the bots with their badges
    waiting = host.locator(".waiting")
    waiting.wait_for()
    assert badges(waiting) == ["Easy", "Hard"]
    shot(host, "waiting-room-bots")
    # another player sees them in the lobby's list of open tables
    guest = new_page()
    sign_in_as_guest(guest)
    row = guest.locator(f".table-item[data-id='{table}']")
    row.wait_for()
    assert badges(row) == ["Easy", "Hard"]
    # one name per player everywhere (issue 23): the lobby names the bots as the table does
    assert row.locator(".who-name").all_inner_texts()[1:] == ["Easy bot", "Hard bot"]
    assert row.locator(".bot-badge").first.is_visible()
    shot(guest, "lobby-bots")
    host.get_by_role("button", name="Start now (bots fill empty seats)").click()
    host.wait_for_selector(".hand .card")
    # at the table each bot's panel carries its level; the seat left open got a bot too
    levels = sorted(badges(host.locator(".opponents")))
    assert len(levels) == 3 and {"Easy", "Hard"} <= set(levels) <= set(WORDS.values())
    for panel in host.locator(".opponents .player").all():
        assert panel.locator(".bot-badge").is_visible()
    names = sorted(host.locator(".opponents .player .pname").all_inner_texts())
    assert {"Easy bot", "Hard bot"} <= set(names), names
    shot(host, "table-bots")
    play_round(host)
    finish(host).get_by_role("button", name="Replay").click()
    host.wait_for_url("**/#/replay/*")
    seats = host.locator(".replay-seats")
    seats.wait_for()
    assert sorted(badges(seats)) == sorted(levels)
    # the replay keeps the table's names (it does not number the seats anew)
    assert sorted(seats.locator(".who-name").all_inner_texts()[1:]) == names
    shot(host, "replay-bots")
    assert console.errors == []


def test_leaderboard_readable_ratings_bots_and_guests(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    create_table(page, players=2, bots=1)  # rated: hints are off
    play_round(page)
    finish(page)
    page.keyboard.press("Escape")

    page.goto("/#/leaders/classic")
    table = page.locator("table.leaders")
    table.wait_for()
    ratings = [int(t) for t in table.locator("td.rating").all_inner_texts()]
    assert ratings and all(r >= 0 for r in ratings)
    raw = page.evaluate(
        "async () => (await (await fetch('/api/leaderboard/classic')).json())"
        ".map(r => [r.rating.display, r.rating.ordinal])"
    )
    assert sorted(d for d, _ in raw) == sorted(ratings), json.dumps(raw)
    bot_rows = table.locator("tr", has=page.locator(".bot-badge"))
    words = [r.locator(".bot-badge").inner_text().strip() for r in bot_rows.all()]
    assert "Easy" in words and set(words) <= set(WORDS.values()), words
    # guests are never listed (issue 23, item 8), and a provisional rating reads "1012?"
    assert table.locator(".guest-badge").count() == 0
    said = page.evaluate(
        "async () => (await import('/js/records.js'))"
        ".ratingText({display: 1012, provisional: true})"
    )
    assert said == "1012?"
    shot(page, "leaderboard")
    assert console.errors == []
