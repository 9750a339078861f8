"""Golden recorded games (G4): a ruleset + seed + moves must keep giving the same game.

Each file under ``golden/`` holds the rules, the seed, the moves and digests of every
seat's events and final view. If a rule change is intended, regenerate them with
``GOLDEN_UPDATE=1 python -m pytest tests/engine/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from crazy_eights import Rules, new_game, replay
from crazy_eights.engine.game import Game

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "classic_4p": (Rules.preset("classic", players=4, target=100), 17),
    "classic_2p_actions": (Rules.preset("classic", players=2, action_cards=True, mode="single"), 3),
    "ultimate_4p": (Rules.preset("ultimate", players=4), 23),
    "ultimate_7p_two_packs": (Rules.preset("ultimate", players=7, mode="single"), 5),
    "countdown_3p": (Rules.preset("countdown", players=3, start=3), 8),
}


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def record(rules: Rules, seed: int) -> dict[str, Any]:
    """Play a game with a seeded random policy that prefers plays over draws."""
    game = new_game(rules, seed=seed)
    chooser = random.Random(seed)
    while not game.is_over:
        legal = game.legal_moves()
        plays = [m for m in legal if m.is_play]
        game.play(chooser.choice(plays if plays and chooser.random() < 0.8 else legal))
    return {"rules": rules.to_dict(), "seed": seed, "moves": game.moves, **fingerprint(game)}


def fingerprint(game: Game) -> dict[str, Any]:
    fresh = new_game(game.rules, seed=game.seed)
    seats = (None, *range(game.rules.players))
    streams: dict[str, list[Any]] = {str(s): [] for s in seats}
    for move in game.moves:
        for event in fresh.play(move):
            for seat in seats:
                streams[str(seat)].append(event.for_seat(seat))
    assert game.result is not None
    return {
        "result": game.result.to_dict(),
        "events": {seat: digest(stream) for seat, stream in streams.items()},
        "final_views": {str(s): digest(game.view(s, log=True)) for s in seats},
        "spectator_view": game.view(None),
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_g4_golden_game_replays_exactly(name: str) -> None:
    rules, seed = CASES[name]
    path = GOLDEN / f"{name}.json"
    if os.environ.get("GOLDEN_UPDATE"):
        path.write_text(json.dumps(record(rules, seed), indent=1) + "\n")
    stored = json.loads(path.read_text())
    game = replay(Rules.from_dict(stored["rules"]), stored["seed"], stored["moves"])
    assert game.is_over
    again = fingerprint(game)
    assert again["result"] == stored["result"]
    assert again["events"] == stored["events"]
    assert again["final_views"] == stored["final_views"]
    assert again["spectator_view"] == stored["spectator_view"]
