"""Moves as action ids and views as feature vectors, shared by the OpenSpiel and
PettingZoo adapters (standard library only; numpy is used by the callers).

Action ids are the same for every ruleset: a play is ``(card * 5 + declared) * 2 + call``
with ``card`` 0..54 (``suit * 13 + rank`` for the 52, then BJ, RJ, JK), ``declared`` 0
for none or 1 + suit, ``call`` 1 for a last-card call; then ``draw`` and ``pass``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from crazy_eights.engine.cards import SUITS, Card, cards_of, parse_card
from crazy_eights.engine.game import Game
from crazy_eights.engine.moves import DRAW, PASS, Move, MoveKind
from crazy_eights.engine.rules import Rules
from crazy_eights.engine.shedding import SheddingGame

NUM_CARDS = 55
DRAW_ACTION = NUM_CARDS * 10
PASS_ACTION = DRAW_ACTION + 1
NUM_ACTIONS = PASS_ACTION + 1
_JOKER_INDEX = {13: 52, 14: 53, 15: 54}
_INDEX_CARD = {v: k for k, v in _JOKER_INDEX.items()}
PHASES = (
    "play",
    "drawn",
    "after_draw",
    "declare",
    "lead",
    "follow",
    "over",
)


def card_index(card: Card) -> int:
    joker = _JOKER_INDEX.get(card)
    if joker is not None:
        return joker
    return (card >> 4) * 13 + (card & 15)


def index_card(index: int) -> Card:
    if index >= 52:
        return _INDEX_CARD[index]
    return (index // 13) * 16 + index % 13


def encode_move(move: Move) -> int:
    """The action id of a move (``timeout`` and suit-only declarations have none)."""
    if move is DRAW:
        return DRAW_ACTION
    if move is PASS:
        return PASS_ACTION
    if move.kind is not MoveKind.PLAY or move.card is None:
        raise ValueError(f"{move.text!r} has no action id")
    declared = 0 if move.suit is None else 1 + move.suit
    return (card_index(move.card) * 5 + declared) * 2 + int(move.call)


_DECODED: dict[int, Move] = {}
"""``decode_action`` of every action id met so far (an environment decodes every step)."""


def decode_action(action: int) -> Move:
    move = _DECODED.get(action)
    if move is None:
        move = _DECODED[action] = _decode(action)
    return move


def _decode(action: int) -> Move:
    if action == DRAW_ACTION:
        return DRAW
    if action == PASS_ACTION:
        return PASS
    if not 0 <= action < DRAW_ACTION:
        raise ValueError(f"no move has action id {action}")
    call = bool(action & 1)
    rest = action >> 1
    declared = rest % 5
    card = index_card(rest // 5)
    return Move.play(card, None if declared == 0 else declared - 1, call=call)


_ACTION_IDS: dict[Move, int] = {}
"""``encode_move`` of every move met so far (moves are interned: a lookup by identity)."""


_LEGAL_IDS: dict[tuple[Move, ...], tuple[int, ...]] = {}
"""``legal_action_ids`` by the game's tuple of legal moves (``Game.legal_tuple``)."""


def legal_action_ids(game: Game) -> tuple[int, ...]:
    """The action ids of the legal moves, in order, as a tuple shared by every position
    with the same moves (asked every step: looked up by the game's own move tuple)."""
    legal = game.legal_tuple()
    found = _LEGAL_IDS.get(legal)
    if found is None:
        if len(_LEGAL_IDS) > 100_000:
            _LEGAL_IDS.clear()
        found = _LEGAL_IDS[legal] = tuple(sorted(_action_id(move) for move in legal))
    return found


def _action_id(move: Move) -> int:
    action = _ACTION_IDS.get(move)
    if action is None:
        action = _ACTION_IDS[move] = encode_move(move)
    return action


def legal_actions(game: Game) -> list[int]:
    """The action ids of the legal moves, in order."""
    return list(legal_action_ids(game))


def info_string(game: Game, seat: int, *, log: bool) -> str:
    """What ``seat`` knows (its view, with the round's log for the information state)."""
    view: dict[str, Any] = dict(game.view(seat, log=log))
    view.pop("legal", None)
    view.pop("legal_moves", None)
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


def feature_size(rules: Rules, *, history: bool) -> int:
    n = rules.players
    size = 64 * 3 + 4 + 1 + 3 + 3 * n + len(PHASES)
    return size + (n * 64 if history else 0)


FEATURE_LOW = -1.0
FEATURE_HIGH = 1.0
"""Every feature lies in ``FEATURE_LOW..FEATURE_HIGH`` (the observation space's box)."""


def features(game: Game, seat: int, *, history: bool) -> list[float]:
    """A fixed-size vector of ``seat``'s view (its hand, the table, the public counts),
    each in -1..1; with ``history``, also the cards each seat has played this round."""
    if not history and isinstance(game, SheddingGame):
        out = [0.0] * feature_size(game.rules, history=False)
        for index, value in sparse_features(game, seat).items():
            out[index] = value
        return out
    return view_features(game, seat, history=history)


def view_features(game: Game, seat: int, *, history: bool) -> list[float]:
    """``features`` read from ``seat``'s view (every ruleset; the history from its log)."""
    rules = game.rules
    n = rules.players
    view: Mapping[str, Any] = game.view(seat, log=history)
    out = [0.0] * feature_size(rules, history=history)
    for text in view.get("hand", ()):
        out[parse_card(text)] += 0.5
    if "top" in view:
        out[64 + parse_card(view["top"])] = 1.0
        seen = view.get("discard", ())
    else:
        for entry in view.get("cycle", ()):
            out[64 + parse_card(entry["card"])] = 1.0
        seen = view.get("removed", ())
    for text in seen:
        out[128 + parse_card(text)] += 0.5
    suit = view.get("active_suit") or view.get("lead_suit")
    if suit:
        out[192 + SUITS.index(suit)] = 1.0
    out[196] = float(bool(view.get("declared")))
    out[197] = min(int(view.get("pending_draw", 0)), 20) / 20.0
    out[198] = 1.0 if view.get("direction", 1) == 1 else 0.0
    out[199] = int(view.get("stock", 0)) / rules.deck_size()
    base = 200
    current = view.get("current")
    for k in range(n):
        s = (seat + k) % n
        player = view["players"][s]
        out[base + k] = int(player["cards"]) / rules.deck_size()
        out[base + n + k] = _standing(player, rules)
        out[base + 2 * n + k] = float(current == s)
    base += 3 * n
    phase = view.get("phase")
    if phase in PHASES:
        out[base + PHASES.index(phase)] = 1.0
    base += len(PHASES)
    if history:
        for event in view.get("log", ()):
            if event.get("type") == "played" and isinstance(event.get("seat"), int):
                k = (event["seat"] - seat) % n
                out[base + 64 * k + parse_card(event["cards"][0])] = 1.0
    return out


def sparse_features(game: Game, seat: int) -> dict[int, float]:
    """The features of ``features(game, seat, history=False)`` that are not zero, by
    index. A shedding game's are read from its public state, not its view (a test
    compares them): an environment asks every step, and a numpy array takes them in
    one assignment instead of converting a whole list."""
    if not isinstance(game, SheddingGame):
        vector = view_features(game, seat, history=False)
        return {index: value for index, value in enumerate(vector) if value}
    rules = game.rules
    n = rules.players
    deck = rules.deck_size()
    out: dict[int, float] = {}
    get = out.get
    for card in cards_of(game.hands[seat]):
        out[card] = get(card, 0.0) + 0.5
    out[64 + game.top] = 1.0
    for card in game.discard:
        out[128 + card] = get(128 + card, 0.0) + 0.5
    out[192 + game.suit] = 1.0
    if game.declared:
        out[196] = 1.0
    if game.pending_draw:
        out[197] = min(game.pending_draw, 20) / 20.0
    if game.direction == 1:
        out[198] = 1.0
    if game.stock:
        out[199] = len(game.stock) / deck
    target = float(rules.target or 100)
    numbers = game.numbers
    hands = game.hands
    for k in range(n):
        s = (seat + k) % n
        if hands[s]:
            out[200 + k] = hands[s].bit_count() / deck
        if numbers:
            out[200 + n + k] = numbers[s] / 8.0
        elif game.scores[s]:
            out[200 + n + k] = max(-1.0, min(1.0, game.scores[s] / target))
    current = game.current_player
    if current is not None:
        out[200 + 2 * n + (current - seat) % n] = 1.0
    out[200 + 3 * n + _PHASE_INDEX[game.phase_name]] = 1.0
    return out


_PHASE_INDEX = {name: index for index, name in enumerate(PHASES)}


def _standing(player: Mapping[str, Any], rules: Rules) -> float:
    """A seat's standing in -1..1: its countdown number over 8; the cards of the lead
    suit a false call revealed (Y13) over 13, -1 for none; else its score over the
    target (100 without one), clipped: a finished ``openspiel`` game scores minus the
    points left in hand, a match total may pass the target."""
    if "number" in player:
        return float(player["number"]) / 8.0
    if "revealed" in player:
        return -1.0 if player["revealed"] is None else min(float(player["revealed"]), 13.0) / 13.0
    scaled = float(player.get("score", 0)) / float(rules.target or 100)
    return max(-1.0, min(1.0, scaled))
