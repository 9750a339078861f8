"""Chat lines as host commands: the one place that reads what people type to the host.

A command is the prefix (``!`` by default) and a known name, then its arguments. A line
without the prefix is conversation (the table may still hear a last-card call in it).
The help texts live here too, next to the names they explain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

Name = Literal[
    "new",
    "join",
    "leave",
    "start",
    "bots",
    "end",
    "play",
    "draw",
    "pass",
    "hand",
    "table",
    "score",
    "rules",
    "help",
    "choose",
    "link",
]

HELP: dict[str, str] = {
    "new": "!new [ruleset] [players] [length]: open a table (cycles by default; "
    "length is the cycle limit, or the match target)",
    "join": "!join: take a seat at the open table",
    "leave": "!leave: give up your seat (in a game a bot plays it on)",
    "start": "!start: deal (the table's maker, or anyone after a minute)",
    "bots": "!bots N [random|heuristic|ismcts]: fill N seats with bots",
    "end": "!end: close the table (its maker or a channel operator)",
    "play": "!play CARD: 7H, 10D, JK, '7 of hearts', 'joker spades' or '8S hearts' to "
    "name a suit; add 'last card' to call it with the play",
    "draw": "!draw: take a card (where the ruleset lets you)",
    "pass": "!pass: end your turn (where the ruleset lets you)",
    "hand": "!hand: your hand again, privately",
    "table": "!table: the host's notes: the card to match, this cycle, counts, turn",
    "score": "!score: card counts and scores",
    "rules": "!rules: the table's ruleset and settings",
    "help": "!help [command]: the commands, or one of them",
    "choose": "!choose: how the last exact tie was settled (by the host's seeded draw)",
    "link": "!link: a one-time link to tie your nick to your account",
    "call": "last card: say it in your own words ('last card', 'uno', 'I have 1 card "
    "left!') in the channel, in your turn before your play or in the play's line "
    "(!play 7H last card). After your play it is too late (rule G7): you pick up the "
    "cycle and 3 cards. A false call shows how many cards of the suit you hold.",
}
NAMES: tuple[Name, ...] = get_args(Name)  # in the order ``!help`` lists them
ALIASES: dict[str, Name] = {"p": "play", "d": "draw", "cards": "hand", "notes": "table"}
PRIVATE_OK: frozenset[Name] = frozenset({"hand", "help", "rules", "link", "choose"})
"""Commands that may be said to the host privately; the rest belong in the channel."""


@dataclass(frozen=True)
class Command:
    """A command to the host: its ``name`` and the ``args`` text after it."""

    name: Name
    args: str


@dataclass(frozen=True)
class Unknown:
    """A line with the prefix and no known command (the name is never repeated back)."""


def read_line(text: str, prefix: str = "!") -> Command | Unknown | None:
    """The command a chat line gives, ``Unknown()``, or None for conversation.

    >>> read_line("!play 7 of hearts")
    Command(name='play', args='7 of hearts')
    >>> read_line("!dance"), read_line("hello")
    (Unknown(), None)
    """
    line = text.strip()
    if not line.startswith(prefix):
        return None
    word, _, args = line[len(prefix) :].partition(" ")
    word = word.lower()
    if not word or not word.isalpha():
        return None  # "!!!" or "!?" is talk, not a command
    name = ALIASES.get(word, word)
    if name not in NAMES:
        return Unknown()
    return Command(NAMES[NAMES.index(name)], args.strip())


def help_text(topic: str, prefix: str = "!") -> str:
    """``!help`` (every command in one line) or ``!help play`` (one of them)."""
    key = topic.strip().lower().lstrip(prefix)
    key = ALIASES.get(key, key)
    if not key:
        names = " ".join(prefix + n for n in NAMES)
        return f"commands: {names}. Last card: say it in the channel (!help call)"
    text = HELP.get(key)
    if text is None:
        return f"no such command; try {prefix}help"
    return re.sub(r"!(?=[a-z])", lambda _: prefix, text)
