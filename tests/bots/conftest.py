"""Random positions of every ruleset, reached by random play from fixed seeds; the time
a search's budget checks leave out."""

from __future__ import annotations

import gc
import random
import time
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


class CollectionTime:
    """Seconds this process spent in garbage collections while it was active.

    A search's budget checks leave that time out: a full collection in a test worker that
    has run hundreds of tests took 300-400 ms in whole-suite runs, in whatever code was
    running (a search given 30 or 40 ms among them), and nothing can stop it on time; it
    counts on the wall clock and on the CPU clock alike. (The card room keeps its
    collections short: server/collector.py.)"""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0

    def _observe(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started

    def __enter__(self) -> CollectionTime:
        gc.callbacks.append(self._observe)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._observe)
