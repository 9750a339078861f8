"""ISMCTS's fitted leaf evaluation: the shipped weights, the features and the fitter."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from crazy_eights.bots import evaluation, make_bot
from crazy_eights.bots.evaluation import (
    FEATURES,
    leaf_chances,
    shedding_features,
    weights_for,
    win_chances,
)
from crazy_eights.engine import Deal, Rules, new_game

ROOT = Path(__file__).resolve().parents[2]


def _fitter() -> ModuleType:
    pytest.importorskip("numpy")
    spec = importlib.util.spec_from_file_location("fit_leaf", ROOT / "scripts/fit_leaf_model.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("ruleset", ["classic", "ultimate", "countdown"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_shedding_table_has_fitted_weights(ruleset: str, players: int) -> None:
    data = json.loads((ROOT / "src/crazy_eights/bots/leaf_model.json").read_text())
    assert data["features"] == list(FEATURES)
    weights = weights_for(ruleset, players)
    assert weights == tuple(data["weights"][f"{ruleset}:{players}"])
    cards, wilds = weights[FEATURES.index("cards")], weights[FEATURES.index("wilds")]
    assert cards < 0 < wilds  # a card more hurts, an eight held helps


def test_more_players_than_fitted_use_the_nearest_count_and_unknown_rulesets_hand_sizes() -> None:
    assert weights_for("classic", 7) == weights_for("classic", 4)
    assert weights_for("cycles", 4)[0] < 0 and not any(weights_for("cycles", 4)[1:])


def test_features_of_a_known_position() -> None:
    rules = Rules.preset("ultimate", players=3, mode="single")
    deal = Deal(
        hands=(("8H", "2C", "5S"), ("KD",), ("3C", "4C")),
        stock=("9H", "TH", "JH", "QH"),
        starter="5C",
    )
    game = new_game(rules, deal=deal)
    rows = shedding_features(game)
    named = [dict(zip(FEATURES, row, strict=True)) for row in rows]
    seat = game.current_player
    assert seat is not None
    assert [r["cards"] for r in named] == [3.0, 1.0, 2.0]
    assert named[0]["wilds"] == 1.0 and named[0]["twos"] == 1.0 and named[0]["suits"] == 2.0
    assert named[1]["last_card"] == 1.0
    assert [r["to_move"] for r in named] == [float(s == seat) for s in range(3)]
    assert sum(r["next"] for r in named) == 1.0 and named[seat]["next"] == 0.0


def test_win_chances_are_a_distribution_that_favours_fewer_cards() -> None:
    weights = weights_for("classic", 2)
    rows = [[3.0] + [0.0] * (len(FEATURES) - 1), [6.0] + [0.0] * (len(FEATURES) - 1)]
    chances = win_chances(rows, weights)
    assert sum(chances) == pytest.approx(1.0) and chances[0] > chances[1]


@pytest.mark.parametrize("ruleset", ["classic", "ultimate", "countdown"])
@pytest.mark.parametrize("players", [2, 4])
def test_leaf_chances_equal_the_fitted_model_on_its_features(ruleset: str, players: int) -> None:
    """ISMCTS's inlined scoring gives the model's chances in every position of a few
    heuristic rounds."""
    rules = Rules.preset(ruleset, players=players, mode="single")
    weights = weights_for(ruleset, players)
    checked = 0
    for seed in range(12):
        game = new_game(rules, seed)
        bots = [make_bot("heuristic", seed=seed * 10 + s) for s in range(players)]
        while not game.is_over:
            expected = win_chances(shedding_features(game), weights)
            assert leaf_chances(game, weights) == pytest.approx(expected, rel=1e-12)
            checked += 1
            seat = game.current_player
            assert seat is not None
            game.play(bots[seat].choose(game.view(seat, log=True), game.legal_moves()))
    assert checked > 100


def test_the_fitter_recovers_known_weights_from_simulated_outcomes() -> None:
    fit_leaf = _fitter()
    import numpy as np

    rng = np.random.default_rng(7)
    true = np.array([-0.4, 0.9, -0.3])
    x = rng.normal(size=(6000, 3, 3))
    scores = x @ true
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    y = np.array([rng.choice(3, p=row) for row in p])
    theta = fit_leaf.fit(x, y, l2=0.0)
    assert np.allclose(theta, true, atol=0.08)
    assert fit_leaf.log_loss(x, y, theta) < fit_leaf.log_loss(x, y, np.zeros(3))


def test_the_fitter_plays_heuristic_rounds_into_positions_and_winners() -> None:
    fit_leaf = _fitter()
    xs, ys = fit_leaf.play(("classic", 2, 1, 4))
    assert len(xs) == len(ys) > 0
    assert all(len(rows) == 2 and len(rows[0]) == len(FEATURES) for rows in xs)
    assert set(ys) <= {0, 1}


def test_a_missing_or_mismatched_weights_file_falls_back_to_hand_sizes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    evaluation._table.cache_clear()
    monkeypatch.setattr(evaluation, "FEATURES", ("cards",))
    try:
        assert weights_for("classic", 2)[0] == -0.5
        assert not any(weights_for("classic", 2)[1:])
    finally:
        monkeypatch.undo()
        evaluation._table.cache_clear()
    assert weights_for("classic", 2) != weights_for("cycles", 2)
