"""Issue 20, item 6, in three browsers: A reports B from B's name at their table; a
moderator (granted on the command line) sees the report with B's chat line on the
moderation page and bans B; B's tab is told why (its sockets closed with the reason)
and B can't sign in again, told until when."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from typer.testing import CliRunner

from .conftest import CHROMIUM, shot
from .test_friends import at_one_table, register

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")


def grant_moderator(db: str, name: str) -> None:
    """``crazy-eights admin grant NAME moderator`` on the room's database (on a thread
    of its own: Playwright's loop runs on this one)."""
    from crazy_eights.cli import app

    args = ["admin", "grant", name, "moderator", "--db", db]
    with ThreadPoolExecutor(1) as thread:
        result = thread.submit(CliRunner().invoke, app, args).result()
    assert result.exit_code == 0 and "is a moderator now" in result.output, result.output


def test_a_report_leads_to_a_ban(new_page: Any, console: Any, server_db: str) -> None:
    ada, bob, mod = new_page(), new_page(), new_page()
    register(ada, "ada")
    bob_name, mod_name = register(bob, "bob"), register(mod, "mod")
    grant_moderator(server_db, mod_name)
    at_one_table(ada, bob)

    bob.locator(".chat-form input").fill("you are all hopeless")
    bob.locator(".chat-form button").click()
    ada.locator(".chat-list li", has_text="you are all hopeless").wait_for()

    ada.locator(f".pname[data-person-name='{bob_name}']").click()
    ada.locator(".modal.person-dialog").get_by_role("button", name="Report").click()
    dialog = ada.locator(".modal.report-dialog")
    dialog.get_by_label("Reason").select_option("abuse")
    dialog.get_by_label("What happened").fill("Insults in the chat.")
    shot(ada, "report-dialog")
    dialog.get_by_role("button", name="Send report").click()
    ada.locator("#toast").filter(has_text=f"your report on {bob_name} was sent").wait_for()

    mod.reload()  # the menu asks for the roles granted meanwhile
    mod.get_by_role("link", name="Moderation").click()
    card = mod.locator(f".report[data-target='{bob_name}']")
    card.wait_for()
    assert "abusive chat" in card.inner_text()
    assert "Insults in the chat." in card.inner_text()
    card.locator(".report-chat li.theirs", has_text="you are all hopeless").wait_for()
    assert card.get_by_role("link", name="replay").get_attribute("href", timeout=1000)
    shot(mod, "moderation-report")

    card.get_by_role("button", name="Ban").click()
    ban = mod.locator(".modal.sanction-dialog")
    ban.get_by_label("For how long").select_option("3")
    ban.get_by_label("Reason (kept in the audit log)").fill("insults at the table")
    ban.get_by_role("button", name="Ban").click()
    mod.locator("#toast").filter(has_text=f"{bob_name} is banned").wait_for()
    mod.locator(f".sanction[data-name='{bob_name}'][data-kind='ban']").wait_for()
    row = mod.locator(".audit-log tr", has_text="ban").filter(has_text=bob_name)
    row.wait_for()
    assert mod_name in row.inner_text() and "insults at the table" in row.inner_text()
    shot(mod, "moderation-banned")

    notice = bob.locator(".banned-notice")
    notice.wait_for()
    assert "banned until" in notice.inner_text() and "insults at the table" in notice.inner_text()
    shot(bob, "banned-told-why")

    form = bob.locator("form").filter(has=bob.get_by_role("heading", name="Sign in"))
    form.get_by_label("Name").fill(bob_name)
    form.get_by_label("Password").fill("password-1")
    form.get_by_role("button", name="Sign in").click()
    refused = form.locator(".error", has_text="banned until")
    refused.wait_for()
    shot(bob, "banned-sign-in-refused")
    assert bob.locator(".page.signin").count() == 1
    # the refused sign-in (403) and the report page's 401 of a signed-out tab, nothing else
    assert [e for e in console.errors if "403" not in e and "401" not in e] == [], console.errors
