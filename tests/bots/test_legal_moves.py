"""Bots only ever return legal moves, in thousands of random positions of every ruleset."""

from __future__ import annotations

import pytest

from crazy_eights.bots import BOT_LEVELS, make_bot
from crazy_eights.bots.base import Bot

from .conftest import TABLES, random_positions, table_rules

COUNTS = {"random": 150, "heuristic": 300, "ismcts": 25}


@pytest.mark.parametrize("level", BOT_LEVELS)
@pytest.mark.parametrize(("name", "players", "settings"), TABLES)
def test_bot_returns_a_legal_move(level: str, name: str, players: int, settings: dict) -> None:
    rules = table_rules(name, players, settings)
    options = {"iterations": 30} if level == "ismcts" else {}
    bot = make_bot(level, seed=7, **options)
    assert isinstance(bot, Bot)
    for game, seat, legal in random_positions(rules, COUNTS[level], seed=players + len(name)):
        move = bot.choose(game.view(seat, log=True), legal)
        assert move in legal, (name, str(move), [str(m) for m in legal])
        game.play(move)


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="bot level"):
        make_bot("genius", seed=1)


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_bots_are_picklable(level: str) -> None:
    import pickle

    bot = make_bot(level, seed=3)
    again = pickle.loads(pickle.dumps(bot))
    assert again.name == bot.name
