"""Every ruleset as an OpenSpiel Python game, and a resampler for OpenSpiel's ISMCTS.

    import pyspiel
    import crazy_eights.interop.openspiel  # registers the games
    game = pyspiel.load_game("python_crazy_eights_ultimate", {"players": 4})

Games are named ``python_crazy_eights_<ruleset>`` and take ``players`` and every setting
of the ruleset (``Rules.settings_for``) as parameters; ``hand_size`` and ``packs`` are
strings ("auto", "5", ...). ``mode`` defaults to ``single`` (one round); ``max_moves``
cuts a game that runs longer (a draw for everyone).

Chance: a game opens by dealing the whole deck through chance nodes whose outcomes are
cards (``encoding.card_index``, 0..54), each uniform over the cards still to deal: one
card at a time around the table from the dealer's left, then the stock from its top
(the starter is then turned from it by the ruleset's own rule). The ``openspiel``
ruleset first draws its dealer, as OpenSpiel's ``crazy_eights`` does (outcome
``NUM_CARDS + seat``). Nothing later is a chance node: the engine's generator, which
decides reshuffles (U9), cycles tie-breaks (Y4) and later rounds of a match, is seeded
from the deal's outcomes, so a game is still a function of its chance outcomes and
actions. Actions are ``encoding.encode_move`` ids, the same for every ruleset.

Returns: the ``openspiel`` ruleset pays what OpenSpiel's crazy_eights pays (minus the
points left in hand, general-sum); the others pay 1 to the winner and 0 to the others
(1/n each when there is no winner), constant-sum 1.

Information state: the seat's view with the round's event log (``Game.view``), as a
string, and as a tensor (the observation tensor plus each seat's played cards).
``resample_from_infostate`` deals the cards the player cannot see anew
(``Game.redeal``: same counts, a card another seat must play kept), for
``ismcts.ISMCTSBot``.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np
import pyspiel

from crazy_eights.engine import Deal, Game, new_game
from crazy_eights.engine.cards import CARD_TEXT, Card, cycles_deck, standard_deck
from crazy_eights.engine.rules import PLAYERS, RULESETS, Rules

from . import encoding

DEALER_OUTCOME = encoding.NUM_CARDS
"""The chance outcome ``DEALER_OUTCOME + seat`` makes ``seat`` the dealer (openspiel)."""


def game_name(ruleset: str) -> str:
    return f"python_crazy_eights_{ruleset}"


def _parameters(ruleset: str) -> dict[str, Any]:
    """pyspiel parameter defaults: ints, bools and strings only."""
    out: dict[str, Any] = {}
    for name, entry in Rules.settings_for(ruleset).items():
        if name == "turn_timer":
            continue
        default = entry["default"]
        if name == "mode":
            default = "single"
        out[name] = str(default) if name in ("hand_size", "packs") else default
    out["max_moves"] = 5000
    return out


def rules_from_params(ruleset: str, params: dict[str, Any]) -> tuple[Rules, int]:
    """The ``Rules`` and the move cap that a set of game parameters stands for."""
    values = _parameters(ruleset)
    values.update(params)
    max_moves = int(values.pop("max_moves"))
    settings: dict[str, Any] = {}
    for name, value in values.items():
        if name in ("hand_size", "packs") and str(value).isdigit():
            value = int(value)
        settings[name] = value
    return Rules.preset(ruleset, **settings), max_moves


def _game_type(ruleset: str) -> pyspiel.GameType:
    openspiel_like = ruleset == "openspiel"
    return pyspiel.GameType(
        short_name=game_name(ruleset),
        long_name=f"Python crazy-eights {ruleset}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.GENERAL_SUM
            if openspiel_like
            else pyspiel.GameType.Utility.CONSTANT_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=PLAYERS[ruleset][1],
        min_num_players=PLAYERS[ruleset][0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(ruleset),
    )


def _game_info(rules: Rules, max_moves: int) -> pyspiel.GameInfo:
    total: float | None = None
    if rules.ruleset == "openspiel":
        low, high = -576.0 * rules.pack_count(), 0.0
    else:
        low, high, total = 0.0, 1.0, 1.0
    return pyspiel.GameInfo(
        num_distinct_actions=encoding.NUM_ACTIONS,
        max_chance_outcomes=DEALER_OUTCOME + rules.players,
        num_players=rules.players,
        min_utility=low,
        max_utility=high,
        utility_sum=total,
        max_game_length=max_moves,
    )


def describe_outcome(outcome: int) -> str:
    """A chance outcome as text: ``deal 8S`` or ``dealer 2``."""
    if outcome >= DEALER_OUTCOME:
        return f"dealer {outcome - DEALER_OUTCOME}"
    return f"deal {CARD_TEXT[encoding.index_card(outcome)]}"


class Dealing:
    """The chance part of a game: the deck dealt card by card (and the dealer drawn)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        deck = cycles_deck() if rules.ruleset == "cycles" else standard_deck(rules.pack_count())
        self.left: dict[Card, int] = {}
        for card in deck:
            self.left[card] = self.left.get(card, 0) + 1
        self.size = len(deck)
        self.cards: list[Card] = []
        self.dealer: int | None = None if rules.ruleset == "openspiel" else 0
        self.outcomes: list[int] = []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealer is None:
            n = self.rules.players
            return [(DEALER_OUTCOME + s, 1.0 / n) for s in range(n)]
        total = self.size - len(self.cards)
        return sorted(
            (encoding.card_index(card), count / total) for card, count in self.left.items() if count
        )

    def apply(self, outcome: int) -> Game | None:
        """Take one chance outcome; the game once the whole deck is dealt."""
        if self.dealer is None:
            if not DEALER_OUTCOME <= outcome < DEALER_OUTCOME + self.rules.players:
                raise ValueError(f"{outcome} is not a dealer outcome")
            self.dealer = outcome - DEALER_OUTCOME
        else:
            card = encoding.index_card(outcome)
            if not self.left.get(card):
                raise ValueError(f"{CARD_TEXT[card]} is not left to deal")
            self.left[card] -= 1
            self.cards.append(card)
        self.outcomes.append(outcome)
        if len(self.cards) < self.size:
            return None
        return new_game(self.rules, self._seed(), deal=self._deal())

    def _deal(self) -> Deal:
        """Hands dealt one card at a time from the dealer's left; then the stock."""
        rules = self.rules
        n = rules.players
        dealer = self.dealer or 0
        counts = [int(rules.start or 8)] * n if rules.has_numbers else [rules.hand_count()] * n
        hands: list[list[str]] = [[] for _ in range(n)]
        cards = iter(self.cards)
        for k in range(max(counts)):
            for step in range(n):
                seat = (dealer + 1 + step) % n
                if k < counts[seat]:
                    hands[seat].append(CARD_TEXT[next(cards)])
        stock = [CARD_TEXT[c] for c in cards]
        if rules.ruleset == "cycles":
            return Deal(hands=hands, stock=stock)
        return Deal(hands=hands, stock=stock, dealer=dealer)

    def _seed(self) -> int:
        digest = hashlib.blake2b(bytes(self.outcomes), digest_size=8).digest()
        return int.from_bytes(digest, "little")


class CrazyEightsState(pyspiel.State):  # type: ignore[misc]
    """A game of one of our rulesets, seen by OpenSpiel."""

    def __init__(self, game: CrazyEightsGame) -> None:
        super().__init__(game)
        self.rules: Rules = game.rules
        self.max_moves: int = game.max_moves
        self.dealing: Dealing | None = Dealing(self.rules)
        self.game: Game | None = None
        self._decisions = 0

    # -- the OpenSpiel state protocol ------------------------------------------------------

    def current_player(self) -> int:
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self.game.current_player
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.game is not None
        return encoding.legal_actions(self.game)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.dealing is not None
        return self.dealing.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            assert self.dealing is not None
            self.game = self.dealing.apply(int(action))
            if self.game is not None:
                self.dealing = None
            return
        self.game.apply(encoding.decode_action(int(action)))
        self._decisions += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return describe_outcome(int(action))
        return encoding.decode_action(int(action)).text

    def is_terminal(self) -> bool:
        game = self.game
        return game is not None and (game.is_over or self._decisions >= self.max_moves)

    def returns(self) -> list[float]:
        n = self.rules.players
        game = self.game
        if game is None or not self.is_terminal():
            return [0.0] * n
        result = game.result
        if self.rules.ruleset == "openspiel":
            points = result.points if result is not None else hand_points(game)
            return [-float(p) for p in points]
        if result is None or result.winner is None:
            return [1.0 / n] * n
        return [1.0 if s == result.winner else 0.0 for s in range(n)]

    def __str__(self) -> str:
        if self.game is None:
            assert self.dealing is not None
            return f"dealing: {len(self.dealing.cards)} cards dealt"
        return encoding.info_string(self.game, 0, log=False) + f" moves={self.game.moves}"

    # -- ISMCTS ---------------------------------------------------------------------------

    def resample_from_infostate(self, player: int, sampler: Any = None) -> CrazyEightsState:
        return resample(self, player, random.Random(_seed_from(sampler)))


def hand_points(game: Game) -> list[int]:
    """What each seat's hand counts (the referee's knowledge)."""
    return [game.hand_points(s) for s in range(game.rules.players)]


def _seed_from(sampler: Any) -> int:
    if sampler is None:
        return random.getrandbits(62)
    try:
        return int(sampler() * (1 << 62))
    except TypeError:
        return random.getrandbits(62)


def resample(state: CrazyEightsState, player: int, rng: random.Random) -> CrazyEightsState:
    """A copy of ``state`` with the cards ``player`` cannot see dealt anew
    (``Game.redeal``): the other hands (same counts) and the stock; a card another
    seat must play or may only play (drawn, forced) stays with that seat. Reshuffles
    get a fresh generator."""
    other: CrazyEightsState = state.clone()
    game = other.game
    if game is not None and not game.is_over:
        game.redeal(rng, player)
    return other


def make_resampler(seed: int) -> Any:
    """A callback for ``ISMCTSBot.set_resampler``: ``cb(state, player) -> state``."""
    rng = random.Random(seed)

    def resampler(state: CrazyEightsState, player: int) -> CrazyEightsState:
        return resample(state, player, rng)

    return resampler


class _Observer:
    """OpenSpiel's Python observer: ``tensor``/``dict`` filled by ``set_from``."""

    def __init__(self, rules: Rules, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; got {params}")
        self.rules = rules
        self.history = bool(iig_obs_type is None or iig_obs_type.perfect_recall)
        size = encoding.feature_size(rules, history=self.history)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CrazyEightsState, player: int) -> None:
        if state.game is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = encoding.features(state.game, player, history=self.history)

    def string_from(self, state: CrazyEightsState, player: int) -> str:
        if state.game is None:
            return ""
        return encoding.info_string(state.game, player, log=self.history)


class CrazyEightsGame(pyspiel.Game):  # type: ignore[misc]
    """Base of the registered games; ``ruleset`` is set by each registered subclass."""

    ruleset = "classic"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.rules, self.max_moves = rules_from_params(self.ruleset, dict(params or {}))
        super().__init__(
            _game_type(self.ruleset), _game_info(self.rules, self.max_moves), params or {}
        )

    def new_initial_state(self) -> CrazyEightsState:
        return CrazyEightsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self.rules, iig_obs_type, params)


GAMES: dict[str, type[CrazyEightsGame]] = {}
for _ruleset in RULESETS:
    _cls = type(f"CrazyEights{_ruleset.title()}Game", (CrazyEightsGame,), {"ruleset": _ruleset})
    GAMES[_ruleset] = _cls
    if game_name(_ruleset) not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(_ruleset), _cls)


def load(ruleset: str, **params: Any) -> Any:
    """``pyspiel.load_game`` for one of our rulesets."""
    return pyspiel.load_game(game_name(ruleset), params)


__all__ = ["GAMES", "CrazyEightsGame", "CrazyEightsState", "game_name", "load", "make_resampler"]
