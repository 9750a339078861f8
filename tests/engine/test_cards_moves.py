"""Cards and move text (RULES G1, G3)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crazy_eights.engine.cards import (
    ALL_CARDS,
    CARD_TEXT,
    CardSyntaxError,
    add_card,
    cards_of,
    kinds,
    mask_of,
    parse_card,
    remove_card,
    shedding_points,
)
from crazy_eights.engine.moves import DRAW, PASS, TIMEOUT, Move, MoveKind, MoveSyntaxError


def test_g1_card_text_is_rank_then_suit() -> None:
    assert [CARD_TEXT[parse_card(t)] for t in ("8S", "TH", "QD", "AC")] == ["8S", "TH", "QD", "AC"]
    assert len({CARD_TEXT[c] for c in ALL_CARDS}) == 55


def test_g1_input_accepts_ten_and_lower_case() -> None:
    assert parse_card("10H") == parse_card("TH") == parse_card("th") == parse_card(" 10h ")
    assert CARD_TEXT[parse_card("bj")] == "BJ"


@pytest.mark.parametrize("bad", ["9X", "", "1S", "8", "11H", "JJ", "8SS"])
def test_g1_bad_card_text_is_refused_with_a_reason(bad: str) -> None:
    with pytest.raises(CardSyntaxError) as info:
        parse_card(bad)
    assert str(info.value)


def test_g1_two_packs_identical_cards_share_text_and_masks_hold_both() -> None:
    seven = parse_card("7H")
    hand = mask_of([seven, seven, parse_card("2C")])
    assert cards_of(hand) == sorted([seven, seven, parse_card("2C")])
    assert kinds(hand) == mask_of([seven, parse_card("2C")])
    hand = remove_card(hand, seven)
    assert cards_of(hand).count(seven) == 1
    assert cards_of(add_card(hand, seven)).count(seven) == 2


@pytest.mark.parametrize(
    "text,kind,card,suit,call",
    [
        ("7H", MoveKind.PLAY, "7H", None, False),
        ("8S:H", MoveKind.PLAY, "8S", 1, False),
        ("JK:S", MoveKind.PLAY, "JK", 0, False),
        ("7H!", MoveKind.PLAY, "7H", None, True),
        ("8S:H!", MoveKind.PLAY, "8S", 1, True),
        ("draw", MoveKind.DRAW, None, None, False),
        ("pass", MoveKind.PASS, None, None, False),
        ("timeout", MoveKind.TIMEOUT, None, None, False),
        (":H", MoveKind.DECLARE, None, 1, False),
    ],
)
def test_g3_move_text_parses(
    text: str, kind: MoveKind, card: str | None, suit: int | None, call: bool
) -> None:
    move = Move.parse(text)
    assert move.kind == kind
    assert move.card == (parse_card(card) if card else None)
    assert move.suit == suit
    assert move.call is call
    assert str(move) == text


def test_g3_move_text_normalises_case_and_tens() -> None:
    assert Move.parse("10h") is Move.parse("TH")
    assert Move.parse("8s:h!") is Move.parse("8S:H!")
    assert Move.parse("DRAW") is DRAW
    assert Move.parse(" Pass ") is PASS


@pytest.mark.parametrize("bad", ["9X", "8S:Z", "", "   ", "8S:", ":", "!", "drawx", "8S:HH", ":H!"])
def test_g3_bad_move_text_is_refused_with_a_reason(bad: str) -> None:
    with pytest.raises(MoveSyntaxError) as info:
        Move.parse(bad)
    assert "move" in str(info.value) or "suit" in str(info.value)


def test_g3_moves_are_interned_immutable_and_picklable() -> None:
    move = Move.parse("8S:H")
    assert Move.play(parse_card("8S"), 1) is move
    with pytest.raises(AttributeError):
        move.card = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(move)) is move
    assert repr(move) == "Move.parse('8S:H')"
    assert eval(repr(move)) is move
    assert TIMEOUT.text == "timeout"


@given(
    card=st.sampled_from(sorted(ALL_CARDS)),
    suit=st.none() | st.integers(0, 3),
    call=st.booleans(),
)
def test_g3_move_text_round_trips(card: int, suit: int | None, call: bool) -> None:
    move = Move.play(card, suit, call=call)
    assert Move.parse(str(move)) is move
    assert Move.parse(str(move).lower()) is move


def test_g8_card_points() -> None:
    points = {
        t: shedding_points(parse_card(t)) for t in ("8H", "KS", "QD", "JC", "TH", "AS", "2C", "9D")
    }
    assert points == {"8H": 50, "KS": 10, "QD": 10, "JC": 10, "TH": 10, "AS": 1, "2C": 2, "9D": 9}
    assert shedding_points(parse_card("AS"), ace_points=11) == 11
