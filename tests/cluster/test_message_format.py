"""Messages between nodes as JSON text sequences (``cluster/routing.py``): the texts a
message carries arrive exactly as they were sent, whatever they hold, and a message
in the earlier format (texts as strings inside the message) is still read."""

from __future__ import annotations

import doctest
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter

from crazy_eights.server.cluster import routing
from crazy_eights.server.cluster.routing import SEPARATOR, pack, unpack

# JSON values a socket's text could hold: any string (record separators, quotes,
# newlines, any code point), numbers, nesting.
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


ANY: TypeAdapter[Any] = TypeAdapter(Any)


def test_doctests() -> None:
    assert doctest.testmod(routing).failed == 0


@given(st.lists(VALUES, max_size=4), st.booleans())
def test_texts_arrive_as_sent(values: list[Any], ascii_only: bool) -> None:
    texts = [json.dumps(v, ensure_ascii=ascii_only) for v in values]
    message = {"k": "out", "to": [[f"m{i}", i] for i in range(len(texts))]}
    got = unpack(pack(message, texts))
    assert got.pop("texts", []) == texts
    assert got == message


@given(VALUES)
def test_a_text_never_holds_the_separator_unescaped(value: Any) -> None:
    """What the split relies on: JSON writes control characters in strings escaped, both
    the standard library's and pydantic's (which writes the tables' texts)."""
    assert SEPARATOR not in json.dumps(value, ensure_ascii=False)
    assert SEPARATOR.encode() not in ANY.dump_json(value)


def test_the_earlier_format_is_still_read() -> None:
    """A node of the version before (texts inside the message) is understood."""
    earlier = json.dumps({"k": "out", "texts": ['{"a":"\\u001e"}'], "to": [["m1", 0]]})
    assert unpack(earlier.encode()) == {"k": "out", "texts": ['{"a":"\\u001e"}'], "to": [["m1", 0]]}


@pytest.mark.parametrize("data", [b"[1, 2]", b"not json", b"\xff\xfe", b"\x1e{}", b""])
def test_a_malformed_message_is_refused(data: bytes) -> None:
    with pytest.raises(ValueError):
        unpack(data)
