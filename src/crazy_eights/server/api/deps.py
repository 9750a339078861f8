"""The FastAPI dependencies every route shares: the room (``RoomDep``) and the
signed-in account (``CurrentAccount``, ``OptionalAccount``).

This is the one place a route reaches the room: the app factory keeps it in
``app.state.room``; routes and sockets ask for it here.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from ..auth import COOKIE, Account
from ..errors import ApiError
from ..room import Room


def room_of(conn: HTTPConnection) -> Room:
    """The room serving this request or socket."""
    room: Room = conn.app.state.room
    return room


RoomDep = Annotated[Room, Depends(room_of)]


async def optional_account(request: Request) -> Account | None:
    """The account whose session cookie came with the request, or None."""
    return await room_of(request).accounts.from_token(request.cookies.get(COOKIE))


async def current_account(request: Request) -> Account:
    """The signed-in account (401 ``not_signed_in`` without one)."""
    account = await optional_account(request)
    if account is None:
        raise ApiError(401, "not_signed_in", "Sign in or play as a guest first.")
    return account


CurrentAccount = Annotated[Account, Depends(current_account)]
OptionalAccount = Annotated[Account | None, Depends(optional_account)]
