"""Accounts over HTTP: register, sign in and out, guests and their upgrade, the
profile and the client settings (the service is ``auth.Accounts``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from .. import names
from ..auth import (
    COOKIE,
    Account,
    Login,
    NewAccount,
    Profile,
    account_from_row,
    name_taken,
    parse_settings,
    token_hash,
)
from ..errors import ApiError
from ..moderation import ban_words
from ..throttle import client_key
from .deps import CurrentAccount, OptionalAccount, RoomDep

router = APIRouter(tags=["accounts"])


@router.post("/api/auth/register", status_code=201)
async def register(
    body: NewAccount, request: Request, response: Response, room: RoomDep
) -> Account:
    """Create an account with a name and password and sign in. New accounts (guests
    too) are throttled per address (429)."""
    room.throttles.admit_signup(client_key(request))
    if await room.accounts.find(body.name) is not None:  # spare the hash
        raise name_taken(body.name)
    account = await room.accounts.create(
        name=body.name,
        display_name=body.display_name or body.name,
        password_hash=await room.passwords.hash(body.password),
        guest=False,
    )
    room.accounts.set_cookie(response, await room.accounts.new_session(account.id))
    return account


@router.post("/api/auth/login")
async def login(body: Login, request: Request, response: Response, room: RoomDep) -> Account:
    """Sign in. Failures are throttled per (name, address) and per address (429), so
    nobody can lock an owner out from elsewhere. A banned account is refused (403
    ``banned``, saying until when and why)."""
    key, address = names.name_key(body.name), client_key(request)
    room.throttles.check_login(key, address)
    row = await room.accounts.find(body.name)
    stored = None if row is None else row.password_hash
    if not await room.passwords.verify(stored, body.password):
        room.throttles.login_failed(key, address)
        raise ApiError(401, "bad_credentials", "Wrong name or password.")
    ban = await room.moderation.ban_of(row.id)
    if ban is not None:  # told only to whoever knows the password
        raise ApiError(403, "banned", ban_words(ban.until, ban.reason, whole=True))
    room.throttles.login_succeeded(key, address)
    room.accounts.set_cookie(response, await room.accounts.new_session(row.id))
    return account_from_row(row)


@router.post("/api/auth/logout", status_code=204)
async def logout(request: Request, response: Response, room: RoomDep) -> None:
    """End this session."""
    token = request.cookies.get(COOKIE)
    if token:
        account = await room.accounts.from_token(token)
        await room.accounts.end_session(token)
        if account is not None:  # sockets opened with this session stop acting
            room.sockets.close_account(
                account.id, session=token_hash(token), code=4001, reason="signed out"
            )
    response.delete_cookie(COOKIE, path="/")


@router.post("/api/auth/guest", status_code=201)
async def guest(request: Request, response: Response, room: RoomDep) -> Account:
    """Play at once as a guest; set a password later to keep the record. Throttled per
    address with registrations (429)."""
    room.throttles.admit_signup(client_key(request))
    account = await room.accounts.create_guest()
    room.accounts.set_cookie(response, await room.accounts.new_session(account.id))
    return account


@router.get("/api/me")
async def me(account: CurrentAccount) -> Account:
    """The signed-in account."""
    return account


class Session(BaseModel):
    account: Account | None = Field(description="the signed-in account; null when signed out")


@router.get("/api/session")
async def session(account: OptionalAccount) -> Session:
    """Who is signed in, answering 200 either way (``/api/me`` answers 401 when signed out)."""
    return Session(account=account)


@router.get("/api/me/settings")
async def get_settings(account: CurrentAccount, room: RoomDep) -> dict[str, Any]:
    """The account's client settings (a JSON object the client defines; ``{}`` at first)."""
    return await room.accounts.settings_of(account.id)


@router.put(
    "/api/me/settings",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
)
async def put_settings(account: CurrentAccount, request: Request, room: RoomDep) -> dict[str, Any]:
    """Replace the account's client settings: a JSON object of at most 8 KiB, keys of at
    most 64 characters at the top level, nested at most 6 deep."""
    data = parse_settings(await request.body())
    await room.accounts.save_settings(account.id, data)
    return data


@router.patch("/api/me")
async def update_profile(body: Profile, account: CurrentAccount, room: RoomDep) -> Account:
    """Change the display name and/or avatar."""
    values: dict[str, Any] = {}
    if body.display_name is not None:
        values["display_name"] = body.display_name
    if body.avatar is not None:
        values["avatar"] = body.avatar
    if values:
        await room.accounts.update_profile(account.id, values)
    return account.model_copy(update=values)


@router.post("/api/me/upgrade")
async def upgrade(
    body: NewAccount, account: CurrentAccount, room: RoomDep, response: Response
) -> Account:
    """Turn the signed-in guest into a full account, keeping its record, and optionally
    replace its "Guest ..." display name. The guest's session ends; the answer sets the
    cookie of a new one."""
    if not account.guest:
        raise ApiError(409, "not_a_guest", "This account already has a password.")
    held = await room.accounts.find(body.name)
    if held is not None and held.id != account.id:  # spare the hash
        raise name_taken(body.name)
    upgraded, token = await room.accounts.upgrade(
        account,
        name=body.name,
        password_hash=await room.passwords.hash(body.password),
        display_name=body.display_name,
    )
    room.accounts.set_cookie(response, token)
    return upgraded
