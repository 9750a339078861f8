"""Issue 21 in Debian's Chromium: a chat host's table seen from the card room's browser
client. alice opens her ``!link`` signed out, signs up on the way and links her nick;
the lobby lists her chat table "in #cards" with Watch only; watching it, the felt follows
every move the host stores, to the end. The card room is a real ``crazy-eights serve``
on a SQLite file; the host's side is a ``RoomGateway`` on the same file (what the IRC
tests drive through ngircd). Skipped without ``/usr/bin/chromium``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from crazy_eights.chat.gateway import ChatSeat, ChatTableSpec
from crazy_eights.chat.roomgateway import RoomGateway
from crazy_eights.engine import Rules
from crazy_eights.server.settings import ServerSettings

from .loops import Loop

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]

CHROMIUM = Path(os.environ.get("CE_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
NETWORK = "irc:127.0.0.1"
FELT_AT = "v => document.querySelector('.felt')?.dataset.version === v"


@pytest.fixture
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_browser_links_a_nick_and_watches_a_chat_table(
    browser: Any, card_room: str, database_url: str, host_loop: Loop
) -> None:
    settings = ServerSettings(database_url=database_url)
    gateway = host_loop.run(RoomGateway.open(settings, room_url=card_room, turn_seconds=60))
    errors: list[str] = []
    context = browser.new_context(base_url=card_room, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        said = host_loop.run(gateway.link("alice", NETWORK))
        assert said is not None
        link = said.split()[1]
        assert link.startswith(f"{card_room}/#/link/")

        # Signed out: the page says what the link ties and sends her to sign in and back.
        page.goto(link)
        page.get_by_text(f"Sign in to tie alice on {NETWORK}").wait_for()
        page.get_by_role("button", name="Sign in").click()
        register = page.locator("form").filter(
            has=page.get_by_role("heading", name="Create an account")
        )
        register.get_by_label("Name").fill("alicia")
        register.get_by_label("Password").fill("pass-word-1")
        register.get_by_role("button", name="Create account").click()
        page.get_by_role("button", name="Link alice").click()
        page.get_by_text("Done: from now on the games alice on").wait_for()

        # Her table in the lobby: "in #cards", Watch only (it is played in the chat).
        rules = Rules.preset("cycles", players=2, cycle_limit=4)
        spec = ChatTableSpec(place=f"{NETWORK}:#cards", rules=rules, seed=21)
        seats = [ChatSeat(seat=0, name="alice"), ChatSeat(seat=1, name="bot2", bot="random")]
        table_id, _ = host_loop.run(gateway.create(spec, seats))
        page.goto("/#/")
        item = page.locator(f".table-item[data-id='{table_id}']")
        item.wait_for()
        assert "in #cards" in item.inner_text() and "\u00b7 rated" in item.inner_text()
        assert item.get_by_role("button", name="Join").count() == 0
        item.get_by_role("link", name="Watch").click()

        # The felt follows the host's moves, each as it is stored, to the end.
        page.wait_for_function(FELT_AT, arg="0")
        moves = 0
        while (current := gateway.view(table_id, None)["current"]) is not None:
            host_loop.run(gateway.bot_move(table_id, current, "random"))
            moves += 1
            if moves <= 3:  # the first moves one by one; the rest may come together
                page.wait_for_function(FELT_AT, arg=str(moves))
        host_loop.run(gateway.close(table_id, "over"))
        page.wait_for_function(
            "() => document.querySelector('.felt')?.dataset.turn === 'over'", timeout=30_000
        )
        assert page.locator(".felt").get_attribute("data-version") == str(moves)
        assert errors == []
    finally:
        context.close()
        host_loop.run(gateway.shutdown())
