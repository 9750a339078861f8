"""Speed of the bots: ISMCTS iterations per second and decision times per level.

    python bench/bots.py [--positions 20] [--iterations 1000] [--repeat 3]

The positions are 4-player ultimate mid-game decisions (at least two legal moves after
the last-card variants are folded), reached by heuristic play from fixed seeds.
"""

from __future__ import annotations

import argparse
import statistics
import time

from crazy_eights.bots import make_bot
from crazy_eights.bots.heuristic import prefer_calls
from crazy_eights.engine import Rules, new_game


def positions(rules: Rules, count: int, *, skip: int = 12) -> list[tuple[dict, list]]:
    out = []
    seed = 0
    while len(out) < count:
        seed += 1
        game = new_game(rules, seed)
        bots = [make_bot("heuristic", seed=seed * 10 + s) for s in range(rules.players)]
        moves = 0
        while not game.is_over:
            seat = game.current_player
            legal = game.legal_moves()
            if moves >= skip and len(prefer_calls(legal)) >= 2:
                out.append((game.view(seat, log=True), legal))
                break
            game.play(
                bots[seat].choose(game.view(seat, log=True), legal) if len(legal) > 1 else legal[0]
            )
            moves += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--rules", default="ultimate")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="time each ISMCTS decision this many times (same seed) and keep the fastest",
    )
    parser.add_argument("--option", action="append", default=[], help="ismcts option k=v")
    args = parser.parse_args()
    rules = Rules.preset(args.rules, players=args.players)
    options = {}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = (
            int(value)
            if value.isdigit()
            else (float(value) if value.replace(".", "").isdigit() else value)
        )
    spots = positions(rules, args.positions)
    print(f"{len(spots)} {args.rules} {args.players}-player mid-game decisions")
    for level in ("random", "heuristic"):
        bot = make_bot(level, seed=1)
        times = []
        for view, legal in spots:
            start = time.perf_counter()
            for _ in range(20):
                bot.choose(view, legal)
            times.append((time.perf_counter() - start) / 20)
        print(
            f"{level:10s} mean {statistics.mean(times) * 1e3:8.3f} ms  "
            f"max {max(times) * 1e3:8.3f} ms"
        )
    # each decision is timed ``--repeat`` times with a bot of the same seed (the same
    # work each time): "first" is the first timing, "best" the fastest, which filters
    # out what other processes on a shared machine cost it
    first: list[float] = []
    best: list[float] = []
    iters = 0
    for k, (view, legal) in enumerate(spots):
        runs = []
        for _ in range(max(1, args.repeat)):
            bot = make_bot("ismcts", seed=k, iterations=args.iterations, **options)
            start = time.perf_counter()
            bot.choose(view, legal)
            runs.append(time.perf_counter() - start)
        first.append(runs[0])
        best.append(min(runs))
        iters += bot.last_iterations
    for label, times in (("first", first), ("best", best)):
        print(
            f"ismcts     {args.iterations} iterations ({label:5s}): "
            f"mean {statistics.mean(times) * 1e3:.1f} ms, "
            f"median {statistics.median(times) * 1e3:.1f} ms, "
            f"max {max(times) * 1e3:.1f} ms; {iters / sum(times):,.0f} iterations/s"
        )


if __name__ == "__main__":
    main()
