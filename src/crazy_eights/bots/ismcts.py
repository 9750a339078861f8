"""The strongest level: information-set Monte Carlo tree search (single observer).

Each iteration samples a determinization (the hidden cards dealt consistently with what
the seat knows: counts, cards seen, suits and wilds an opponent has shown it lacks; see
``knowledge.py``) and weighs it by how likely it makes the opponents' recent plays
(``inference.py``), builds a playable world from the view (``engine/worlds.py``), walks
the one shared tree with UCB restricted to the moves legal in that world (counting each
child's availability), expands one move, plays a short rollout and backs up a reward
per seat.

Full rollouts to the end of a match do not fit the budget (the engine makes ~80k moves
a second in pure Python), so a world is played as a single round and a rollout stops at
the end of the round or after ``rollout_depth`` moves, where the position is scored by
a model of each seat's chance to win fitted on heuristic rounds (``evaluation.py``).

Cycles (RULES section 4) is searched the same way: the determinizations come from
``CyclesKnowledge`` (cards picked up in public, voids shown by Y9 draws, Y13 reveals),
worlds from ``CyclesGame.from_view`` through ``WorldBuilder``, the tree's moves carry a
last-card call exactly where the play leaves one card, and rollouts duck with the
lowest card (the engine's greedy playout for cycles).

Rollouts are the engine's playout core (``Game.playout``): no event, no move parsing,
no legal-move copies; its ``greedy`` policy is the cheap rollout policy described below,
and its seed gives every move compared on one world the same rollout randomness.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, cast

from crazy_eights.engine.cards import COPY
from crazy_eights.engine.game import Game
from crazy_eights.engine.moves import Move
from crazy_eights.engine.rules import Rules
from crazy_eights.engine.shedding import SheddingGame
from crazy_eights.engine.views import View
from crazy_eights.engine.worlds import WorldBuilder

from .base import check_legal
from .cycles import call_moves, score_cycles
from .evaluation import leaf_chances, weights_for
from .heuristic import HeuristicBot, prefer_calls, score_moves
from .inference import world_log_weight
from .knowledge import (
    CyclesKnowledge,
    Knowledge,
    cycles_knowledge_from_view,
    knowledge_from_view,
)

LEAVES = ("fitted", "counts", "rich")
ROLLOUTS = ("suits", "random")
ROOTS = ("ucb", "halving")
OPPONENTS = ("tree", "policy")


_M32 = 0xFFFFFFFF


class Node:
    """A node of the tree: the move that led here, who made it, and its statistics."""

    __slots__ = ("avail", "children", "move", "player", "reward", "visits")

    def __init__(self, move: Move | None, player: int) -> None:
        self.move = move
        self.player = player
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.children: dict[Move, Node] = {}


class IsmctsBot:
    """ISMCTS with a budget of ``iterations`` per move, or of ``time_ms`` if given.

    ``rollout``: ``"suits"`` (default; the engine's greedy playout: call last card, play
    a card that is not wild from the suit held most, a wild card to the suit held most,
    else draw; in cycles the lowest card) or ``"random"``.
    ``rollout_depth`` cuts rollouts; ``c`` is the UCB exploration constant; ``worlds``
    samples that many determinizations and then reuses them in turn (0: a fresh one
    every iteration, about 40% slower); ``prior`` weighs the heuristic's opinion of the
    root moves (progressive bias, fading with visits; 0 turns it off); ``leaf``: how a
    cut rollout is scored: ``"fitted"`` (default; the win chances of ``evaluation.py``,
    fitted on heuristic rounds; shedding rulesets, cycles uses hand sizes), ``"counts"``
    (a softmax of hand sizes) or ``"rich"`` (hand sizes less what wild cards held are
    worth, plus a pending draw-two for the player facing it and a small edge for the
    player to move; shedding rulesets). ``root``: how the move is picked at the root,
    ``"ucb"`` (the tree's own UCB with the prior, most visits wins) or ``"halving"``
    (sequential halving over common determinizations, see ``_halving``), among the
    ``candidates`` moves the heuristic likes best (0: every move). ``opponents``:
    ``"tree"`` (every seat's moves are searched in the one tree) or ``"policy"`` (the
    other seats play the rollout policy and the tree holds this seat's moves only).
    ``kept_wilds``: sample as if an opponent who played a wild card had no other card
    it could play (``knowledge_from_view``). ``deviate`` (halving): play another move
    than the heuristic's favourite only when it beat the favourite on the worlds both
    were played in by more than that many standard errors (0: always the search's).
    ``infer`` (halving, shedding rulesets): weigh each determinization by how likely
    the opponents' plays since they last took a card are with the hands it deals them, if
    they chose as the heuristic does, with that sharpness (``inference.py``; 0 to 2,
    default 0.5; 0: off).
    """

    name = "ismcts"

    def __init__(
        self,
        *,
        seed: int,
        iterations: int = 1000,
        time_ms: float | None = None,
        rollout: str = "suits",
        rollout_depth: int = 4,
        c: float = 0.7,
        worlds: int = 200,
        epsilon: float = 0.1,
        sharpness: float = 0.5,
        prior: float = 1.0,
        leaf: str = "fitted",
        root: str = "halving",
        candidates: int = 5,
        opponents: str = "tree",
        kept_wilds: bool = False,
        deviate: float = 0.0,
        infer: float = 0.5,
    ) -> None:
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}; got {rollout!r}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.iterations = int(iterations)
        self.time_ms = time_ms
        self.rollout = rollout
        self.rollout_depth = int(rollout_depth)
        self.c = float(c)
        self.worlds = int(worlds)
        self.epsilon = float(epsilon)
        self.sharpness = float(sharpness)
        self.prior = float(prior)
        if leaf not in LEAVES:
            raise ValueError(f"leaf must be one of {', '.join(LEAVES)}; got {leaf!r}")
        self.leaf = leaf
        if root not in ROOTS:
            raise ValueError(f"root must be one of {', '.join(ROOTS)}; got {root!r}")
        self.root = root
        self.candidates = int(candidates)
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents must be one of {', '.join(OPPONENTS)}; got {opponents!r}")
        self.opponents = opponents
        self.kept_wilds = bool(kept_wilds)
        self.deviate = float(deviate)
        if not 0.0 <= float(infer) <= 2.0:
            raise ValueError(f"infer must be between 0 and 2; got {infer!r}")
        self.infer = float(infer)
        self.last_iterations = 0
        self.last_seconds = 0.0
        self._fallback = HeuristicBot(seed=seed)
        self._bias: dict[Move, float] = {}
        self._cycles = False
        self._weights: tuple[float, ...] = ()
        self._crn = 1
        self._n = 2
        self._me = 0
        self._points_matter = False

    # -- the decision ---------------------------------------------------------------------

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move:
        check_legal(legal)
        cycles = view.get("ruleset") == "cycles"
        moves = call_moves(legal, len(view["hand"])) if cycles else prefer_calls(legal)
        self.last_iterations = 0
        self.last_seconds = 0.0
        if len(moves) == 1:
            return moves[0]
        start = time.perf_counter()
        root, next_world = self._prepare(view, moves)
        deadline = None if self.time_ms is None else start + self.time_ms / 1000.0
        budget = self.iterations if deadline is None else 1 << 30
        rng = self.rng
        root_moves = set(moves)
        best_move: Move | None
        if self.root == "halving":
            best_move = self._halving(moves, root, next_world, budget, deadline)
        else:
            it = 0
            while it < budget:
                if deadline is not None and it & 7 == 0 and time.perf_counter() >= deadline and it:
                    break
                self._crn = rng.getrandbits(32)
                self._iterate(next_world()[0], root, root_moves)
                it += 1
            self.last_iterations = it
            best = max(
                (child for m, child in root.children.items() if m in root_moves),
                key=lambda child: (child.visits, child.reward),
                default=None,
            )
            best_move = None if best is None else best.move
        self.last_seconds = time.perf_counter() - start
        if best_move is None:
            return self._fallback.choose(view, legal)
        return best_move

    def _prepare(
        self, view: dict[str, Any], moves: list[Move]
    ) -> tuple[Node, Callable[[], tuple[Game, float]]]:
        """Set the search up for ``view``: what the seat knows, the heuristic's prior
        over ``moves``, the leaf model; the root node and the source of determinizations
        (each with its weight; 1 unless ``infer``)."""
        rules = Rules.from_dict(view["rules"])
        if rules.mode == "match":
            rules = rules.replace(mode="single")
        know: Knowledge | CyclesKnowledge
        cycles = view.get("ruleset") == "cycles"
        if cycles:
            know = cycles_knowledge_from_view(view)
            points_matter = False
        else:
            know = knowledge_from_view(view, kept_wilds=self.kept_wilds)
            points_matter = know.points_matter
        builder = WorldBuilder(rules, cast("View", view), check=False)
        rng = self.rng
        me = know.seat
        n = know.players
        root = Node(None, me)
        bias: dict[Move, float] = {}
        if self.prior > 0:
            if isinstance(know, CyclesKnowledge):
                scores = score_cycles(know, moves)
            else:
                scores = score_moves(know, moves, phase=str(view.get("phase")))
            top = max(scores)
            bias = {
                m: self.prior * math.exp(max(-50.0, (s - top) / 10.0))
                for m, s in zip(moves, scores, strict=True)
            }
        self._bias = bias
        cached: list[tuple[Game, float]] = []
        infer = self.infer if isinstance(know, Knowledge) and any(know.recent) else 0.0
        self._cycles = cycles
        self._weights = weights_for(rules.ruleset, n)
        self._n = n
        self._me = me
        self._points_matter = points_matter
        drawn = 0

        def next_world() -> tuple[Game, float]:
            """A determinization and its weight (1 unless ``infer``)."""
            nonlocal drawn
            drawn += 1
            if self.worlds and len(cached) >= self.worlds:
                world, weight = cached[drawn % self.worlds]
                return world.clone(), weight
            hands, stock = know.sample(rng)
            world = builder.build(hands=hands, stock=stock, seed=rng.getrandbits(62))
            weight = 1.0
            if infer:
                assert isinstance(know, Knowledge)
                weight = math.exp(world_log_weight(know, world.hands, infer))
            if self.worlds:
                cached.append((world.clone(), weight))
            return world, weight

        return root, next_world

    def move_values(
        self, view: dict[str, Any], moves: Sequence[Move], *, worlds: int
    ) -> dict[Move, float]:
        """Each of ``moves`` (legal now) valued as the chance that the seat to move wins
        the round after it: every move is played in the same ``worlds``
        determinizations with the same rollout randomness, so the values compare moves
        on the same cards (game analysis). Only the seat's view is read."""
        moves = list(dict.fromkeys(moves))
        if not moves or worlds < 1:
            raise ValueError("move_values needs at least one move and one world")
        root, next_world = self._prepare(view, moves)
        self._points_matter = False  # a round won counts, not the losers' points
        me = root.player
        totals = dict.fromkeys(moves, 0.0)
        weights = 0.0
        for m in moves:
            root.children[m] = Node(m, me)
        for _ in range(worlds):
            world, weight = next_world()
            crn = self.rng.getrandbits(32)
            for k, m in enumerate(moves):
                w = world if k == len(moves) - 1 else world.clone()
                self._crn = crn
                w.apply(m)
                totals[m] += weight * self._iterate(w, root.children[m], None)[me]
            weights += weight
        return {m: totals[m] / weights if weights > 0 else 0.0 for m in moves}

    def _halving(
        self,
        moves: list[Move],
        root: Node,
        next_world: Callable[[], tuple[Game, float]],
        budget: int,
        deadline: float | None,
    ) -> Move:
        """Sequential halving at the root over common determinizations: every world
        drawn is played once after each move still in the running (with the same rollout
        randomness), so moves are compared on the same cards; after each of the
        ceil(log2(moves)) rounds the worse half by mean reward drops out (each world
        weighted by how likely the opponents' recent plays are in it, with ``infer``).
        Below the root each move keeps its own information-set tree."""
        bias = self._bias
        running = sorted(moves, key=lambda m: -bias.get(m, 0.0))
        if self.candidates > 0:
            running = running[: self.candidates]
        me = root.player
        favourite = running[0]
        # each move's reward in each world it was played in, for the paired test below
        rewards: dict[Move, dict[int, float]] = {m: {} for m in running}
        # each move's summed weight of worlds (its child's reward is the weighted sum of
        # its values: the plain sum and the visits unless ``infer``)
        weight_sum = dict.fromkeys(running, 0.0)
        for m in running:
            root.children[m] = Node(m, me)
        rounds = max(1, math.ceil(math.log2(len(running))))
        worlds = 0
        it = 0
        for r in range(rounds):
            left = rounds - r
            if deadline is not None:
                now = time.perf_counter()
                round_end = now + max(0.0, deadline - now) / left
                round_budget = 1 << 30
            else:
                round_end = math.inf
                round_budget = max(len(running), (budget - it) // left)
            spent = 0
            while spent + len(running) <= round_budget:
                if spent and deadline is not None and time.perf_counter() >= round_end:
                    break
                world, weight = next_world()
                worlds += 1
                crn = self.rng.getrandbits(32)
                for k, m in enumerate(running):
                    w = world if k == len(running) - 1 else world.clone()
                    self._crn = crn  # the same rollout randomness after every move
                    w.apply(m)
                    child = root.children[m]
                    value = self._iterate(w, child, None)[me]  # counts the visit
                    child.reward += weight * value
                    rewards[m][worlds] = value
                    weight_sum[m] += weight
                spent += len(running)
            it += spent
            if len(running) > 1:
                ranked = sorted(
                    running,
                    key=lambda m: (
                        root.children[m].reward / weight_sum[m] if weight_sum[m] > 0 else 0.0,
                        bias.get(m, 0.0),
                    ),
                    reverse=True,
                )
                running = ranked[: max(1, (len(running) + 1) // 2)]
        self.last_iterations = it
        best = running[0]
        if self.deviate > 0 and best != favourite:
            # leave the heuristic's favourite only for a move that beat it on the same
            # worlds by more than ``deviate`` standard errors
            ours, theirs = rewards[best], rewards[favourite]
            diffs = [ours[k] - theirs[k] for k in ours.keys() & theirs.keys()]
            if len(diffs) < 2:
                return favourite
            mean = sum(diffs) / len(diffs)
            var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
            if mean <= self.deviate * math.sqrt(var / len(diffs)):
                return favourite
        return best

    def _iterate(self, world: Game, start: Node, root_moves: set[Move] | None) -> list[float]:
        """One iteration from ``start`` (the root, whose moves are ``root_moves``, or a
        node below it): select and expand in the tree, roll out, back up; the reward."""
        rng = self.rng
        c = self.c
        log = math.log
        sqrt = math.sqrt
        node = start
        path: list[Node] = []
        root = start if root_moves is not None else None
        me = self._me if self.opponents == "policy" else -1
        while not world.is_over:
            seat = world.current_player
            assert seat is not None
            legal = world.legal_moves()
            if me >= 0 and seat != me:
                self._play_out(world, 1)
                continue
            if node is root:
                legal = [m for m in legal if m in root_moves]  # type: ignore[operator]
            elif len(legal) > 1:
                legal = (
                    call_moves(legal, world.hand_count(seat))
                    if self._cycles
                    else prefer_calls(legal)
                )
            children = node.children
            kids = [children.get(m) for m in legal]
            if None in kids:
                untried = [m for m, k in zip(legal, kids, strict=True) if k is None]
                if node is root and self._bias:
                    move = max(untried, key=self._bias.__getitem__)
                elif len(untried) > 1:
                    move = untried[rng.randrange(len(untried))]
                else:
                    move = untried[0]
                for k in kids:
                    if k is not None:
                        k.avail += 1
                child = Node(move, seat)
                children[move] = child
                world.apply(move)
                path.append(child)
                break
            best: Node | None = None
            best_value = -1.0
            bias = self._bias if node is root else None
            for kid in kids:
                assert kid is not None
                kid.avail += 1
                visits = kid.visits
                value = kid.reward / visits + c * sqrt(log(kid.avail) / visits)
                if bias:
                    value += bias[kid.move] / (1.0 + visits) * 10.0  # type: ignore[index]
                if value > best_value:
                    best_value = value
                    best = kid
            assert best is not None and best.move is not None
            world.apply(best.move)
            path.append(best)
            node = best
        reward = self._rollout(world, self._n, self._points_matter)
        start.visits += 1
        for child in path:
            child.visits += 1
            child.reward += reward[child.player]
        return reward

    # -- rollouts and evaluation --------------------------------------------------------

    def _rollout(self, world: Game, n: int, points_matter: bool) -> list[float]:
        if self.rollout_depth > 0:
            self._play_out(world, self.rollout_depth)
        return self._evaluate(world, n, points_matter)

    def _play_out(self, world: Game, moves: int) -> None:
        """Up to ``moves`` moves of the rollout policy (also the opponents' in the tree
        with ``opponents="policy"``): the engine's greedy playout, one move in
        ``1/epsilon`` exploring, or uniform with ``rollout="random"``."""
        seed = self._crn
        self._crn = (seed * 1103515245 + 12345) & _M32
        if self.rollout == "random":
            world.playout(seed=seed, max_moves=moves)
        else:
            world.playout(seed=seed, policy="greedy", epsilon=self.epsilon, max_moves=moves)

    def _evaluate(self, world: Game, n: int, points_matter: bool) -> list[float]:
        result = world.result
        if result is not None:
            out = [0.0] * n
            if result.winner is not None:
                out[result.winner] = 1.0
            else:
                return [1.0 / n] * n
            if points_matter and n > 2:
                # the losers of a round are also ranked by the points they are left with
                points = result.points
                for s in range(n):
                    if s != result.winner:
                        out[s] = 0.15 * (1.0 - min(points[s], 100) / 100.0)
            return out
        if self.leaf == "fitted" and isinstance(world, SheddingGame):
            return leaf_chances(world, self._weights)
        counts = [float(world.hand_count(s)) for s in range(n)]
        if self.leaf == "rich" and isinstance(world, SheddingGame):
            _enrich(world, counts)
        k = self.sharpness
        weights = [math.exp(-k * x) for x in counts]
        total = sum(weights)
        return [x / total for x in weights]


WILD_WORTH = 0.6
TEMPO = 0.25
PENDING_WORTH = 1.6


def _enrich(world: SheddingGame, counts: list[float]) -> None:
    """Shedding worlds: a wild card held is worth part of a card shed; a pending
    draw-two costs the player facing it; the player to move is a little ahead."""
    for s, h in enumerate(world.hands):
        w = world.wild_mask(s)
        held = (h & w).bit_count() + ((h >> COPY) & w).bit_count()
        if held:
            counts[s] -= WILD_WORTH * held
    seat = world.current_player
    if seat is not None:
        counts[seat] += PENDING_WORTH * world.pending - TEMPO


__all__ = ["IsmctsBot", "Node"]
