"""RULES G7 in chat: which messages arm a last-card call (``calls_last_card``).

A message arms the call only when the whole message is the call, said by its speaker;
ordinary sentences that mention cards, questions, and remarks about other players never
do. The call still goes with the play (the table adds ``!`` to the next play).
"""

from __future__ import annotations

import doctest

import pytest

from crazy_eights.server import protocol
from crazy_eights.server.protocol import calls_last_card

CALLS = [
    # the list
    "last card",
    "uno",
    "one card left",
    "1 card!",
    "I have 1 card left!",
    # and more of our own
    "LAST CARD!!",
    "Uno! 🎉",
    "uno uno",
    "last card for me",
    "I'm on my last card",
    "ok, last card",
    "down to one card",
    "only one card left!",
    "<b>One card left!</b>",
    "  Last   card  ",
    "calling last card",
]

NOT_CALLS = [
    # the list
    "I played one card too fast",
    "is that the last one?",
    "one left to go",
    # and more of our own
    "last card?",
    "is that your last card?",
    "you have one card left!",
    "he has 1 card left",
    "the last card you played was mean",
    "I drew one card",
    "play one card at a time",
    "unofficial rules",
    "uno is a different game",
    "one more card and I'm out",
    "last one",
    "one left",
    "my last card was an eight",
    "gg",
    "",
]


@pytest.mark.parametrize("text", CALLS)
def test_g7_chat_call_arms(text: str) -> None:
    assert calls_last_card(text)


@pytest.mark.parametrize("text", NOT_CALLS)
def test_g7_ordinary_chat_does_not_arm(text: str) -> None:
    assert not calls_last_card(text)


def test_g7_chat_call_docstring_examples() -> None:
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for test in finder.find(calls_last_card, "calls_last_card", globs=vars(protocol)):
        runner.run(test)
    assert runner.summarize().failed == 0
