"""Game analysis (bots/analysis.py): a seat's decisions judged from its own view only."""

from __future__ import annotations

import random

import pytest

from crazy_eights.bots import make_bot
from crazy_eights.bots.analysis import (
    AnalysisConfig,
    Thresholds,
    analyse,
    broken_technique,
    decisions,
    judge,
)
from crazy_eights.bots.knowledge import knowledge_from_view
from crazy_eights.engine import Deal, IllegalMove, Move, Rules, new_game, replay
from crazy_eights.engine.cards import CARD_TEXT, STANDARD_CARDS

RULES = Rules.preset("classic", players=3).replace(mode="single")
FAST = AnalysisConfig(worlds=12, seed=3)


def _first_deal(seed: int) -> Deal:
    rng = random.Random(seed)
    cards = [CARD_TEXT[c] for c in STANDARD_CARDS]
    rng.shuffle(cards)
    starter = next(c for c in cards if c[0] not in "A2Q8")
    cards.remove(starter)
    size = RULES.hand_count()
    hands = [cards[k * size : (k + 1) * size] for k in range(RULES.players)]
    stock = cards[RULES.players * size :]
    return Deal(hands=hands, stock=stock, starter=starter, dealer=RULES.players - 1)


def _play(deal: Deal, seed: int) -> list[str]:
    game = new_game(RULES, deal=deal)
    bots = [make_bot("heuristic", seed=seed + s) for s in range(RULES.players)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat, log=True), game.legal_moves()))
    return game.moves


def _seen_by(deal: Deal, moves: list[str], seat: int) -> set[str]:
    """Every card ``seat`` saw during the game: its own hands, the starter, cards played."""
    game = new_game(RULES, deal=deal)
    seen = {deal.starter or ""}
    for text in [*moves, None]:
        seen.update(game.view(seat).get("hand", []))
        if text is None:
            break
        move = Move.parse(text)
        if move.card is not None:
            seen.add(CARD_TEXT[move.card])
        game.apply(text)
    return seen


def _hidden_twin(deal: Deal, moves: list[str], seat: int, seed: int) -> Deal:
    """``deal`` with the cards ``seat`` never saw shuffled among their places (other
    hands and the stock), such that the same moves are still legal."""
    seen = _seen_by(deal, moves, seat)
    places = [list(h) for h in deal.hands] + [list(deal.stock)]
    spots = [
        (i, j)
        for i, pile in enumerate(places)
        if i != seat
        for j, c in enumerate(pile)
        if c not in seen
    ]
    assert len(spots) >= 2, "the game showed the seat nearly every card"
    rng = random.Random(seed)
    for _ in range(50):
        cards = [places[i][j] for i, j in spots]
        rng.shuffle(cards)
        twin = [list(p) for p in places]
        for (i, j), card in zip(spots, cards, strict=True):
            twin[i][j] = card
        if twin == places:
            continue
        other = Deal(hands=twin[:-1], stock=twin[-1], starter=deal.starter, dealer=deal.dealer)
        try:
            replay(RULES, moves=moves, deal=other)
        except IllegalMove:
            continue
        return other
    raise AssertionError("no shuffle of the unseen cards keeps the moves legal")


@pytest.mark.parametrize("seed", [1, 2])
def test_analysis_never_uses_cards_the_seat_could_not_see(seed: int) -> None:
    """Two deals that differ only in cards seat 0 never saw (other hands, stock order)
    give the same analysis, though the hidden cards and so the true outcome differ."""
    deal = _first_deal(seed)
    moves = _play(deal, seed)
    twin = _hidden_twin(deal, moves, 0, seed)
    assert [sorted(h) for h in twin.hands[1:]] != [sorted(h) for h in deal.hands[1:]] or list(
        twin.stock
    ) != list(deal.stock)
    a = analyse(RULES, 0, moves, 0, FAST, deal=deal)
    b = analyse(RULES, 0, moves, 0, FAST, deal=twin)
    assert a["decisions"], "seat 0 made no decision"
    assert a == b


def test_analyse_covers_each_decision_of_the_seat() -> None:
    rules = Rules.preset("classic", players=2).replace(mode="single")
    game = new_game(rules, 7)
    bots = [make_bot("random", seed=1), make_bot("heuristic", seed=2)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat, log=True), game.legal_moves()))
    result = analyse(rules, 7, game.moves, 0, FAST)
    turns = list(decisions(rules, 7, game.moves, 0))
    assert [d["n"] for d in result["decisions"]] == [t.n for t in turns]
    for d, turn in zip(result["decisions"], turns, strict=True):
        assert d["played"] == turn.played
        assert d["best"] in turn.legal or d["best"] == d["played"]
        assert 0.0 <= d["after"] <= d["before"] <= 1.0
        assert d["loss"] == pytest.approx(d["before"] - d["after"], abs=2e-4)
        assert (d["mark"] is None) == (d["forced"] or d["loss"] < 0.05)
    assert analyse(rules, 7, game.moves, 0, FAST) == result  # reproducible


def test_thresholds_mark_by_loss() -> None:
    t = Thresholds()
    assert [t.mark(x) for x in (0.0, 0.049, 0.05, 0.1, 0.25)] == [
        None,
        None,
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    with pytest.raises(ValueError, match="thresholds"):
        Thresholds(inaccuracy=0.2, mistake=0.1)


def _position(hand: list[str], top: str, **rules: object) -> dict[str, object]:
    rules_ = Rules.preset("classic", players=2).replace(**{"mode": "single", **rules})
    others = [CARD_TEXT[c] for c in STANDARD_CARDS if CARD_TEXT[c] not in {*hand, top}]
    deal = Deal(hands=[hand, others[:7]], stock=others[7:], starter=top, dealer=1)
    return dict(new_game(rules_, deal=deal).view(0, log=True))


def test_an_eight_spent_where_a_natural_card_fitted_breaks_technique_1() -> None:
    view = _position(["8S", "5H", "KC", "3D", "9S"], "4H")
    know = knowledge_from_view(view)
    assert broken_technique(know, Move.parse("8S:H"), Move.parse("5H")) == "wilds"
    assert broken_technique(know, Move.parse("5H"), Move.parse("8S:H")) != "wilds"


def test_keeping_high_cards_breaks_technique_4_when_points_count() -> None:
    view = _position(["KH", "3H", "KC", "3D", "9S"], "4H", mode="match")
    know = knowledge_from_view(view)
    assert know.points_matter
    assert broken_technique(know, Move.parse("3H"), Move.parse("KH")) == "high_cards"


def test_drawing_instead_of_going_out_is_a_blunder() -> None:
    """With a last card that fits, drawing instead of playing it throws the round away."""
    view = _position(["5H"], "4H")
    legal = view["legal"]
    assert isinstance(legal, list) and "draw" in legal
    out = judge(1, view, legal, "draw", FAST)
    assert out["best"].startswith("5H")
    assert out["mark"] == "blunder" and not out["forced"]
    again = judge(1, view, legal, out["best"], FAST)
    assert again["mark"] is None and again["loss"] == 0.0
