"""Game analysis in the browser: play a seeded game, open its replay, analyse it, and see
the win-chance graph, a marked move with the better move on the cards, and the jump of
the replay to that move; the technique it breaks links to How to play."""

from __future__ import annotations

import re
from typing import Any

from .conftest import shot
from .helpers import create_table, finish, play_round, queue_seed, sign_in_as_guest


def test_an_analysed_game_marks_a_costly_move_and_jumps_to_it(
    new_page: Any, server: str, console: Any
) -> None:
    page = new_page()
    sign_in_as_guest(page)
    queue_seed(server, 4242)
    create_table(page, players=2, bots=1)
    play_round(page)
    finish(page).get_by_role("button", name="Replay").click()
    page.wait_for_url("**/#/replay/*")

    # a rated game is analysed on its own; otherwise (or not yet) the player asks
    page.wait_for_selector(".analysis button.analyse, .analysis-status, svg.win-graph")
    ask = page.get_by_role("button", name="Analyse my moves")
    if ask.count():
        ask.click()
    graph = page.locator("svg.win-graph")
    graph.wait_for(state="visible", timeout=90_000)
    assert page.locator("svg.win-graph polyline.chance").count() == 1
    marks = page.locator(".analysis-mark")
    assert marks.count() >= 1, "the seeded game should have a marked move"
    assert graph.locator(".mark-dot").count() == marks.count()
    shot(page, "analysis-graph")

    first = marks.first
    n = int(first.get_attribute("data-n"))
    first.click()
    # the replay jumps to the position the move was chosen in, the better move glowing
    page.wait_for_function(
        "n => document.querySelector('.replay-stage').dataset.step == String(n - 1)", arg=n
    )
    assert page.locator(".replay-stage .replay-hand.analysed").count() == 1
    detail = page.locator(".analysis-detail")
    assert "Better:" in detail.inner_text()
    # in a player's words: "your 4th move", "-9% win chance" (not "Move 7", "points")
    assert re.fullmatch(
        r"\S+ (Inaccuracy|Mistake|Blunder): your \d+(st|nd|rd|th) move",
        detail.locator("h3").inner_text(),
    )
    assert re.search(r"Your \d+(st|nd|rd|th) move: \w+, \u2212\d+% win chance$", first.inner_text())
    assert "You played" in detail.inner_text()
    assert first.get_attribute("class").endswith("selected")
    better = page.locator(".replay-stage .mini-card.better, .replay-stage .better-move")
    assert better.count() == 1
    shot(page, "analysis-marked-move")

    # a second look is instant: the stored analysis is drawn at once
    page.reload()
    page.locator("svg.win-graph").wait_for(state="visible", timeout=5_000)
    assert page.locator(".analysis-mark").count() == marks.count()

    link = page.locator(".technique-link a")
    dots = page.locator(".analysis-mark")
    for k in range(dots.count()):
        dots.nth(k).click()
        if link.count():
            break
    if link.count():
        link.click()
        page.wait_for_url("**/#/howto/**")
        page.locator(".technique.focus").wait_for(state="visible")
        shot(page, "analysis-technique")
    assert not console.errors, console.errors
