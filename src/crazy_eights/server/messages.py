"""What the API says when a request is wrong, as sentences a person can act on.

The browser shows an error's ``detail`` as it is, so pydantic's
``{"loc": ("body", "bots", 0, "seat"), "type": "int_parsing"}`` becomes "Bot 1's seat must
be a whole number." A form model may state a field's rule once in a ``RULES`` class
attribute (``{"name": "The name must be 3 to 32 ..."}``); any mistake in that field is then
answered by its rule, except a missing field and a validator's own sentence.

>>> readable([{"loc": ("body", "bots", 0, "seat"), "type": "int_parsing", "msg": "x"}])
"Bot 1's seat must be a whole number."
>>> readable([{"loc": ("body", "rules"), "type": "missing", "msg": "Field required"}])
'The rules are required.'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from http import HTTPStatus
from typing import Any

LABELS = {
    "name": "the name",
    "password": "the password",
    "display_name": "the display name",
    "avatar": "the avatar",
    "rules": "the rules",
    "bots": "the bots",
    "seat": "the seat",
    "level": "the level",
    "public": "public",
    "hints": "hints",
    "takeover_after": "the number of timeouts before a stand-in bot takes over",
    "code": "the invite code",
    "ruleset": "the ruleset",
    "players": "the number of players",
    "limit": "the limit",
    "account_id": "the account id",
    "table_id": "the table id",
}
PLURALS = frozenset({"the rules", "the bots", "hints"})
ITEMS = {"the bots": "bot"}  # what one element of a list is called

KINDS = {
    "string_type": "text",
    "string_unicode": "valid Unicode text",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "int_parsing_size": "a whole number of sensible size",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "dict_type": "a JSON object",
    "model_type": "a JSON object",
    "model_attributes_type": "a JSON object",
    "list_type": "a list",
}
BOUNDS = {
    "string_too_short": "must be at least {min_length} characters",
    "string_too_long": "must be at most {max_length} characters",
    "too_short": "must have at least {min_length} items",
    "too_long": "must have at most {max_length} items",
    "greater_than_equal": "must be at least {ge}",
    "less_than_equal": "must be at most {le}",
    "greater_than": "must be more than {gt}",
    "less_than": "must be less than {lt}",
    "literal_error": "must be one of {expected}",
    "enum": "must be one of {expected}",
}
HTTP_TEXTS = {
    "There was an error parsing the body": "The request body is not valid JSON, or is "
    "nested too deeply.",
    "Content Too Large": "The request body is too large.",
}
HTTP_CODES = {413: "too_large"}  # fixed here: the phrase differs between Pythons
_SOURCES = ("body", "query", "path", "header", "cookie")


def readable(errors: Sequence[Mapping[str, Any]], rules: Mapping[str, str] | None = None) -> str:
    """Every error as one sentence (each said once), in the order pydantic found them."""
    sentences: list[str] = []
    for error in errors:
        text = sentence(error, rules or {})
        if text not in sentences:
            sentences.append(text)
    return " ".join(sentences[:5])


def sentence(error: Mapping[str, Any], rules: Mapping[str, str]) -> str:
    kind = str(error.get("type", ""))
    where = [p for p in error.get("loc", ()) if p not in _SOURCES or isinstance(p, int)]
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    if kind == "json_invalid":
        return "The request body is not valid JSON."
    if kind in ("value_error", "assertion_error"):
        return _sentence_case(str(ctx.get("error") or error.get("msg", "")))
    subject = _subject(where)
    if kind == "missing":
        return _sentence_case(f"{subject} {_be(subject)} required")
    field = where[0] if len(where) == 1 and isinstance(where[0], str) else ""
    if field in rules:
        return rules[field]
    if kind in KINDS:
        return _sentence_case(f"{subject} must be {KINDS[kind]}")
    if kind in BOUNDS:
        try:
            return _sentence_case(f"{subject} {BOUNDS[kind].format(**ctx)}")
        except (KeyError, IndexError):
            pass
    return _sentence_case(f"{subject} {_be(subject)} not valid")


def _subject(where: Iterable[str | int]) -> str:
    """``["bots", 0, "seat"]`` -> "bot 1's seat"; ``[]`` -> "the request"."""
    subject = ""
    for part in where:
        if isinstance(part, int):
            item = ITEMS.get(subject)
            subject = f"{item} {part + 1}" if item else f"item {part + 1} of {subject}"
            continue
        label = LABELS.get(part) or part.replace("_", " ")
        if subject:
            label = label.removeprefix("the ")
            subject = f"{subject}'s {label}"
        else:
            subject = label
    return subject or "the request"


def _be(subject: str) -> str:
    return "are" if subject in PLURALS else "is"


def _sentence_case(text: str) -> str:
    text = text.strip()
    if not text:
        return "The request is not valid."
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


def http_error(status: int, detail: str) -> tuple[str, str]:
    """An HTTP error raised by the framework (bad JSON, too large, not found...) as the
    API's (code, sentence)."""
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    code = HTTP_CODES.get(status) or phrase.lower().replace(" ", "_").replace("-", "_")
    return code, HTTP_TEXTS.get(detail) or _sentence_case(detail or phrase)
