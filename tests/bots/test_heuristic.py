"""The heuristic's techniques in set positions (RULES ids where a rule is the point)."""

from __future__ import annotations

from crazy_eights.bots import make_bot
from crazy_eights.bots.knowledge import knowledge_from_view
from crazy_eights.engine import Deal, Move, Rules, new_game


def _choose(rules: Rules, deal: Deal) -> str:
    game = new_game(rules, deal=deal)
    seat = game.current_player
    assert seat is not None
    bot = make_bot("heuristic", seed=1)
    return str(bot.choose(game.view(seat, log=True), game.legal_moves()))


def test_c5_keeps_the_eight_when_another_card_fits() -> None:
    rules = Rules.preset("classic", players=2)
    deal = Deal(
        hands=[["5C", "2D", "3S"], ["8H", "4H", "9H", "KC"]],
        starter="9S",
        dealer=0,
        stock=["2C", "3C", "4C"],
    )
    assert _choose(rules, deal) == "9H"


def test_g7_always_calls_last_card() -> None:
    rules = Rules.preset("classic", players=2)
    deal = Deal(
        hands=[["5C", "2D", "3S"], ["4H", "KC"]], starter="9H", dealer=0, stock=["2C", "3C", "4C"]
    )
    assert _choose(rules, deal) == "4H!"


def test_u7_answers_a_pending_two_with_a_two() -> None:
    rules = Rules.preset("ultimate", players=2)
    deal = Deal(
        hands=[["5C", "2D", "3S", "7D"], ["2H", "KC", "KH", "8S"]],
        starter="2S",
        dealer=0,
        stock=["2C", "3C", "4C", "5H"],
    )
    # U3: the starter two is the dealer's; seat 1 faces a draw of two
    assert _choose(rules, deal) == "2H"


def test_eight_declares_the_suit_held_most() -> None:
    rules = Rules.preset("classic", players=2)
    deal = Deal(
        hands=[["5C", "2D", "3S"], ["8H", "4D", "9D", "KD", "3H"]],
        starter="6S",
        dealer=0,
        stock=["2C", "3C", "4C"],
    )
    assert _choose(rules, deal) == "8H:D"


def test_knowledge_reads_a_suit_an_opponent_lacks() -> None:
    rules = Rules.preset("ultimate", players=2)
    game = new_game(
        rules,
        deal=Deal(
            hands=[["5C", "6C", "3S", "4S", "JS"], ["4D", "5D", "6H", "7H", "KD"]],
            starter="9H",
            dealer=1,
            stock=["2C", "3C", "4C", "QS"],
        ),
    )
    game.play("draw")  # seat 0 holds no heart, no nine, no eight
    know = knowledge_from_view(game.view(1, log=True))
    lacks = know.constraints[0]
    assert len(lacks) == 1 and lacks[0].allowance == 1
    hearts = sum(1 << (16 + r) for r in range(13))
    assert lacks[0].mask & hearts == hearts


def test_c5_kept_wilds_reads_an_eight_played_as_nothing_else_fitting() -> None:
    rules = Rules.preset("classic", players=2)
    game = new_game(
        rules,
        deal=Deal(
            hands=[["8C", "6C", "3S", "4S", "JS"], ["4D", "5D", "6H", "7H", "KD"]],
            starter="9H",
            dealer=1,
            stock=["2C", "3C", "4C", "QS"],
        ),
    )
    game.play("8C:S")  # seat 0 played its eight on the nine of hearts
    plain = knowledge_from_view(game.view(1, log=True))
    assert plain.constraints[0] == []  # without the assumption nothing is inferred
    know = knowledge_from_view(game.view(1, log=True), kept_wilds=True)
    (lack,) = know.constraints[0]
    hearts = sum(1 << (16 + r) for r in range(13))
    nines = sum(1 << (16 * s + 8) for s in range(4))
    eights = sum(1 << (16 * s + 7) for s in range(4))
    assert lack.allowance == 0
    assert lack.mask == (hearts | nines) & ~eights  # another eight may still be held
    assert know.lacks(0) == lack.mask


def test_heuristic_skips_the_leader_with_a_queen() -> None:
    rules = Rules.preset("ultimate", players=3)
    deal = Deal(
        hands=[["5C", "2D", "3S", "4S", "6S"], ["9H"], ["QH", "TH", "3D", "4D", "5D"]],
        starter="7H",
        dealer=1,
        stock=["2C", "3C", "4C", "KS", "KD"],
    )
    assert _choose(rules, deal) == "QH"
    assert Move.parse("QH").is_play
