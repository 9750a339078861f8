"""How much seeing every card is worth: an oracle against heuristic bots.

    python bench/oracle.py [--rules classic] [--players 4] [--games 100] [--rollouts 30]
                           [--see all|hands|none]

The oracle is not a bot (with ``--see all`` it reads the table's state, every hand and
the stock's order): at each decision with a choice it plays each legal move on a copy of
the game and finishes the round ``--rollouts`` times with the greedy rollout policy of
ISMCTS (one move in ten random), then plays the move that won most. ``--see hands``
shuffles the stock before each rollout (it knows the hands, not what it will draw);
``--see none`` deals the hidden cards anew from what its seat knows, a fair flat Monte
Carlo player. The other seats are heuristic bots; seats rotate and every deal is played
from each seat. Between the three, a fair player's win rate shows how much of the gap
is information and which information.
"""

from __future__ import annotations

import argparse
import random

from crazy_eights.bots import make_bot
from crazy_eights.bots.heuristic import prefer_calls
from crazy_eights.bots.knowledge import knowledge_from_view
from crazy_eights.engine import Rules, new_game
from crazy_eights.engine.game import Game
from crazy_eights.engine.worlds import WorldBuilder
from crazy_eights.sim.report import wilson


def finish(game: Game, seat: int, rng: random.Random) -> float:
    """Play the world to the end with the engine's greedy playout (one move in ten
    random), as the search bot's rollouts do; 1 if ``seat`` wins."""
    game.playout(seed=rng.getrandbits(32), policy="greedy", epsilon=0.1)
    result = game.result
    assert result is not None
    if result.winner is None:
        return 1.0 / game.rules.players
    return float(result.winner == seat)


def oracle_move(
    game: Game, seat: int, rollouts: int, rng: random.Random, see: str = "all"
) -> object:
    """The move that won most rollouts; ``see``: what the rollouts start from, the
    table itself (``all``), the table with the stock shuffled (``hands``), or hidden
    cards dealt anew from what the seat knows (``none``: a fair flat Monte Carlo)."""
    moves = prefer_calls(game.legal_moves())
    scores = [0.0] * len(moves)
    if see == "none":
        view = game.view(seat, log=True)
        know = knowledge_from_view(view)
        builder = WorldBuilder(game.rules.replace(mode="single"), view, check=False)
    for _ in range(rollouts):
        if see == "none":
            hands, stock = know.sample(rng)
            start = builder.build(hands=hands, stock=stock, seed=rng.getrandbits(62))
        else:
            start = game.clone(log=False)
            if see == "hands":
                start.redeal(rng, hands=False)
        for k, move in enumerate(moves):
            copy = start.clone()
            copy.apply(move)
            scores[k] += finish(copy, seat, rng)
    return moves[scores.index(max(scores))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rollouts", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--see", choices=("all", "hands", "none"), default="all")
    args = parser.parse_args()
    rules = Rules.preset(args.rules, players=args.players, mode="single")
    rng = random.Random(args.seed)
    n = args.players
    wins = 0.0
    for g in range(args.games):
        game = new_game(rules, args.seed * 1_000_003 + g // n)
        me = g % n
        bots = [make_bot("heuristic", seed=g * 10 + s) for s in range(n)]
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            legal = game.legal_moves()
            if seat == me and len(prefer_calls(legal)) > 1:
                move = oracle_move(game, me, args.rollouts, rng, args.see)
            else:
                move = bots[seat].choose(game.view(seat, log=True), legal)
            game.play(move)  # type: ignore[arg-type]
        result = game.result
        assert result is not None
        wins += 1.0 / n if result.winner is None else float(result.winner == me)
        if (g + 1) % 20 == 0 or g + 1 == args.games:
            rate, low, high = wilson(wins, g + 1)
            print(
                f"{g + 1} games: {args.see}: oracle wins {rate:.1%} [{low:.1%}, {high:.1%}]",
                flush=True,
            )


if __name__ == "__main__":
    main()
