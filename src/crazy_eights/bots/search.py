"""One decision of the search bot: a ``Search`` holds everything that lives for it.

``IsmctsBot.choose`` makes a ``Search`` per decision from the seat's view, the moves
worth searching and the bot's ``IsmctsConfig``, runs it and drops it: the knowledge of
the hidden cards, the world builder, the tree, the cached determinizations, the
deadline, the rollouts' common random numbers and the decision's own generator are
the search's, never the bot's, so a bot carries nothing from one decision to the next
but its seed's generator (see ``ismcts.py`` for the algorithm).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, cast

from crazy_eights.engine.cards import COPY
from crazy_eights.engine.game import Game
from crazy_eights.engine.moves import Move
from crazy_eights.engine.rules import Rules
from crazy_eights.engine.shedding import SheddingGame
from crazy_eights.engine.views import View
from crazy_eights.engine.worlds import WorldBuilder

from .cycles import call_moves, score_cycles
from .evaluation import leaf_chances, weights_for
from .heuristic import prefer_calls, score_moves
from .inference import world_log_weight
from .ismcts_config import IsmctsConfig
from .knowledge import (
    CyclesKnowledge,
    Knowledge,
    cycles_knowledge_from_view,
    knowledge_from_view,
)

_M32 = 0xFFFFFFFF
_UNLIMITED = 1 << 30

WILD_WORTH = 0.6
TEMPO = 0.25
PENDING_WORTH = 1.6


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


class Search:
    """The state of one decision: built from the view, run once by ``run``.

    ``moves`` are the root's candidates (already reduced to the calls worth making);
    ``rng`` is this decision's generator (drawn from the bot's). After ``run``,
    ``iterations`` and ``seconds`` say what it spent.
    """

    def __init__(
        self,
        config: IsmctsConfig,
        view: dict[str, Any],
        moves: list[Move],
        rng: random.Random,
    ) -> None:
        self.config = config
        self.rng = rng
        self.moves = moves
        self.clock = time.process_time if config.clock == "cpu" else time.perf_counter
        self.start = self.clock()
        budget_ms = config.budget_ms
        self.deadline = None if budget_ms is None else self.start + budget_ms / 1000.0
        self.budget = _UNLIMITED if config.iterations is None else config.iterations
        self.cycles = view.get("ruleset") == "cycles"
        rules = Rules.from_dict(view["rules"])
        if rules.mode == "match":
            rules = rules.replace(mode="single")
        self.know: Knowledge | CyclesKnowledge
        if self.cycles:
            self.know = cycles_knowledge_from_view(view)
            self.points_matter = False
        else:
            know = knowledge_from_view(view, kept_wilds=config.kept_wilds)
            self.know = know
            self.points_matter = know.points_matter
        self.builder = WorldBuilder(rules, cast("View", view), check=False)
        self.me = self.know.seat
        self.n = self.know.players
        self.weights = weights_for(rules.ruleset, self.n)
        self.root = Node(None, self.me)
        self.bias = self._root_bias(view)
        know_ = self.know
        self.infer = config.infer if isinstance(know_, Knowledge) and any(know_.recent) else 0.0
        self.cached: list[tuple[Game, float]] = []
        self.drawn = 0
        self.crn = 1
        self.iterations = 0
        self.seconds = 0.0

    # -- the decision ------------------------------------------------------------------

    def run(self) -> Move | None:
        """Search until the budget is spent; the move to play (None: no move searched)."""
        if self.config.root == "halving":
            best: Move | None = self._halving()
        else:
            best = self._ucb()
        self.seconds = self.clock() - self.start
        return best

    def values(self, worlds: int) -> dict[Move, float]:
        """Each root move's chance that the seat wins the round (not its points) after
        it: every move is played in the same ``worlds`` determinizations with the same
        rollout randomness, so moves are compared on the same cards (game analysis)."""
        self.points_matter = False
        me = self.me
        moves = self.moves
        totals = dict.fromkeys(moves, 0.0)
        weights = 0.0
        children = {m: Node(m, me) for m in moves}
        self.root.children.update(children)
        for _ in range(worlds):
            world, weight = self._next_world()
            crn = self.rng.getrandbits(32)
            for k, m in enumerate(moves):
                w = world if k == len(moves) - 1 else world.clone()
                self.crn = crn
                w.apply(m)
                totals[m] += weight * self._iterate(w, children[m], None)[me]
            weights += weight
        self.seconds = self.clock() - self.start
        return {m: totals[m] / weights if weights > 0 else 0.0 for m in moves}

    def _root_bias(self, view: dict[str, Any]) -> dict[Move, float]:
        """The heuristic's opinion of the root moves (progressive bias), or nothing."""
        prior = self.config.prior
        if prior <= 0:
            return {}
        moves = self.moves
        know = self.know
        if isinstance(know, CyclesKnowledge):
            scores = score_cycles(know, moves)
        else:
            scores = score_moves(know, moves, phase=str(view.get("phase")))
        top = max(scores)
        return {
            m: prior * math.exp(max(-50.0, (s - top) / 10.0))
            for m, s in zip(moves, scores, strict=True)
        }

    def _next_world(self) -> tuple[Game, float]:
        """A determinization and its weight (1 unless ``infer``); with ``worlds`` the
        first that many are kept and then handed out again in turn."""
        self.drawn += 1
        keep = self.config.worlds
        cached = self.cached
        if keep and len(cached) >= keep:
            world, weight = cached[self.drawn % keep]
            return world.clone(), weight
        rng = self.rng
        hands, stock = self.know.sample(rng)
        world = self.builder.build(hands=hands, stock=stock, seed=rng.getrandbits(62))
        weight = 1.0
        if self.infer:
            know = self.know
            assert isinstance(know, Knowledge)
            weight = math.exp(world_log_weight(know, world.hands, self.infer))
        if keep:
            cached.append((world.clone(), weight))
        return world, weight

    def _ucb(self) -> Move | None:
        """The tree's own UCB with the prior at the root; the most visited move."""
        root = self.root
        root_moves = set(self.moves)
        deadline = self.deadline
        clock = self.clock
        it = 0
        while it < self.budget:
            if deadline is not None and it & 7 == 0 and it and clock() >= deadline:
                break
            self.crn = self.rng.getrandbits(32)
            self._iterate(self._next_world()[0], root, root_moves)
            it += 1
        self.iterations = it
        best = max(
            (child for m, child in root.children.items() if m in root_moves),
            key=lambda child: (child.visits, child.reward),
            default=None,
        )
        return None if best is None else best.move

    def _halving(self) -> Move:
        """Sequential halving at the root over common determinizations: every world
        drawn is played once after each move still in the running (with the same rollout
        randomness), so moves are compared on the same cards; after each of the
        ceil(log2(moves)) rounds the worse half by mean reward drops out (each world
        weighted by how likely the opponents' recent plays are in it, with ``infer``).
        Below the root each move keeps its own information-set tree."""
        bias = self.bias
        root = self.root
        clock = self.clock
        deadline = self.deadline
        running = sorted(self.moves, key=lambda m: -bias.get(m, 0.0))
        if self.config.candidates > 0:
            running = running[: self.config.candidates]
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
                now = clock()
                round_end = now + max(0.0, deadline - now) / left
            else:
                round_end = math.inf
            round_budget = max(len(running), (self.budget - it) // left)
            spent = 0
            while spent + len(running) <= round_budget:
                if spent and deadline is not None and clock() >= round_end:
                    break
                world, weight = self._next_world()
                worlds += 1
                crn = self.rng.getrandbits(32)
                for k, m in enumerate(running):
                    w = world if k == len(running) - 1 else world.clone()
                    self.crn = crn  # the same rollout randomness after every move
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
        self.iterations = it
        best = running[0]
        if self.config.deviate > 0 and best != favourite:
            return best if self._beats(rewards[best], rewards[favourite]) else favourite
        return best

    def _beats(self, ours: dict[int, float], theirs: dict[int, float]) -> bool:
        """Whether a move beat the heuristic's favourite on the worlds both were played
        in by more than ``deviate`` standard errors (a paired test)."""
        diffs = [ours[k] - theirs[k] for k in ours.keys() & theirs.keys()]
        if len(diffs) < 2:
            return False
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
        return mean > self.config.deviate * math.sqrt(var / len(diffs))

    def _iterate(self, world: Game, start: Node, root_moves: set[Move] | None) -> list[float]:
        """One iteration from ``start`` (the root, whose moves are ``root_moves``, or a
        node below it): select and expand in the tree, roll out, back up; the reward."""
        path = self._descend(world, start, root_moves)
        reward = self._rollout(world)
        start.visits += 1
        for child in path:
            child.visits += 1
            child.reward += reward[child.player]
        return reward

    def _descend(self, world: Game, start: Node, root_moves: set[Move] | None) -> list[Node]:
        """Walk down the tree from ``start``, playing each move in ``world``: the best
        child by UCB while every move here has one, then one new child for an untried
        move (the path's last node), or to the end of the game. With
        ``opponents="policy"`` the other seats play the rollout policy instead. The
        nodes passed, ``start`` left out."""
        node = start
        path: list[Node] = []
        root = start if root_moves is not None else None
        me = self.me if self.config.opponents == "policy" else -1
        while not world.is_over:
            seat = world.current_player
            assert seat is not None
            if me >= 0 and seat != me:
                self._play_out(world, 1)
                continue
            at_root = node is root
            legal = self._tree_moves(world, seat, root_moves if at_root else None)
            children = node.children
            kids = [children.get(m) for m in legal]
            new = None in kids
            if new:
                node = self._expand(node, seat, legal, kids, at_root)
            else:
                node = self._select(cast("list[Node]", kids), at_root)
            move = node.move
            assert move is not None
            world.apply(move)
            path.append(node)
            if new:
                break  # the rollout starts at the new node
        return path

    def _tree_moves(self, world: Game, seat: int, root_moves: set[Move] | None) -> list[Move]:
        """The moves the tree holds for ``seat`` now: at the root the searched ones,
        below it the legal moves with the last-card calls worth making."""
        legal = world.legal_moves()
        if root_moves is not None:
            return [m for m in legal if m in root_moves]
        if len(legal) > 1:
            return call_moves(legal, world.hand_count(seat)) if self.cycles else prefer_calls(legal)
        return legal

    def _expand(
        self, node: Node, seat: int, legal: list[Move], kids: list[Node | None], at_root: bool
    ) -> Node:
        """A new child of ``node`` for one of its untried moves (the root's most liked
        by the prior, else one at random); every tried sibling was available too."""
        untried = [m for m, k in zip(legal, kids, strict=True) if k is None]
        if at_root and self.bias:
            move = max(untried, key=self.bias.__getitem__)
        elif len(untried) > 1:
            move = untried[self.rng.randrange(len(untried))]
        else:
            move = untried[0]
        for k in kids:
            if k is not None:
                k.avail += 1
        child = Node(move, seat)
        node.children[move] = child
        return child

    def _select(self, kids: list[Node], at_root: bool) -> Node:
        """The child with the best UCB value (its mean reward, plus exploration by how
        often it was available, plus the prior's bias at the root); each was available."""
        c = self.config.c
        log = math.log
        sqrt = math.sqrt
        bias = self.bias if at_root else None
        best = kids[0]
        best_value = -1.0
        for kid in kids:
            kid.avail += 1
            visits = kid.visits
            value = kid.reward / visits + c * sqrt(log(kid.avail) / visits)
            if bias:
                value += bias[kid.move] / (1.0 + visits) * 10.0  # type: ignore[index]
            if value > best_value:
                best_value = value
                best = kid
        return best

    # -- rollouts and evaluation -------------------------------------------------------

    def _rollout(self, world: Game) -> list[float]:
        """Play the rollout policy for ``rollout_depth`` moves, then score the world."""
        if self.config.rollout_depth > 0:
            self._play_out(world, self.config.rollout_depth)
        return self._evaluate(world)

    def _play_out(self, world: Game, moves: int) -> None:
        """Up to ``moves`` moves of the rollout policy (also the opponents' in the tree
        with ``opponents="policy"``): the engine's greedy playout, one move in
        ``1/epsilon`` exploring, or uniform with ``rollout="random"``."""
        seed = self.crn
        self.crn = (seed * 1103515245 + 12345) & _M32
        if self.config.rollout == "random":
            world.playout(seed=seed, max_moves=moves)
        else:
            world.playout(seed=seed, policy="greedy", epsilon=self.config.epsilon, max_moves=moves)

    def _evaluate(self, world: Game) -> list[float]:
        """Each seat's reward: the result of a finished round (losers ranked by points
        when points matter), else the leaf model of a cut rollout."""
        n = self.n
        result = world.result
        if result is not None:
            out = [0.0] * n
            if result.winner is not None:
                out[result.winner] = 1.0
            else:
                return [1.0 / n] * n
            if self.points_matter and n > 2:
                # the losers of a round are also ranked by the points they are left with
                points = result.points
                for s in range(n):
                    if s != result.winner:
                        out[s] = 0.15 * (1.0 - min(points[s], 100) / 100.0)
            return out
        leaf = self.config.leaf
        if leaf == "fitted" and isinstance(world, SheddingGame):
            return leaf_chances(world, self.weights)
        counts = [float(world.hand_count(s)) for s in range(n)]
        if leaf == "rich" and isinstance(world, SheddingGame):
            _enrich(world, counts)
        k = self.config.sharpness
        weights = [math.exp(-k * x) for x in counts]
        total = sum(weights)
        return [x / total for x in weights]


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


__all__ = ["Node", "Search"]
