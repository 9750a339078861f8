"""Issue 16 items 2-4 in the browser: a registered player wins a quick game against the
Easy bot (a fixed deal), the profile shows the evaluation (median and bot levels, a
sentence each) and the unlock it earned, the unlocked card back becomes selectable in
Settings (locked ones say what unlocks them), and the leaderboard shows the Master Card
Archon title beside the holder's name with the rule for it (the test server lowers the
title's minimum of rated games to one, ``CE_ARCHON_MIN_GAMES``)."""

from __future__ import annotations

import json
import secrets
import time
import urllib.request
from typing import Any

import pytest

from .conftest import CHROMIUM, shot
from .helpers import create_table, finish, play_round, queue_seed

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

WINNING_SEED = 16
"""Classic, two seats, one round: the helpers' player (the first glowing card, the first
suit offered) beats the Easy bot from this deal; tests/server/test_progress.py plays the
same game through the API."""


def register(page: Any, name: str) -> int:
    """Create an account through the sign-in page's form."""
    page.goto("/#/signin")
    form = page.locator("form", has=page.get_by_role("button", name="Create account"))
    form.get_by_label("Name").fill(name)
    form.get_by_label("Password").fill("pass-word-1")
    form.get_by_role("button", name="Create account").click()
    page.wait_for_selector(".page.lobby")
    return int(page.request.get("/api/me").json()["id"])


def get_json(server: str, path: str) -> Any:
    with urllib.request.urlopen(f"{server}{path}", timeout=5) as res:
        return json.load(res)


def test_a_win_unlocks_a_back_the_profile_evaluates_and_the_archon_is_named(
    new_page: Any, console: Any, server: str
) -> None:
    page = new_page(1280, 900)
    name = f"ada{secrets.token_hex(3)}"
    me = register(page, name)

    # before: the back is locked, and says what unlocks it
    page.goto("/#/settings")
    lattice = page.locator("input[name=back][value=lattice]")
    lattice.wait_for(state="attached")
    assert lattice.is_disabled()
    reason = page.locator("label.locked", has=lattice)
    assert "Win a game of Classic" in reason.inner_text()
    assert page.locator("input[name=face][value=deco]").is_disabled()
    shot(page, "progress-settings-locked")

    # a quick game against the Easy bot, won
    page.goto("/")
    page.wait_for_selector(".page.lobby")
    queue_seed(server, WINNING_SEED)
    create_table(page, players=2, bots=1)
    page.wait_for_selector(".hand .card")
    play_round(page)
    dialog = finish(page)
    assert "You" in dialog.locator(".standings li").first.inner_text()  # we won
    shot(page, "progress-won")
    # a rated game: the bot workers analyse its human seat on their own, in the background
    table = page.url.split("#/table/")[1].split("?")[0]
    deadline = time.monotonic() + 60
    while get_json(server, f"/api/tables/{table}/analysis?seat=0")["status"] != "done":
        assert time.monotonic() < deadline, "the rated game was never analysed"
        time.sleep(0.5)

    # the profile: the unlock earned in that game, and the evaluation
    page.goto("/#/profile")
    earned = page.locator(".achievement.earned[data-achievement=first_win_classic]")
    earned.wait_for()
    assert "Unlocked: Gold lattice back" in earned.inner_text()
    locked = page.locator(".achievement.locked[data-achievement=beat_hard]")
    assert "Win a game against the Hard bot" in locked.inner_text()
    assert "Locked: Art Deco faces" in locked.inner_text()
    shedding = page.locator(".evaluation .measure[data-measure=shedding]")
    shedding.wait_for()
    sentence = shedding.locator(".sentence").inner_text()
    assert sentence.startswith("Cards shed per turn:")
    assert "How quickly a hand empties" in shedding.locator(".about").inner_text()
    assert "the room's median" in sentence and "Easy" in sentence and "bot" in sentence
    row = shedding.locator("tr[data-figure=shed_per_turn] td")
    easy = row.nth(2).inner_text()
    assert row.nth(0).inner_text() not in ("", "\u2013") and easy not in ("", "\u2013")
    evaluation = get_json(server, f"/api/accounts/{me}/evaluation?ruleset=classic")
    assert row.nth(0).inner_text() == str(
        round(evaluation["measures"][0]["figures"][0]["value"] * 100) / 100
    ).removesuffix(".0")
    for key in ("disruption", "suits", "accuracy"):
        assert page.locator(f".evaluation .measure[data-measure={key}] .sentence").inner_text()
    accuracy = evaluation["accuracy"]
    assert accuracy["analysed"] and 0 <= accuracy["value"] <= 1
    shown = page.locator("[data-measure=accuracy]").inner_text()
    assert f"Accuracy: {round(accuracy['value'] * 100)}% of analysed moves" in shown
    page.locator(".evaluation").scroll_into_view_if_needed()
    shot(page, "progress-profile-evaluation")
    page.locator(".achievements").scroll_into_view_if_needed()
    shot(page, "progress-profile-achievements")

    # the back is now selectable, and the table draws it
    page.goto("/#/settings")
    lattice = page.locator("input[name=back][value=lattice]")
    lattice.wait_for(state="attached")
    assert lattice.is_enabled()
    lattice.check()
    assert page.evaluate("document.documentElement.dataset.back") == "lattice"
    assert page.locator(".preview .back-lattice").count() == 1
    shot(page, "progress-settings-unlocked")
    # the change goes out a third of a second after it is made: wait until it is kept
    page.wait_for_function("() => document.documentElement.dataset.settings === 'kept'")
    settings = page.request.get("/api/me/settings").json()
    assert settings["back"] == "lattice"

    # the leaderboard: the title beside the holder's name, and its rule
    page.goto("/#/leaders/classic")
    page.locator(".archon-rule .rule").wait_for()
    rule = get_json(server, "/api/leaderboard/classic/archon")
    assert rule["holder"] is not None
    assert "Master Card Archon" in page.locator(".archon-rule .rule").inner_text()
    assert "at least 1 rated game in" in page.locator(".archon-rule .rule").inner_text()
    badges = page.locator("table.leaders tbody .archon-badge")
    assert badges.count() == 1
    holder_row = page.locator("table.leaders tbody tr:has(.archon-badge)")
    holder = next(r for r in get_json(server, "/api/leaderboard/classic") if r["archon"])
    assert holder["account"] == rule["holder"]
    assert holder["name"] in holder_row.inner_text()
    assert page.locator(".archon-rule .holder .archon-badge").count() == 1
    shot(page, "progress-leaderboard-archon")
    assert console.errors == []
