"""The names people choose: account names (to sign in) and display names (shown at tables).

Both are NFKC-normalised, so a fullwidth ``\uff21da`` is ``Ada``. An account name is then 3 to
32 ASCII letters, digits, ``_``, ``.`` or ``-``, and two names are the same account when
their ``name_key`` (NFKC + casefold) is equal: the database keeps that key unique. A display
name is 1 to 40 characters with its spaces collapsed; it may not hold control characters,
bidi controls, invisible format characters (joiners only between letters), blank letters
such as the Hangul filler, or a pile of accents, and it must show something.

A name that reads as a bot's (``Heuristic bot``, ``RandomBot``, ``b0t``, with look-alike
letters from other scripts too) is kept for the bots, as is the bot avatar, so a person can
never pass for one.

>>> name_key("\\uff21\\uff24\\uff21")
'ada'
>>> display_name("  Zoe\\u0308   Smith ")
'Zoë Smith'
>>> reads_as_bot("Heuristic b\\u043et"), reads_as_bot("Talbot")
(True, False)
"""

from __future__ import annotations

import functools
import re
import unicodedata

from crazy_eights.bots import BOT_LEVELS

ACCOUNT_NAME_RULE = "The name must be 3 to 32 letters, digits, '_', '.' or '-'."
DISPLAY_NAME_RULE = "The display name must be 1 to 40 characters, not all invisible."
HIDDEN_CHARACTERS = (
    "The display name may not contain control, direction-changing or invisible characters."
)
PILED_ACCENTS = "The display name may not stack more than 3 accents on one letter."
BOT_NAME = "Names that read as a bot's are kept for the bots."
GUEST_NAME = "Names starting with 'guest' and a separator are kept for guests."
BOT_AVATAR = "The bot avatar is kept for the bots."

NAME_MAX = 32
DISPLAY_MAX = 40
MAX_MARKS = 3  # combining marks on one letter

_ACCOUNT_NAME = re.compile(r"[A-Za-z0-9_.-]{3,32}")
_GUEST_NAME = re.compile(r"guest[-_.]")
# Explicit direction controls (embeddings, overrides, isolates, marks).
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_JOINERS = frozenset("\u200c\u200d")  # needed inside Persian, Indic and emoji sequences
# Letters and symbols that draw nothing.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f\ufffc")
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})

_BOT_WORDS = frozenset({"bot", "bots", "robot", "robots"})
_BOT_GLUED = frozenset(
    {f"{level}{word}" for level in BOT_LEVELS for word in ("bot", "bots")}
    | {f"bot{level}" for level in BOT_LEVELS}
)

RESERVED_AVATARS = frozenset({"bot"})


def name_key(name: str) -> str:
    """What makes two account names the same: NFKC, then case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def account_name(value: str) -> str:
    """An account name as kept: NFKC-normalised, checked; raises ValueError with a sentence."""
    name = unicodedata.normalize("NFKC", value)
    if not _ACCOUNT_NAME.fullmatch(name):
        raise ValueError(ACCOUNT_NAME_RULE)
    if _GUEST_NAME.match(name_key(name)):
        raise ValueError(GUEST_NAME)
    if reads_as_bot(name):
        raise ValueError(BOT_NAME)
    return name


def display_name(value: str) -> str:
    """A display name as shown: NFKC, spaces collapsed, checked (ValueError: a sentence)."""
    text = unicodedata.normalize("NFKC", value)
    marks = 0
    for char in text:
        category = unicodedata.category(char)
        if (
            category in _REFUSED_CATEGORIES
            or char in _BIDI
            or char in _BLANKS
            or (category == "Cf" and char not in _JOINERS)
        ):
            raise ValueError(HIDDEN_CHARACTERS)
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise ValueError(PILED_ACCENTS)
    text = " ".join(text.split()).strip("".join(_JOINERS))
    if not 1 <= len(text) <= DISPLAY_MAX or not any(_visible(c) for c in text):
        raise ValueError(DISPLAY_NAME_RULE)
    if reads_as_bot(text):
        raise ValueError(BOT_NAME)
    return text


def avatar(value: str) -> str:
    """A person's avatar id: anything but the bots' own."""
    if value in RESERVED_AVATARS:
        raise ValueError(BOT_AVATAR)
    return value


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] in "LNPS" and char not in _BLANKS


def reads_as_bot(text: str) -> bool:
    """Whether a name reads as a bot's: a word ``bot``/``robot``, or a level glued to ``bot``,
    after folding accents, look-alike letters of other scripts and ``0`` for ``o``."""
    words = re.findall(r"[a-z]+", _split_camel_case(_latin_skeleton(text)).casefold())
    return any(word in _BOT_WORDS or word in _BOT_GLUED for word in words)


def _split_camel_case(text: str) -> str:
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text)


def _latin_skeleton(text: str) -> str:
    """``text`` with each letter that looks like a Latin one replaced by it, accents
    dropped and ``0`` read as ``o``: what a reader sees, not what the bytes say."""
    text = unicodedata.normalize("NFKC", text).replace("0", "o")
    if not text.isascii():
        latin = _latin_look_alikes()
        text = "".join(latin.get(char, char) for char in text)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if unicodedata.category(c) not in ("Mn", "Me"))


@functools.cache
def _latin_look_alikes() -> dict[str, str]:
    """Every non-ASCII character that Unicode's confusables (UTS #39, as packaged by
    confusable-homoglyphs) list as looking like a Latin letter, mapped to that letter.

    Built on first need from the package's data and kept as this small table (about
    1,500 entries): the package's own lookup holds all 9,600 entries, some 14 MiB.
    """
    from confusable_homoglyphs import utils  # type: ignore[import-untyped]

    table: dict[str, str] = {}
    for char, glyphs in utils.load("confusables.json").items():
        if char.isascii():
            continue
        for glyph in glyphs:
            letter = _ascii_letter(glyph["c"], glyph["n"])
            if letter:
                table[char] = letter
                break
    return table


def _ascii_letter(glyph: str, name: str) -> str | None:
    """The plain Latin letter a Latin homoglyph stands for (small capitals included)."""
    plain = unicodedata.normalize("NFKD", glyph)
    if len(plain) == 1 and plain.isascii() and plain.isalpha():
        return plain
    words = name.split()
    if words[0] == "LATIN" and len(words[-1]) == 1 and words[-1].isalpha():
        return words[-1].lower() if "SMALL" in words else words[-1]
    return None
