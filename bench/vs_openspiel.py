"""Our engine against OpenSpiel's crazy_eights: speed of random playouts side by side,
of the PettingZoo environment against OpenSpiel's ``rl_environment``, and a match of
our ISMCTS against OpenSpiel's MCTS over sampled worlds (PIMC).

    PYTHONPATH=src python bench/vs_openspiel.py [--seconds 6] [--rounds 6] [--games 40]
    PYTHONPATH=src python bench/vs_openspiel.py --games 0 --compiled VENV/bin/python
    PYTHONPATH=src python bench/vs_openspiel.py --games 0 --profile   # where the time goes

``--compiled`` names the python of a venv with the mypyc-compiled build (made as
``.ci/run`` makes it): after this process's build (the pure Python one, from
``PYTHONPATH=src``) has run, that python runs the same measurements on its build, and
one table shows the ratios of both builds.

Playouts, 4 players, random legal moves to the end of the round, all in this one run:
OpenSpiel's C++ ``crazy_eights`` (special cards off and on, no reshuffle) driven from
Python as its users drive it, ``state.apply_action(rng.choice(state.legal_actions()))``
with every chance outcome (each card dealt or drawn) drawn the same way; and ours on
the ``openspiel`` preset with the same settings, and classic 4 players (one round)
beside them, three ways:

- ``playout``: ``new_game(rules, seed, log=False).playout(seed=...)``, the whole game
  in one call (what the search bot's rollouts use): no event, no move object;
- ``apply``: ``legal_moves()`` and ``apply(rng.choice(...))`` move by move, no events;
- ``play``: ``legal_moves()`` and ``play(...)`` on a game that keeps its event log, as
  the card room does.
- ``floor`` (the ceiling of the per-move ways): the same loop over a stand-in game that
  hands out the legal moves of recorded games and does nothing else. No engine driven
  through this loop can pass its rate: a per-move ratio is bounded by the floor's.

Environments, 4 players, the ``openspiel`` preset: our PettingZoo AEC environment
(``interop.pettingzoo``) stepped as its users step it, ``env.last()`` then
``env.step(rng.choice(legal))`` with ``legal`` the ids the observation's action mask
allows, against OpenSpiel's own ``rl_environment.Environment("crazy_eights")``, whose
``step`` returns every player's observation tensor and legal actions, stepped with
``rng.choice`` of the current player's legal actions. Both count the moves made (the
dead steps of PettingZoo's finished agents and OpenSpiel's chance outcomes, which its
environment samples inside ``step``, are not counted).

Each engine runs in ``--rounds`` slices of ``--seconds / --rounds`` of the process's CPU
time, the engines taking turns, so that other work on a shared machine weighs on both
alike and little on either; the ratio is ours over OpenSpiel's. The first line says
which build of our engine ran (the pure Python one, or the mypyc-compiled one that
``.ci/run`` builds and tests). ``--profile`` shows where our playout's time goes.

Match: one seat is our ismcts (worlds sampled from its view; every deal is played once
from each seat), the other seats OpenSpiel's ``MCTSBot`` run on a world sampled with
``interop.openspiel``'s resampler (a fresh determinization each move, PIMC), both
given ``--ms`` per move. A game counts as a win when our seat has the best return
(ties share); the 95% interval is Wilson's.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import subprocess
import time
from collections.abc import Callable

import numpy as np
import pyspiel

from crazy_eights.engine import Rules, new_game
from crazy_eights.engine.game import COMPILED
from crazy_eights.engine.moves import Move
from crazy_eights.interop import openspiel as os_interop
from crazy_eights.sim.report import wilson

Runner = Callable[[random.Random, float], int]


def engine_build() -> str:
    """Which build of the engine this run measures: mypyc-compiled or pure Python."""
    return "mypyc-compiled" if COMPILED else "pure Python"


def openspiel_runner(special: bool) -> Runner:
    game = pyspiel.load_game(
        "crazy_eights", {"players": 4, "use_special_cards": special, "reshuffle": False}
    )

    def run(rng: random.Random, seconds: float) -> int:
        choice = rng.choice
        count = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
            count += 1
        return count

    return run


def playout_runner(rules: Rules) -> Runner:
    def run(rng: random.Random, seconds: float) -> int:
        bits = rng.getrandbits
        count = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            new_game(rules, bits(62), log=False).playout(seed=bits(32))
            count += 1
        return count

    return run


def move_runner(rules: Rules, *, events: bool) -> Runner:
    def run(rng: random.Random, seconds: float) -> int:
        choice = rng.choice
        count = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            game = new_game(rules, rng.getrandbits(62), log=events)
            step = game.play if events else game.apply
            while not game.is_over:
                step(choice(game.legal_moves()))
            count += 1
        return count

    return run


class _Scripted:
    """A stand-in with the engine's per-move API that does no work: it hands out the
    legal moves of a game recorded beforehand, one list a move, and ``play`` only
    counts. Driven by ``move_runner``'s own loop, it gives the ceiling of that loop:
    the games a second that an engine costing nothing would reach through it."""

    __slots__ = ("_legal", "_moves", "is_over")

    _NO_EVENTS: list[object] = []

    def __init__(self, legal: tuple[tuple[Move, ...], ...]) -> None:
        self._legal = legal
        self._moves = 0
        self.is_over = False

    def legal_moves(self) -> list[Move]:
        return list(self._legal[self._moves])

    def play(self, move: Move) -> list[object]:
        moves = self._moves = self._moves + 1
        self.is_over = moves == len(self._legal)
        return self._NO_EVENTS


def recorded(rules: Rules, games: int = 200) -> list[tuple[tuple[Move, ...], ...]]:
    """The legal moves met at each move of ``games`` random games, as dealt by ``rules``."""
    rng = random.Random(7)
    out = []
    for _ in range(games):
        game = new_game(rules, rng.getrandbits(62), log=False)
        legal = []
        while not game.is_over:
            moves = tuple(game.legal_moves())
            legal.append(moves)
            game.apply(rng.choice(moves))
        out.append(tuple(legal))
    return out


def floor_runner(rules: Rules) -> Runner:
    """``move_runner``'s loop, word for word, over ``_Scripted`` games (see there)."""
    scripts = recorded(rules)

    def run(rng: random.Random, seconds: float) -> int:
        choice = rng.choice
        count = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            rng.getrandbits(62)  # the seed ``move_runner`` draws for ``new_game``
            game = _Scripted(scripts[count % len(scripts)])
            step = game.play
            while not game.is_over:
                step(choice(game.legal_moves()))
            count += 1
        return count

    return run


def openspiel_env_runner() -> Runner:
    """Moves through OpenSpiel's ``rl_environment``, random legal actions."""
    from open_spiel.python import rl_environment

    env = rl_environment.Environment("crazy_eights", players=4)
    env.seed(1)
    box = [env.reset()]

    def run(rng: random.Random, seconds: float) -> int:
        choice = rng.choice
        step = env.step
        time_step = box[0]
        count = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            if time_step.last():
                time_step = env.reset()
                continue
            observations = time_step.observations
            legal = observations["legal_actions"][observations["current_player"]]
            time_step = step([choice(legal)])
            count += 1
        box[0] = time_step
        return count

    return run


def pettingzoo_runner() -> Runner:
    """Moves through our PettingZoo environment, random legal actions."""
    from crazy_eights.interop.pettingzoo import env as make_env

    env = make_env("openspiel", players=4)
    env.reset(seed=1)
    seed = [1]

    def run(rng: random.Random, seconds: float) -> int:
        choice = rng.choice
        count = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            if not env.agents:
                seed[0] += 1
                env.reset(seed=seed[0])
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(choice(np.flatnonzero(observation["action_mask"]))))
            count += 1
        return count

    return run


def side_by_side(runners: dict[str, Runner], seconds: float, rounds: int) -> dict[str, float]:
    """Games (or moves) per second of each runner, the runners taking turns in
    ``rounds`` slices."""
    games = dict.fromkeys(runners, 0)
    rng = random.Random(1)
    for _ in range(rounds):
        for name, run in runners.items():
            games[name] += run(rng, seconds / rounds)
    return {name: count / seconds for name, count in games.items()}


Figures = dict[str, dict[str, float]]
"""Rates by case (``special off``, ``special on``, ``environment``) and runner."""


def playouts(seconds: float, rounds: int) -> Figures:
    """Games a second of OpenSpiel's C++ game and of each of our ways, both with
    special cards off and on, and moves a second of the two environments."""
    classic = Rules.preset("classic", players=4, mode="single")
    figures: Figures = {}
    for special in (False, True):
        rules = Rules.preset("openspiel", players=4, action_cards=special)
        runners: dict[str, Runner] = {
            OPENSPIEL: openspiel_runner(special),
            "playout": playout_runner(rules),
            "apply": move_runner(rules, events=False),
            "play": move_runner(rules, events=True),
        }
        if not special:
            runners["floor"] = floor_runner(rules)
            runners["classic 4p playout"] = playout_runner(classic)
            runners["classic 4p play"] = move_runner(classic, events=True)
        figures[f"special {'on' if special else 'off'}"] = side_by_side(runners, seconds, rounds)
    envs = {OPENSPIEL: openspiel_env_runner(), "pettingzoo": pettingzoo_runner()}
    figures["environment"] = side_by_side(envs, seconds, rounds)
    return figures


OPENSPIEL = "OpenSpiel C++"
ROWS = (
    ("special off", "play", "per move, legal_moves() + play(), events built"),
    ("special on", "play", "per move, legal_moves() + play(), special cards"),
    ("special off", "apply", "per move, legal_moves() + apply(), no events"),
    ("special on", "apply", "per move, legal_moves() + apply(), special cards"),
    ("special off", "floor", "ceiling: the per-move loop over a game that does no work"),
    ("special off", "playout", "one call, playout(seed=...)"),
    ("special on", "playout", "one call, playout(seed=...), special cards"),
    ("special off", "classic 4p play", "classic 4p per move, play()"),
    ("special off", "classic 4p playout", "classic 4p one call, playout()"),
    ("environment", "pettingzoo", "PettingZoo env moves/s vs rl_environment"),
)


def show(figures_by_build: dict[str, Figures]) -> None:
    """Each build's rates and ratios (ours over OpenSpiel's, measured in the same
    process), one row a way of playing, one column pair a build."""
    builds = list(figures_by_build)
    head = "".join(f" | {b} rate | ratio" for b in builds)
    print(f"| way{head} |")
    print("|---" + "|---:|---:" * len(builds) + "|")
    for case in ("special off", "special on", "environment"):
        theirs = " | ".join(f"{figures_by_build[b][case][OPENSPIEL]:,.0f} | " for b in builds)
        unit = "moves/s" if case == "environment" else "games/s"
        print(f"| OpenSpiel C++, {case} ({unit}) | {theirs}|")
    for case, name, label in ROWS:
        cells = []
        for b in builds:
            rates = figures_by_build[b][case]
            cells.append(f"{rates[name]:,.0f} | **{rates[name] / rates[OPENSPIEL]:.2f}**")
        print(f"| {label} | {' | '.join(cells)} |")


def compiled_figures(python: str, seconds: float, rounds: int) -> tuple[str, Figures]:
    """The same measurements run by ``python`` (a venv with the compiled build): its
    own engine, not this checkout's (``PYTHONPATH`` is left out)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [python, __file__, "--games", "0", "--json"]
    command += ["--seconds", str(seconds), "--rounds", str(rounds)]
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    lines = done.stdout.strip().splitlines()
    print(lines[0], flush=True)
    build = lines[0].removeprefix("engine build: ")
    figures: Figures = json.loads(lines[-1])
    return build, figures


def breakdown(rules: Rules, games: int = 3000) -> None:
    """CPU time of a playout in its two parts: dealing (``new_game``) and playing."""
    seeds = list(range(games))
    start = time.process_time()
    dealt = [new_game(rules, seed, log=False) for seed in seeds]
    deal = time.process_time() - start
    start = time.process_time()
    moves = sum(game.playout(seed=seed) for seed, game in zip(seeds, dealt, strict=True))
    play = time.process_time() - start
    print(
        f"  {rules.ruleset} 4p: deal {deal / games * 1e6:.1f} us/game, play "
        f"{play / games * 1e6:.1f} us/game ({moves / games:.1f} moves, "
        f"{play / moves * 1e9:.0f} ns/move)"
    )


def profile(seconds: float) -> None:
    """Where the time of our playout goes: deal against play, then (telling for the
    pure Python build; a compiled one shows only its calls into Python) cProfile."""
    rules = Rules.preset("openspiel", players=4)
    print("playout time, dealing and playing (CPU time):")
    breakdown(rules)
    breakdown(Rules.preset("openspiel", players=4, action_cards=True))
    profiler = cProfile.Profile()
    profiler.enable()
    playout_runner(rules)(random.Random(2), seconds)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(14)


class PimcMcts:
    """OpenSpiel's MCTSBot on one sampled world per move (perfect-information MC)."""

    def __init__(self, game: pyspiel.Game, *, seed: int, ms: float) -> None:
        from open_spiel.python.algorithms import mcts

        self.ms = ms
        self.resample = os_interop.make_resampler(seed)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        self.bot = mcts.MCTSBot(
            game, 2.0, 10**9, evaluator, solve=False, random_state=np.random.RandomState(seed)
        )
        self.mcts = mcts

    def step(self, state: os_interop.CrazyEightsState) -> int:
        world = self.resample(state, state.current_player())
        deadline = time.perf_counter() + self.ms / 1000.0
        root = self.mcts.SearchNode(None, world.current_player(), 1)
        bot = self.bot
        sims = 0
        # run the bot's search loop by hand so that it stops on time
        while time.perf_counter() < deadline or sims < 2:
            visit_path, working_state = bot._apply_tree_policy(root, world.clone())
            returns = (
                working_state.returns()
                if working_state.is_terminal()
                else bot.evaluator.evaluate(working_state)
            )
            for node in reversed(visit_path):
                node.total_reward += returns[node.player if node.player >= 0 else 0] / 100.0
                node.explore_count += 1
            sims += 1
        best = max(root.children, key=lambda c: (c.explore_count, c.total_reward))
        return int(best.action)


def match(games: int, ms: float, *, special: bool, players: int) -> tuple[float, int]:
    from crazy_eights.bots import make_bot

    game = os_interop.load("openspiel", players=players, action_cards=special)
    wins = 0.0
    for g in range(games):
        state = game.new_initial_state()
        rng = random.Random(g // players)  # every deal is played once from each seat
        while state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        ours_seat = g % players
        ours = make_bot("ismcts", seed=g, time_ms=ms)
        theirs = PimcMcts(game, seed=g, ms=ms)
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            elif seat == ours_seat:
                engine = state.game
                assert engine is not None
                move = ours.choose(engine.view(seat, log=True), engine.legal_moves())
                action = os_interop.encoding.encode_move(move)
            else:
                action = theirs.step(state)
            state.apply_action(action)
        returns = state.returns()
        best = max(returns)
        if returns[ours_seat] == best:
            wins += 1.0 / sum(1 for r in returns if r == best)
        print(f"  game {g + 1}: returns {returns} (ismcts seat {ours_seat})", flush=True)
    return wins, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=6.0, help="per runner and case")
    parser.add_argument("--rounds", type=int, default=6, help="slices the runners alternate")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--ms", type=float, default=200.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--special", action="store_true", help="special cards in the match")
    parser.add_argument("--profile", action="store_true", help="profile our playouts")
    parser.add_argument("--compiled", help="the python of a venv with the compiled build")
    parser.add_argument("--json", action="store_true", help="the figures as one JSON line")
    args = parser.parse_args()
    print(f"engine build: {engine_build()}", flush=True)
    if args.profile:
        profile(args.seconds)
    else:
        figures = {engine_build(): playouts(args.seconds, args.rounds)}
        if args.json:
            print(json.dumps(figures[engine_build()]))
            return
        if args.compiled:
            build, theirs = compiled_figures(args.compiled, args.seconds, args.rounds)
            figures[build if build not in figures else f"{build} ({args.compiled})"] = theirs
        show(figures)
    if args.games:
        print(
            f"match: our ismcts vs OpenSpiel MCTS (PIMC), {args.players} players, "
            f"{args.ms:.0f} ms a move, special cards {'on' if args.special else 'off'}"
        )
        wins, games = match(args.games, args.ms, special=args.special, players=args.players)
        _, low, high = wilson(wins, games)
        print(
            f"ismcts win rate {wins / games:.1%} over {games} games "
            f"(95% interval {low:.1%} to {high:.1%})"
        )


if __name__ == "__main__":
    main()
