"""Property tests of cycles over random games: RULES G4 (replay), G5 (hidden cards),
G6 (conservation), and the move contract (listed moves are accepted, others refused
with the game unchanged, a move or the end is always there), plus ``from_view``."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crazy_eights.engine import (
    DRAW,
    PASS,
    TIMEOUT,
    Deal,
    Hidden,
    IllegalMove,
    Move,
    Rules,
    new_game,
)
from crazy_eights.engine import replay as replay_game
from crazy_eights.engine.cards import ALL_CARDS, CARD_TEXT, JOKER_MASK, cards_of
from crazy_eights.engine.cycles import FIT, CyclesGame
from crazy_eights.engine.events import Event

CARD_TEXTS = frozenset(CARD_TEXT.values())
UNIVERSE: list[Move] = (
    [Move.play(c, s, call=k) for c in ALL_CARDS for s in (None, 0, 1, 2, 3) for k in (False, True)]
    + [DRAW, PASS]
    + [Move.declare(s) for s in range(4)]
)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def mask_of_game(game: CyclesGame) -> tuple[int, int]:
    """(union mask, total count) of every card's place: hands, stock, cycle, removed."""
    union = game.removed
    count = game.removed.bit_count()
    for hand in game.hands:
        assert not union & hand
        union |= hand
        count += hand.bit_count()
    for card in game.stock + game.cycle_cards:
        assert not union >> card & 1
        union |= 1 << card
        count += 1
    return union, count


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings(v)]
    return []


def check_view_hides(game: CyclesGame, seat: int | None) -> None:
    """G5: a view names only the seat's own cards and the cards in play or removed."""
    view = game.view(seat)
    allowed = {CARD_TEXT[c] for c in game.cycle_cards} | set(game.removed_cards())
    if seat is not None:
        allowed |= set(game.hand(seat))
    else:
        assert "hand" not in view and "legal" not in view
    for text in strings(view):
        base = text.rstrip("!").split(":")[0]
        if base in CARD_TEXTS:
            assert base in allowed, f"seat {seat} sees {text}"


def check_log_hides(events: list[Event], seat: int | None, rendered: list[dict[str, Any]]) -> None:
    assert len(events) == len(rendered)
    for event, shown in zip(events, rendered, strict=True):
        if event.secret and event.seat != seat:
            assert "cards" not in shown, (seat, shown)
            assert shown.get("count") == len(event.shown)


def check_moves(game: CyclesGame, rnd: random.Random) -> None:
    """Listed moves are accepted; a sample of unlisted ones is refused, changing nothing."""
    legal = game.legal_moves()
    assert legal or game.is_over
    for move in legal:
        assert game.can_play(move)
    if legal:
        probe = game.clone()
        probe.play(rnd.choice(legal))
    seat = game.current_player
    before = (game.view(seat), game.moves, len(game.log))
    for move in [*rnd.sample(UNIVERSE, 12), TIMEOUT]:
        if move in legal:
            continue
        if game.can_play(move):
            assert move is TIMEOUT or (
                move.call and game.rules.last_card != "manual" and move.with_call(False) in legal
            )
            continue
        try:
            game.play(move)
        except IllegalMove as exc:
            assert exc.reason
        else:
            raise AssertionError(f"{move} was accepted but not listed")
        assert (game.view(seat), game.moves, len(game.log)) == before


def check_from_view(game: CyclesGame, rnd: random.Random, steps: int = 6) -> None:
    """A game rebuilt from a view plus the true hidden cards plays on identically."""
    seat = game.current_player if rnd.random() < 0.7 else rnd.randrange(game.rules.players)
    view = game.view(seat)
    hands = [cards_of(h) for h in game.hands]
    stock = list(reversed(game.stock))
    rebuilt = CyclesGame.from_view(view, Hidden(hands=hands, stock=stock), rng=game.generator)
    if view["forced"] and seat != game.current_player and view["phase"] == "follow":
        fit = game.hands[game.current] & FIT[game.lead_suit]
        if (fit & ~JOKER_MASK or fit).bit_count() > 1:
            return  # which of two jokers was drawn last is hidden (see from_view)
    original = game.clone()
    for _ in range(steps):
        for s in [None, *range(game.rules.players)]:
            assert rebuilt.view(s) == original.view(s)
        if original.is_over:
            break
        move = rnd.choice([*original.legal_moves(), TIMEOUT])
        assert original.play(move) == rebuilt.play(move)


def run_game(
    rules: Rules, seed: int, rnd: random.Random, deal: Deal | None = None, full: bool = True
) -> None:
    game = new_game(rules, seed, deal=deal)
    assert isinstance(game, CyclesGame)
    union, count = mask_of_game(game)
    if deal is None:
        assert count == 55 and union.bit_count() == 55
    events = list(game.log)
    n = rules.players
    for _ in range(3000):
        assert mask_of_game(game) == (union, count)
        if full or rnd.random() < 0.2:
            check_moves(game, rnd)
            for seat in [None, *range(n)]:
                check_view_hides(game, seat)
        if rnd.random() < 0.05:
            check_from_view(game, rnd)
        if game.is_over:
            break
        legal = game.legal_moves()
        assert legal
        move = TIMEOUT if rnd.random() < 0.08 else rnd.choice(legal)
        events.extend(game.play(move))
    assert game.is_over
    assert game.legal_moves() == [] and game.current_player is None
    result = game.result
    assert result is not None and sorted(result.standings) == list(range(n))
    assert result.points == tuple(game.hand_value(s) for s in range(n))
    assert events == list(game.log)
    for seat in [None, *range(n)]:
        check_log_hides(list(game.log), seat, game.view(seat, log=True)["log"])
    again = replay_game(rules, seed, game.moves, deal=deal)
    assert isinstance(again, CyclesGame)
    assert again.log == game.log
    for seat in [None, *range(n)]:
        assert again.view(seat, log=True) == game.view(seat, log=True)


rules_strategy = st.builds(
    lambda n, lc, limit: Rules.preset("cycles", players=n, last_card=lc, cycle_limit=limit),
    st.integers(2, 11),
    st.sampled_from(["manual", "auto", "off"]),
    st.integers(1, 40),
)


@SETTINGS
@given(rules=rules_strategy, seed=st.integers(0, 2**63 - 1), rnd=st.randoms(use_true_random=False))
def test_random_seeded_games(rules: Rules, seed: int, rnd: random.Random) -> None:
    run_game(rules, seed, rnd, full=rules.players <= 6)


@st.composite
def dealt(draw: st.DrawFn) -> tuple[Rules, Deal]:
    """A random explicit deal: small hands, short stocks, lone jokers, any leader."""
    n = draw(st.integers(2, 11))
    lc = draw(st.sampled_from(["manual", "auto", "off"]))
    rnd = draw(st.randoms(use_true_random=False))
    jokers = ["BJ", "RJ", "JK"]
    lone = [j for j in jokers if rnd.random() < 0.35][:n]  # Y14 lone-joker hands
    cards = [CARD_TEXT[c] for c in ALL_CARDS if CARD_TEXT[c] not in lone]
    rnd.shuffle(cards)
    hands: list[list[str]] = [[] for _ in range(n)]
    for joker, seat in zip(lone, rnd.sample(range(n), len(lone)), strict=True):
        hands[seat] = [joker]
    for seat in range(n):
        if not hands[seat]:
            size = rnd.randint(1, min(6, len(cards) - (n - 1 - seat)))
            hands[seat] = [cards.pop() for _ in range(size)]
    stock = [cards.pop() for _ in range(rnd.randint(0, min(12, len(cards))))]
    if rnd.random() < 0.3:  # the stock's jokers on top (Y8 burial, Y9/Y14 joker draws)
        stock.sort(key=lambda t: t not in jokers)
    removed = [cards.pop() for _ in range(rnd.randint(0, len(cards)))]
    leader = draw(st.one_of(st.none(), st.integers(0, n - 1)))
    limit = draw(st.integers(1, 25))
    deal = Deal(hands=hands, stock=stock, removed=removed, leader=leader, cycles_left=limit)
    return Rules.preset("cycles", players=n, last_card=lc), deal


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=dealt(), seed=st.integers(0, 1000), rnd=st.randoms(use_true_random=False))
def test_random_dealt_games(setup: tuple[Rules, Deal], seed: int, rnd: random.Random) -> None:
    rules, deal = setup
    run_game(rules, seed, rnd, deal=deal)


def test_many_quick_games_end_with_conserved_cards() -> None:
    """A cheap sweep (no per-move checks) across every table size and setting."""
    for n in range(2, 12):
        for lc in ("manual", "auto", "off"):
            rules = Rules.preset("cycles", players=n, last_card=lc)
            for seed in range(15):
                rnd = random.Random(seed)
                game = new_game(rules, seed)
                assert isinstance(game, CyclesGame)
                while not game.is_over:
                    legal = game.legal_moves()
                    game.play(TIMEOUT if rnd.random() < 0.05 else rnd.choice(legal))
                assert mask_of_game(game)[1] == 55
