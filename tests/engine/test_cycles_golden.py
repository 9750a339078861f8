"""Golden recorded games of cycles at 2, 5 and 11 players (RULES G4).

Each file under ``golden/`` holds the rules, the seed, the moves and a digest of every
event (as each seat and a spectator see it) and of the final views. Replaying must give
the same digest: any change of behaviour fails here. After a deliberate rule change,
regenerate with ``PYTHONPATH=src python -m tests.engine.test_cycles_golden`` and review
the diff of the JSON files.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from crazy_eights.engine import TIMEOUT, Rules, new_game, replay
from crazy_eights.engine.rng import Rng

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "cycles_2p.json": (Rules.preset("cycles", players=2), 288),
    "cycles_5p.json": (Rules.preset("cycles", players=5, cycle_limit=40), 68),
    "cycles_11p.json": (Rules.preset("cycles", players=11, last_card="auto"), 136),
}


def record(rules: Rules, seed: int) -> list[str]:
    """Moves of a game played by a seeded random policy: mostly legal moves (false
    calls and missed calls included), sometimes the table's timeout."""
    game = new_game(rules, seed)
    policy = Rng(seed ^ 0x5EED)
    moves: list[str] = []
    while not game.is_over:
        legal = game.legal_moves()
        move = TIMEOUT if policy.below(100) < 6 else legal[policy.below(len(legal))]
        game.play(move)
        moves.append(move.text)
    return moves


def digest(rules: Rules, seed: int, moves: list[str]) -> dict[str, Any]:
    game = new_game(rules, seed)
    seats: list[int | None] = [None, *range(rules.players)]
    h = hashlib.sha256()
    for move in moves:
        events = game.play(move)
        for seat in seats:
            h.update(json.dumps([e.for_seat(seat) for e in events], sort_keys=True).encode())
    for seat in seats:
        h.update(json.dumps(game.view(seat, log=True), sort_keys=True).encode())
    result = game.result
    assert result is not None
    events = len(game.view(None, log=True)["log"])
    return {"digest": h.hexdigest(), "result": result.to_dict(), "events": events}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_game_replays_identically(name: str) -> None:
    stored = json.loads((GOLDEN / name).read_text())
    rules, seed = CASES[name]
    assert Rules.from_dict(stored["rules"]) == rules and stored["seed"] == seed
    game = replay(rules, seed, stored["moves"])
    assert game.is_over
    assert digest(rules, seed, stored["moves"]) == stored["expected"]


def test_golden_games_are_still_what_the_policy_plays() -> None:
    for name, (rules, seed) in CASES.items():
        stored = json.loads((GOLDEN / name).read_text())
        assert record(rules, seed) == stored["moves"], name


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (rules, seed) in CASES.items():
        moves = record(rules, seed)
        data = {
            "rules": rules.to_dict(),
            "seed": seed,
            "moves": moves,
            "expected": digest(rules, seed, moves),
        }
        (GOLDEN / name).write_text(json.dumps(data, indent=1) + "\n")
        print(f"{name}: {len(moves)} moves, {data['expected']['result']}")


if __name__ == "__main__":
    regenerate()
