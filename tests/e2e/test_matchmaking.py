"""Issue 12, item 1: quick play's queue in the browser. People who press Play within a
few seconds land at one table, seeing each other there; the waiting panel shows who
waits and a countdown; one who cancels leaves no table behind; play now deals at once.
Issue 23, item 7: alone online, Play deals at once (the queue waits only while someone
else is online, so the tests of the waiting panel keep a bystander in the lobby)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from .conftest import CHROMIUM, shot
from .helpers import sign_in_as_guest

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")


def players(new_page: Any, count: int) -> list[tuple[Any, str]]:
    """``count`` guests in browsers of their own: (page, display name)."""
    out = []
    for _ in range(count):
        page = new_page()
        sign_in_as_guest(page)
        out.append((page, page.locator(".me-name").inner_text()))
    return out


def bystander(new_page: Any) -> Any:
    """Someone else online: a signed-in guest looking at the lobby."""
    page = new_page()
    sign_in_as_guest(page)
    return page


def press_play(page: Any, ruleset: str, length: str) -> None:
    page.locator(f"button[data-quick='{ruleset}'][data-length='{length}']").click()


def table_id(page: Any) -> str:
    page.wait_for_url("**/#/table/*", timeout=20_000)
    return str(page.url.rsplit("/", 1)[1])


def lobby_tables(server: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{server}/api/tables", timeout=5) as res:
        tables: list[dict[str, Any]] = json.load(res)
    return tables


@pytest.mark.parametrize("count", [2, 3])
def test_people_pressing_play_together_land_at_one_table(
    new_page: Any, console: Any, count: int
) -> None:
    people = players(new_page, count)
    for page, _ in people:  # one after another, each waiting when the next presses
        press_play(page, "ultimate", "round")
        page.locator(".queue-panel").wait_for()
    first = people[0][0]
    panel = first.locator(".queue-panel")
    panel.wait_for()
    first.wait_for_function(
        f"() => document.querySelectorAll('.queue-people li').length === {count}"
    )
    waiting = panel.locator(".queue-name").all_inner_texts()
    assert waiting[0] == f"{people[0][1]} (you)"
    assert waiting[1:] == [name for _, name in people[1:]]
    assert "The table starts in" in panel.inner_text()
    assert panel.get_by_role("button", name="Play now with bots").is_visible()
    assert panel.get_by_role("button", name="Cancel").is_visible()
    shot(first, f"queue-waiting-{count}")
    ids = {table_id(page) for page, _ in people}
    assert len(ids) == 1
    for page, name in people:
        page.wait_for_selector(".hand .card")
        shown = page.locator(".pname").all_inner_texts()
        others = [n for _, n in people if n != name]
        assert all(any(o in s for s in shown) for o in others), (shown, others)
        assert page.locator(".opponents .player").count() == 3
    shot(people[-1][0], f"queue-matched-{count}")
    assert console.errors == []


def test_one_who_cancels_leaves_nothing_behind(new_page: Any, console: Any, server: str) -> None:
    bystander(new_page)
    page = new_page(390, 800)  # a phone
    sign_in_as_guest(page)
    name = page.locator(".me-name").text_content()
    press_play(page, "countdown", "match")
    panel = page.locator(".queue-panel")
    panel.wait_for()
    assert "Finding players: Countdown, short match" in panel.inner_text()
    assert panel.get_by_role("button", name="Cancel").is_visible()
    shot(page, "queue-waiting-phone")
    panel.get_by_role("button", name="Cancel").click()
    panel.wait_for(state="detached")
    page.wait_for_timeout(6_500)  # past the window: no table is made for them
    assert page.url.endswith("/#/")
    names = [s["name"] for t in lobby_tables(server) for s in t["seats"]]
    assert name not in names
    assert console.errors == []


def test_play_now_with_bots_deals_at_once(new_page: Any, console: Any) -> None:
    bystander(new_page)
    ((page, _),) = players(new_page, 1)
    press_play(page, "classic", "round")
    page.locator(".queue-panel").get_by_role("button", name="Play now with bots").click()
    table_id(page)
    page.wait_for_selector(".hand .card")
    assert page.locator(".opponents .player").count() == 3
    assert console.errors == []


def test_a_reload_keeps_your_place_in_the_queue(new_page: Any, console: Any) -> None:
    bystander(new_page)
    ((page, name),) = players(new_page, 1)
    press_play(page, "ultimate", "match")
    page.locator(".queue-panel").wait_for()
    page.reload()
    panel = page.locator(".queue-panel")
    panel.wait_for()
    assert "Finding players: Ultimate, short match" in panel.inner_text()
    assert panel.locator(".queue-name").all_inner_texts() == [f"{name} (you)"]
    table_id(page)  # the window closes: seated with bots
    page.wait_for_selector(".hand .card")
    assert console.errors == []


def test_alone_online_play_deals_at_once(new_page: Any, console: Any) -> None:
    ((page, _),) = players(new_page, 1)
    seen = []
    page.on("websocket", lambda ws: seen.append(ws.url))
    # Chromium's own log (not the page's console): where "WebSocket is closed before the
    # connection is established" appears when a page drops a socket still connecting
    logged: list[str] = []
    cdp = page.context.new_cdp_session(page)
    cdp.on("Log.entryAdded", lambda e: logged.append(e["entry"]["text"]))
    cdp.send("Log.enable")
    press_play(page, "countdown", "round")
    table_id(page)
    page.wait_for_selector(".hand .card")
    assert page.locator(".queue-panel").count() == 0
    assert not any("/ws/match" in url for url in seen), seen
    assert page.locator(".opponents .player").count() == 3
    # the table says who deals: a marked seat (an opponent's panel or your own), and the
    # log's first line
    page.locator(".dealer .dealer-chip").first.wait_for()
    assert "deal" in page.locator(".log").inner_text()
    shot(page, "quick-play-alone-dealer")
    assert not [t for t in logged if "WebSocket" in t], logged
    assert console.errors == []
