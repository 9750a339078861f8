"""Issue 12, items 9 and 10, and the settings fixes of item 11: court cards with figures
on every card face, the felt slide and the card flip, settings that survive a quick
reload, and a felt that does not flash the default colour before the account's."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageChops

from .conftest import ARTIFACTS, CHROMIUM, shot
from .helpers import create_table, sign_in_as_guest, take_turn, wait_turn

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")

# the browser's settings are what the account keeps on the server (settings.js marks it)
KEPT = "() => document.documentElement.dataset.settings === 'kept'"
COURTS = [f"{r}{s}" for r in "KQJ" for s in "SHDC"]
FACES = ["standard", "victorian", "minimal"]

GALLERY = """async ([faces, cards]) => {
  const { cardSVG } = await import('/js/cards.js');
  const box = document.createElement('div');
  box.id = 'gallery';
  box.style.cssText =
    'position:fixed;inset:0;z-index:999;background:#0f6b3f;padding:8px;overflow:auto';
  for (const face of faces) {
    const row = document.createElement('div');
    row.style.cssText = 'display:flex;gap:6px;margin-bottom:8px';
    for (const c of cards) {
      const d = document.createElement('div');
      d.className = `g-card g-${face}`;
      d.dataset.card = c;
      d.style.width = '96px';
      d.innerHTML = cardSVG(c, { face });
      d.firstChild.style.cssText = 'width:100%;height:auto;display:block';
      row.append(d);
    }
    box.append(row);
  }
  document.body.append(box);
}"""


def card_image(page: Any, face: str, card: str) -> Image.Image:
    path = ARTIFACTS / f"court-{face}-{card}.png"
    page.locator(f".g-{face}[data-card='{card}']").screenshot(path=str(path))
    return Image.open(path).convert("RGB")


def colours(image: Image.Image) -> int:
    return len(image.quantize(64).getcolors() or [])


def test_court_cards_have_figures_on_every_face(new_page: Any, console: Any) -> None:
    page = new_page(1400, 560)
    page.goto("/#/howto/classic")
    page.wait_for_selector("h1")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.evaluate(GALLERY, [FACES, COURTS])
    shot(page, "court-cards")
    for face in FACES:
        images = {c: card_image(page, face, c) for c in COURTS}
        for card, image in images.items():
            # a figure, not a letter: many shapes and, on the portrait faces, many colours
            shapes = page.locator(f".g-{face}[data-card='{card}'] svg path").count()
            assert shapes >= (6 if face == "minimal" else 40), (face, card, shapes)
            if face != "minimal":
                assert colours(image) >= 12, (face, card)
        # no two court cards of a face look alike (rank and suit each change the figure)
        for i, a in enumerate(COURTS):
            for b in COURTS[i + 1 :]:
                diff = ImageChops.difference(images[a], images[b]).convert("L")
                changed = sum(diff.histogram()[41:])
                assert changed > 300, (face, a, b, changed)
    assert console.errors == []


SOUND_STATS = """async () => {
  const m = await import('/js/sound.js');
  const out = {};
  for (const name of ['slide', 'flip', 'snap']) {
    const x = await m.renderVoice(name);
    let first = -1, last = 0, zc = 0, energy = 0;
    const peaks = [];
    for (let i = 0; i < x.length; i++) {
      const a = Math.abs(x[i]);
      energy += x[i] * x[i];
      if (a > 0.02) { if (first < 0) first = i; last = i; }
      if (i && (x[i] >= 0) !== (x[i - 1] >= 0)) zc++;
    }
    // separate bursts: 5 ms windows louder than a quarter of the loudest, a burst ending
    // only below a tenth (a noise rush dips between the two; silence goes well below)
    const win = 220, level = [];
    for (let i = 0; i < x.length; i += win) {
      let p = 0;
      for (let j = i; j < i + win && j < x.length; j++) p = Math.max(p, Math.abs(x[j]));
      level.push(p);
    }
    const top = Math.max(...level);
    let bursts = 0, on = false;
    for (const p of level) {
      if (!on && p > top / 4) { bursts++; on = true; } else if (on && p < top / 10) on = false;
    }
    out[name] = { seconds: (last - first) / 44100, zcr: zc / ((last - first + 1) / 44100),
                  rms: Math.sqrt(energy / x.length), bursts };
  }
  return out;
}"""


def test_felt_slide_and_crisp_flip(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    stats = page.evaluate(SOUND_STATS)
    slide, flip = stats["slide"], stats["flip"]
    # the slide is a soft, darker rush that lasts; the flip is short, bright, two clicks
    assert slide["seconds"] > 0.15 and flip["seconds"] < 0.1, stats
    assert slide["zcr"] < flip["zcr"], stats
    assert flip["bursts"] >= 2 and slide["bursts"] == 1, stats
    # at the table: cards moving slide, cards turning flip
    page.evaluate(
        "() => { window.__sounds = [];"
        "document.addEventListener('ce-sound', e => window.__sounds.push(e.detail.name)); }"
    )
    create_table(page, players=2, bots=1)
    assert wait_turn(page) == "me"
    take_turn(page)
    # the deal shuffles, our card slides to the pile, a card turns over: each is heard
    page.wait_for_function(
        "() => ['slide', 'flip', 'shuffle'].every((n) => window.__sounds.includes(n))"
    )
    # the settings page lets a player try both
    page.goto("/#/settings")
    for name in ("slide", "flip"):  # the page is drawn once the account's decks are known
        page.get_by_role("button", name=f"Test {name}").wait_for(state="visible")
    assert console.errors == []


def test_a_setting_changed_just_before_a_reload_is_kept(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    page.goto("/#/settings")
    page.wait_for_selector(".page.settings")
    # wait until the account keeps its settings on the server, then change and leave at once
    page.wait_for_function(KEPT)
    assert "theme" in page.request.get("/api/me/settings").json()
    page.get_by_label("Midnight Navy").check()
    page.reload()
    page.wait_for_selector(".page.settings")
    page.wait_for_function(
        """async () => (await (await fetch('/api/me/settings')).json()).theme === 'navy'""",
        polling=200,
        timeout=5000,
    )
    page.wait_for_function(KEPT)  # the server's copy has been read: it must not win
    assert page.evaluate("document.documentElement.dataset.theme") == "navy"
    assert page.get_by_label("Midnight Navy").is_checked()
    # an older copy on the server never overwrites this browser's newer one
    page.evaluate(
        """async () => { const s = await (await fetch('/api/me/settings')).json();
             await fetch('/api/me/settings', {method: 'PUT', headers: {'content-type':
             'application/json'}, body: JSON.stringify({...s, theme: 'crimson',
             savedAt: s.savedAt - 60000})}); }"""
    )
    page.reload()
    page.wait_for_selector(".page.settings")
    page.wait_for_function(KEPT)  # the server's copy read, and this newer one sent back
    assert page.evaluate("document.documentElement.dataset.theme") == "navy"
    server = page.evaluate("async () => (await (await fetch('/api/me/settings')).json()).theme")
    assert server == "navy", "the browser's newer copy should have been sent back"
    assert console.errors == []


def test_the_accounts_felt_shows_from_the_first_paint(new_page: Any, console: Any) -> None:
    page = new_page()
    sign_in_as_guest(page)
    page.goto("/#/settings")
    page.get_by_label("Royal Crimson").check()
    page.wait_for_function(KEPT)  # the account keeps the crimson felt
    page.add_init_script(
        """window.__themes = [];
           const note = () => window.__themes.push(document.documentElement.dataset.theme);
           document.addEventListener('DOMContentLoaded', note);
           new MutationObserver(note).observe(document,
             {attributes: true, subtree: true, attributeFilter: ['data-theme']});"""
    )
    page.goto("/#/")
    page.reload()
    page.wait_for_selector(".page.lobby")
    page.wait_for_function(KEPT)  # the account's copy has been read: no late change
    seen = page.evaluate("window.__themes")
    assert seen and set(seen) == {"crimson"}, seen
    body = page.evaluate("getComputedStyle(document.body).backgroundImage")
    assert "125, 20, 36" in body or "158, 35, 54" in body, body
    shot(page, "lobby-crimson")
    assert console.errors == []
