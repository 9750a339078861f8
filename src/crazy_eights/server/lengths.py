"""Quick play's game lengths in words: "one round" or "a short match", per ruleset.

A length is a name people choose; what it means at the table is a few of the ruleset's
own settings (the engine's ``mode``, ``target`` and ``start``), which the engine checks
like any other rules. Cycles has one length only: a game of cycles.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from crazy_eights.engine import RULESETS

from .errors import ApiError

Length = Literal["round", "match"]
LENGTHS: tuple[Length, ...] = get_args(Length)

# The settings each quick-play length sets, per ruleset (a missing entry: not offered).
QUICK_SETTINGS: dict[str, dict[Length, dict[str, Any]]] = {
    "classic": {"round": {"mode": "single"}, "match": {"mode": "match", "target": 100}},
    "ultimate": {"round": {"mode": "single"}, "match": {"mode": "match", "target": 100}},
    "countdown": {"round": {"mode": "single"}, "match": {"mode": "match", "start": 3}},
    "cycles": {"round": {}},
}


def length_settings(ruleset: str, length: Length) -> dict[str, Any]:
    """The settings a quick-play length means for a ruleset; 422 ``bad_length`` when the
    ruleset has no such length (a match of cycles), 422 ``no_quick_play`` for a ruleset
    quick play does not offer (OpenSpiel's game), 422 ``bad_rules`` for no such ruleset."""
    offered = QUICK_SETTINGS.get(ruleset)
    if offered is None and ruleset in RULESETS:
        quick = ", ".join(QUICK_SETTINGS)
        raise ApiError(
            422,
            "no_quick_play",
            f"{ruleset} has no quick play (make a table for it); quick play offers {quick}",
        )
    if offered is None:
        raise ApiError(422, "bad_rules", f"unknown ruleset {ruleset!r}")
    settings = offered.get(length)
    if settings is None:
        choices = " or ".join(repr(k) for k in offered)
        raise ApiError(422, "bad_length", f"{ruleset} offers the length {choices} only")
    return dict(settings)
