"""What a player does in the browser, shared by the browser tests."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

ROUND_SECONDS = 180
"""A guard against a round that never ends, not a speed target: a round played through
the browser takes 20 to 60 s, and up to three times that on a machine busy with other
tests."""

MOVED = (
    "v => { const f = document.querySelector('.felt'); return f.dataset.version !== v "
    "|| f.dataset.turn === 'over' || !!document.querySelector('.suit-picker'); }"
)


def sign_in_as_guest(page: Any) -> None:
    page.goto("/")
    page.get_by_role("button", name="Play as guest").click()
    page.wait_for_selector(".page.lobby")


def queue_seed(server: str, seed: int) -> None:
    """The next table created on the test server deals from ``seed``."""
    req = urllib.request.Request(f"{server}/e2e/seed/{seed}", method="POST")
    with urllib.request.urlopen(req, timeout=5) as res:
        assert res.status == 200


def create_table(
    page: Any,
    *,
    ruleset: str = "classic",
    players: int = 4,
    bots: int = 3,
    public: bool = True,
    rules: dict[str, Any] | None = None,
    hints: bool = False,
) -> str:
    """Fill the create-table form: one round, bots at random level, any other setting."""
    form = page.locator("form.create-form")
    form.locator("select[name=ruleset]").select_option(ruleset)
    form.locator("input[name=players]").fill(str(players))
    settings = {"mode": "single"} if ruleset != "cycles" else {}
    settings.update(rules or {})
    mode, target = settings.pop("mode", None), settings.pop("target", None)
    if mode is not None:  # mode and target are one "Game length" choice in words
        choice = "single" if mode == "single" else "match" if target is None else f"match:{target}"
        if target is not None and target not in (100, 200, 300, 500):
            choice = "match:other"
            settings["target"] = target
        form.locator("select[name=length]").select_option(choice)
    for name, value in settings.items():
        field = form.locator(f"[name={name}]")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(json.dumps(value))
        else:
            field.fill(str(value))
    for seat in range(1, players):
        form.locator(f"select[name=seat{seat}]").select_option("random" if seat <= bots else "")
    if not public:
        form.locator("input[name=public]").uncheck()
    if hints:
        form.locator("input[name=hints]").check()
    form.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/#/table/*")
    return page.url.split("#/table/")[1].split("?")[0]


def wait_turn(page: Any, timeout: float = 20) -> str:
    """Wait until it is this player's turn or the game is over; return which."""
    page.wait_for_function(
        "() => { const f = document.querySelector('.felt'); return f && "
        "(f.dataset.turn === 'me' || f.dataset.turn === 'over'); }",
        timeout=timeout * 1000,
    )
    return page.locator(".felt").get_attribute("data-turn")


def pick_suit(page: Any, version: str) -> None:
    picker = page.locator(".suit-picker")
    if picker.count():
        picker.locator("button.suit-btn").first.click()
        page.wait_for_function(MOVED, arg=version)


# what a player on turn can do once the table has drawn their turn: a card, the stock or
# Pass; the hand is drawn anew at moments (a last-card call's answer), and read between
# two drawings it shows none of them
CAN_MOVE = ".hand .card.legal, .stock.can-draw, button:has-text('Pass'):not([hidden])"


def take_turn(page: Any, *, drag: bool = False) -> None:
    """Make one move the way a player would: a glowing card, else the stock, else pass."""
    version = page.locator(".felt").get_attribute("data-version")
    last = page.locator("button.last-card.suggest")
    if last.count() and last.is_visible():
        last.click()
    page.wait_for_selector(CAN_MOVE, state="attached")
    legal = page.locator(".hand .card.legal")
    if legal.count():
        card = legal.first
        if drag:
            drag_to(page, card, page.locator(".discard"))
        else:
            tap(card)
    elif page.locator(".stock.can-draw").count():
        if drag:
            drag_to(page, page.locator(".stock"), page.locator(".hand"))
        else:
            page.locator(".stock").click()
    else:
        page.get_by_role("button", name="Pass").click()
    page.wait_for_function(MOVED, arg=version)
    pick_suit(page, version)


VISIBLE_POINT = """e => {
  const r = e.getBoundingClientRect();
  for (const fy of [0.5, 0.3, 0.7, 0.15, 0.85]) {
    for (let i = 0; i < 24; i++) {
      const fx = i % 2 ? 0.5 - (i + 1) / 48 : 0.5 + i / 48;  // from the middle outwards
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === e || e.contains(hit))) return {x: x - r.left, y: y - r.top};
    }
  }
  return null;
}"""


def tap(element: Any) -> None:
    """Click an element where it shows, as a player taps a card of a fanned hand: its
    middle when nothing lies over it, else the part of it the next card leaves in view."""
    point = element.evaluate(VISIBLE_POINT)
    if point is None:
        element.click()
    else:
        element.click(position=point)


def until_playable(page: Any, turns: int = 30) -> None:
    """Draw (or pass) on each of our turns until a card in hand glows."""
    for _ in range(turns):
        assert wait_turn(page) == "me", "the round ended before a card could be played"
        if page.locator(".hand .card.legal").count():
            return
        version = page.locator(".felt").get_attribute("data-version")
        page.locator(".stock.can-draw, button:has-text('Pass')").first.click()
        page.wait_for_function(MOVED, arg=version)
    raise AssertionError(f"no playable card in {turns} turns")


def drag_to(page: Any, source: Any, target: Any) -> None:
    """Drag ``source`` onto ``target`` with the mouse, as a player does. The table may
    draw the hand again between finding a card and measuring it (the answer to a
    last-card call comes then): measure again until both are in view."""
    deadline = time.monotonic() + 10
    while True:
        source.wait_for(state="visible")
        target.wait_for(state="visible")
        a, b = source.bounding_box(), target.bounding_box()
        if a and b:
            break
        assert time.monotonic() < deadline, "nothing to drag, or nowhere to drop"
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 3)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 10, a["y"] + a["height"] / 3 - 10, steps=3)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def play_round(page: Any, *, drag: bool = False, on_turn: Any = None) -> int:
    deadline = time.monotonic() + ROUND_SECONDS
    turns = 0
    while wait_turn(page) == "me":
        assert time.monotonic() < deadline, "the round took too long"
        if on_turn:
            on_turn(turns)
        take_turn(page, drag=drag)
        turns += 1
    return turns


def last_round(page: Any) -> Any:
    """Wait for the game's last round summary (shown before the end dialog); it."""
    box = page.locator(".round-summary.final")
    box.wait_for(state="visible")
    return box


def finish(page: Any) -> Any:
    """Past the last round's summary (when the game has rounds) to the end dialog."""
    page.wait_for_selector(".round-summary.final, .modal.victory")
    if page.locator(".round-summary.final").count():
        page.get_by_role("button", name="See the result").click()
    dialog = page.locator(".modal.victory")
    dialog.wait_for(state="visible")
    assert dialog.locator(".standings li").count() >= 2
    return dialog


def two_at_one_table(ada: Any, bob: Any, rules: dict[str, Any] | None = None) -> str:
    """Two guests at one two-seat table of people: ``ada`` makes it, ``bob`` joins it from
    the lobby, and both see their hands; the table's id."""
    sign_in_as_guest(ada)
    table = create_table(ada, players=2, bots=0, rules=rules)
    sign_in_as_guest(bob)
    bob.locator(f".table-item[data-id='{table}']").get_by_role("button", name="Join").click()
    bob.wait_for_url(f"**/#/table/{table}")
    start = ada.get_by_role("button", name="Start now (bots fill empty seats)")
    if start.count():
        start.click()
    for page in (ada, bob):
        page.wait_for_selector(".hand .card")
    return table


def play_without_calling(page: Any) -> None:
    """A glowing card (never pressing Last card), else the stock, else pass."""
    version = page.locator(".felt").get_attribute("data-version")
    page.wait_for_selector(CAN_MOVE, state="attached")
    if page.locator(".hand .card.legal").count():
        tap(page.locator(".hand .card.legal").first)
    elif page.locator(".stock.can-draw").count():
        page.locator(".stock").click()
    else:
        page.get_by_role("button", name="Pass").click()
    page.wait_for_function(MOVED, arg=version)
    pick_suit(page, version)
