"""The search bot's configuration: defaults, checks, frozen, and the lab spec round trip."""

from __future__ import annotations

import dataclasses
import math
import pickle

import pytest

from crazy_eights.bots import make_bot
from crazy_eights.bots.ismcts import IsmctsBot
from crazy_eights.bots.ismcts_config import DEFAULT_TIME_MS, IsmctsConfig
from crazy_eights.bots.levels import parse_bot_spec
from crazy_eights.engine import Rules

from .conftest import CollectionTime, random_positions


def test_defaults_think_for_the_default_time() -> None:
    config = IsmctsConfig()
    assert config.budget_ms == DEFAULT_TIME_MS == 150.0
    assert config.iterations is None and config.time_ms is None
    assert (config.root, config.leaf, config.rollout, config.clock) == (
        "halving",
        "fitted",
        "suits",
        "wall",
    )
    # iterations alone: no clock at all; both: the time too (whichever comes first)
    assert IsmctsConfig(iterations=300).budget_ms is None
    assert IsmctsConfig(iterations=300, time_ms=20).budget_ms == 20.0


def test_config_is_frozen() -> None:
    config = IsmctsConfig(c=0.5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.c = 0.9  # type: ignore[misc]
    assert hash(config) == hash(IsmctsConfig(c=0.5))


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"root": "greedy"}, "root must be one of ucb, halving"),
        ({"leaf": "deep"}, "leaf must be one of fitted, counts, rich"),
        ({"rollout": "deep"}, "rollout must be one of suits, random"),
        ({"opponents": "all"}, "opponents must be one of tree, policy"),
        ({"clock": "sun"}, "clock must be one of wall, cpu"),
        ({"iterations": 0}, "iterations must be at least 1"),
        ({"iterations": 2.5}, "iterations must be a whole number"),
        ({"iterations": True}, "iterations must be a whole number"),
        ({"time_ms": 0}, "time_ms must be above 0"),
        ({"time_ms": -3.0}, "time_ms must be at least 0"),
        ({"time_ms": "fast"}, "time_ms must be a number"),
        ({"c": math.nan}, "c must be at least 0"),
        ({"epsilon": 1.5}, "epsilon must be between 0 and 1"),
        ({"infer": 5.0}, "infer must be between 0 and 2"),
        ({"rollout_depth": -1}, "rollout_depth must be at least 0"),
        ({"candidates": "5"}, "candidates must be a whole number"),
        ({"kept_wilds": 1}, "kept_wilds must be true or false"),
        ({"depth": 3}, "unknown ismcts option"),
    ],
)
def test_bad_options_are_refused_with_the_option_named(
    options: dict[str, object], words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        IsmctsConfig.from_options(options)
    with pytest.raises(ValueError, match=words):
        make_bot("ismcts", seed=1, **options)


def test_a_bad_lab_spec_fails_when_parsed() -> None:
    with pytest.raises(ValueError, match="leaf must be one of"):
        parse_bot_spec("ismcts:iterations=20,leaf=deep")
    with pytest.raises(ValueError, match=r"unknown ismcts option.*itterations"):
        parse_bot_spec("ismcts:itterations=20")


def test_numbers_are_normalised_so_equal_configs_compare_equal() -> None:
    config = IsmctsConfig(c=1, time_ms=100, infer=0)
    assert isinstance(config.c, float) and isinstance(config.time_ms, float)
    assert config == IsmctsConfig(c=1.0, time_ms=100.0, infer=0.0)


@pytest.mark.parametrize(
    "config",
    [
        IsmctsConfig(),
        IsmctsConfig(iterations=2000),
        IsmctsConfig(time_ms=150, clock="cpu", c=1.0, leaf="rich", kept_wilds=True),
        IsmctsConfig(root="ucb", candidates=0, worlds=0, infer=0.25, deviate=1.5),
        IsmctsConfig(rollout="random", rollout_depth=0, opponents="policy", epsilon=0.0),
    ],
)
def test_spec_round_trip(config: IsmctsConfig) -> None:
    spec = config.spec()
    level, options = parse_bot_spec(spec)
    assert level == "ismcts"
    assert IsmctsConfig.from_options(options) == config
    bot = make_bot(level, seed=1, **options)
    assert isinstance(bot, IsmctsBot) and bot.config == config


def test_spec_names_only_what_differs_from_the_defaults() -> None:
    assert IsmctsConfig().spec() == "ismcts"
    assert IsmctsConfig(iterations=2000, leaf="rich").spec() == "ismcts:iterations=2000,leaf=rich"


def test_bot_takes_a_config_or_keywords_not_both() -> None:
    config = IsmctsConfig(iterations=40)
    assert IsmctsBot(seed=1, config=config).config is config
    assert IsmctsBot(seed=1, iterations=40).config == config
    with pytest.raises(ValueError, match="not both"):
        IsmctsBot(seed=1, config=config, iterations=50)


def test_bots_from_a_config_and_from_keywords_choose_alike() -> None:
    config = IsmctsConfig(iterations=60, c=0.9)
    for game, seat, legal in random_positions(Rules.preset("classic", players=3), 4, seed=6):
        view = game.view(seat, log=True)
        one = IsmctsBot(seed=5, config=config).choose(view, legal)
        assert one == IsmctsBot(seed=5, iterations=60, c=0.9).choose(view, legal)


def test_iterations_and_time_together_stop_at_the_first() -> None:
    bot = IsmctsBot(seed=2, iterations=40, time_ms=5000)
    spots = random_positions(Rules.preset("ultimate", players=2), 4, seed=1)
    for game, seat, legal in spots:
        bot.choose(game.view(seat, log=True), legal)
        assert bot.last_iterations <= 40
        assert bot.last_seconds < 5.0


def test_cpu_clock_bounds_the_search_by_cpu_time() -> None:
    bot = IsmctsBot(seed=2, time_ms=30, clock="cpu")
    for game, seat, legal in random_positions(Rules.preset("classic", players=2), 3, seed=2):
        with CollectionTime() as collecting:
            bot.choose(game.view(seat, log=True), legal)
        if bot.last_iterations:
            assert bot.last_iterations >= 8
            # a garbage collection is CPU time too, but not the search's overrun (ci19)
            assert bot.last_seconds - collecting.seconds < 0.030 + 0.1


def test_a_search_leaves_nothing_on_the_bot() -> None:
    """Per-decision state (tree, worlds, deadline...) lives in the Search, not the bot."""
    bot = IsmctsBot(seed=3, iterations=50)
    kept = {"config", "seed", "rng", "last_iterations", "last_seconds", "_fallback"}
    assert set(vars(bot)) == kept
    for game, seat, legal in random_positions(Rules.preset("classic", players=2), 3, seed=3):
        bot.choose(game.view(seat, log=True), legal)
        assert set(vars(bot)) == kept


def test_bot_and_config_pickle() -> None:
    """Bots travel to the card room's worker processes: they must pickle."""
    bot = IsmctsBot(seed=4, config=IsmctsConfig(iterations=30, leaf="counts"))
    again = pickle.loads(pickle.dumps(bot))
    assert again.config == bot.config and again.seed == 4
