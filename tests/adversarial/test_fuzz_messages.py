"""Every client message type fuzzed at a live table (Hypothesis): well-formed messages
drawn from the Pydantic models themselves, then mutated (fields dropped, added, retyped,
oversized, nested, non-JSON, binary). Whatever arrives, the socket answers or closes with
a code (never drops silently, never raises), and the table still plays afterwards."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import types
import typing
from pathlib import Path
from typing import Any

import annotated_types
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from starlette.websockets import WebSocketDisconnect

from crazy_eights.server.api import table_socket as sockets
from crazy_eights.server.protocol import ClientMessage

from .inprocess import as_, guest, make_table, room, room_of, until

MODELS: list[type[BaseModel]] = list(typing.get_args(typing.get_args(ClientMessage)[0]))
CLOSES = {1008, 1009}  # the codes a socket may be closed with for what it sent
EXAMPLES = int(os.environ.get("CE_FUZZ_EXAMPLES", "300"))  # more for a longer hunt

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


def _field(annotation: Any, metadata: list[Any]) -> st.SearchStrategy[Any]:
    """A strategy for values a model field accepts, from its annotation and constraints."""
    if typing.get_origin(annotation) is typing.Literal:
        return st.sampled_from(typing.get_args(annotation))
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return st.one_of(*(_field(arg, metadata) for arg in typing.get_args(annotation)))
    bounds = {type(m).__name__: m for m in metadata}
    if annotation is type(None):
        return st.none()
    if annotation is int:
        low = bounds["Ge"].ge if "Ge" in bounds else None
        high = bounds["Le"].le if "Le" in bounds else None
        return st.integers(min_value=low, max_value=high)
    if annotation is float:
        return st.floats(allow_nan=False, allow_infinity=False)
    if annotation is str:
        low = next((m.min_length for m in metadata if isinstance(m, annotated_types.MinLen)), 0)
        high = next((m.max_length for m in metadata if isinstance(m, annotated_types.MaxLen)), 50)
        return st.text(min_size=low, max_size=high) | st.sampled_from(
            ["draw", "pass", "7H", "8S:H"]
        )
    raise NotImplementedError(annotation)


def well_formed(model: type[BaseModel]) -> st.SearchStrategy[dict[str, Any]]:
    fields = {
        name: _field(info.annotation, info.metadata) for name, info in model.model_fields.items()
    }
    required = {n: s for n, s in fields.items() if model.model_fields[n].is_required()}
    optional = {n: s for n, s in fields.items() if n not in required}
    return st.fixed_dictionaries(required, optional=optional)


@st.composite
def mutated(draw: st.DrawFn, model: type[BaseModel]) -> dict[str, Any]:
    """A well-formed message broken one way (``__raw__``: send this text as it is)."""
    message = dict(draw(well_formed(model)))
    how = draw(st.sampled_from(["drop", "extra", "retype", "huge", "nest", "type"]))
    key = draw(st.sampled_from(sorted(message)))
    if how == "drop":
        del message[key]
    elif how == "extra":
        message[draw(st.text(min_size=1, max_size=10))] = draw(json_values)
    elif how == "retype":
        message[key] = draw(json_values)
    elif how == "huge":
        message[key] = "x" * draw(st.integers(4000, 9000))
    elif how == "nest":
        depth = draw(st.integers(50, 2000))
        message[key] = json.loads("[" * depth + "]" * depth) if depth < 900 else depth
        if depth >= 900:
            return {
                "__raw__": json.dumps(message)[:-1] + ', "deep": ' + "[" * depth + "]" * depth + "}"
            }
    else:
        message["type"] = draw(st.text(max_size=12))
    return message


raw_frames = st.one_of(
    st.binary(max_size=300).map(lambda b: {"__bytes__": b}),
    st.text(max_size=300).map(lambda t: {"__raw__": t}),
    st.sampled_from(
        [
            '{"type": "chat", "text": "\\ud800"}',
            '{"type": "ping", "t": NaN}',
            '{"type": "ping", "t": 1e999}',
            '{"type": "move", "seq": 0, "move": "draw", "seq": 1}',
            '{"type": "chat", "text": ' + "[" * 1500 + "]" * 1500 + "}",
            "[" * 2000 + "]" * 2000,
            "[]",
            "null",
            '"move"',
        ]
    ).map(lambda t: {"__raw__": t}),
)

frames = st.one_of(*(well_formed(m) for m in MODELS), *(mutated(m) for m in MODELS), raw_frames)


def _send(ws: Any, frame: dict[str, Any]) -> None:
    if "__bytes__" in frame:
        ws.send_bytes(frame["__bytes__"])
    elif "__raw__" in frame:
        ws.send_text(frame["__raw__"])
    else:
        ws.send_text(json.dumps(frame))


def _answered(ws: Any, stamp: float) -> int | None:
    """Read until our ping's pong (None) or a close (its code)."""
    try:
        for _ in range(1000):
            message = ws.receive_json()
            if message["type"] == "pong" and message.get("t") == stamp:
                return None
    except WebSocketDisconnect as closed:
        return int(closed.code)
    raise AssertionError("no pong and no close")


@pytest.mark.slow
def test_any_frame_is_answered_or_closed_with_a_code_and_the_table_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(sockets, "RATE", 10_000.0)  # fuzz the parser, not the rate limit
    monkeypatch.setattr(sockets, "BURST", 10_000.0)
    with room(tmp_path, socket_opens=1000.0) as client:
        _, token = guest(client)
        table = make_table(client, token, hints=True, bots=[{"seat": 1, "level": "random"}])
        url = f"/ws/tables/{table['id']}"
        actor = room_of(client).tables.get(table["id"])
        state: dict[str, Any] = {"ws": None, "stamp": 0.0, "closes": {}}

        def socket() -> Any:
            if state["ws"] is None:
                state["ws"] = client.websocket_connect(url, headers=as_(token))
                state["ws"].__enter__()
                until(state["ws"], "welcome")
            return state["ws"]

        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
        @given(frame=frames)
        def feed(frame: dict[str, Any]) -> None:
            ws = socket()
            _send(ws, frame)
            state["stamp"] += 1
            ws.send_json({"type": "ping", "t": state["stamp"]})
            code = _answered(ws, state["stamp"])
            if code is not None:
                assert code in CLOSES, f"closed with {code} after {frame!r:.200}"
                state["closes"][code] = state["closes"].get(code, 0) + 1
                with contextlib.suppress(Exception):
                    ws.__exit__(None, None, None)
                state["ws"] = None

        try:
            feed()
            assert state["closes"].get(1009), "no oversized frame was tried"
            ws = socket()
            ws.send_json({"type": "sync"})
            welcome = until(ws, "welcome")
            version = welcome["state"]["version"]
            while not welcome["state"]["view"]["over"] and not welcome["state"]["legal"]:
                welcome = {"state": until(ws, "state", version=version + 1)["state"]}
                version += 1
            if not welcome["state"]["view"]["over"]:
                move = welcome["state"]["legal"][0]
                ws.send_json({"type": "move", "seq": version, "move": move})
                assert until(ws, "state", version=version + 1)["state"]["by"] == 0
            assert actor.version >= version
        finally:
            if state["ws"] is not None:
                state["ws"].__exit__(None, None, None)
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not failures, [f"{r.getMessage()} {r.exc_text or ''}"[:300] for r in failures[:3]]
