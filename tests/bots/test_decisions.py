"""The bots' decisions on seeded positions stay exactly what they were recorded as.

A refactoring of the bots (knowledge, scoring, search) must not change their play: for
positions of every ruleset reached from fixed seeds, ``golden/decisions.json`` holds
each seat's knowledge (a digest of its fields), the heuristic's score of every move
(exact floats), the heuristic bot's move, the search bot's move on a fixed number of
iterations in three configurations (sequential halving, UCB at the root, opponents
played by the rollout policy), and a game analysis's move values (to 12 digits). If a
change of play is intended, regenerate the file with
``DECISIONS_UPDATE=1 python -m pytest tests/bots/test_decisions.py`` and say so.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from crazy_eights.bots import make_bot
from crazy_eights.bots.cycles import call_moves, score_cycles
from crazy_eights.bots.heuristic import prefer_calls, score_moves
from crazy_eights.bots.ismcts import IsmctsBot
from crazy_eights.bots.knowledge import cycles_knowledge_from_view, knowledge_from_view
from crazy_eights.engine import Rules

from .conftest import TABLES, random_positions, table_rules

GOLDEN = Path(__file__).parent / "golden" / "decisions.json"
CASES = [*TABLES, ("openspiel", 2, {}), ("openspiel", 4, {})]
SEARCHES: dict[str, dict[str, Any]] = {
    "halving": {"iterations": 48},
    "ucb": {"iterations": 48, "root": "ucb"},
    "policy": {"iterations": 48, "root": "ucb", "opponents": "policy", "worlds": 0},
}


def case_id(name: str, players: int, settings: dict[str, Any]) -> str:
    extra = ",".join(f"{k}={v}" for k, v in sorted(settings.items()))
    return f"{name}-{players}p" + (f"-{extra}" if extra else "")


def digest(value: Any) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def decisions(rules: Rules, seed: int) -> list[dict[str, Any]]:
    """What the bots make of eight positions of ``rules`` reached from ``seed``."""
    out: list[dict[str, Any]] = []
    cycles = rules.ruleset == "cycles"
    for k, (game, seat, legal) in enumerate(random_positions(rules, 8, seed=seed, every=2)):
        view = game.view(seat, log=True)
        record: dict[str, Any] = {"moves": game.moves[-3:]}
        if cycles:
            know = cycles_knowledge_from_view(view)
            moves = call_moves(legal, len(view["hand"]))
            record["knowledge"] = digest(know)
            record["scores"] = [repr(s) for s in score_cycles(know, moves)]
        else:
            record["knowledge"] = digest(knowledge_from_view(view))
            record["kept_wilds"] = digest(knowledge_from_view(view, kept_wilds=True))
            moves = prefer_calls(legal)
            scores = score_moves(knowledge_from_view(view), moves, phase=str(view["phase"]))
            record["scores"] = [repr(s) for s in scores]
        record["heuristic"] = make_bot("heuristic", seed=k).choose(view, legal).text
        for label, options in SEARCHES.items():
            record[label] = make_bot("ismcts", seed=k, **options).choose(view, legal).text
        if k % 4 == 0 and len(moves) > 1:
            values = IsmctsBot(seed=k).move_values(view, moves, worlds=6)
            record["values"] = {m.text: f"{v:.12g}" for m, v in values.items()}
        out.append(record)
    return out


def all_decisions() -> dict[str, list[dict[str, Any]]]:
    return {
        case_id(*case): decisions(table_rules(*case), seed=index + 1)
        for index, case in enumerate(CASES)
    }


def test_decisions_match_the_recorded_ones() -> None:
    found = all_decisions()
    if os.environ.get("DECISIONS_UPDATE"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        pytest.skip("golden/decisions.json rewritten")
    recorded = json.loads(GOLDEN.read_text())
    assert sorted(found) == sorted(recorded)
    for case, positions in recorded.items():
        for index, (want, got) in enumerate(zip(positions, found[case], strict=True)):
            assert got == want, f"{case}, position {index}: the bots decide differently"
