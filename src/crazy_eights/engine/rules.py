"""Rulesets and their table settings (RULES sections 1-5).

``Rules`` is a frozen dataclass with keyword-only settings. A setting left at ``None``
takes the ruleset's default, so ``Rules(ruleset="ultimate", players=4)`` equals
``Rules.preset("ultimate", players=4)``. A setting that does not apply to the ruleset,
an unknown setting or a value out of range is refused with a message that names the
setting and the values it allows.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from .cards import (
    ACE,
    EIGHT,
    JOKER_TEXT,
    QUEEN,
    RANK_MASK,
    TWO,
    Card,
    Mask,
    cycles_value,
    openspiel_points,
    shedding_points,
)
from .rng import Rng

Ruleset = Literal["classic", "ultimate", "countdown", "cycles", "openspiel"]
DEALER_SALT = 0x6465616C6572
"""Mixed into the seed for the first dealer's draw (G9): its own numbers, not the deck's."""
RULESETS: tuple[Ruleset, ...] = ("classic", "ultimate", "countdown", "cycles", "openspiel")
DrawPolicy = Literal["single", "until_playable", "single_then_pass", "until_play"]
LastCard = Literal["manual", "auto", "off"]
Action = Literal["draw_two", "skip", "reverse"]

PLAYERS: dict[str, tuple[int, int]] = {
    "classic": (2, 5),
    "ultimate": (2, 8),
    "countdown": (2, 6),
    "cycles": (2, 11),
    "openspiel": (2, 15),
}

# setting -> {ruleset: default}; a ruleset missing from the inner dict does not use it.
_DEFAULTS: dict[str, dict[str, Any]] = {
    "hand_size": {"classic": "auto", "ultimate": "auto"},
    "packs": {"ultimate": "auto"},
    "voluntary_draw": {"classic": True, "ultimate": True, "countdown": True},
    "draw_policy": {
        "classic": "single",
        "ultimate": "single_then_pass",
        "countdown": "until_play",
    },
    "stock_empty": {"classic": "block", "ultimate": "reshuffle", "openspiel": "block"},
    "action_cards": {"classic": False, "ultimate": True, "openspiel": False},
    "last_card": {
        "classic": "manual",
        "ultimate": "manual",
        "countdown": "off",
        "cycles": "manual",
    },
    "ace_points": {"classic": 1, "ultimate": 1},
    "mode": {"classic": "match", "ultimate": "match", "countdown": "match"},
    "target": {"classic": 500, "ultimate": 100},
    "start": {"countdown": 8},
    "cycle_limit": {"cycles": 30},
    "max_draw_cards": {"openspiel": 5},
    "max_turns": {"openspiel": 100},
    "first_dealer": {"classic": "seat0", "ultimate": "seat0", "countdown": "seat0"},
}

_ADDED: dict[str, Any] = {"first_dealer": "seat0"}
"""Settings added after games were stored, with the value that means the play before
them: ``to_dict`` leaves such a setting out at that value, so the rules (and the events
and views that carry them) of those games read exactly as before (G4)."""

_ALLOWED: dict[str, tuple[Any, ...] | tuple[int, int]] = {
    "hand_size": ("auto", 5, 7),
    "packs": ("auto", 1, 2),
    "voluntary_draw": (True, False),
    "draw_policy": ("single", "until_playable", "single_then_pass", "until_play"),
    "stock_empty": ("block", "reshuffle"),
    "action_cards": (True, False),
    "last_card": ("manual", "auto", "off"),
    "ace_points": (1, 11),
    "first_dealer": ("seat0", "drawn"),
    "mode": ("single", "match"),
}
_RANGES: dict[str, tuple[int, int]] = {
    "target": (50, 5000),
    "start": (2, 8),
    "cycle_limit": (1, 500),
    "turn_timer": (10, 3600),
    "max_draw_cards": (1, 100),
    "max_turns": (1, 10000),
}
# Draw policies a ruleset may use: countdown's own (K5) is the only one it has.
_POLICIES: dict[str, tuple[str, ...]] = {
    "classic": ("single", "until_playable", "single_then_pass"),
    "ultimate": ("single", "until_playable", "single_then_pass"),
    "countdown": ("until_play",),
}

SETTING_HELP: dict[str, str] = {
    "players": "number of seats",
    "hand_size": "cards dealt to each player: auto deals 7 to each of 2 players, else 5",
    "packs": "52-card packs: auto uses two for 6 to 8 players",
    "voluntary_draw": "a player may draw even when holding a legal card",
    "draw_policy": (
        "single: draw one and maybe play it; until_playable: draw until a legal card; "
        "single_then_pass: drawing one card ends the turn; "
        "until_play: keep drawing, one draw a move, until you play"
    ),
    "stock_empty": "block: an empty stock stays empty; reshuffle: the discards make a new stock",
    "action_cards": "2 draw two, Q skip, A reverse",
    "last_card": "manual: call it with the play (!); auto: called for you; off: no call",
    "ace_points": "points of an ace left in hand",
    "first_dealer": "seat0: seat 0 deals the first round; drawn: the seed draws the first dealer",
    "mode": "single: one round; match: rounds up to the target",
    "target": "match score that ends the match",
    "start": "each player's starting number (cards dealt and wild rank)",
    "cycle_limit": "cycles played at most before the game ends",
    "turn_timer": "seconds a player has for a move before the table times them out",
    "max_draw_cards": "cards a player may draw in one turn before passing (openspiel)",
    "max_turns": "card plays after which the game ends and hands are scored (openspiel)",
}


class RulesError(ValueError):
    """An invalid ruleset, setting or combination of settings."""


@dataclass(frozen=True, kw_only=True)
class Rules:
    """A ruleset with its table settings; build with ``Rules.preset(name, players=n)``."""

    ruleset: Ruleset = "classic"
    players: int = 4
    hand_size: Literal["auto", 5, 7] | None = None
    packs: Literal["auto", 1, 2] | None = None
    voluntary_draw: bool | None = None
    draw_policy: DrawPolicy | None = None
    stock_empty: Literal["block", "reshuffle"] | None = None
    action_cards: bool | None = None
    last_card: LastCard | None = None
    ace_points: Literal[1, 11] | None = None
    first_dealer: Literal["seat0", "drawn"] | None = None
    mode: Literal["single", "match"] | None = None
    target: int | None = None
    start: int | None = None
    cycle_limit: int | None = None
    max_draw_cards: int | None = None
    max_turns: int | None = None
    turn_timer: int = 180

    def __post_init__(self) -> None:
        if self.ruleset not in RULESETS:
            raise RulesError(f"ruleset must be one of {', '.join(RULESETS)}; got {self.ruleset!r}")
        low, high = PLAYERS[self.ruleset]
        if not isinstance(self.players, int) or not low <= self.players <= high:
            raise RulesError(
                f"players must be {low} to {high} for {self.ruleset}; got {self.players!r}"
            )
        for name, defaults in _DEFAULTS.items():
            value = getattr(self, name)
            if value is None:
                object.__setattr__(self, name, defaults.get(self.ruleset))
            elif self.ruleset not in defaults:
                raise RulesError(
                    f"setting {name} does not apply to {self.ruleset}; it is a setting of "
                    f"{', '.join(defaults)}"
                )
            else:
                _check_value(name, value)
        _check_value("turn_timer", self.turn_timer)
        policies = _POLICIES.get(self.ruleset)
        if policies is not None and self.draw_policy not in policies:
            raise RulesError(
                f"draw_policy must be one of {', '.join(policies)} for {self.ruleset}; "
                f"got {self.draw_policy!r}"
            )
        cards = self.deck_size() - (0 if self.ruleset == "cycles" else 1)
        dealt = self.cards_dealt()
        if dealt > cards:
            raise RulesError(
                f"hand_size x players = {dealt} cards is more than the {cards} the deck "
                f"has to deal ({self.ruleset}, {self.players} players, {self.pack_count()} "
                "pack(s)); use fewer players, a smaller hand or two packs"
            )

    # -- construction -------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str, *, players: int | None = None, **settings: Any) -> Rules:
        """The named ruleset's defaults, with any settings changed."""
        if name not in RULESETS:
            raise RulesError(f"ruleset must be one of {', '.join(RULESETS)}; got {name!r}")
        _check_names(settings)
        if players is None:
            players = 4
        return cls(ruleset=name, players=players, **settings)

    def replace(self, **settings: Any) -> Rules:
        """A copy with some settings changed (validated like a new ruleset).

        Changing ``ruleset`` resets the ruleset's settings to the new one's defaults.
        """
        _check_names(settings, extra=("ruleset",))
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        ruleset = settings.get("ruleset", self.ruleset)
        if ruleset != self.ruleset:
            for name in _DEFAULTS:
                values[name] = None
        values.update(settings)
        return Rules(**values)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rebuild rules from ``to_dict()`` output (or any dict of settings)."""
        data = dict(data)
        name = data.pop("ruleset", "classic")
        players = data.pop("players", None)
        return cls.preset(name, players=players, **data)

    def to_dict(self) -> dict[str, Any]:
        """Every setting that applies to this ruleset, JSON-ready (a setting of ``_ADDED``
        only when it departs from the play before it)."""
        out: dict[str, Any] = {"ruleset": self.ruleset, "players": self.players}
        for name, defaults in _DEFAULTS.items():
            if self.ruleset in defaults and not (
                name in _ADDED and getattr(self, name) == _ADDED[name]
            ):
                out[name] = getattr(self, name)
        out["turn_timer"] = self.turn_timer
        return out

    # -- derived facts: the rule questions that depend on the ruleset alone -------------

    def first_dealer_seat(self, seed: int) -> int:
        """The seat that deals a game's first round (G9): seat 0, or with
        ``first_dealer=drawn`` one drawn from the seed, by a generator of its own so that
        the cards dealt are the same either way."""
        if self.first_dealer != "drawn":
            return 0
        return Rng(seed ^ DEALER_SALT).below(self.players)

    @property
    def family(self) -> Literal["shedding", "cycles"]:
        return "cycles" if self.ruleset == "cycles" else "shedding"

    @property
    def has_action_cards(self) -> bool:
        """Whether 2, Q and A act (C8, U0, OpenSpiel's special cards); never in countdown
        or cycles."""
        return bool(self.action_cards) and self.ruleset in ("classic", "ultimate", "openspiel")

    @property
    def twos_stack(self) -> bool:
        """Whether a 2 starts a draw-two that the next player answers with a 2 or a draw
        (ultimate U7, OpenSpiel), rather than one taken at once (classic C8)."""
        return self.has_action_cards and self.ruleset in ("ultimate", "openspiel")

    @property
    def has_numbers(self) -> bool:
        """Whether each player has a number that sets their hand and wild rank (K1)."""
        return self.ruleset == "countdown"

    @property
    def counts_points(self) -> bool:
        """Whether the cards left in hand score when a round ends (C11, U10, OpenSpiel);
        countdown scores none (K6) and cycles ranks hands without scoring them (Y17)."""
        return self.ruleset in ("classic", "ultimate", "openspiel")

    @property
    def goal(self) -> str:
        """What wins the game, in a few words a table shows beside the scores (C10, C11,
        U10, K7, Y17, OS10): the browser draws this text and writes no win condition of
        its own."""
        if self.ruleset == "cycles":
            return "the first out wins, else the lowest hand when the cycles run out"
        if self.ruleset == "openspiel":
            return "one round: the first out wins, else the fewest points"
        if self.mode == "single":
            return "single round: the first out wins"
        if self.ruleset == "countdown":
            return "win a round on number 1 to win"
        if self.ruleset == "ultimate":
            return f"penalty points; at {self.target} the lowest wins"
        return f"first to {self.target} wins"

    @property
    def blockade(self) -> str:
        """Who wins a blocked round and why, in words a round summary and How to play
        show (C10, U9, K5, OS8, Y14): the browser writes no blockade rule of its own."""
        if self.ruleset == "countdown":
            return "nobody wins a blocked round; the same numbers are dealt again"
        if self.ruleset == "cycles":
            return "the lowest hand value wins"
        return "the fewest points in hand wins, then the fewest cards"

    def answer_draw_two(self, pending: int) -> str:
        """What a player facing a pending draw of ``pending`` cards may do, in words for
        the turn line (U7): another 2 or the draw; nothing when no draw is pending."""
        if pending <= 0 or not self.twos_stack:
            return ""
        return f"Play a 2 or draw {pending}"

    def action(self, card: Card) -> Action | None:
        """What ``card`` does when played (not as a wild card) under these rules: a 2
        ``draw_two``, a Q ``skip``, an A ``reverse`` (C8, U5-U7), or nothing."""
        if not self.has_action_cards or card in JOKER_TEXT:
            return None
        rank = card & 15
        if rank == TWO:
            return "draw_two"
        if rank == QUEEN:
            return "skip"
        if rank == ACE:
            return "reverse"
        return None

    def wild_rank(self, number: int | None = None) -> int | None:
        """The rank index (0 = ace) that is wild: the eight (C4, U4, OpenSpiel), in
        countdown the player's ``number`` (K1, 1 = ace); cycles has no wild card."""
        if self.ruleset == "cycles":
            return None
        if self.ruleset == "countdown":
            if number is None or not 1 <= number <= 13:
                raise ValueError(f"countdown needs the player's number (1..8); got {number!r}")
            return number - 1
        return EIGHT

    def wild_mask(self, number: int | None = None) -> Mask:
        """The mask of the wild cards of a player with ``number`` (``wild_rank``)."""
        rank = self.wild_rank(number)
        return 0 if rank is None else RANK_MASK[rank]

    def is_wild(self, card: Card, number: int | None = None) -> bool:
        """Whether ``card`` is wild for a player with ``number`` (countdown) under these
        rules: it may be played on anything but a pending draw-two, declaring a suit."""
        return bool(self.wild_mask(number) >> (card & 63) & 1)

    def card_points(self, card: Card) -> int:
        """What ``card`` counts left in a hand: G8 (with ``ace_points``), OpenSpiel's
        table, or the Y2 value in cycles."""
        if self.ruleset == "cycles":
            return cycles_value(card)
        if self.ruleset == "openspiel":
            return openspiel_points(card)
        return shedding_points(card, ace_points=int(self.ace_points or 1))

    def pack_count(self) -> int:
        if self.ruleset == "cycles":
            return 1
        if self.packs in (1, 2):
            return int(self.packs)
        if self.ruleset in ("ultimate", "openspiel") and self.players >= 6:
            return 2
        return 1

    def deck_size(self) -> int:
        return 55 if self.ruleset == "cycles" else 52 * self.pack_count()

    def hand_count(self) -> int:
        """Cards dealt to each player (countdown: the starting number)."""
        if self.ruleset == "cycles":
            return 5
        if self.ruleset == "countdown":
            return int(self.start or 8)
        if self.hand_size in (5, 7):
            return int(self.hand_size)
        return 7 if self.players == 2 else 5

    def cards_dealt(self) -> int:
        return self.hand_count() * self.players

    @staticmethod
    def settings_for(ruleset: str) -> dict[str, Any]:
        """The settings of a ruleset with their defaults and allowed values, for forms."""
        if ruleset not in RULESETS:
            raise RulesError(f"ruleset must be one of {', '.join(RULESETS)}; got {ruleset!r}")
        low, high = PLAYERS[ruleset]
        out: dict[str, Any] = {
            "players": {"default": 4, "range": [low, high], "help": SETTING_HELP["players"]}
        }
        for name, defaults in _DEFAULTS.items():
            if ruleset in defaults:
                entry: dict[str, Any] = {"default": defaults[ruleset], "help": SETTING_HELP[name]}
                if name == "draw_policy":
                    entry["choices"] = list(_POLICIES[ruleset])
                elif name in _ALLOWED:
                    entry["choices"] = list(_ALLOWED[name])
                else:
                    entry["range"] = list(_RANGES[name])
                out[name] = entry
        out["turn_timer"] = {
            "default": 180,
            "range": list(_RANGES["turn_timer"]),
            "help": SETTING_HELP["turn_timer"],
        }
        return out


def parse_setting_pairs(pairs: list[str]) -> dict[str, Any]:
    """``key=value`` texts (command lines, forms) to settings: whole numbers, true/false
    (also on/off, yes/no), or text. ``Rules`` then validates them."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"expected key=value, got {pair!r}")
        value: Any = raw
        if raw.lower() in ("true", "on", "yes"):
            value = True
        elif raw.lower() in ("false", "off", "no"):
            value = False
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        out[key.strip()] = value
    return out


def _setting_names() -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(Rules) if not f.name.startswith("_"))


def _check_names(settings: dict[str, Any], extra: tuple[str, ...] = ()) -> None:
    names = set(_setting_names()) - {"ruleset"} | set(extra)
    for name in settings:
        if name not in names:
            raise RulesError(f"unknown setting {name!r}; settings are: {', '.join(sorted(names))}")


def _check_value(name: str, value: Any) -> None:
    if name in _ALLOWED:
        allowed = _ALLOWED[name]
        # bool is an int: keep True from passing for 1 and 1 for True.
        if not any(value == a and type(value) is type(a) for a in allowed):
            shown = ", ".join(repr(a) for a in allowed)
            raise RulesError(f"{name} must be one of {shown}; got {value!r}")
    else:
        low, high = _RANGES[name]
        if type(value) is not int or not low <= value <= high:
            raise RulesError(f"{name} must be a whole number from {low} to {high}; got {value!r}")
