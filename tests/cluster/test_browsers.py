"""Two people in Chromium, each on a different node of a three-node room, at one table
run by the third node; that node is killed with SIGKILL mid-game. Both browsers must
reconnect on their own and the game must go on to its end, with every move stored once.
(With no proxy in front, a socket sent on to the table's node comes back to its own
node and is served across nodes.) And two people through nginx, as docs/deploy.md sets
it up: their sockets go to the table's node.

This is the by-hand check of cluster mode, played as a person would (Playwright on
Debian's Chromium); it saves screenshots before and after the kill."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from ..e2e.conftest import CHROMIUM, CHROMIUM_ARGS, shot
from ..e2e.helpers import take_turn, wait_turn
from ..server.conftest import eventually
from .conftest import Cluster
from .nodes import (
    COOKIE,
    METRICS_TOKEN,
    Node,
    api,
    front,
    nginx_config,
    stored_moves,
    table_sockets,
)
from .test_cluster import owner_of

pytestmark = [
    pytest.mark.xdist_group("cluster"),
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

TWO_HUMANS = {"ruleset": "classic", "players": 2, "mode": "single"}


def _player(browser: Any, node: Node) -> tuple[Any, str]:
    """A guest signed in through ``node``'s page: the page and its session token."""
    context = browser.new_context(viewport={"width": 1100, "height": 760}, base_url=node.url)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto("/")
    page.get_by_role("button", name="Play as guest").click()
    page.wait_for_selector(".page.lobby")
    token = next(c["value"] for c in context.cookies() if c["name"] == COOKIE)
    return page, token


def _seated(
    browser: Any, maker: Node, ways_in: tuple[Node, Node]
) -> tuple[list[Any], list[str], str]:
    """Two guests, signed in through ``ways_in``, at a new two-seat table made and sat at
    through ``maker``, each at the table's page with cards in hand: (pages, their
    session tokens, table)."""
    (first, first_token), (second, second_token) = (_player(browser, n) for n in ways_in)
    made = api(maker, first_token, "POST", "/api/tables", json={"rules": TWO_HUMANS})
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    sat = api(maker, second_token, "POST", f"/api/tables/{table}/sit", json={})
    assert sat.status_code == 200, sat.text
    pages = [first, second]
    for page in pages:
        page.goto(f"/#/table/{table}")
    for page in pages:
        page.wait_for_selector(".hand .card")
    return pages, [first_token, second_token], table


def _play_turns(pages: list[Any], turns: int, deadline: float) -> bool:
    """Take ``turns`` turns in whichever browser is to move; True once the game is over."""
    taken = 0
    while taken < turns:
        assert time.monotonic() < deadline, "the game stalled"
        for page in pages:
            state = page.locator(".felt").get_attribute("data-turn")
            if state == "over":
                return True
            if state == "me":
                take_turn(page)
                taken += 1
        time.sleep(0.05)
    return False


def _play_out(pages: list[Any], over: bool, deadline: float) -> None:
    """Play to the game's end (unless ``over`` already); every browser then shows it."""
    while not over:
        over = _play_turns(pages, 1, deadline)
    for page in pages:
        assert wait_turn(page) == "over"


def test_two_browsers_on_two_nodes_play_on_when_the_tables_node_is_killed(
    cluster: Cluster, postgres_url: str, redis_url: str
) -> None:
    from playwright.sync_api import sync_playwright

    owner, north, south = cluster(3, CE_METRICS_TOKEN=METRICS_TOKEN)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            pages, tokens, table = _seated(browser, owner, (north, south))
            first, second = pages
            assert owner_of(redis_url, table) == owner.name
            deadline = time.monotonic() + 180
            over = _play_turns(pages, 6, deadline)
            shot(first, "cluster-before-kill")
            # with no proxy in front, each browser was sent on to the table's node (4307),
            # asked for it (?node=) through its own node and was served there, across
            sockets = table_sockets([owner, north, south])
            for node in (north, south):
                assert sockets[node.name]["sent_on"] >= 1, sockets
                assert sockets[node.name]["across"] >= 1, sockets
            assert sockets[owner.name]["here"] == 0, sockets
            before = len(stored_moves(postgres_url, table))
            owner.kill()
            if not over:
                # the next turn is only possible once another node has taken the table
                try:
                    over = _play_turns(pages, 2, deadline)
                except Exception:
                    shot(first, "cluster-failed-first")
                    shot(second, "cluster-failed-second")
                    raise
            shot(second, "cluster-after-kill")
            assert owner_of(redis_url, table) in (north.name, south.name)
            _play_out(pages, over, deadline)
            shot(first, "cluster-game-over")
        finally:
            browser.close()
    stored = stored_moves(postgres_url, table)
    assert [n for n, _ in stored] == list(range(len(stored))), "moves gapped or doubled"
    assert len(stored) > before
    record = httpx.get(f"{north.url}/api/tables/{table}", cookies={COOKIE: tokens[0]})
    assert record.status_code == 200, record.text
    assert record.json()["status"] == "finished"


def test_two_browsers_behind_nginx_play_on_their_tables_node(
    cluster: Cluster, postgres_url: str, redis_url: str, nginx: Any
) -> None:
    """docs/deploy.md's nginx in front of three nodes: the pages go round robin, each
    browser's table socket is sent on to the node that runs the table and stays there, so
    no move of the game crosses between nodes."""
    from playwright.sync_api import sync_playwright

    nodes = cluster(3, CE_METRICS_TOKEN=METRICS_TOKEN)
    proxy = nginx(nginx_config(nodes))
    way_in = front(proxy.url, nodes)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            pages, _, table = _seated(browser, way_in, (way_in, way_in))
            first, second = pages
            owner = owner_of(redis_url, table)
            deadline = time.monotonic() + 180
            over = _play_turns(pages, 4, deadline)
            shot(first, "cluster-nginx-table")
            sockets = table_sockets(nodes)
            # both browsers' sockets on the table's node, none served across nodes
            assert sockets[owner]["here"] >= 2, sockets
            assert sum(s["across"] for s in sockets.values()) == 0, sockets
            assert all(s["here"] == 0 for n, s in sockets.items() if n != owner), sockets
            _play_out(pages, over, deadline)
            shot(second, "cluster-nginx-game-over")
        finally:
            browser.close()
    assert owner_of(redis_url, table) in (None, owner)  # the table never changed hands
    # each sending on was followed by a socket asking nginx for the table's node (nginx
    # logs an upgraded connection when it closes: the browsers are closed now)
    sent_on = sum(s["sent_on"] for s in table_sockets(nodes).values())
    log = proxy.folder / "access.log"
    eventually(
        lambda: log.read_text().count(f"?node={owner} ") >= sent_on,
        f"{sent_on} sockets asking for {owner} in nginx's log",
        10,
    )
    stored = stored_moves(postgres_url, table)
    assert [n for n, _ in stored] == list(range(len(stored))), "moves gapped or doubled"
