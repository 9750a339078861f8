"""Operations and their answers as JSON, to travel between nodes."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import ApiError
from ..protocol import TableInfo
from ..table import ops
from ..table.members import Member

_OPS: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        ops.Join,
        ops.Part,
        ops.Play,
        ops.Say,
        ops.React,
        ops.Call,
        ops.AskHint,
        ops.Sync,
        ops.Back,
        ops.Ping,
        ops.NextRound,
        ops.Sit,
        ops.Leave,
        ops.Start,
        ops.Rematch,
        ops.Hold,
        ops.Unhold,
        ops.Describe,
    )
}


def op_out(op: ops.Op) -> dict[str, Any]:
    """An operation from a socket or the lobby as JSON-ready data.

    >>> op_out(ops.Play("m1", 3, "7H"))
    {'op': 'Play', 'member_id': 'm1', 'seq': 3, 'move': '7H'}
    """
    name = type(op).__name__
    if name not in _OPS:
        raise ValueError(f"{name} does not travel between nodes")
    return {"op": name, **dataclasses.asdict(op)}


def op_in(data: dict[str, Any]) -> ops.Op:
    """The operation ``op_out`` wrote.

    >>> op_in(op_out(ops.Sit(ops.Player(4, "Ann", "fox"), None, "c0de")))
    Sit(player=Player(id=4, name='Ann', avatar='fox'), seat=None, code='c0de')
    """
    fields = dict(data)
    cls = _OPS[fields.pop("op")]
    if "member" in fields:
        member = dict(fields["member"])
        member["hides"] = tuple(member.get("hides", ()))
        fields["member"] = Member(**member)
    if "player" in fields:
        fields["player"] = ops.Player(**fields["player"])
    op: ops.Op = cls(**fields)
    return op


def answer_out(answer: Any) -> dict[str, Any]:
    if answer is None:
        return {}
    if isinstance(answer, TableInfo):
        return {"info": answer.model_dump(mode="json")}
    if isinstance(answer, ops.Joined):
        return {"joined": dataclasses.asdict(answer)}
    raise TypeError(f"cannot send {type(answer).__name__} between nodes")


def answer_in(data: dict[str, Any]) -> Any:
    if "info" in data:
        return TableInfo.model_validate(data["info"])
    if "joined" in data:
        return ops.Joined(**data["joined"])
    return None


def error_out(exc: ApiError) -> dict[str, Any]:
    return {"status": exc.status, "code": exc.code, "detail": exc.detail}


def error_in(data: dict[str, Any]) -> ApiError:
    return ApiError(data["status"], data["code"], data["detail"])
