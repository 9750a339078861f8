"""How long a quick-play game takes, for the lobby's "about N minutes" (issue 12, item 2).

    PYTHONPATH=src python bench/game_length.py --games 200

Plays heuristic bots in every seat of a four-player table (quick play fills the empty
seats with heuristic bots; seat 0 stands for the person) and counts the moves of each
length the lobby offers: the person's own moves and everyone else's, and the rounds.
The minutes are then

    own moves x HUMAN_S + other moves x BOT_S + rounds x ROUND_S

with HUMAN_S = 4 s for a person's move (see a glowing card, pick it, watch it land),
BOT_S = 0.9 s for a bot's (the card room's default bot pause, 0.8 s, plus its thinking
and the card's flight) and ROUND_S = 6 s between rounds (the summary and the deal).
The browser's estimates (web/js/lengths.js) are this script's figures, rounded.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from crazy_eights.bots import make_bot
from crazy_eights.engine import Rules, new_game
from crazy_eights.sim.runner import deal_seed, mix

HUMAN_S = 4.0
BOT_S = 0.9
ROUND_S = 6.0

LENGTHS: list[tuple[str, dict[str, Any]]] = [
    ("classic one round", {"ruleset": "classic", "mode": "single"}),
    ("classic to 100", {"ruleset": "classic", "mode": "match", "target": 100}),
    ("classic to 200", {"ruleset": "classic", "mode": "match", "target": 200}),
    ("ultimate one round", {"ruleset": "ultimate", "mode": "single"}),
    ("ultimate to 50", {"ruleset": "ultimate", "mode": "match", "target": 50}),
    ("ultimate to 100", {"ruleset": "ultimate", "mode": "match", "target": 100}),
    ("countdown one round", {"ruleset": "countdown", "mode": "single"}),
    ("countdown from 3", {"ruleset": "countdown", "mode": "match", "start": 3}),
    ("cycles 10 cycles", {"ruleset": "cycles", "cycle_limit": 10}),
    ("cycles 30 cycles", {"ruleset": "cycles", "cycle_limit": 30}),
]


def play(rules: Rules, seed: int) -> tuple[int, int, int]:
    """(seat 0's moves, the other seats' moves, rounds) of one game of heuristic bots."""
    bots = [make_bot("heuristic", seed=mix(seed, s, 7)) for s in range(rules.players)]
    game = new_game(rules, seed)
    own = others = 0
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        legal = game.legal_moves()
        move = legal[0] if len(legal) == 1 else bots[seat].choose(game.view(seat, log=True), legal)
        game.play(move)
        if seat == 0:
            own += 1
        else:
            others += 1
    assert game.result is not None
    return own, others, game.result.rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--only", default="", help="a word the lengths' names must contain")
    args = parser.parse_args()
    print(f"{args.games} games each, {args.players} heuristic bots, seat 0 stands for you")
    print(f"{'length':22} {'your moves':>10} {'others':>8} {'rounds':>7} {'minutes':>8}")
    for name, values in LENGTHS:
        if args.only not in name:
            continue
        rules = Rules.from_dict({**values, "players": args.players})
        runs = [play(rules, deal_seed(args.seed, i)) for i in range(args.games)]
        own = statistics.fmean(r[0] for r in runs)
        others = statistics.fmean(r[1] for r in runs)
        rounds = statistics.fmean(r[2] for r in runs)
        minutes = (own * HUMAN_S + others * BOT_S + rounds * ROUND_S) / 60
        print(f"{name:22} {own:10.1f} {others:8.1f} {rounds:7.1f} {minutes:8.1f}")


if __name__ == "__main__":
    main()
