"""Issue 15 item 1 (and issue 19 item 5): one source of rule truth.

No rule is derived outside ``crazy_eights.engine``: the browser client gets every legal
move as structured data (``kind``, ``card``, ``suit``, ``call``, ``wild``, ``text``) and
reads no move text, counts no hand to decide a rule and writes no win condition (the
view's ``call_matters`` and ``goal`` say them), and the Python outside the engine (bots,
server, interop, sim, cli) asks the engine (``game.is_wild``, ``game.follows``, the
views' wild masks) instead of re-deriving which card is wild, what follows, or what
countdown changes. These scans fail with the file and line of each offence, so a
regression names itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "crazy_eights"
WEB_JS = PACKAGE / "web" / "js"

# Each pattern is something only code that reads or writes move text (or knows a
# rank's rule) needs; none matches reading the structured fields.
MOVE = r"\b(?:m|mv|move|moves|legal|hint|cards\[\d\])"
RULESET = r"""ruleset\W[^\n]*["'](?:countdown|cycles|classic|ultimate|openspiel)["']"""
RULE = r"\b(?:wild|follow\w*)\b"

JS_PATTERNS: dict[str, str] = {
    # "!" marks the last-card call in move text (7H!); the data has ``call``
    r"""["'`]!["'`]""": "the last-card mark of move text",
    # a regex class with ':' and '!' splits move text into card, suit and call
    r"/\[[^\]\n]*:[^\]\n]*!|/\[[^\]\n]*![^\]\n]*:": "a split of move text",
    # string methods on a value named as a move: the data has fields for all of it
    MOVE + r"\.(?:split|startsWith|endsWith|includes|match|replace|indexOf|slice)\(": (
        "a string method on a move"
    ),
    # ``card + ":" + suit`` or `${card}:${suit}`: move text built instead of sent back
    r"""\$\{[^}]*card[^}]*\}:|\bcard\w*\s*\+\s*["']:["']""": "move text built by hand",
    # the move words compared as text, not as ``kind``
    r"""(?<!kind )[!=]==\s*["'](?:draw|pass|timeout)["']""": "a move word compared as text",
    r"""\.includes\(\s*["'](?:draw|pass|timeout)["']\s*\)""": "a move word looked up as text",
    # the text list of legal moves (kept for scripted clients; the browser reads ``moves``)
    r"\b(?:state|st|msg)\.legal\b": "the legal moves as text",
    # the wild rank, or a card's rank compared (drawing a card's face reads its rank; a
    # rule compares it)
    r"""[!=]==\s*["']8["']|["']8["']\s*[!=]==|startsWith\(\s*["']8""": "the wild card's rank",
    r"\bcard\w*(?:\[0\]|\.charAt\(0\)|\.slice\(0,\s*1\))\s*[!=]==": "a card's rank compared",
    r"\bcard\w*\.startsWith\(": "a card's rank compared",
    # a hand's size deciding a rule (whether a last-card call counts: the view's
    # ``call_matters``); drawing a hand reads its cards, a rule counts them
    # (a plural's ``=== 1 ? "" : "s"`` is words, not a rule)
    r"""\bhand\b[^\n;]*\.length\)*\s*(?:[!=]==?|[<>]=?)\s*\d(?!\s*\?\s*(["'`])\1\s*:)""": (
        "a hand's size deciding a rule"
    ),
    # the win condition written in the client from the match target (``goal`` says it)
    r"\$\{[^}]*\btarget\b[^}]*\}[^\n]*\bwins?\b": "the win condition",
}

PY_PATTERNS: dict[str, str] = {
    # the eight by rank: RANKS index 7, "8" in card text, or a named constant
    r"\brank\w*\s*[!=]=\s*[78]\b|&\s*15\)?\s*[!=]=\s*7\b|\bRANK_?8\b": "the eight by its rank",
    r"""[!=]=\s*["']8["']|\[0\]\s*[!=]=\s*["']8|startswith\(\s*["']8""": "the eight by its text",
    # a ruleset name deciding what is wild or what follows
    RULESET + r"[^\n]*" + RULE: "a ruleset name deciding a rule",
    RULE + r"[^\n]*" + RULESET: "a ruleset name deciding a rule",
    # move text read by hand instead of with Move.parse
    r"""(?:endswith|rstrip|strip)\(\s*["']!["']\s*\)""": "move text read by hand (Move.parse)",
}


def offences(paths: list[Path], patterns: dict[str, str]) -> list[str]:
    """Every ``file:line: why: code`` where one of ``patterns`` matches."""
    compiled = [(re.compile(p), why) for p, why in patterns.items()]
    found = []
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0] if path.suffix == ".py" else line.split("//", 1)[0]
            if path.suffix == ".js" and code.lstrip().startswith(("*", "/*")):
                continue  # a doc comment
            for rx, why in compiled:
                if rx.search(code):
                    found.append(f"{path.relative_to(PACKAGE)}:{n}: {why}: {line.strip()}")
    return found


def js_files() -> list[Path]:
    """Every module of the client, the table's folder (``js/table/``) included."""
    return sorted(WEB_JS.rglob("*.js"))


def python_outside_engine() -> list[Path]:
    engine = PACKAGE / "engine"
    return sorted(p for p in PACKAGE.rglob("*.py") if engine not in p.parents)


def test_the_client_reads_no_move_text_and_knows_no_rank() -> None:
    files = js_files()
    assert len(files) > 10 and any(p.parent.name == "view" for p in files)
    assert any(p.name == "ctrl.js" for p in files)
    bad = offences(files, JS_PATTERNS)
    assert not bad, "the browser client must use the structured moves:\n" + "\n".join(bad)


def test_the_table_branches_on_no_ruleset_name() -> None:
    """Issue 19 item 5: the table's modules ask ``rulesets.js`` how a ruleset is drawn
    (a table keyed by name) instead of comparing the name where they draw."""
    files = sorted((WEB_JS / "table").rglob("*.js"))
    assert any(p.name == "rulesets.js" for p in files)
    names = r"""["'](?:classic|ultimate|countdown|cycles|openspiel)["']"""
    bad = offences(files, {r"ruleset\s*[!=]==|[!=]==\s*" + names: "a ruleset compared"})
    assert not bad, "draw per ruleset through table/rulesets.js:\n" + "\n".join(bad)


def test_no_python_outside_the_engine_derives_a_rule() -> None:
    files = python_outside_engine()
    assert any(p.parts[-2] == "bots" for p in files) and any(p.name == "cli.py" for p in files)
    bad = offences(files, PY_PATTERNS)
    assert not bad, "ask the engine (is_wild, follows, views) instead:\n" + "\n".join(bad)


# The scans must catch what they are for: each line below is code that once lived (or
# could live) outside the engine, and each must be named.
JS_OFFENCES = [
    'const calls = moves.filter((m) => m.endsWith("!"));',
    'const suits = pool.map((m) => m.split(":")[1][0]);',
    "const moveCard = (move) => move.split(/[:!]/)[0];",
    "const move = `${card}:${suit}`;",
    'if (cards.some((m) => m.startsWith("8"))) show();',
    'const wild = card && card[0] === "8" && ruleset !== "countdown";',
    'el.pass.hidden = !legal.includes("pass");',
    'el.stock.classList.toggle("hinted", hint === "draw");',
    "const legal = st.legal || [];",
    "return (v.hand || []).length === 2 && this.legal.some((m) => m.call);",
    "if ((this.view && (this.view.hand || []).length) === 2) announce(text);",
    "const matters = hand.length <= 2;",
    "note = `Round ${v.round} \\u00b7 first to ${v.target} wins`;",
    "else note = `penalty points; at ${v.target} the lowest wins`;",
]
JS_FINE = [
    "const calls = moves.filter((m) => m.call);",
    "const suits = [...new Set(moves.map((m) => m.suit).filter(Boolean))];",
    'el.pass.hidden = !legal.some((m) => m.kind === "pass");',
    "if (move) this.sendMove(move.text);",
    'if (cards.some((m) => m.wild)) show("eight");',
    'const target = Number(choice.split(":")[1]);',
    "return !!v && v.call_matters === true && this.legal.some((m) => m.call);",
    "const hand = [...el.hand.children];",
    "if (!cards.length) return;",
    'h("p", { class: "muted", text: goalLine(v) });',
    'const label = `${hand.length} card${hand.length === 1 ? "" : "s"}`;',
    '["Goal", "Be the first to get rid of every card in your hand."],',
]
PY_OFFENCES = [
    "if card & 15 == 7:",
    "wild = rank == 8",
    'if text[0] == "8":',
    'if rules.ruleset == "countdown": wild = number_rank',
    'call = text.endswith("!")',
]
PY_FINE = [
    "is_wild = bool(my_wild >> card & 1) and move.suit is not None",
    'if view["ruleset"] == "countdown":',
    'level, _, rest = spec.strip().partition(":")',
]


@pytest.mark.parametrize(
    ("patterns", "line", "caught"),
    [(JS_PATTERNS, x, True) for x in JS_OFFENCES]
    + [(JS_PATTERNS, x, False) for x in JS_FINE]
    + [(PY_PATTERNS, x, True) for x in PY_OFFENCES]
    + [(PY_PATTERNS, x, False) for x in PY_FINE],
)
def test_the_scans_name_what_they_are_for(
    patterns: dict[str, str], line: str, caught: bool
) -> None:
    found = [p for p in patterns if re.search(p, line)]
    assert bool(found) is caught, (line, found)
