"""Accounts and sessions: register, sign in and out, guests and their upgrade, profiles and
client settings.

Passwords are argon2id hashes, made a bounded number at a time (``passwords.py``). A
session is a random token in an HttpOnly SameSite cookie; the database keeps only its
SHA-256. Names follow ``names.py``: one account per name whatever its case or Unicode
form, which a unique index guarantees even for requests at the same moment. New accounts
are throttled per client address, failed sign-ins per (name, address) and per address
(``throttle.py``).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field, field_validator
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection
from starlette.requests import HTTPConnection

from . import achievements, db, names
from .errors import ApiError
from .throttle import client_key

if TYPE_CHECKING:
    from .app import Room

COOKIE = "ce_session"
AVATAR_RE = re.compile(r"[a-z0-9-]{1,16}")
PASSWORD_RULE = "The password must be 8 to 200 characters."
AVATAR_RULE = "The avatar must be an avatar id: 1 to 16 of a-z, 0-9 and '-'."


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


def _name_taken(name: str) -> ApiError:
    return ApiError(409, "name_taken", f"The name {name!r} is taken.")


class Form(BaseModel):
    """A form the browser posts. ``RULES`` words any mistake in a field (``messages``)."""

    RULES: ClassVar[dict[str, str]] = {}


class Credentials(Form):
    RULES: ClassVar[dict[str, str]] = {
        "name": names.ACCOUNT_NAME_RULE,
        "password": PASSWORD_RULE,
    }

    name: str = Field(min_length=3, max_length=32, description="letters, digits, _ . -")
    password: str = Field(min_length=8, max_length=200)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return names.account_name(value)


class NewAccount(Credentials):
    """A name and password, and optionally how the account is shown (else its name)."""

    RULES: ClassVar[dict[str, str]] = {
        **Credentials.RULES,
        "display_name": names.DISPLAY_NAME_RULE,
    }

    display_name: str | None = Field(
        default=None, max_length=200, description="1 to 40 visible characters"
    )

    @field_validator("display_name")
    @classmethod
    def _display(cls, value: str | None) -> str | None:
        return None if value is None else names.display_name(value)


class Login(Form):
    RULES: ClassVar[dict[str, str]] = {
        "name": names.ACCOUNT_NAME_RULE,
        "password": PASSWORD_RULE,
    }

    name: str = Field(max_length=32)
    password: str = Field(max_length=200)


class Profile(Form):
    RULES: ClassVar[dict[str, str]] = {
        "display_name": names.DISPLAY_NAME_RULE,
        "avatar": AVATAR_RULE,
    }

    display_name: str | None = Field(
        default=None, max_length=200, description="1 to 40 visible characters"
    )
    avatar: str | None = Field(default=None, max_length=16)

    @field_validator("display_name")
    @classmethod
    def _display(cls, value: str | None) -> str | None:
        return None if value is None else names.display_name(value)

    @field_validator("avatar")
    @classmethod
    def _avatar(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not AVATAR_RE.fullmatch(value):
            raise ValueError(AVATAR_RULE)
        return names.avatar(value)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    """Account and session storage; one per app."""

    def __init__(self, room: Room) -> None:
        self.room = room

    async def get(self, account_id: int) -> Account | None:
        async with self.room.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(db.accounts).where(db.accounts.c.id == account_id))
            ).first()
        return None if row is None else account_from_row(row)

    async def find(self, name: str) -> Any:
        """The account row whose name is ``name`` in any case or Unicode form, or None."""
        query = sa.select(db.accounts).where(db.accounts.c.name_key == names.name_key(name))
        async with self.room.engine.connect() as conn:
            return (await conn.execute(query)).first()

    async def _insert(self, **values: Any) -> int:
        """Insert an account; raises ``IntegrityError`` when its name (key) is held."""
        async with self.room.engine.begin() as conn:
            result = await conn.execute(
                db.accounts.insert().values(
                    name_key=names.name_key(values["name"]), created_at=db.now(), **values
                )
            )
        return int(result.inserted_primary_key[0])  # type: ignore[index]

    async def create(
        self, *, name: str, display_name: str, password_hash: str | None, guest: bool
    ) -> Account:
        """A new account; 409 ``name_taken`` if any spelling of the name is held."""
        try:
            account_id = await self._insert(
                name=name,
                display_name=display_name,
                avatar="default",
                password_hash=password_hash,
                guest=guest,
            )
        except sa.exc.IntegrityError:
            raise _name_taken(name) from None
        return Account(
            id=account_id, name=name, display_name=display_name, avatar="default", guest=guest
        )

    async def create_guest(self) -> Account:
        """A guest ``guest-<8 hex>`` shown as "Guest <4 hex>" (a new tag if one is held)."""
        for _ in range(4):
            tag = secrets.token_hex(4)
            try:
                return await self.create(
                    name=f"guest-{tag}",
                    display_name=f"Guest {tag[:4]}",
                    password_hash=None,
                    guest=True,
                )
            except ApiError as exc:
                if exc.code != "name_taken":
                    raise
        raise ApiError(503, "busy", "No free guest name was found; try again.")

    async def bot_account(self, level: str) -> int:
        """The account that plays (and is rated) for a bot level; made on first use."""
        query = sa.select(db.accounts.c.id).where(db.accounts.c.bot_level == level)
        # A second name in case a person took "bot-<level>" before such names were kept
        # for the bots; a race with another table making it is settled by bot_level.
        for name in (f"bot-{level}", f"bot-{level}-{secrets.token_hex(3)}"):
            async with self.room.engine.connect() as conn:
                row = (await conn.execute(query)).first()
            if row is not None:
                return int(row.id)
            try:
                return await self._insert(
                    name=name,
                    display_name=f"{level.capitalize()} bot",  # as its seats are named
                    avatar="bot",
                    password_hash=None,
                    guest=False,
                    bot_level=level,
                )
            except sa.exc.IntegrityError:
                continue
        raise ApiError(503, "busy", f"The {level} bot's account could not be made.")

    async def upgrade(
        self, account: Account, *, name: str, password_hash: str, display_name: str | None
    ) -> tuple[Account, str]:
        """Give a guest a name and password. Every session of the guest ends and a new
        one begins (returned): whoever held the guest's token does not hold the account."""
        values: dict[str, Any] = {
            "name": name,
            "name_key": names.name_key(name),
            "password_hash": password_hash,
            "guest": False,
        }
        if display_name is not None:
            values["display_name"] = display_name
        token = secrets.token_urlsafe(32)
        try:
            async with self.room.engine.begin() as conn:
                done = await conn.execute(
                    db.accounts.update()
                    .where(db.accounts.c.id == account.id, db.accounts.c.guest == sa.true())
                    .values(**values)
                )
                if done.rowcount != 1:
                    raise ApiError(409, "not_a_guest", "This account already has a password.")
                await conn.execute(
                    db.sessions.delete().where(db.sessions.c.account_id == account.id)
                )
                await self._add_session(conn, token, account.id)
        except sa.exc.IntegrityError:
            raise _name_taken(name) from None
        values.pop("name_key")
        values.pop("password_hash")
        return account.model_copy(update=values), token

    async def _add_session(self, conn: AsyncConnection, token: str, account_id: int) -> None:
        now = db.now()
        await conn.execute(
            db.sessions.insert().values(
                token_hash=token_hash(token),
                account_id=account_id,
                created_at=now,
                expires_at=now + self.room.settings.session_days * 86400,
            )
        )

    async def new_session(self, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        async with self.room.engine.begin() as conn:
            await self._add_session(conn, token, account_id)
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
        raise ApiError(401, "not_signed_in", "Sign in or play as a guest first.")
    return account


CurrentAccount = Annotated[Account, Depends(current_account)]
OptionalAccount = Annotated[Account | None, Depends(optional_account)]

router = APIRouter(tags=["accounts"])


@router.post("/api/auth/register", status_code=201)
async def register(body: NewAccount, request: Request, response: Response) -> Account:
    """Create an account with a name and password and sign in. New accounts (guests
    too) are throttled per address (429)."""
    room = room_of(request)
    room.throttles.admit_signup(client_key(request))
    if await room.accounts.find(body.name) is not None:  # spare the hash
        raise _name_taken(body.name)
    account = await room.accounts.create(
        name=body.name,
        display_name=body.display_name or body.name,
        password_hash=await room.passwords.hash(body.password),
        guest=False,
    )
    room.accounts.set_cookie(response, await room.accounts.new_session(account.id))
    return account


@router.post("/api/auth/login")
async def login(body: Login, request: Request, response: Response) -> Account:
    """Sign in. Failures are throttled per (name, address) and per address (429), so
    nobody can lock an owner out from elsewhere."""
    room = room_of(request)
    key, address = names.name_key(body.name), client_key(request)
    room.throttles.check_login(key, address)
    row = await room.accounts.find(body.name)
    stored = None if row is None else row.password_hash
    if not await room.passwords.verify(stored, body.password):
        room.throttles.login_failed(key, address)
        raise ApiError(401, "bad_credentials", "Wrong name or password.")
    room.throttles.login_succeeded(key, address)
    room.accounts.set_cookie(response, await room.accounts.new_session(row.id))
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
    """Play at once as a guest; set a password later to keep the record. Throttled per
    address with registrations (429)."""
    room = room_of(request)
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


MAX_SETTINGS = 8192  # bytes of compact JSON
MAX_SETTINGS_DEPTH = 6


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests more than ``limit`` objects or lists deep (looks no deeper)."""
    if isinstance(value, dict):
        children: Any = value.values()
    elif isinstance(value, list):
        children = value
    else:
        return False
    return limit == 0 or any(_deeper_than(child, limit - 1) for child in children)


def _bad_settings(detail: str, status: int = 422) -> ApiError:
    return ApiError(status, "too_large" if status == 413 else "bad_settings", detail)


def _parse_settings(raw: bytes) -> dict[str, Any]:
    if len(raw) > MAX_SETTINGS * 2:
        raise _bad_settings(f"Settings are at most {MAX_SETTINGS} bytes.", 413)
    try:
        data = json.loads(raw)
    except RecursionError:
        raise _bad_settings(f"Settings nest at most {MAX_SETTINGS_DEPTH} deep.") from None
    except ValueError:
        raise ApiError(422, "bad_json", "Settings must be a JSON object.") from None
    if not isinstance(data, dict):
        raise _bad_settings("Settings must be a JSON object.")
    if _deeper_than(data, MAX_SETTINGS_DEPTH):
        raise _bad_settings(f"Settings nest at most {MAX_SETTINGS_DEPTH} deep.")
    try:
        compact = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    except UnicodeEncodeError:
        raise _bad_settings("Settings must be valid Unicode text (no lone surrogates).") from None
    if len(compact) > MAX_SETTINGS:
        raise _bad_settings(f"Settings are at most {MAX_SETTINGS} bytes.", 413)
    if any(len(key) > 64 for key in data):
        raise _bad_settings("Setting names are at most 64 characters.")
    return data


async def _save_settings(conn: AsyncConnection, account_id: int, data: dict[str, Any]) -> None:
    """Insert or replace in one statement, so two first saves at once cannot collide."""
    values = {"data": data, "updated_at": db.now()}
    dialect = {"postgresql": postgresql, "sqlite": sqlite}.get(conn.dialect.name)
    if dialect is None:
        raise NotImplementedError(f"no upsert for {conn.dialect.name}")
    statement = dialect.insert(db.account_settings).values(account_id=account_id, **values)
    await conn.execute(
        statement.on_conflict_do_update(
            index_elements=[db.account_settings.c.account_id], set_=values
        )
    )


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
    data = _parse_settings(await request.body())
    async with room_of(request).engine.begin() as conn:
        await achievements.check_settings(conn, account.id, data)
        await _save_settings(conn, account.id, data)
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
async def upgrade(
    body: NewAccount, account: CurrentAccount, request: Request, response: Response
) -> Account:
    """Turn the signed-in guest into a full account, keeping its record, and optionally
    replace its "Guest ..." display name. The guest's session ends; the answer sets the
    cookie of a new one."""
    if not account.guest:
        raise ApiError(409, "not_a_guest", "This account already has a password.")
    room = room_of(request)
    held = await room.accounts.find(body.name)
    if held is not None and held.id != account.id:  # spare the hash
        raise _name_taken(body.name)
    upgraded, token = await room.accounts.upgrade(
        account,
        name=body.name,
        password_hash=await room.passwords.hash(body.password),
        display_name=body.display_name,
    )
    room.accounts.set_cookie(response, token)
    return upgraded
