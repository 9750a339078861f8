"""Game analysis: how long it takes, and how the three bot levels fare under it.

    python bench/analysis.py [--games 8] [--worlds 150] [--iterations 1000] [--players 4]

Each level (random = Easy, heuristic = Medium, ismcts = Hard) plays seat 0 of classic
single rounds (4 players unless ``--players``) against heuristic bots, from the same
seeds for every level. Seat 0's decisions are analysed (``bots/analysis.py``, default
thresholds); the level's accuracy is the share of its decisions with a choice that were
not marked (the search's move, or a loss under the inaccuracy threshold), beside its
mean loss of round-win chance. Then one 4-player classic match (the preset: rounds to
100 points) is analysed for one seat, timed.
"""

from __future__ import annotations

import argparse
import statistics
import time

from crazy_eights.bots import BOT_LEVELS, make_bot
from crazy_eights.bots.analysis import AnalysisConfig, analyse
from crazy_eights.engine import Rules, new_game


def play(rules: Rules, seed: int, level: str, iterations: int) -> list[str]:
    """A game with ``level`` at seat 0 and heuristic bots elsewhere; its moves."""
    options = {"iterations": iterations} if level == "ismcts" else {}
    bots = [make_bot(level, seed=seed, **options)] + [
        make_bot("heuristic", seed=seed * 10 + s) for s in range(1, rules.players)
    ]
    game = new_game(rules, seed)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat, log=True), game.legal_moves()))
    return game.moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--worlds", type=int, default=150)
    parser.add_argument("--iterations", type=int, default=1000, help="the Hard level's search")
    parser.add_argument("--players", type=int, default=4, help="players of the single rounds")
    args = parser.parse_args()
    config = AnalysisConfig(worlds=args.worlds)
    single = Rules.preset("classic", players=args.players).replace(mode="single")
    print(
        f"{args.players}-player classic single rounds, {args.games} games a level, "
        f"{args.worlds} worlds"
    )
    print("level      decisions  accuracy  mean loss  blunders  mistakes  s/analysis")
    for level in BOT_LEVELS:
        chosen = good = blunders = mistakes = 0
        losses: list[float] = []
        seconds: list[float] = []
        for seed in range(1, args.games + 1):
            moves = play(single, seed, level, args.iterations)
            start = time.perf_counter()
            result = analyse(single, seed, moves, 0, config)
            seconds.append(time.perf_counter() - start)
            for d in result["decisions"]:
                if d["forced"]:
                    continue
                chosen += 1
                good += d["mark"] is None
                blunders += d["mark"] == "blunder"
                mistakes += d["mark"] == "mistake"
                losses.append(d["loss"])
        print(
            f"{level:<10} {chosen:>9}  {good / max(1, chosen):>8.1%}  "
            f"{100 * statistics.fmean(losses or [0.0]):>6.2f} pp  {blunders:>8}  {mistakes:>8}  "
            f"{statistics.fmean(seconds):>10.2f}"
        )
    match = Rules.preset("classic", players=4)
    moves = play(match, 99, "heuristic", args.iterations)
    start = time.perf_counter()
    result = analyse(match, 99, moves, 0, config)
    took = time.perf_counter() - start
    count = len(result["decisions"])
    print(
        f"one 4-player classic match ({len(moves)} moves, {count} decisions of seat 0): "
        f"{took:.1f} s, {1000 * took / max(1, count):.0f} ms a decision"
    )


if __name__ == "__main__":
    main()
