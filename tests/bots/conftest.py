"""Random positions of every ruleset, reached by random play from fixed seeds."""

from __future__ import annotations

import random
from typing import Any

from crazy_eights.engine import Game, Move, Rules, new_game

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 2, {}),
    ("classic", 4, {}),
    ("classic", 5, {"action_cards": True, "draw_policy": "until_playable"}),
    ("classic", 3, {"last_card": "auto", "voluntary_draw": False}),
    ("ultimate", 2, {}),
    ("ultimate", 4, {}),
    ("ultimate", 7, {}),
    ("ultimate", 3, {"draw_policy": "single", "stock_empty": "block"}),
    ("countdown", 2, {}),
    ("countdown", 4, {"start": 5}),
    ("countdown", 6, {"last_card": "manual"}),
    ("cycles", 2, {}),
    ("cycles", 4, {}),
    ("cycles", 5, {"last_card": "auto", "cycle_limit": 12}),
]


def table_rules(name: str, players: int, settings: dict[str, Any]) -> Rules:
    return Rules.preset(name, players=players, **settings)


def random_positions(
    rules: Rules, count: int, *, seed: int, every: int = 3
) -> list[tuple[Game, int, list[Move]]]:
    """``count`` positions (game clone, seat to move, legal moves) with a real choice."""
    rng = random.Random(seed)
    out: list[tuple[Game, int, list[Move]]] = []
    game_seed = seed * 1000
    while len(out) < count:
        game_seed += 1
        game = new_game(rules, game_seed)
        steps = 0
        while not game.is_over and len(out) < count and steps < 400:
            legal = game.legal_moves()
            seat = game.current_player
            assert seat is not None
            if len(legal) > 1 and rng.randrange(every) == 0:
                out.append((game.clone(), seat, legal))
            # mostly plays, so that rounds move on
            plays = [m for m in legal if m.is_play]
            pick = plays if plays and rng.random() < 0.8 else legal
            game.play(pick[rng.randrange(len(pick))])
            steps += 1
    return out
