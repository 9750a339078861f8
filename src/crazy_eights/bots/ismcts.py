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

The bot itself holds only its configuration (``IsmctsConfig``, ``ismcts_config.py``)
and its seed's generator; each decision is a ``Search`` (``search.py``) made by
``choose`` and dropped after it.

Rollouts are the engine's playout core (``Game.playout``): no event, no move parsing,
no legal-move copies; its ``greedy`` policy is the cheap rollout policy described below,
and its seed gives every move compared on one world the same rollout randomness.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from crazy_eights.engine.moves import Move

from .base import check_legal
from .cycles import call_moves
from .heuristic import HeuristicBot, prefer_calls
from .ismcts_config import DEFAULT_TIME_MS, IsmctsConfig
from .search import Node, Search


class IsmctsBot:
    """ISMCTS on a budget of time (150 ms a decision by default) or of iterations.

    Build it with ``config=IsmctsConfig(...)`` or with the config's fields as keywords
    (``IsmctsBot(seed=1, iterations=500, leaf="rich")``, what ``make_bot`` and the
    lab's specs do), not both. The options, their defaults and their checks are
    ``IsmctsConfig``'s:

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
    (sequential halving over common determinizations, see ``Search._halving``), among
    the ``candidates`` moves the heuristic likes best (0: every move). ``opponents``:
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

    ``last_iterations`` and ``last_seconds`` report the last decision's search.
    """

    name = "ismcts"

    def __init__(self, *, seed: int, config: IsmctsConfig | None = None, **options: Any) -> None:
        if config is not None and options:
            raise ValueError(
                "give IsmctsBot either config= or option keywords, not both; "
                f"got config and {', '.join(sorted(options))}"
            )
        self.config = config if config is not None else IsmctsConfig.from_options(options)
        self.seed = seed
        self.rng = random.Random(seed)
        self.last_iterations = 0
        self.last_seconds = 0.0
        self._fallback = HeuristicBot(seed=seed)

    def choose(self, view: dict[str, Any], legal: Sequence[Move]) -> Move:
        """The move the search finds best (the only sensible one without searching)."""
        check_legal(legal)
        cycles = view.get("ruleset") == "cycles"
        moves = call_moves(legal, len(view["hand"])) if cycles else prefer_calls(legal)
        self.last_iterations = 0
        self.last_seconds = 0.0
        if len(moves) == 1:
            return moves[0]
        search = Search(self.config, view, moves, random.Random(self.rng.getrandbits(64)))
        best = search.run()
        self.last_iterations = search.iterations
        self.last_seconds = search.seconds
        if best is None:
            return self._fallback.choose(view, legal)
        return best

    def move_values(
        self, view: dict[str, Any], moves: Sequence[Move], *, worlds: int
    ) -> dict[Move, float]:
        """Each of ``moves`` (legal now) valued as the chance that the seat to move wins
        the round after it, every move played in the same ``worlds`` determinizations
        with the same rollout randomness, so the values compare moves on the same cards
        (game analysis). Only the seat's view is read."""
        moves = list(dict.fromkeys(moves))
        if not moves or worlds < 1:
            raise ValueError("move_values needs at least one move and one world")
        search = Search(self.config, view, moves, random.Random(self.rng.getrandbits(64)))
        return search.values(worlds)


__all__ = ["DEFAULT_TIME_MS", "IsmctsBot", "IsmctsConfig", "Node"]
