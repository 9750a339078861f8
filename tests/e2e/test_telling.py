"""Issue 23: what the table tells people, looked at in the browser.

Every round's end is explained, the last one too (its summary comes before the end
dialog, and a blockade says who wins it and why); only the winner is celebrated; each
player has one name everywhere; the words fit each ruleset; coming back is told; the
analysis speaks a player's words; the phone table fills the screen.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from crazy_eights.engine import Rules

from .conftest import CHROMIUM, shot
from .helpers import (
    ROUND_SECONDS,
    create_table,
    finish,
    last_round,
    play_round,
    queue_seed,
    sign_in_as_guest,
    take_turn,
    two_at_one_table,
    wait_turn,
)

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

# every sound the page plays, and the most confetti pieces seen at once
LISTEN = """
window.__sounds = [];
window.__confetti = 0;
document.addEventListener('ce-sound', (e) => window.__sounds.push(e.detail.name));
new MutationObserver(() => {
  window.__confetti = Math.max(window.__confetti, document.querySelectorAll('.confetti').length);
}).observe(document, { childList: true, subtree: true });
"""


def test_the_last_round_is_explained_before_the_end_dialog(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    create_table(page, players=2, bots=1)
    play_round(page)
    box = last_round(page)
    assert box.locator("h2").inner_text() == "The round is over"
    how = box.locator(".how").inner_text()
    assert "went out" in how or "Blockade" in how, how
    rows = box.locator("tbody tr")
    assert rows.count() == 2
    # the hands face up, the points in each, and what the round's winner scored
    assert box.locator(".summary-hand .mini-card svg").count() >= 1
    winner = box.locator("tbody tr.winner")
    scored = winner.locator("td").nth(2).inner_text()
    assert scored.startswith("+"), scored
    others = box.locator("tbody tr:not(.winner)")
    in_hand = [int(r.locator("td").nth(1).inner_text()) for r in others.all()]
    # the winner scores the other hands' points (a blockade's winner holds cards too)
    assert int(scored[1:]) == sum(in_hand)
    total = int(winner.locator("td.total").inner_text())
    # the end dialog is not up yet: the summary comes first
    assert page.locator(".modal.victory").count() == 0
    shot(page, "issue23-last-round")
    dialog = finish(page)
    name = winner.locator("th").inner_text() if winner.count() else ""
    first = dialog.locator(".standings li").first
    assert first.inner_text().split("\n")[-1].startswith(f"{total} "), (name, total)
    shot(page, "issue23-end-after-summary")
    assert console.errors == []


def test_a_blockade_says_who_wins_it_and_why(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    words = Rules.preset("classic").blockade  # the engine's words, as the server sends them
    page.evaluate(
        """async (words) => {
          const { RoundSummary } = await import('/js/summary.js');
          const names = ['You', 'Medium bot', 'Medium bot 2'];
          const s = new RoundSummary({ name: (i) => names[i], onNext: () => {} });
          window.__done = false;
          s.final({ type: 'round_over', seat: 2, round: 1, reason: 'blockade',
                    points: [14, 19, 4], hands: [['KH', '4D'], ['QH', '9H'], ['AS', '3C']],
                    scored: [0, 0, 33], scores: [0, 0, 33], target: null },
                  { ruleset: 'classic', cards: { face: 'standard', label: false },
                    blockade: words })
            .then(() => { window.__done = true; });
        }""",
        words,
    )
    how = page.locator(".round-summary.final .how").inner_text()
    assert how == (
        "Blockade: nobody can play or draw. The fewest points in hand wins, then the fewest "
        "cards. Medium bot 2 wins the round with 4 points in hand."
    ), how
    shot(page, "issue23-blockade")
    page.get_by_role("button", name="See the result").click()
    page.wait_for_function("() => window.__done")
    # How to play says it too, for each ruleset with blockades
    for ruleset, text in (
        ("classic", "fewest points in hand wins it"),
        ("ultimate", "fewest points in hand wins it"),
        ("countdown", "nobody wins it"),
    ):
        page.goto(f"/#/howto/{ruleset}")
        section = page.locator(".howto section", has=page.locator("h3", has_text="Blockade"))
        assert text in section.inner_text(), ruleset
    assert console.errors == []


def heard(page: Any) -> list[str]:
    return list(page.evaluate("() => window.__sounds"))


def test_only_the_winner_is_celebrated(new_page: Any, console: Any) -> None:
    ada, bob, watcher = new_page(), new_page(), new_page()
    for page in (ada, bob, watcher):
        page.add_init_script(LISTEN)
    table = two_at_one_table(ada, bob)
    sign_in_as_guest(watcher)
    watcher.goto(f"/#/table/{table}")
    watcher.wait_for_selector(".player.bottom-seat")
    deadline = time.monotonic() + ROUND_SECONDS * 2
    while True:  # ada's table says whose turn it is: hers, or (two seats) bob's
        assert time.monotonic() < deadline, "the round took too long"
        turn = ada.locator(".felt").get_attribute("data-turn")
        if turn == "over":
            break
        if turn == "me":
            take_turn(ada)
        elif wait_turn(bob) == "me":
            take_turn(bob)
    ends = {}
    for page in (ada, bob, watcher):
        last_round(page)
        ends[page] = finish(page)
    won = [p for p in (ada, bob) if ends[p].locator(".big").inner_text() == "You win!"]
    assert len(won) == 1, "one of the two wins"
    winner = won[0]
    loser = bob if winner is ada else ada
    shot(winner, "issue23-winner")
    shot(loser, "issue23-loser")
    shot(watcher, "issue23-spectator")
    # the winner: the fanfare once, and confetti
    assert heard(winner).count("fanfare") == 1, heard(winner)
    assert winner.evaluate("() => window.__confetti") > 0
    # the loser: a quiet sound, no fanfare, no confetti
    assert heard(loser).count("loss") == 1 and "fanfare" not in heard(loser), heard(loser)
    assert loser.evaluate("() => window.__confetti") == 0
    # the spectator heard the table (the deal, the cards) but no ending of its own
    assert "fanfare" not in heard(watcher) and "loss" not in heard(watcher), heard(watcher)
    assert {"slide", "snap"} & set(heard(watcher)), heard(watcher)
    assert watcher.evaluate("() => window.__confetti") == 0
    assert console.errors == []


LONG_NAME = "Maximiliana Wolkenstein-Hohenberg"  # 33 characters, a long real name

NOT_CUT = """() => [...document.querySelectorAll('.player .pname, .me-panel .pname')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
  .map((e) => e.textContent)"""

# a "drew N" tell on one line: its height is one line of its text
TELLS_ON_ONE_LINE = """() => [...document.querySelectorAll('.tell-drew')]
  .every((e) => e.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(e).fontSize))"""


def rename(page: Any, name: str) -> None:
    page.evaluate(
        "async (n) => { const { api } = await import('/js/api.js');"
        " await api('/api/me', { method: 'PATCH', body: { display_name: n } }); }",
        name,
    )


def panel_names(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(".opponents .player .pname").all_inner_texts()]


def test_one_name_per_player_everywhere(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    rename(page, LONG_NAME)
    page.reload()
    page.wait_for_selector(".page.lobby")
    form = page.locator("form.create-form")
    form.locator("select[name=seat1]").wait_for()
    # the create form names the seats' bots as the table will
    options = form.locator("select[name=seat1] option").all_inner_texts()
    assert any(o.startswith("Medium bot (") for o in options), options
    create_table(page, players=4, bots=3, public=True, rules={"mode": "single"})
    page.wait_for_selector(".hand .card")
    names = panel_names(page)
    assert sorted(names) == ["Easy bot", "Easy bot 2", "Easy bot 3"], names
    assert page.locator(".me-panel .pname").inner_text() == LONG_NAME
    title = page.locator(".table-title").inner_text()
    assert "Classic" not in title and "classic table" in title, title  # said once
    # full names on the panels at 1280 px, nothing cut, no tell wrapping
    play_round(page, on_turn=lambda n: None)
    box = last_round(page)
    summary_names = box.locator("tbody th").all_inner_texts()
    assert set(summary_names) == {"You", "Easy bot", "Easy bot 2", "Easy bot 3"}
    dialog = finish(page)
    standings = " ".join(dialog.locator(".standings li").all_inner_texts())
    for name in ("Easy bot", "Easy bot 2", "Easy bot 3"):
        assert name in standings
    dialog.get_by_role("button", name="Replay").click()
    page.wait_for_selector(".replay-seats li")
    replay = page.locator(".replay-seats li .who-name").all_inner_texts()
    assert replay == [LONG_NAME, "Easy bot", "Easy bot 2", "Easy bot 3"], replay
    shot(page, "issue23-replay-names")
    assert console.errors == []


LONG_NAMES = [
    LONG_NAME,
    "Bartholomew Featherstonehaugh",
    "Anastasia Konstantinopoulou",
    "Guinevere Fitzwilliam-Ashby",
]


def test_full_names_on_panels_at_1280_and_390(new_page: Any, console: Any) -> None:
    """Four people with long names at one table: three at 1280 px, one on a 390 px phone."""
    pages = [new_page() for _ in range(3)] + [new_page(390, 844, is_mobile=True, has_touch=True)]
    for page, name in zip(pages, LONG_NAMES, strict=True):
        sign_in_as_guest(page)
        rename(page, name)
    host = pages[0]
    host.reload()
    host.wait_for_selector("form.create-form select[name=seat1]")
    table = create_table(host, players=4, bots=0)
    for page in pages[1:]:
        page.reload()
        page.locator(f".table-item[data-id='{table}']").get_by_role("button", name="Join").click()
        page.wait_for_url(f"**/#/table/{table}")
    start = host.get_by_role("button", name="Start now (bots fill empty seats)")
    if start.count():
        start.click()
    for page in pages:
        page.wait_for_selector(".hand .card")
    by_name = dict(zip(LONG_NAMES, pages, strict=True))
    # eight moves, each by whoever's turn it is (the host's table says who)
    for _ in range(8):
        host.wait_for_selector(".player.current, .me-panel.current")
        current = host.locator(".player.current .pname")
        mover = by_name[current.inner_text()] if current.count() else host
        if wait_turn(mover) != "me":
            break
        take_turn(mover)
    for page in pages:
        page.wait_for_selector(".player.current, .me-panel.current")
        cut = page.evaluate(NOT_CUT)
        assert cut == [], (page.viewport_size, cut)
        assert page.evaluate(TELLS_ON_ONE_LINE), page.viewport_size
        others = panel_names(page)
        assert len(others) == 3 and set(others) <= set(LONG_NAMES), others
    shot(host, "issue23-names-1280")
    shot(pages[3], "issue23-names-390")
    assert console.errors == []


def test_the_quick_play_title_names_the_ruleset_once(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    # Quick play seats a lone person with bots by itself (at once, or when the window
    # closes if someone else is online): no "Play now with bots" to reach for, which the
    # queue could take away mid-click
    page.locator("button[data-quick='classic'][data-length='round']").click()
    page.wait_for_url("**/#/table/*")
    page.wait_for_selector(".hand .card")
    title = page.locator(".table-title").inner_text()
    assert title.lower().count("classic") == 1, title
    assert "\u00b7 Classic" not in title, title
    assert console.errors == []


ULTIMATE_STACK = 588  # test_rulesets.py's seed: a draw-six is pending on our first turn


def test_words_fit_each_ruleset(new_page: Any, server: str, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    # ultimate: a pending draw-two says what answers it, in the engine's words
    queue_seed(server, ULTIMATE_STACK)
    create_table(page, ruleset="ultimate", players=3, bots=2)
    assert wait_turn(page) == "me"
    assert page.locator(".turn-banner").inner_text() == "Your turn: Play a 2 or draw 6"
    shot(page, "issue23-ultimate-pending")
    page.goto("/")
    page.wait_for_selector(".page.lobby")
    # countdown, one round: the goal is the round, the standings are numbers
    create_table(page, ruleset="countdown", players=2, bots=1, rules={"start": 2})
    goal = page.locator(".scoreboard p.muted")
    goal.wait_for()
    assert goal.inner_text() == "Single round: the first out wins", goal.inner_text()
    assert "number 1" not in page.locator(".table-root").inner_text()
    play_round(page)
    box = last_round(page)
    assert all(t.startswith("No. ") for t in box.locator("tbody td:nth-child(5)").all_inner_texts())
    dialog = finish(page)
    points = dialog.locator(".standings .pts").all_inner_texts()
    assert all(p.startswith("No. ") for p in points), points
    assert "number" not in dialog.locator(".standings").inner_text()
    assert dialog.locator(".game-ending").inner_text().startswith("One round, ended")
    shot(page, "issue23-countdown-end")
    page.keyboard.press("Escape")
    page.goto("/")
    page.wait_for_selector(".page.lobby")
    # cycles: the end says how the game ended, not "1 round", and no "0 hand value"
    create_table(page, ruleset="cycles", players=2, bots=1, rules={"cycle_limit": 2})
    play_round(page)
    dialog = finish(page)
    text = dialog.inner_text()
    assert "1 round" not in text and "0 hand value" not in text, text
    ending = dialog.locator(".game-ending").inner_text()
    assert ending in (
        "A player went out",
        "The cycles ran out: the lowest hand wins",
        "Nobody could lead or draw: the lowest hand wins",
    ), ending
    shot(page, "issue23-cycles-end")
    page.keyboard.press("Escape")
    # How to play: settings in words, and an example turn drawn with our cards
    for ruleset in ("classic", "ultimate", "countdown", "cycles"):
        page.goto(f"/#/howto/{ruleset}")
        article = page.locator("article.howto")
        article.locator(".settings-list").wait_for()
        words = article.inner_text()
        for raw in ("until_playable", "until playable", "single_then_pass", "until_play"):
            assert raw not in words, (ruleset, raw)
        example = article.locator("figure.example-turn")
        assert example.locator(".example-card svg").count() >= 4
        assert example.locator(".example-card.may").count() >= 1
        example.scroll_into_view_if_needed()
        shot(page, f"issue23-howto-{ruleset}")
    assert console.errors == []


def test_coming_back_is_told(new_page: Any, console: Any) -> None:
    ada, bob = new_page(), new_page()
    table = two_at_one_table(ada, bob, rules={"mode": "match", "target": 500})
    bob_name = bob.locator(".me-panel .pname").inner_text()
    bob_context = bob.context
    bob.close()
    # a stand-in plays Bob's seat; Ada plays until it has moved for him
    panel = ada.locator(".opponents .player").first
    panel.locator(".tag", has_text="bot playing").wait_for(timeout=15_000)
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the stand-in never played"
        assert wait_turn(ada) == "me", "the game ended before the stand-in played"
        before = int(ada.locator(".felt").get_attribute("data-version"))
        take_turn(ada)
        assert wait_turn(ada, timeout=15) == "me"
        if int(ada.locator(".felt").get_attribute("data-version")) > before + 1:
            break
    bob = bob_context.new_page()
    console.watch(bob)
    bob.goto(f"/#/table/{table}")
    bob.wait_for_selector(".hand .card")
    line = bob.locator(".log li.ev-standin")
    line.wait_for()
    assert line.count() == 1
    told = line.inner_text()
    assert told.startswith("A bot played ") and " for you" in told, told
    # the bot's moves are not told as Bob's own ("You play ...", "You call ...")
    after = bob.locator(".log li.ev-standin ~ li").all_inner_texts()
    assert not [t for t in after if t.startswith("You ")], after
    shot(bob, "issue23-back-self")
    # Ada reads that Bob is back
    back = ada.locator(".log li.ev-back")
    back.wait_for()
    assert back.inner_text() == f"{bob_name} is back."
    shot(ada, "issue23-back-others")
    assert console.errors == []


def test_the_analysis_speaks_a_players_words(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    create_table(page, players=2, bots=1, rules={"mode": "match", "target": 50})
    deadline = time.monotonic() + 300
    later_rounds = 0  # rounds after the first (a first round can score past 50 alone)
    while True:  # a match of a few rounds, pressing "Next round" at each summary
        assert time.monotonic() < deadline, "the match took too long"
        page.wait_for_function(
            "() => { const f = document.querySelector('.felt'); return f && "
            "(['me', 'over'].includes(f.dataset.turn) "
            "|| !!document.querySelector('.round-summary')); }"
        )
        if page.locator(".round-summary.final").count() or (
            page.locator(".felt").get_attribute("data-turn") == "over"
        ):
            break
        if page.locator(".round-summary").count():
            page.locator(".round-summary").get_by_role("button", name="Next round").click()
            page.locator(".round-summary").wait_for(state="detached")
            later_rounds += 1
            continue
        take_turn(page)
    finish(page).get_by_role("button", name="Replay").click()
    page.wait_for_url("**/#/replay/*")
    page.wait_for_selector(".analysis button.analyse, .analysis-status, svg.win-graph")
    ask = page.get_by_role("button", name="Analyse my moves")
    if ask.count():
        ask.click()
    graph = page.locator("svg.win-graph")
    graph.wait_for(state="visible", timeout=120_000)
    # the graph marks where each round after the first starts
    starts = graph.locator("line.round-start")
    assert starts.count() == later_rounds
    labels = graph.locator("text.round-label").all_text_contents()
    assert labels == [f"Round {n}" for n in range(2, later_rounds + 2)], labels
    legend = page.locator(".analysis .legend").inner_text()
    assert "% win chance or more" in legend and "points" not in legend, legend
    for mark in page.locator(".analysis-mark").all_inner_texts():
        assert "win chance" in mark and "Move " not in mark, mark
        assert " move" in mark and "Your " in mark, mark
    graph.scroll_into_view_if_needed()
    shot(page, "issue23-analysis-rounds")
    page.locator(".analysis .legend").scroll_into_view_if_needed()
    shot(page, "issue23-analysis-marks")
    assert console.errors == []


OVERLAP = """(sels) => {
  const box = document.querySelector('.coach').getBoundingClientRect();
  const hit = [];
  for (const sel of sels) for (const e of document.querySelectorAll(sel)) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
    const x = Math.min(box.right, r.right) - Math.max(box.left, r.left);
    const y = Math.min(box.bottom, r.bottom) - Math.max(box.top, r.top);
    if (x > 1 && y > 1) hit.push(sel);
  }
  return hit;
}"""
CLEAR = [
    ".sort",
    ".side .chat",
    ".chat-form",
    ".pile.stock",
    ".discard",
    ".hand .card",
    ".actions .btn",
]


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_the_tutorial_coach_covers_nothing_and_speaks_to_the_result(
    new_page: Any, console: Any, width: int, height: int
) -> None:
    phone = width < 700
    page = new_page(width, height, is_mobile=phone, has_touch=phone)
    sign_in_as_guest(page)
    with page.expect_response(lambda r: r.url.endswith("/api/tables")) as made:
        page.get_by_role("link", name="Start the tutorial").click()
    rules = made.value.json()["rules"]
    assert rules["stock_empty"] == "reshuffle"  # no blockade of passes in a first game
    coach = page.locator(".coach")
    coach.wait_for()
    page.wait_for_selector(".hand .card")
    checked = 0
    deadline = time.monotonic() + ROUND_SECONDS
    while wait_turn(page) == "me":
        assert time.monotonic() < deadline
        if coach.is_visible():
            if not checked:
                shot(page, f"issue23-tutorial-coach-{width}")
            assert page.evaluate(OVERLAP, CLEAR) == [], page.evaluate(OVERLAP, CLEAR)
            checked += 1
            coach.get_by_role("button").click()
        take_turn(page)
    assert checked >= 1
    box = last_round(page)
    assert "Blockade" not in box.locator(".how").inner_text()
    won = finish(page).locator(".big").inner_text() == "You win!"
    coach.wait_for()
    text = coach.inner_text()
    if won:
        assert coach.get_attribute("data-tip") == "won" and "You won!" in text
    else:  # a loss is spoken to as a loss
        assert coach.get_attribute("data-tip") == "lost" and "won this time" in text
        assert "Well played" not in text
    shot(page, f"issue23-tutorial-end-{width}")
    assert console.errors == []


def test_the_phone_table_fills_the_screen_and_log_and_chat_is_a_bottom_sheet(
    new_page: Any, console: Any
) -> None:
    page = new_page(390, 844, is_mobile=True, has_touch=True)
    sign_in_as_guest(page)
    create_table(page, players=4, bots=3)
    page.wait_for_selector(".hand .card")
    wait_turn(page)
    shot(page, "issue23-phone-table")
    felt = page.locator(".felt").bounding_box()
    assert felt is not None and felt["y"] + felt["height"] >= 844 - 12, felt  # no empty quarter
    card = page.locator(".hand .card").first.bounding_box()
    assert card is not None and card["width"] >= 70, card  # bigger cards than 62 px
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.get_by_role("button", name="Log & chat").click()
    sheet = page.locator(".side")
    page.wait_for_function(
        "() => { const r = document.querySelector('.side').getBoundingClientRect();"
        " return r.bottom <= innerHeight + 1 && getComputedStyle(document.querySelector('.side'))"
        ".transform === 'none'; }"
    )
    box = sheet.bounding_box()
    top = page.locator(".topline").bounding_box()
    assert box is not None and top is not None
    assert top["y"] + top["height"] <= box["y"], "the table's top is covered"
    assert box["y"] >= 844 * 0.35, box  # a sheet, not a page over the table
    chat = page.locator(".chat-form input").bounding_box()
    assert chat is not None and chat["y"] + chat["height"] <= 844, chat
    assert sheet.evaluate("e => e.scrollTop") == 0
    assert page.locator(".log li").last.is_visible()
    shot(page, "issue23-phone-sheet")
    assert console.errors == []
