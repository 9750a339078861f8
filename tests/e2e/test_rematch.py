"""Play again with the same people (issue 12 item 3): two players finish a game; one
presses "Play again" and goes to the new table, the other's match end shows the offer
live, joins it, and both sit at the new table, which deals."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import CHROMIUM, shot
from .helpers import ROUND_SECONDS, finish, take_turn, two_at_one_table

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")


def play_out(pages: list[Any]) -> None:
    """Take turns on whichever page is to move until the game is over."""
    deadline = time.monotonic() + ROUND_SECONDS * 2
    while True:
        assert time.monotonic() < deadline, "the game took too long"
        turns = [page.locator(".felt").get_attribute("data-turn") for page in pages]
        if "over" in turns:
            return
        mover = next((page for page, turn in zip(pages, turns, strict=True) if turn == "me"), None)
        if mover is None:
            time.sleep(0.05)
        else:
            take_turn(mover)


def test_play_again_brings_the_other_player_along(new_page: Any, console: Any) -> None:
    ada, bob = new_page(), new_page()
    old = two_at_one_table(ada, bob)
    play_out([ada, bob])
    ada_end, bob_end = finish(ada), finish(bob)
    assert bob_end.locator(".rematch-offer").is_hidden()
    ada_end.get_by_role("button", name="Play again").click()
    ada.wait_for_function("u => !location.hash.includes(u)", arg=old)
    new = ada.url.split("#/table/")[1].split("?")[0]
    offer = bob_end.locator(".rematch-offer")
    offer.wait_for(state="visible")
    ada_name = ada.evaluate("async () => (await (await fetch('/api/me')).json()).display_name")
    said = offer.locator(".rematch-line span").inner_text().strip()
    assert said == f"{ada_name} wants to play again \u2014"
    assert offer.locator("p").count() == 1  # nobody else has joined yet
    shot(bob, "rematch-offer")
    offer.get_by_role("button", name="Join").click()
    bob.wait_for_url(f"**/#/table/{new}")
    for page in (ada, bob):
        page.wait_for_selector(".hand .card")
        assert page.locator(".opponents .player").count() == 1
        assert page.locator(".modal.victory").count() == 0
    shot(bob, "rematch-dealt")
    assert console.errors == []
