"""A bot never sees hidden cards (RULES G5): games that differ only in cards the seat
cannot see give the same decision with the same seed."""

from __future__ import annotations

import random

import pytest

from crazy_eights.bots import BOT_LEVELS, make_bot
from crazy_eights.engine import Deal, Rules, new_game
from crazy_eights.engine.cards import CARD_TEXT, STANDARD_CARDS


def _deals(rules: Rules, seed: int) -> tuple[Deal, Deal]:
    """Two full deals: same hand for the first player and same starter; the other hands
    and the stock are a different shuffle of the same unseen cards."""
    rng = random.Random(seed)
    cards = [CARD_TEXT[c] for c in STANDARD_CARDS]
    rng.shuffle(cards)
    n = rules.players
    size = rules.hand_count()
    mine, rest = cards[:size], cards[size:]
    starter = next(c for c in rest if c[0] not in "A2Q8")  # no action, no starter eight
    rest.remove(starter)
    out = []
    for _ in range(2):
        rng.shuffle(rest)
        hands = [mine] + [rest[k * size : (k + 1) * size] for k in range(n - 1)]
        stock = rest[(n - 1) * size :]
        out.append(Deal(hands=hands, stock=stock, starter=starter, dealer=n - 1))
    return out[0], out[1]


@pytest.mark.parametrize("level", BOT_LEVELS)
@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("ultimate", 4), ("countdown", 3)])
def test_same_view_same_decision(level: str, name: str, players: int) -> None:
    rules = Rules.preset(name, players=players)
    options = {"iterations": 60} if level == "ismcts" else {}
    for seed in range(6):
        first, second = _deals(rules, seed)
        a, b = new_game(rules, deal=first), new_game(rules, deal=second)
        assert a.current_player == b.current_player == 0
        view_a, view_b = a.view(0, log=True), b.view(0, log=True)
        assert view_a == view_b
        move_a = make_bot(level, seed=seed, **options).choose(view_a, a.legal_moves())
        move_b = make_bot(level, seed=seed, **options).choose(view_b, b.legal_moves())
        assert move_a == move_b


def test_mid_game_views_hide_the_other_hands() -> None:
    """After some play, a seat's view differs between the two games only if a card it
    could see differs; the bot's decision then follows the view alone."""
    rules = Rules.preset("ultimate", players=3)
    first, second = _deals(rules, 11)
    a, b = new_game(rules, deal=first), new_game(rules, deal=second)
    bot = make_bot("ismcts", seed=5, iterations=50)
    move = bot.choose(a.view(0, log=True), a.legal_moves())
    again = make_bot("ismcts", seed=5, iterations=50).choose(b.view(0, log=True), b.legal_moves())
    assert move == again
