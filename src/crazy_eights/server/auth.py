"""Accounts and sessions: register, log in and out, guests and their upgrade, profiles.

Passwords are argon2id hashes (hashed off the event loop). A session is a random token in
an HttpOnly SameSite cookie; the database keeps only its SHA-256. Failed logins are
throttled per name and per address.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import secrets
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field, field_validator
from starlette.requests import HTTPConnection

from . import db
from .errors import ApiError

if TYPE_CHECKING:
    from .app import Room

COOKIE = "ce_session"
NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{3,32}$")
AVATAR_RE = re.compile(r"^[a-z0-9-]{1,16}$")


class Account(BaseModel):
    id: int
    name: str
    display_name: str
    avatar: str
    guest: bool
    bot: str | None = None


def account_from_row(row: Any) -> Account:
    return Account(
        id=row.id,
        name=row.name,
        display_name=row.display_name,
        avatar=row.avatar,
        guest=row.guest,
        bot=row.bot_level,
    )


def _check_display_name(value: str) -> str:
    value = " ".join(value.split())
    if not 1 <= len(value) <= 40 or any(ord(c) < 32 for c in value):
        raise ValueError("display name must be 1 to 40 printable characters")
    return value


class Credentials(BaseModel):
    name: str = Field(min_length=3, max_length=32, description="letters, digits, _ . -")
    password: str = Field(min_length=8, max_length=200)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not NAME_RE.match(value):
            raise ValueError("name must be 3 to 32 letters, digits, '_', '.' or '-'")
        return value


class Register(Credentials):
    display_name: str | None = Field(default=None, max_length=40)

    @field_validator("display_name")
    @classmethod
    def _display(cls, value: str | None) -> str | None:
        return None if value is None else _check_display_name(value)


class Login(BaseModel):
    name: str = Field(max_length=32)
    password: str = Field(max_length=200)


class Profile(BaseModel):
    display_name: str | None = Field(default=None, max_length=40)
    avatar: str | None = Field(default=None, max_length=16)

    @field_validator("display_name")
    @classmethod
    def _display(cls, value: str | None) -> str | None:
        return None if value is None else _check_display_name(value)

    @field_validator("avatar")
    @classmethod
    def _avatar(cls, value: str | None) -> str | None:
        if value is not None and not AVATAR_RE.match(value):
            raise ValueError("avatar must be an avatar id: 1 to 16 of a-z, 0-9 and -")
        return value


@dataclass
class Throttle:
    """Counts failures per key in a sliding window; ``retry_after`` > 0 means refuse."""

    attempts: int
    window: float

    def __post_init__(self) -> None:
        self._failures: dict[str, deque[float]] = {}

    def retry_after(self, *keys: str) -> float:
        now = time.monotonic()
        wait = 0.0
        for key in keys:
            times = self._failures.get(key)
            if not times:
                continue
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) >= self.attempts:
                wait = max(wait, times[0] + self.window - now)
        return wait

    def fail(self, *keys: str) -> None:
        now = time.monotonic()
        for key in keys:
            self._failures.setdefault(key, deque()).append(now)

    def succeed(self, key: str) -> None:
        self._failures.pop(key, None)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    """Account and session storage; one per app."""

    def __init__(self, room: Room) -> None:
        self.room = room
        settings = room.settings
        self.hasher = PasswordHasher(
            time_cost=settings.hash_time_cost, memory_cost=settings.hash_memory_kib
        )
        self.throttle = Throttle(settings.login_attempts, settings.login_window)

    async def hash(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str, password: str) -> bool:
        try:
            return await asyncio.to_thread(self.hasher.verify, stored, password)
        except (VerificationError, InvalidHashError):
            return False

    async def get(self, account_id: int) -> Account | None:
        async with self.room.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(db.accounts).where(db.accounts.c.id == account_id))
            ).first()
        return None if row is None else account_from_row(row)

    async def create(
        self, *, name: str, display_name: str, password_hash: str | None, guest: bool
    ) -> Account:
        async with self.room.engine.begin() as conn:
            taken = (
                await conn.execute(
                    sa.select(db.accounts.c.id).where(
                        sa.func.lower(db.accounts.c.name) == name.lower()
                    )
                )
            ).first()
            if taken is not None:
                raise ApiError(409, "name_taken", f"the name {name!r} is taken")
            result = await conn.execute(
                db.accounts.insert().values(
                    name=name,
                    display_name=display_name,
                    avatar="default",
                    password_hash=password_hash,
                    guest=guest,
                    created_at=db.now(),
                )
            )
            account_id = int(result.inserted_primary_key[0])  # type: ignore[index]
        return Account(
            id=account_id, name=name, display_name=display_name, avatar="default", guest=guest
        )

    async def bot_account(self, level: str) -> int:
        """The account that plays (and is rated) for a bot level; made on first use."""
        async with self.room.engine.begin() as conn:
            row = (
                await conn.execute(
                    sa.select(db.accounts.c.id).where(db.accounts.c.bot_level == level)
                )
            ).first()
            if row is not None:
                return int(row.id)
            result = await conn.execute(
                db.accounts.insert().values(
                    name=f"bot-{level}",
                    display_name=f"{level} bot",
                    avatar="bot",
                    password_hash=None,
                    guest=False,
                    bot_level=level,
                    created_at=db.now(),
                )
            )
            return int(result.inserted_primary_key[0])  # type: ignore[index]

    async def new_session(self, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        now = db.now()
        async with self.room.engine.begin() as conn:
            await conn.execute(
                db.sessions.insert().values(
                    token_hash=token_hash(token),
                    account_id=account_id,
                    created_at=now,
                    expires_at=now + self.room.settings.session_days * 86400,
                )
            )
        return token

    async def from_token(self, token: str | None) -> Account | None:
        if not token or len(token) > 100:
            return None
        query = (
            sa.select(db.accounts)
            .join(db.sessions, db.sessions.c.account_id == db.accounts.c.id)
            .where(db.sessions.c.token_hash == token_hash(token))
            .where(db.sessions.c.expires_at > db.now())
        )
        async with self.room.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else account_from_row(row)

    async def end_session(self, token: str) -> None:
        async with self.room.engine.begin() as conn:
            await conn.execute(
                db.sessions.delete().where(db.sessions.c.token_hash == token_hash(token))
            )

    def set_cookie(self, response: Response, token: str) -> None:
        response.set_cookie(
            COOKIE,
            token,
            max_age=self.room.settings.session_days * 86400,
            httponly=True,
            samesite="lax",
            secure=self.room.settings.secure_cookies,
            path="/",
        )


def room_of(conn: HTTPConnection) -> Room:
    room: Room = conn.app.state.room
    return room


async def optional_account(request: Request) -> Account | None:
    return await room_of(request).accounts.from_token(request.cookies.get(COOKIE))


async def current_account(request: Request) -> Account:
    account = await optional_account(request)
    if account is None:
        raise ApiError(401, "not_signed_in", "sign in or play as a guest first")
    return account


CurrentAccount = Annotated[Account, Depends(current_account)]
OptionalAccount = Annotated[Account | None, Depends(optional_account)]

router = APIRouter(tags=["accounts"])


@router.post("/api/auth/register", status_code=201)
async def register(body: Register, request: Request, response: Response) -> Account:
    """Create an account with a name and password and sign in."""
    accounts = room_of(request).accounts
    account = await accounts.create(
        name=body.name,
        display_name=body.display_name or body.name,
        password_hash=await accounts.hash(body.password),
        guest=False,
    )
    accounts.set_cookie(response, await accounts.new_session(account.id))
    return account


@router.post("/api/auth/login")
async def login(body: Login, request: Request, response: Response) -> Account:
    """Sign in; repeated failures for a name or an address are throttled (429)."""
    accounts = room_of(request).accounts
    address = request.client.host if request.client else "?"
    keys = (f"name:{body.name.lower()}", f"ip:{address}")
    wait = accounts.throttle.retry_after(*keys)
    if wait > 0:
        raise ApiError(
            429,
            "throttled",
            f"too many failed sign-ins; try again in {int(wait) + 1} s",
            headers={"Retry-After": str(int(wait) + 1)},
        )
    async with accounts.room.engine.connect() as conn:
        row = (
            await conn.execute(
                sa.select(db.accounts).where(sa.func.lower(db.accounts.c.name) == body.name.lower())
            )
        ).first()
    if row is None or row.password_hash is None:
        # Spend the same time as a real check so names cannot be probed by timing.
        await accounts.verify(accounts.room.dummy_hash, body.password)
        ok = False
    else:
        ok = await accounts.verify(row.password_hash, body.password)
    if not ok:
        accounts.throttle.fail(*keys)
        raise ApiError(401, "bad_credentials", "wrong name or password")
    accounts.throttle.succeed(keys[0])
    accounts.set_cookie(response, await accounts.new_session(row.id))  # type: ignore[union-attr]
    return account_from_row(row)


@router.post("/api/auth/logout", status_code=204)
async def logout(request: Request, response: Response) -> None:
    """End this session."""
    token = request.cookies.get(COOKIE)
    if token:
        room = room_of(request)
        account = await room.accounts.from_token(token)
        await room.accounts.end_session(token)
        if account is not None:  # sockets opened with this session stop acting
            room.sockets.close_account(
                account.id, session=token_hash(token), code=4001, reason="signed out"
            )
    response.delete_cookie(COOKIE, path="/")


@router.post("/api/auth/guest", status_code=201)
async def guest(request: Request, response: Response) -> Account:
    """Play at once as a guest; set a password later to keep the record."""
    accounts = room_of(request).accounts
    tag = secrets.token_hex(4)
    account = await accounts.create(
        name=f"guest-{tag}", display_name=f"Guest {tag[:4]}", password_hash=None, guest=True
    )
    accounts.set_cookie(response, await accounts.new_session(account.id))
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


MAX_SETTINGS = 8192  # bytes of compact JSON
MAX_SETTINGS_DEPTH = 6


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


@router.get("/api/me/settings")
async def get_settings(account: CurrentAccount, request: Request) -> dict[str, Any]:
    """The account's client settings (a JSON object the client defines; ``{}`` at first)."""
    async with room_of(request).engine.connect() as conn:
        row = (
            await conn.execute(
                sa.select(db.account_settings.c.data).where(
                    db.account_settings.c.account_id == account.id
                )
            )
        ).first()
    return {} if row is None else dict(row.data)


@router.put(
    "/api/me/settings",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
)
async def put_settings(account: CurrentAccount, request: Request) -> dict[str, Any]:
    """Replace the account's client settings: a JSON object of at most 8 KiB, keys of at
    most 64 characters at the top level, nested at most 6 deep."""
    raw = await request.body()
    if len(raw) > MAX_SETTINGS * 2:
        raise ApiError(413, "too_large", f"settings are at most {MAX_SETTINGS} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(422, "bad_json", "settings must be a JSON object") from None
    if not isinstance(data, dict):
        raise ApiError(422, "bad_settings", "settings must be a JSON object")
    compact = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    if len(compact.encode()) > MAX_SETTINGS:
        raise ApiError(413, "too_large", f"settings are at most {MAX_SETTINGS} bytes")
    if _depth(data) > MAX_SETTINGS_DEPTH:
        raise ApiError(422, "bad_settings", f"settings nest at most {MAX_SETTINGS_DEPTH} deep")
    if any(len(key) > 64 for key in data):
        raise ApiError(422, "bad_settings", "setting names are at most 64 characters")
    values = {"data": data, "updated_at": db.now()}
    async with room_of(request).engine.begin() as conn:
        done = await conn.execute(
            db.account_settings.update()
            .where(db.account_settings.c.account_id == account.id)
            .values(**values)
        )
        if done.rowcount == 0:
            await conn.execute(db.account_settings.insert().values(account_id=account.id, **values))
    return data


@router.patch("/api/me")
async def update_profile(body: Profile, account: CurrentAccount, request: Request) -> Account:
    """Change the display name and/or avatar."""
    values: dict[str, Any] = {}
    if body.display_name is not None:
        values["display_name"] = body.display_name
    if body.avatar is not None:
        values["avatar"] = body.avatar
    if values:
        async with room_of(request).engine.begin() as conn:
            await conn.execute(
                db.accounts.update().where(db.accounts.c.id == account.id).values(**values)
            )
    return account.model_copy(update=values)


@router.post("/api/me/upgrade")
async def upgrade(body: Credentials, account: CurrentAccount, request: Request) -> Account:
    """Turn the signed-in guest into a full account, keeping its record."""
    if not account.guest:
        raise ApiError(409, "not_a_guest", "this account already has a password")
    accounts = room_of(request).accounts
    password_hash = await accounts.hash(body.password)
    async with accounts.room.engine.begin() as conn:
        taken = (
            await conn.execute(
                sa.select(db.accounts.c.id).where(
                    sa.func.lower(db.accounts.c.name) == body.name.lower(),
                    db.accounts.c.id != account.id,
                )
            )
        ).first()
        if taken is not None:
            raise ApiError(409, "name_taken", f"the name {body.name!r} is taken")
        await conn.execute(
            db.accounts.update()
            .where(db.accounts.c.id == account.id)
            .values(name=body.name, password_hash=password_hash, guest=False)
        )
    return account.model_copy(update={"name": body.name, "guest": False})
