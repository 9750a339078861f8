"""The search bot's configuration: one frozen dataclass, checked when it is made.

``IsmctsConfig`` holds every option of ``IsmctsBot`` with its default; the choices are
``Literal`` types and ``__post_init__`` rejects a bad value with a message naming the
option, so a bad lab spec or keyword fails before any game is played. The lab's spec
strings (``"ismcts:time_ms=150,c=0.5"``) are split into options by
``levels.parse_bot_spec`` and mapped onto this class by ``from_options``, the one place
that turns options into a configuration; ``spec`` writes one back.

Budget: ``time_ms`` (wall-clock or CPU time per decision, ``clock``) and/or
``iterations``. Neither given: 150 ms a decision, the default time budget (the card
room's "Hard" bot and the lab's plain ``ismcts``). Only ``iterations``: that many
iterations, whatever the time (reproducible: tests and fixed-work benchmarks). Both:
the search stops at whichever comes first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

Rollout = Literal["suits", "random"]
Leaf = Literal["fitted", "counts", "rich"]
Root = Literal["ucb", "halving"]
Opponents = Literal["tree", "policy"]
Clock = Literal["wall", "cpu"]

DEFAULT_TIME_MS = 150.0
"""The time budget of a decision when neither ``time_ms`` nor ``iterations`` is given."""

_CHOICES: dict[str, tuple[str, ...]] = {
    "rollout": get_args(Rollout),
    "leaf": get_args(Leaf),
    "root": get_args(Root),
    "opponents": get_args(Opponents),
    "clock": get_args(Clock),
}
# (lowest, highest) allowed; None: unbounded on that side
_INTS: dict[str, tuple[int, int | None]] = {
    "rollout_depth": (0, None),
    "worlds": (0, None),
    "candidates": (0, None),
}
_FLOATS: dict[str, tuple[float, float | None]] = {
    "c": (0.0, None),
    "epsilon": (0.0, 1.0),
    "sharpness": (0.0, None),
    "prior": (0.0, None),
    "deviate": (0.0, None),
    "infer": (0.0, 2.0),
}


@dataclass(frozen=True, slots=True)
class IsmctsConfig:
    """Every option of the search bot (see ``IsmctsBot`` for what each does).

    - ``iterations``, ``time_ms``, ``clock``: the budget (module docstring); ``clock``
      ``"wall"`` (default) counts elapsed time, ``"cpu"`` this process's CPU time (fair
      comparisons on a shared machine).
    - ``rollout``: ``"suits"`` (default, the engine's greedy playout) or ``"random"``.
    - ``rollout_depth`` (4): moves a rollout plays before the leaf is scored.
    - ``c`` (0.7): UCB exploration constant.
    - ``worlds`` (200): determinizations sampled, then reused in turn (0: fresh each).
    - ``epsilon`` (0.1): the greedy rollout's share of random moves.
    - ``sharpness`` (0.5): softmax sharpness of the ``"counts"``/``"rich"`` leaves.
    - ``prior`` (1.0): weight of the heuristic's opinion of the root moves (0: off).
    - ``leaf``: ``"fitted"`` (default), ``"counts"`` or ``"rich"``.
    - ``root``: ``"halving"`` (default) or ``"ucb"``; ``candidates`` (5): how many of
      the heuristic's favourite moves the root considers (0: all).
    - ``opponents``: ``"tree"`` (default) or ``"policy"``.
    - ``kept_wilds`` (False): sample as if a seat that played a wild had no other play.
    - ``deviate`` (0.0): standard errors a move must beat the favourite by (halving).
    - ``infer`` (0.5, 0 to 2): sharpness of the inference from opponents' plays.
    """

    iterations: int | None = None
    time_ms: float | None = None
    clock: Clock = "wall"
    rollout: Rollout = "suits"
    rollout_depth: int = 4
    c: float = 0.7
    worlds: int = 200
    epsilon: float = 0.1
    sharpness: float = 0.5
    prior: float = 1.0
    leaf: Leaf = "fitted"
    root: Root = "halving"
    candidates: int = 5
    opponents: Opponents = "tree"
    kept_wilds: bool = False
    deviate: float = 0.0
    infer: float = 0.5

    def __post_init__(self) -> None:
        if self.iterations is not None:
            _check_int("iterations", self.iterations, 1, None)
        if self.time_ms is not None:
            value = _check_float("time_ms", self.time_ms, 0.0, None)
            if value <= 0:
                raise ValueError(f"time_ms must be above 0; got {self.time_ms!r}")
            object.__setattr__(self, "time_ms", value)
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise ValueError(f"{name} must be one of {', '.join(choices)}; got {value!r}")
        for name, (low, high) in _INTS.items():
            _check_int(name, getattr(self, name), low, high)
        for name, (flow, fhigh) in _FLOATS.items():
            object.__setattr__(self, name, _check_float(name, getattr(self, name), flow, fhigh))
        if not isinstance(self.kept_wilds, bool):
            raise ValueError(f"kept_wilds must be true or false; got {self.kept_wilds!r}")

    # -- the budget --------------------------------------------------------------------

    @property
    def budget_ms(self) -> float | None:
        """The time budget of a decision in milliseconds, or None (iterations only)."""
        if self.time_ms is None and self.iterations is None:
            return DEFAULT_TIME_MS
        return self.time_ms

    # -- options and specs -------------------------------------------------------------

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> IsmctsConfig:
        """A configuration from keyword options (``make_bot``'s or a parsed lab spec);
        an unknown option is an error naming the known ones."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(
                f"unknown ismcts option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        return cls(**dict(options))

    def options(self) -> dict[str, Any]:
        """The options that differ from the defaults (what ``spec`` writes)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value != f.default:
                out[f.name] = value
        return out

    def spec(self) -> str:
        """The lab spec of this configuration, ``"ismcts"`` or ``"ismcts:k=v,..."``;
        ``parse_bot_spec`` and ``from_options`` read it back to an equal config."""
        parts = [f"{k}={_text(v)}" for k, v in self.options().items()]
        return "ismcts" + (":" + ",".join(parts) if parts else "")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def _check_int(name: str, value: Any, low: int, high: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number; got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"at least {low}" if high is None else f"between {low} and {high}"
        raise ValueError(f"{name} must be {bound}; got {value!r}")
    return value


def _check_float(name: str, value: Any, low: float, high: float | None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number; got {value!r}")
    number = float(value)
    if not number >= low or (high is not None and number > high):  # NaN fails too
        bound = f"at least {low:g}" if high is None else f"between {low:g} and {high:g}"
        raise ValueError(f"{name} must be {bound}; got {value!r}")
    return number


__all__ = ["DEFAULT_TIME_MS", "Clock", "IsmctsConfig", "Leaf", "Opponents", "Rollout", "Root"]
